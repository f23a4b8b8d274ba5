/**
 * The names of what the generated code declares for a named type, and the modules it
 * lives in. One place decides them, so emitters that refer to each other's declarations
 * agree.
 */

/** The module of the types, imported by every other generated module of a protocol. */
export const TYPES = "./types.js";
export const GUARDS = "./guards.js";

export function valuesName(type: string): string {
  return `${type}Values`;
}

export function guardName(type: string): string {
  return `is${type}`;
}

/** The internal function that reports why a value is not a T. */
export function checkName(type: string): string {
  return `check${type}`;
}

export function validatorName(type: string): string {
  return `validate${type}`;
}

export function decoderName(type: string): string {
  return `decode${type}`;
}

/** The internal function that reads a T's wire form into its canonical form. */
export function readerName(type: string): string {
  return `read${type}`;
}
