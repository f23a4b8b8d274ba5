/**
 * Type names. A definition is named by its key, a titled schema by its title, with
 * whitespace removed ("Shipping Address" → ShippingAddress). When that is still no
 * identifier, the text's words are joined in PascalCase ("Core schema meta-schema" →
 * CoreSchemaMetaSchema), `[]` being the word "Array" (`Def<number[]>` → DefNumberArray).
 */
export function typeNameFor(text: string): string {
  const compact = text.replace(/\s+/g, "");
  const name = IDENTIFIER.test(compact) ? compact : pascalCase(text.replaceAll("[]", " array "));
  if (name === "") return name;
  return /^[0-9]/.test(name) ? `_${name}` : name;
}

/**
 * Whether a `title` reads as a name, which a type may take: at most five words and no
 * sentence in it ("Time Series", "ABCSupplyPlan JSON Schema"). Many titles are
 * descriptions ("Location in the inventory management system", "JSON schema for the
 * TSLint configuration files"), which would make names of a line or more; the schema is
 * named by its key or its place then, as one without a title is.
 */
export function isNameLike(title: string): boolean {
  const words = title.trim().split(/\s+/);
  return words.length <= 5 && !/[.!?;:,](\s|$)/.test(title.trim());
}

/** "item/agentMessage/delta" → "ItemAgentMessageDelta": words keep their inner capitals. */
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

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * What every protocol's index re-exports from the modules the protocols share
 * (`templates/runtime.ts`, `decode.ts`, `unions.ts`), values and types: names no definition may take.
 */
export const SHARED_EXPORTS = {
  runtime: {
    values: ["useRegExp"],
    types: ["RegExpEngine", "RegExpLike", "ValidateOptions", "ValidationError", "ValidationResult"],
  },
  decode: { values: [], types: ["DecodeOptions", "DecodeResult"] },
  unions: { values: ["assertNever", "UnmatchedError"], types: ["BuildOptions", "Fields", "Member"] },
} as const;
export const RUNTIME_VALUES: readonly string[] = Object.values(SHARED_EXPORTS).flatMap(({ values }) => values);
export const RUNTIME_TYPES: readonly string[] = Object.values(SHARED_EXPORTS).flatMap(({ types }) => types);
