import type { Evaluated, Shape } from "../../ir/model.js";
import { appendPointer } from "../../pointer.js";
import type { Context } from "../context.js";
import { evaluatedBy } from "../evaluated.js";
import { constrain, intersect } from "../intersect.js";
import type { SchemaRule } from "./rule.js";
import { rule } from "./rule.js";

/**
 * `unevaluatedProperties` is the shape of the properties that nothing else in the schema
 * evaluated. Where that is the same set of names for every value (its own properties, its
 * allOf members', its refs'), it closes the object over them, which its type says too;
 * where it depends on the value (an anyOf branch, an if, a pattern), it is a constraint,
 * the evaluated names worked out as the value is checked.
 */
export const UNEVALUATED_CLOSES: SchemaRule = rule(
  "unevaluated-closes",
  "unevaluatedProperties closes an object over the names every value has evaluated, else is a constraint that works them out per value",
  (draft, context) => {
    if (!("unevaluatedProperties" in draft.schema)) return draft;
    const rest = context.shape(draft.schema["unevaluatedProperties"]!, appendPointer(draft.pointer, "unevaluatedProperties"));
    const evaluated = evaluatedBy(draft.schema, draft.pointer, "properties", context);
    if (rest.kind === "unknown" || evaluated.all) return draft;
    return {
      ...draft,
      shape:
        closed(draft.shape, evaluated, rest, context) ??
        constrain(draft.shape, [{ kind: "unevaluated", of: "properties", evaluated, rest }]),
    };
  },
);

/** The object closed over the names evaluated, where they are its fields' names and the same for every value; else undefined. */
function closed(shape: Shape, evaluated: Evaluated, rest: Shape, context: Context): Shape | undefined {
  if (evaluated.when.length > 0 || evaluated.patterns.length > 0) return undefined;
  switch (shape.kind) {
    case "object":
    case "keyed-union": {
      const fields = [...shape.fields, ...(shape.kind === "keyed-union" ? shape.members : [])].map((field) => field.name);
      if (fields.length !== evaluated.names.length || !fields.every((name) => evaluated.names.includes(name))) return undefined;
      return { ...shape, additional: intersect(shape.additional, rest, context) };
    }
    case "map":
      return evaluated.names.length === 0 ? { ...shape, values: intersect(shape.values, rest, context) } : undefined;
    case "ref":
      // Closing another type's object makes a new, unnamed one.
      return closed(context.shapeOf(shape.name), evaluated, rest, context);
    case "constrained": {
      // What `not` evaluates is dropped with its annotations.
      if (shape.constraints.some((constraint) => constraint.kind !== "not")) return undefined;
      const inner = closed(shape.shape, evaluated, rest, context);
      return inner === undefined ? undefined : { ...shape, shape: inner };
    }
    case "string":
    case "number":
    case "boolean":
    case "null":
    case "array":
    case "literal":
    case "enum":
    case "never":
      // Not an object: the keyword does not apply.
      return shape;
    default:
      return undefined;
  }
}
