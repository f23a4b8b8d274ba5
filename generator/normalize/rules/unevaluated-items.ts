import type { Evaluated, Shape } from "../../ir/model.js";
import { appendPointer } from "../../pointer.js";
import type { Context } from "../context.js";
import { evaluatedBy } from "../evaluated.js";
import { compact, constrain, intersect } from "../intersect.js";
import type { SchemaRule } from "./rule.js";
import { rule } from "./rule.js";

/**
 * `unevaluatedItems`: the items no part evaluated are of its shape. The parts that always
 * apply are the schema's own keywords, its allOf members and refs: they evaluate their
 * positions (the most of them), all items where one has `items` (or a nested
 * `unevaluatedItems`), and, from 2020-12, the items a `contains` of theirs matches; so an
 * item after the evaluated positions is of a `contains` shape or of `unevaluatedItems`',
 * which the array's type says too. What an anyOf or oneOf branch, or an if/then/else,
 * evaluates depends on which the value passes: then the keyword is a constraint, as
 * `unevaluatedProperties` is, that tests each branch once as the value is checked and
 * skips the items one it passed evaluated; a `not` evaluates nothing.
 */
export const UNEVALUATED_ITEMS: SchemaRule = rule(
  "unevaluated-items",
  "unevaluatedItems is the shape of items after every position a part evaluated, unless one evaluates all; an item a contains matches is evaluated; where a branch's passing decides, it is a constraint that works them out per value",
  (draft, context) => {
    if (!("unevaluatedItems" in draft.schema)) return draft;
    const rest = context.shape(draft.schema["unevaluatedItems"]!, appendPointer(draft.pointer, "unevaluatedItems"));
    if (rest.kind === "unknown") return draft;
    const evaluated = evaluatedBy(draft.schema, draft.pointer, "items", context);
    if (evaluated.all) return draft;
    if (evaluated.when.length > 0)
      return { ...draft, shape: constrain(draft.shape, [{ kind: "unevaluated", of: "items", evaluated, rest }]) };
    // What every array of the schema must also be.
    return { ...draft, shape: closeItems(draft.shape, closedArray(evaluated, rest), context) };
  },
);

const ARRAYS: Shape = { kind: "array", items: { kind: "unknown" } };

/** The arrays whose items after the evaluated positions are of `rest`'s shape or some `contains` one. */
function closedArray(evaluated: Evaluated, rest: Shape): Shape {
  const prefixItems = Array.from({ length: evaluated.prefix }, (): Shape => ({ kind: "unknown" }));
  const members = [...evaluated.contains, rest].filter((shape) => shape.kind !== "never");
  const items: Shape =
    members.length === 0 ? { kind: "never" } : members.length === 1 ? members[0]! : { kind: "union", members, exclusive: false };
  return compact({ kind: "array" as const, prefixItems: prefixItems.length === 0 ? undefined : prefixItems, items });
}

/** The shape, wherever it is an array, of `closing`'s shape too. */
function closeItems(shape: Shape, closing: Shape, context: Context): Shape {
  switch (shape.kind) {
    case "array":
      return intersect(shape, closing, context);
    case "ref":
      // Closing another type's array makes a new, unnamed one.
      return closeItems(context.shapeOf(shape.name), closing, context);
    case "nullable":
      return { ...shape, shape: closeItems(shape.shape, closing, context) };
    case "constrained":
      // A constraint's schemas evaluate no items the walk has not counted or refused.
      return constrain(closeItems(shape.shape, closing, context), shape.constraints);
    case "union":
      return { ...shape, members: shape.members.map((member) => closeItems(member, closing, context)) };
    case "unknown":
      // Any value: the arrays among them are closed.
      return constrain(shape, [{ kind: "if", if: ARRAYS, then: closing, else: { kind: "unknown" } }]);
    default:
      // Not an array: the keyword does not apply.
      return shape;
  }
}
