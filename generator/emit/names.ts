/**
 * The names of what the generated code declares for a named type, and the modules it
 * lives in. One place decides them, so emitters that refer to each other's declarations
 * agree.
 */

import type { Field } from "../ir/model.js";
import { pascalCase } from "../schema/names.js";
import { isPlainIdentifier } from "../code/build.js";

/** The module of the types, imported by every other generated module of a protocol. */
export const TYPES = "./types.js";
export const GUARDS = "./guards.js";

export function valuesName(type: string): string {
  return `${type}Values`;
}

export function guardName(type: string): string {
  return `is${upperFirst(type)}`;
}

/** The internal function that reports why a value is not a T. */
export function checkName(type: string): string {
  return `check${upperFirst(type)}`;
}

export function validatorName(type: string): string {
  return `validate${upperFirst(type)}`;
}

export function decoderName(type: string): string {
  return `decode${upperFirst(type)}`;
}

/** The internal function that reads a T's wire form into its canonical form. */
export function readerName(type: string): string {
  return `read${upperFirst(type)}`;
}

/** A builder of a tagged type: `createCardPayment`. */
export function builderName(type: string): string {
  return `create${upperFirst(type)}`;
}

/**
 * The constructors of a keyed union's members, in their order: `create`, the union, then
 * the member's property name in PascalCase (`createPaymentMethodCard`). Where that
 * differs from the member's type only in case, it is spelled as the type
 * (`sepaPaymentMethod: SEPAPaymentMethod` → `SEPA`); where it ends with the
 * union's name, that is dropped (`createPaymentMethodSEPA`), unless nothing would be
 * left or two members would get one name.
 */
export function memberBuilderNames(union: string, members: readonly Field[]): string[] {
  const prefix = upperFirst(union);
  const words = members.map(memberWord);
  const short = words.map((word) => (word.endsWith(prefix) && word.length > prefix.length ? word.slice(0, -prefix.length) : word));
  const alike = (word: string) => short.filter((other) => other === word).length > 1;
  return words.map((word, i) => `create${prefix}${alike(short[i]!) ? word : short[i]!}`);
}

/** A member's property name in PascalCase, or its type's name where the two differ only in case. */
function memberWord(member: Field): string {
  const word = pascalCase(member.name);
  const type = member.shape.kind === "ref" ? member.shape.name : undefined;
  return type !== undefined && type.toLowerCase() === word.toLowerCase() ? type : word;
}

/** The exhaustive match of a union. */
export function matchName(union: string): string {
  return `match${upperFirst(union)}`;
}

/** The match that takes some handlers and a fallback. */
export function partialMatchName(union: string): string {
  return `match${upperFirst(union)}Partial`;
}

/** The interface of a match's handlers, one per member. */
export function handlersName(union: string): string {
  return `${union}Handlers`;
}

/** The internal function an exhaustive match calls for a value no handler takes. */
export function unmatchedName(union: string): string {
  return `unmatched${upperFirst(union)}`;
}

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

/** "orderId" → "OrderId", "order/placed" → "OrderPlaced": part of a helper's name. */
export function upperFirst(text: string): string {
  const word = text.replace(/[^A-Za-z0-9_$]+(.)?/g, (_, next: string | undefined) => (next ?? "").toUpperCase());
  return word.length === 0 ? "" : word[0]!.toUpperCase() + word.slice(1);
}
