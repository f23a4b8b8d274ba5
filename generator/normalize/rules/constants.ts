import type { JsonObject, JsonPrimitive, JsonValue } from "../../json.js";
import { isJsonObject, isJsonPrimitive, jsonEqual } from "../../json.js";
import type { Shape } from "../../ir/model.js";
import { ENUM_DESCRIPTIONS_KEYWORD, ENUM_NUMBERS_KEYWORD, FALLBACK_KEYWORD } from "../../schema/vocabulary.js";
import { appendPointer } from "../../pointer.js";
import type { Context } from "../context.js";
import { intersect } from "../intersect.js";
import type { SchemaRule } from "./rule.js";
import { rule } from "./rule.js";

/** What `const` and `enum` say, and what annotations add to an enum. */

export const CONST: SchemaRule = rule("const", "const is a literal, of any JSON value, that narrows the own shape", (draft, context) =>
  "const" in draft.schema ? { ...draft, own: intersect({ kind: "literal", value: draft.schema["const"]! }, draft.own, context) } : draft,
);

export const ENUM: SchemaRule = rule(
  "enum",
  "enum is an enum of its primitives (one value: a literal), or with objects and arrays a union of it and their literals, that narrows the own shape; an empty enum is never",
  (draft, context) => {
    if (!("enum" in draft.schema)) return draft;
    const values = draft.schema["enum"];
    if (!Array.isArray(values)) return context.fail(appendPointer(draft.pointer, "enum"), '"enum" must be an array');
    return { ...draft, own: intersect(enumeration(values as readonly JsonValue[]), draft.own, context) };
  },
);

export const ENUM_ANNOTATIONS: SchemaRule = rule(
  "enum-annotations",
  "the fallback, enum numbers and enum descriptions annotations are added to an enum, and refused on anything else",
  (draft, context) => ({
    ...draft,
    shape: annotateEnum(draft.shape, draft.schema, draft.pointer, context),
  }),
);

/**
 * The shape of an enum's values, each once as JSON counts them (1 and 1.0 are one): the
 * primitives an enum, or a literal when there is one; an object or an array a literal of
 * its own, beside them in a union. No value at all is never.
 */
function enumeration(values: readonly JsonValue[]): Shape {
  const distinct = values.filter((value, i) => values.findIndex((other) => jsonEqual(other, value)) === i);
  const primitives = distinct.filter(isJsonPrimitive);
  const members: Shape[] = distinct.filter((value) => !isJsonPrimitive(value)).map((value) => ({ kind: "literal", value }));
  if (primitives.length === 1) members.unshift({ kind: "literal", value: primitives[0]! });
  if (primitives.length > 1) members.unshift({ kind: "enum", values: primitives });
  if (members.length <= 1) return members[0] ?? { kind: "never" };
  return { kind: "union", members, exclusive: false };
}

function annotateEnum(shape: Shape, schema: JsonObject, pointer: string, context: Context): Shape {
  const fallback = schema[FALLBACK_KEYWORD];
  const numbers = schema[ENUM_NUMBERS_KEYWORD];
  const descriptions = schema[ENUM_DESCRIPTIONS_KEYWORD];
  if (fallback === undefined && numbers === undefined && descriptions === undefined) return shape;
  if (shape.kind !== "enum")
    return context.fail(
      pointer,
      `${FALLBACK_KEYWORD}, ${ENUM_NUMBERS_KEYWORD} and ${ENUM_DESCRIPTIONS_KEYWORD} apply to an enum, and this is a ${shape.kind}`,
    );
  let annotated = shape;
  if (fallback !== undefined) {
    if (!shape.values.includes(fallback as JsonPrimitive))
      context.fail(appendPointer(pointer, FALLBACK_KEYWORD), `the fallback ${JSON.stringify(fallback)} is not one of the enum's values`);
    annotated = { ...annotated, fallback: fallback as JsonPrimitive };
  }
  if (numbers !== undefined) {
    const at = appendPointer(pointer, ENUM_NUMBERS_KEYWORD);
    if (shape.wire === undefined) context.fail(at, "enum numbers apply to an enum whose wire form also accepts integers");
    if (!isJsonObject(numbers) || !jsonEqual(Object.keys(numbers).sort() as never, shape.values.map(String).sort() as never))
      context.fail(at, `enum numbers must name each value exactly once: ${shape.values.join(", ")}`);
    const values = Object.values(numbers as JsonObject) as number[];
    if (new Set(values).size !== values.length) context.fail(at, "two values have the same number");
    annotated = { ...annotated, wire: { ...shape.wire, numbers: numbers as Record<string, number> } };
  }
  if (descriptions !== undefined) {
    if (!isJsonObject(descriptions))
      return context.fail(appendPointer(pointer, ENUM_DESCRIPTIONS_KEYWORD), "expected an object from value to description");
    annotated = {
      ...annotated,
      descriptions: shape.values.map((value) => {
        const text = descriptions[String(value)];
        return typeof text === "string" ? text : null;
      }),
    };
  }
  return annotated;
}
