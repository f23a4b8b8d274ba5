import type { JsonObject, JsonValue } from "../../json.js";
import { isJsonObject } from "../../json.js";
import type { Shape } from "../../ir/model.js";
import { appendPointer, getAtPointer } from "../../schema/pointer.js";
import type { Context } from "../context.js";
import { intersect } from "../intersect.js";
import type { SchemaRule } from "../schema.js";
import { rule } from "./rule.js";

/**
 * `unevaluatedProperties` closes an object over every property its parts (own properties,
 * allOf members, refs) declared, unless one of them already accepts all.
 */
export const UNEVALUATED_CLOSES: SchemaRule = rule(
  "unevaluated-closes",
  "unevaluatedProperties is the shape of properties no part declared, unless a part already accepts all",
  (draft, context) =>
    "unevaluatedProperties" in draft.schema
      ? { ...draft, shape: closeUnevaluated(draft.shape, draft.schema, draft.pointer, context) }
      : draft,
);

function closeUnevaluated(shape: Shape, schema: JsonObject, pointer: string, context: Context): Shape {
  const rest = context.shape(schema["unevaluatedProperties"]!, appendPointer(pointer, "unevaluatedProperties"));
  if (rest.kind === "unknown" || evaluatesAll(schema, false, context)) return shape;
  switch (shape.kind) {
    case "object":
    case "keyed-union":
      return { ...shape, additional: intersect(shape.additional, rest, context) };
    case "map":
      return { ...shape, values: intersect(shape.values, rest, context) };
    case "ref":
      // Closing another type's object makes a new, unnamed one.
      return closeUnevaluated(context.shapeOf(shape.name), schema, pointer, context);
    case "constrained":
      // What `not` evaluates is dropped with its annotations; what `if` evaluates depends on the value.
      if (shape.constraints.some((constraint) => constraint.kind !== "not"))
        return context.unsupported("unevaluatedProperties beside if/then/else");
      return { ...shape, shape: closeUnevaluated(shape.shape, schema, pointer, context) };
    case "union":
    case "tagged-union":
    case "nullable":
      return context.unsupported("unevaluatedProperties on a union");
    case "unknown":
      // Objects among any values: refused, never dropped.
      return context.unsupported("unevaluatedProperties on a schema of any type");
    default:
      // Not an object: the keyword does not apply.
      return shape;
  }
}

function evaluatesAll(schema: JsonValue, ownKeywords: boolean, context: Context): boolean {
  if (!isJsonObject(schema)) return false;
  if ("additionalProperties" in schema || (ownKeywords && "unevaluatedProperties" in schema)) return true;
  const ref = schema["$ref"];
  if (
    typeof ref === "string" &&
    ref.startsWith("#") &&
    evaluatesAll(getAtPointer(context.document, decodeURIComponent(ref.slice(1))) as JsonValue, true, context)
  )
    return true;
  const allOf = Array.isArray(schema["allOf"]) ? schema["allOf"] : [];
  return allOf.some((member) => evaluatesAll(member, true, context));
}
