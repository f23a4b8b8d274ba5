import type { ChangeKind } from "../ir/changes.js";
import type { JsonPrimitive, JsonValue } from "../json.js";
import { jsonEqual } from "../json.js";

/**
 * What the keyword modules hand the others: checks as plain data for the emitter, and
 * classified changes for the diff. The meaning of a check is `fails` below, written once:
 * normalization and diff ask it, and the runtime code the emitter prints from a check
 * must compute the same.
 */

/** The JSON types a primitive value has; "integer" is a number `Number.isInteger` holds of. */
export type PrimitiveType = "string" | "number" | "integer" | "boolean" | "null";

/**
 * What is compared with a bound: the value itself (a number), a string's length in
 * Unicode code points (runtime `codePointLength`), an array's length, or the count of the
 * properties an object has as JSON writes it.
 */
export type Measure = "value" | "codePointLength" | "itemCount" | "propertyCount";

/** The test a value fails, as data: what the emitted code computes, not the code. */
export type Fails =
  /** Not a value of the type. A number is finite (JSON writes NaN and the infinities as null). */
  | { readonly op: "notType"; readonly type: PrimitiveType }
  /** `measure op bound` holds: `{ measure: "codePointLength", op: "<", bound: 3 }` fails "ab". */
  | { readonly op: "<" | "<=" | ">" | ">="; readonly measure: Measure; readonly bound: number }
  /** `!Number.isInteger(value / divisor)`: so 0.3 is no multiple of 0.1, as the runtime computes it. */
  | { readonly op: "notMultipleOf"; readonly divisor: number }
  /** `!new RegExp(pattern, "u").test(value)`. */
  | { readonly op: "notMatch"; readonly pattern: string }
  /** Not a string of the format: runtime `formats.ts`'s test of it (`keywords/format.ts`) is false. */
  | { readonly op: "notFormat"; readonly format: string }
  /** Two items of an array are equal as JSON values (runtime `hasUniqueItems` is false). */
  | { readonly op: "notUnique" }
  /** Not equal as JSON values: `!==` for a primitive, runtime `isJsonEqual` for an object or an array. */
  | { readonly op: "notEqual"; readonly value: JsonValue }
  /** The value is none of them, by `!==`. */
  | { readonly op: "notOneOf"; readonly values: readonly JsonPrimitive[] };

/** One constraint of a shape, as a validator reports its failure. */
export interface KeywordCheck {
  readonly keyword: string;
  /** What a person reads: "must have at least 3 characters". */
  readonly message: string;
  readonly fails: Fails;
}

/** A change of keywords, classified: the diff adds where it is. */
export interface KeywordChange {
  readonly kind: ChangeKind;
  readonly what: string;
}

/** Whether a JSON value fails the test. A measure of a value of another type is a mistake of the caller. */
export function fails(test: Fails, value: JsonValue): boolean {
  switch (test.op) {
    case "notType":
      return !isType(value, test.type);
    case "<":
      return measure(test.measure, value) < test.bound;
    case "<=":
      return measure(test.measure, value) <= test.bound;
    case ">":
      return measure(test.measure, value) > test.bound;
    case ">=":
      return measure(test.measure, value) >= test.bound;
    case "notMultipleOf":
      return !Number.isInteger(number(value) / test.divisor);
    case "notMatch":
      return !new RegExp(test.pattern, "u").test(string(value));
    case "notFormat":
      // Only the generated code evaluates a format: the generator takes a constant to be of it.
      return false;
    case "notUnique": {
      const items = array(value);
      return items.some((item, i) => items.slice(i + 1).some((other) => jsonEqual(item, other)));
    }
    case "notEqual":
      return !jsonEqual(value, test.value);
    case "notOneOf":
      return !test.values.includes(value as JsonPrimitive);
  }
}

/**
 * Whether a value passes the checks in order, each tried only on values that passed the
 * ones before: a type check first guards the measures after it.
 */
export function passes(checks: readonly KeywordCheck[], value: JsonValue): boolean {
  return checks.every((check) => !fails(check.fails, value));
}

function isType(value: JsonValue, type: PrimitiveType): boolean {
  switch (type) {
    case "string":
      return typeof value === "string";
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "integer":
      return typeof value === "number" && Number.isInteger(value);
    case "boolean":
      return typeof value === "boolean";
    case "null":
      return value === null;
  }
}

function measure(of: Measure, value: JsonValue): number {
  switch (of) {
    case "value":
      return number(value);
    case "codePointLength":
      return [...string(value)].length;
    case "itemCount":
      return array(value).length;
    case "propertyCount":
      if (typeof value !== "object" || value === null || Array.isArray(value)) throw new Error("a count of properties of a non-object");
      return Object.keys(value).length;
  }
}

function number(value: JsonValue): number {
  if (typeof value !== "number") throw new Error("a number test of a non-number");
  return value;
}

function string(value: JsonValue): string {
  if (typeof value !== "string") throw new Error("a string test of a non-string");
  return value;
}

function array(value: JsonValue): readonly JsonValue[] {
  if (!Array.isArray(value)) throw new Error("an array test of a non-array");
  return value as readonly JsonValue[];
}
