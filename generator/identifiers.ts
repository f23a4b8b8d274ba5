/**
 * How text becomes part of a TypeScript name, the one rule for every stage that makes
 * names: a type's from a title or a key (`resolve/naming.ts`), a declaration's from its
 * type's (`name/`), a local's or a helper's from a property (`emit/`).
 */

/** An ASCII JavaScript identifier: the names agentwire declares are made of these characters only. */
export function isIdentifier(text: string): boolean {
  return IDENTIFIER.test(text);
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * A text's words, each with its first letter upper case, joined: "item/agentMessage/delta"
 * → "ItemAgentMessageDelta", "snake_case" → "SnakeCase". A word is a run of ASCII letters
 * and digits; anything else (`_` and `$` too) only separates words, so that a name made
 * from another (`isSnakeCase` of `snake_case`) reads as the names made from text do.
 * Words keep their inner capitals ("APIKey").
 */
export function pascalCase(text: string): string {
  return text
    .split(/[^A-Za-z0-9]+/)
    .filter((word) => word !== "")
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join("");
}

/**
 * A text's words as the start of a local name, a word in capitals read as a word:
 * "TEXT_MESSAGE_CONTENT" is `textMessageContent`, "item/agentMessage/delta"
 * `itemAgentMessageDelta`; `prefix` goes first where the words begin with a digit or are none.
 */
export function camelCase(text: string, prefix: string): string {
  const words = text.split(/[^A-Za-z0-9]+/).map((word) => (word === word.toUpperCase() ? word.toLowerCase() : word));
  const joined = pascalCase(words.join(" "));
  return /^[A-Za-z]/.test(joined) ? joined[0]!.toLowerCase() + joined.slice(1) : `${prefix}${joined}`;
}
