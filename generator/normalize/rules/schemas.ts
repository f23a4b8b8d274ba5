import type { Shape } from "../../ir/model.js";
import type { SchemaRule } from "./rule.js";
import type { Rule } from "./rule.js";
import { rule } from "./rule.js";

/** What a schema is as a whole, before its keywords are read. */

export const TRUE_AND_FALSE: Rule<boolean, Shape> = rule("true-and-false", "the schema true accepts any value and false none", (schema) =>
  schema ? { kind: "unknown" } : { kind: "never" },
);

export const KEYWORDS_OF_THE_DRAFT: SchemaRule = rule(
  "keywords-of-the-draft",
  "a keyword the document's dialect does not have (if in draft 6, additionalItems in 2020-12, one of a vocabulary a custom metaschema leaves out) is unknown to it, and ignored as JSON Schema ignores unknown keywords",
  (draft, context) => {
    const keywords = Object.keys(draft.schema);
    const known = keywords.filter((keyword) => context.hasKeyword(keyword));
    return known.length === keywords.length
      ? draft
      : { ...draft, schema: Object.fromEntries(known.map((keyword) => [keyword, draft.schema[keyword]!])) };
  },
);

export const REF_REPLACES_SIBLINGS: SchemaRule = rule(
  "ref-replaces-siblings",
  "up to draft-07, a $ref replaces its schema: the keywords beside it are dropped",
  (draft, context) =>
    context.refReplacesSiblings && "$ref" in draft.schema ? { ...draft, schema: { $ref: draft.schema["$ref"]! } } : draft,
);
