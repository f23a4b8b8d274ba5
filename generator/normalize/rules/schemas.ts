import type { Shape } from "../../ir/model.js";
import { UNSUPPORTED } from "../../schema/keywords.js";
import { appendPointer } from "../../schema/pointer.js";
import { REFUSAL } from "../context.js";
import type { SchemaRule } from "../schema.js";
import { rule } from "./rule.js";

/** What a schema is as a whole, before its keywords are read. */

export const TRUE_AND_FALSE = rule("true accepts any value and false none", (schema: boolean): Shape =>
  schema ? { kind: "unknown" } : { kind: "never" },
);

export const REF_REPLACES_SIBLINGS: SchemaRule = rule("up to draft-07 a $ref replaces its siblings", (draft, context) =>
  context.refReplacesSiblings && "$ref" in draft.schema ? { ...draft, schema: { $ref: draft.schema["$ref"]! } } : draft,
);

export const UNMODELLED_KEYWORDS: SchemaRule = rule("keywords the IR does not model are refused", (draft, context) => {
  for (const keyword of Object.keys(draft.schema))
    if (UNSUPPORTED.has(keyword)) context.fail(appendPointer(draft.pointer, keyword), `unsupported keyword "${keyword}"`, REFUSAL);
  return draft;
});
