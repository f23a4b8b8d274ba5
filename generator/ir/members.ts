import type { KeyedUnionShape, ObjectShape, PatternProperty, Shape, TaggedUnionShape } from "./model.js";
import type { JsonPrimitive } from "../json.js";
import { isJsonPrimitive } from "../json.js";

/** What the IR says of a shape's members: an object's tags, a union that gets match helpers. */

/** A required field that can hold one value only. */
export interface Tag {
  readonly name: string;
  readonly value: JsonPrimitive;
}

/** Whether a shape is an object with tags, which gets a builder. */
export function hasTags(shape: Shape): shape is ObjectShape {
  return shape.kind === "object" && tags(shape).length > 0;
}

/** Whether a shape is a union that gets match helpers: tagged, or keyed by which member is present. */
export function isMatchable(shape: Shape): shape is TaggedUnionShape | KeyedUnionShape {
  return shape.kind === "tagged-union" || shape.kind === "keyed-union";
}

/** An object's tags, which its builder fills in: primitives, which a type can name and a switch tell apart. */
export function tags(shape: ObjectShape): Tag[] {
  return shape.fields.flatMap((field) =>
    field.required && field.shape.kind === "literal" && isJsonPrimitive(field.shape.value)
      ? [{ name: field.name, value: field.shape.value }]
      : [],
  );
}

/**
 * The pattern properties a property name falls under, as the generated code tests it (a
 * RegExp with the u flag; the schemas' patterns were checked to be ones when read).
 */
export function patternsMatching(patterns: readonly PatternProperty[] | undefined, name: string): PatternProperty[] {
  return (patterns ?? []).filter(({ pattern }) => new RegExp(pattern, "u").test(name));
}
