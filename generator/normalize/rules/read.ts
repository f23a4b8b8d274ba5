import type { JsonObject, JsonValue } from "../../json.js";
import { appendPointer } from "../../pointer.js";
import { malformedPattern, notSchemaList } from "../../schema/wellformed.js";
import type { Context } from "../context.js";

/** The schemas of `allOf`, `anyOf` or `oneOf`: none when absent; an empty or non-array list is refused. */
export function schemasOf(schema: JsonObject, keyword: string, pointer: string, context: Context): readonly JsonValue[] {
  const value = schema[keyword];
  if (value === undefined) return [];
  const malformed = notSchemaList(keyword, value, appendPointer(pointer, keyword));
  if (malformed !== undefined) return context.fail(malformed.pointer, malformed.problem, malformed.hint);
  return value as readonly JsonValue[];
}

/**
 * The number a numeric keyword holds, if present; anything else is refused. Draft-04's
 * boolean `exclusiveMinimum`/`exclusiveMaximum` are read as the numbers later drafts write:
 * `{ minimum: 0, exclusiveMinimum: true }` is `{ exclusiveMinimum: 0 }`.
 */
export function numberKeyword(schema: JsonObject, keyword: string, pointer: string, context: Context): number | undefined {
  const draft04 = draft04Bound(schema, keyword);
  const value = draft04 === undefined ? schema[keyword] : draft04.value;
  if (value === undefined) return undefined;
  if (typeof value !== "number") return context.fail(appendPointer(pointer, keyword), `"${keyword}" must be a number`);
  return value;
}

/** Undefined where the keyword is not a draft-04 form; else the number it stands for. */
function draft04Bound(schema: JsonObject, keyword: string): { readonly value: JsonValue | undefined } | undefined {
  const pairs: Readonly<Record<string, readonly [string, string]>> = {
    minimum: ["minimum", "exclusiveMinimum"],
    exclusiveMinimum: ["minimum", "exclusiveMinimum"],
    maximum: ["maximum", "exclusiveMaximum"],
    exclusiveMaximum: ["maximum", "exclusiveMaximum"],
  };
  const pair = pairs[keyword];
  if (pair === undefined || typeof schema[pair[1]] !== "boolean") return undefined;
  const [inclusive, exclusive] = pair;
  const isExclusive = schema[exclusive] === true;
  if (keyword === inclusive) return { value: isExclusive ? undefined : schema[inclusive] };
  return { value: isExclusive ? schema[inclusive] : undefined };
}

/** Refuses a pattern that is not a string or not a valid u-flag RegExp. */
export function checkPattern(pattern: JsonValue, pointer: string, context: Context): void {
  const malformed = malformedPattern(pattern, pointer);
  if (malformed !== undefined) context.fail(malformed.pointer, malformed.problem, malformed.hint);
}
