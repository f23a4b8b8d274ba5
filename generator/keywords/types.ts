import type { KeywordCheck, PrimitiveType } from "./check.js";

/**
 * The `type` keyword, for the primitive types: what the IR's `string`, `number`,
 * `boolean` and `null` shapes check before their other keywords. Arrays and objects are
 * tested as JSON writes them (`emit/access.ts`), which takes more than a type.
 */

const MESSAGES: Readonly<Record<PrimitiveType, string>> = {
  string: "must be a string",
  number: "must be a number",
  integer: "must be an integer",
  boolean: "must be a boolean",
  null: "must be null",
};

/** The check that a value is of the type: `{ keyword: "type", message: "must be a string", … }`. */
export function typeCheck(type: PrimitiveType): KeywordCheck {
  return { keyword: "type", message: MESSAGES[type], fails: { op: "notType", type } };
}
