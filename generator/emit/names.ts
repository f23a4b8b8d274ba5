import { isPlainIdentifier } from "../code/build.js";

/**
 * The names emit makes itself: the modules of a protocol, and the parameters of
 * signatures. What a type's declarations are called is settled before emit (`name/`).
 */

/** The module of the types, imported by every other generated module of a protocol. */
export const TYPES = "./types.js";
export const GUARDS = "./guards.js";

/**
 * What to call a keyed union member's value in a signature: its name, when that is a
 * plain name no other parameter has, else `value`, else `member`.
 */
export function memberParameterName(member: string, taken: readonly string[]): string {
  return [member, "value", "member"].find((name) => isPlainIdentifier(name) && !taken.includes(name))!;
}

/**
 * What to call a value of a type in a signature: the type name's last word
 * (`ShippingAddress` → `address`), or `value` when that is no plain name.
 */
export function parameterName(type: string, taken: readonly string[] = []): string {
  const word = /[A-Z]?[a-z0-9]*$/.exec(type)![0].toLowerCase();
  return isPlainIdentifier(word) && !taken.includes(word) ? word : "value";
}
