/**
 * How a name is made from a type's name, or from the owner of a helper a file declares
 * for a part of a type without a name of its own (`isOrderItems`, `readOrderTotal`):
 * one rule per kind of declaration, so that a type's functions and its helpers read alike.
 */

export function guardName(owner: string): string {
  return `is${upperFirst(owner)}`;
}

/** The internal function that reports why a value is not a T. */
export function checkName(owner: string): string {
  return `check${upperFirst(owner)}`;
}

export function validatorName(owner: string): string {
  return `validate${upperFirst(owner)}`;
}

export function decoderName(owner: string): string {
  return `decode${upperFirst(owner)}`;
}

/** The internal function that reads a T's wire form into its canonical form. */
export function readerName(owner: string): string {
  return `read${upperFirst(owner)}`;
}

/** A builder of a tagged type: `createCardPayment`. */
export function builderName(owner: string): string {
  return `create${upperFirst(owner)}`;
}

/** The exhaustive match of a union. */
export function matchName(owner: string): string {
  return `match${upperFirst(owner)}`;
}

/** The match that takes some handlers and a fallback. */
export function partialMatchName(owner: string): string {
  return `match${upperFirst(owner)}Partial`;
}

/** The interface of a match's handlers, one per member. */
export function handlersName(owner: string): string {
  return `${owner}Handlers`;
}

/** The internal function an exhaustive match calls for a value no handler takes. */
export function unmatchedName(owner: string): string {
  return `unmatched${upperFirst(owner)}`;
}

/** An enum's values, as a readonly array. */
export function valuesName(owner: string): string {
  return `${owner}Values`;
}

/** "orderId" → "OrderId", "order/placed" → "OrderPlaced": part of a name made from another. */
export function upperFirst(text: string): string {
  const word = text.replace(/[^A-Za-z0-9_$]+(.)?/g, (_, next: string | undefined) => (next ?? "").toUpperCase());
  return word.length === 0 ? "" : word[0]!.toUpperCase() + word.slice(1);
}
