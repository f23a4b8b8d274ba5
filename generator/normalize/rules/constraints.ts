import type { Constraint, Shape } from "../../ir/model.js";
import { appendPointer } from "../../pointer.js";
import { constrain } from "../intersect.js";
import type { SchemaRule } from "./rule.js";
import { rule } from "./rule.js";

/** What `not` and `if`/`then`/`else` require: constraints that no type says, checked beside the shape. */

const UNKNOWN: Shape = { kind: "unknown" };

export const NOT: SchemaRule = rule("not", "not is a constraint: a value must not be of its shape", (draft, context) =>
  "not" in draft.schema
    ? withConstraint(draft, { kind: "not", shape: context.shape(draft.schema["not"]!, appendPointer(draft.pointer, "not")) })
    : draft,
);

/** Without `if`, `then` and `else` say nothing; without `then` and `else`, `if` says nothing. */
export const IF_THEN_ELSE: SchemaRule = rule(
  "if-then-else",
  "if with then or else is a constraint: a value of if's shape must be of then's, any other of else's",
  (draft, context) => {
    const { schema, pointer } = draft;
    if (!("if" in schema) || !("then" in schema || "else" in schema)) return draft;
    const read = (keyword: string) => (keyword in schema ? context.shape(schema[keyword]!, appendPointer(pointer, keyword)) : UNKNOWN);
    return withConstraint(draft, { kind: "if", if: read("if"), then: read("then"), else: read("else") });
  },
);

function withConstraint<T extends { readonly parts: readonly Shape[] }>(draft: T, constraint: Constraint): T {
  return { ...draft, parts: [...draft.parts, constrain(UNKNOWN, [constraint])] };
}
