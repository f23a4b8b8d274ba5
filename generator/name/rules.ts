import { pascalCase } from "../identifiers.js";

/**
 * How a name is made from a type's name, or from the owner of a helper a file declares
 * for a part of a type without a name of its own (`isOrderItems`, `readOrderTotal`): one
 * rule per kind of declaration, so that a type's functions and its helpers read alike.
 */

/** A rule that puts a word before the owner's name in PascalCase (`isSnakeCase` of `snake_case`), and optionally one after. */
const around =
  (before: string, after = "") =>
  (owner: string): string =>
    `${before}${pascalCase(owner)}${after}`;

/** The guard, `isT`. */
export const guardName = around("is");
/** The internal function that reports why a value is not a T, `checkT`. */
export const checkName = around("check");
/** The validator, `validateT`. */
export const validatorName = around("validate");
/** The decoder, `decodeT`. */
export const decoderName = around("decode");
/** The internal function that reads a T's wire form into its canonical form, `readT`. */
export const readerName = around("read");
/** The builder of a tagged type, `createT`. */
export const builderName = around("create");
/** The exhaustive match of a union, `matchT`. */
export const matchName = around("match");
/** The match that takes some handlers and a fallback, `matchTPartial`. */
export const partialMatchName = around("match", "Partial");
/** The internal function an exhaustive match calls for a value no handler takes, `unmatchedT`. */
export const unmatchedName = around("unmatched");

/** The interface of a match's handlers, one per member: `THandlers`, the type's name as it is. */
export function handlersName(owner: string): string {
  return `${owner}Handlers`;
}

/** The type as a Standard Schema (standardschema.dev): `TSchema`, the type's name as it is. */
export function standardSchemaName(owner: string): string {
  return `${owner}Schema`;
}

/** An enum's values, as a readonly array: `TValues`. */
export function valuesName(owner: string): string {
  return `${owner}Values`;
}
