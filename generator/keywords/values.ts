import type { EnumShape, LiteralShape, Shape } from "../ir/model.js";
import { describeValues } from "../ir/describe.js";
import type { JsonPrimitive, JsonValue } from "../json.js";
import { jsonEqual } from "../json.js";
import type { KeywordChange, KeywordCheck } from "./check.js";
import { passes } from "./check.js";

/**
 * The value keywords (ajv's `const` and `enum`): a literal is one value, an enum some
 * primitives. Values are equal as JSON values are: numbers by value (1 and 1.0 are one
 * number), objects whatever the order of their keys, arrays item by item. An enum also
 * carries what overlays say of its values: descriptions, the fallback of tolerant
 * receivers, the integers of the wire.
 */

export type ValuesShape = LiteralShape | EnumShape;

export function isValuesShape(shape: Shape): shape is ValuesShape {
  return shape.kind === "literal" || shape.kind === "enum";
}

/** The values a literal or an enum admits; undefined for any other shape. */
export function valuesOf(shape: Shape): readonly JsonValue[] | undefined {
  return shape.kind === "literal" ? [shape.value] : shape.kind === "enum" ? shape.values : undefined;
}

/** The check: `must be "x"`, or `must be one of "a", "b"`. */
export function valueChecks(shape: ValuesShape): KeywordCheck[] {
  if (shape.kind === "literal")
    return [{ keyword: "const", message: `must be ${JSON.stringify(shape.value)}`, fails: { op: "notEqual", value: shape.value } }];
  return [{ keyword: "enum", message: `must be one of ${describeValues(shape.values)}`, fails: { op: "notOneOf", values: shape.values } }];
}

/** Whether a JSON value is one of the shape's values. */
export function admitsValue(value: JsonValue, shape: ValuesShape): boolean {
  return passes(valueChecks(shape), value);
}

/**
 * An enum met with another shape (allOf): the values `keep` admits, with their
 * descriptions, and its fallback if kept. One value left of several is a literal; none, never.
 */
export function narrowValues(shape: EnumShape, keep: (value: JsonPrimitive) => boolean): Shape {
  const kept = shape.values.map((value, i) => ({ value, description: shape.descriptions?.[i] ?? null })).filter(({ value }) => keep(value));
  if (kept.length === 0) return { kind: "never" };
  if (kept.length === 1 && kept.length !== shape.values.length) return { kind: "literal", value: kept[0]!.value };
  if (kept.length === shape.values.length) return shape;
  const fallback = kept.some(({ value }) => value === shape.fallback) ? shape.fallback : undefined;
  return {
    kind: "enum",
    values: kept.map(({ value }) => value),
    ...(shape.descriptions === undefined ? {} : { descriptions: kept.map(({ description }) => description) }),
    ...(fallback === undefined ? {} : { fallback }),
  };
}

/**
 * A change of values, classified: another constant; values added (receivers meet what
 * they do not know, which tolerant ones read as the fallback if there is one) or removed (producers' values become invalid); and of an enum, its
 * integers on the wire and its fallback.
 */
export function valueChanges(before: ValuesShape, after: ValuesShape): KeywordChange[] {
  if (before.kind === "literal" && after.kind === "literal")
    return [{ kind: "const-changed", what: `is ${JSON.stringify(after.value)}, was ${JSON.stringify(before.value)}` }];
  const old = valuesOf(before)!;
  const next = valuesOf(after)!;
  const added = next.filter((value) => !old.some((each) => jsonEqual(each, value)));
  const removed = old.filter((value) => !next.some((each) => jsonEqual(each, value)));
  const changes: KeywordChange[] = [];
  // Older tolerant receivers read a value they do not know as the fallback, where there is one.
  const fallback = before.kind === "enum" && before.fallback !== undefined;
  if (added.length > 0)
    changes.push({ kind: fallback ? "enum-value-added-with-fallback" : "enum-value-added", what: `gains ${describeValues(added)}` });
  if (removed.length > 0) changes.push({ kind: "enum-value-removed", what: `loses ${describeValues(removed)}` });
  if (before.kind !== "enum" || after.kind !== "enum") return changes;
  changes.push(...wireChanges(before, after));
  if (before.fallback !== after.fallback)
    changes.push({
      kind: "enum-fallback-changed",
      what: after.fallback === undefined ? "has no fallback now" : `falls back to ${JSON.stringify(after.fallback)}`,
    });
  return changes;
}

function wireChanges(before: EnumShape, after: EnumShape): KeywordChange[] {
  if ((before.wire === undefined) !== (after.wire === undefined))
    return [
      after.wire
        ? { kind: "wire-form-added", what: "values may now arrive as integers" }
        : { kind: "wire-form-removed", what: "values may no longer arrive as integers" },
    ];
  return Object.entries(before.wire?.numbers ?? {})
    .filter(([value, number]) => after.wire?.numbers?.[value] !== undefined && after.wire.numbers[value] !== number)
    .map(([value, number]) => ({
      kind: "enum-number-changed",
      what: `${JSON.stringify(value)} is ${after.wire!.numbers![value]} on the wire, was ${number}`,
    }));
}
