import type { BooleanShape, NullShape, NumberShape, StringShape } from "../ir/model.js";
import type { JsonValue } from "../json.js";
import { isJsonPrimitive } from "../json.js";
import { passes } from "./check.js";
import { admitsNumber } from "./numbers.js";
import { admitsString } from "./strings.js";
import { typeCheck } from "./types.js";
import type { ValuesShape } from "./values.js";
import { admitsValue } from "./values.js";

/**
 * What the generator knows about JSON Schema's constraint keywords, one module per
 * family, each in one place: what a value must be to satisfy them (checks as data, whose
 * meaning is `check.ts`), how two sets of them meet under allOf, and how a change of them
 * is classified by the diff.
 *
 * - `types.ts`: `type`, for the primitive types;
 * - `numbers.ts`: `integer`, `minimum`, `exclusiveMinimum`, `maximum`, `exclusiveMaximum`, `multipleOf`;
 * - `strings.ts`: `minLength`, `maxLength`, `pattern`;
 * - `format.ts`: `format`, an annotation on strings and numbers, or a check of a string's known format where asserted;
 * - `arrays.ts`: `minItems`, `maxItems`, `uniqueItems`;
 * - `properties.ts`: `minProperties`, `maxProperties`;
 * - `values.ts`: `const`, `enum`;
 * - `bounds.ts`: what the bound keywords share.
 */

export type { Fails, KeywordChange, KeywordCheck, Measure, PrimitiveType } from "./check.js";
export { fails, passes } from "./check.js";

/** The shapes whose keywords alone decide their values: a literal, and shapes of JSON primitives. */
export type PrimitiveShape = ValuesShape | StringShape | NumberShape | BooleanShape | NullShape;

/** Whether a JSON value is a value of a primitive shape. */
export function admits(value: JsonValue, shape: PrimitiveShape): boolean {
  if (shape.kind === "literal" || shape.kind === "enum") return admitsValue(value, shape);
  if (!isJsonPrimitive(value)) return false;
  switch (shape.kind) {
    case "string":
      return admitsString(value, shape);
    case "number":
      return admitsNumber(value, shape);
    case "boolean":
    case "null":
      return passes([typeCheck(shape.kind)], value);
  }
}
