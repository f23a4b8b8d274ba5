/**
 * The drafts of JSON Schema agentwire reads, told by `$schema`: their metaschemas' URIs,
 * over http or https, with or without the empty fragment. Without `$schema` a schema is
 * 2020-12. The drafts differ in what some keywords mean (`items`, `$ref` beside other
 * keywords, `dependencies`), which the normalize rules ask of the context.
 */
export type Dialect = "draft4" | "draft6" | "draft7" | "draft2019-09" | "draft2020-12";

const METASCHEMAS: Readonly<Record<string, Dialect>> = {
  "json-schema.org/draft-04/schema": "draft4",
  "json-schema.org/draft-06/schema": "draft6",
  "json-schema.org/draft-07/schema": "draft7",
  "json-schema.org/draft/2019-09/schema": "draft2019-09",
  "json-schema.org/draft/2020-12/schema": "draft2020-12",
};

/** The dialect `$schema` names; undefined for a metaschema agentwire does not know. */
export function dialectOf(schemaKeyword: unknown): Dialect | undefined {
  if (schemaKeyword === undefined) return "draft2020-12";
  if (typeof schemaKeyword !== "string") return undefined;
  const match = /^https?:\/\/(.*?)#?$/.exec(schemaKeyword);
  return match === null ? undefined : METASCHEMAS[match[1]!];
}

/** The validators whose reading of a schema a protocol may ask for, where its draft says otherwise. */
export const COMPATIBLE_WITH = ["ajv"] as const;
export type CompatibleWith = (typeof COMPATIBLE_WITH)[number];

/**
 * The draft whose keywords a schema of `dialect` has, read as `compatibleWith` reads it:
 * ajv 8 applies draft 7's assertions (`const`, `contains`, `propertyNames`, `if`) in
 * drafts 4 and 6 too.
 */
export function readAs(dialect: Dialect, compatibleWith: CompatibleWith | undefined): Dialect {
  return compatibleWith === "ajv" && (dialect === "draft4" || dialect === "draft6") ? "draft7" : dialect;
}

/** Up to draft 7, a `$ref` replaces its schema: the keywords beside it are ignored. */
export function refReplacesSiblings(dialect: Dialect): boolean {
  return dialect === "draft4" || dialect === "draft6" || dialect === "draft7";
}

const ORDER: readonly Dialect[] = ["draft4", "draft6", "draft7", "draft2019-09", "draft2020-12"];

/** Whether `$defs` is a keyword: since 2019-09; before, a property like any other, which may hold data. */
export function hasDefsKeyword(dialect: Dialect): boolean {
  return ORDER.indexOf(dialect) >= ORDER.indexOf("draft2019-09");
}

/** Assertion keywords that not every draft has: the first draft that has each, and the last. */
const DRAFTS_OF: Readonly<Record<string, { readonly since?: Dialect; readonly until?: Dialect }>> = {
  const: { since: "draft6" },
  contains: { since: "draft6" },
  propertyNames: { since: "draft6" },
  if: { since: "draft7" },
  then: { since: "draft7" },
  else: { since: "draft7" },
  dependentRequired: { since: "draft2019-09" },
  dependentSchemas: { since: "draft2019-09" },
  minContains: { since: "draft2019-09" },
  maxContains: { since: "draft2019-09" },
  unevaluatedProperties: { since: "draft2019-09" },
  unevaluatedItems: { since: "draft2019-09" },
  $recursiveRef: { since: "draft2019-09", until: "draft2019-09" },
  additionalItems: { until: "draft2019-09" },
  prefixItems: { since: "draft2020-12" },
  $dynamicRef: { since: "draft2020-12" },
};

/**
 * Whether a keyword is one of the draft's: a keyword of a later draft (`if` in draft 6)
 * or of an earlier one only (`additionalItems` in 2020-12) is unknown to it, and JSON
 * Schema ignores unknown keywords. `dependencies`, split in two in 2019-09, is read in
 * every draft, as the suite's optional dependencies-compatibility.json asks.
 */
export function isKeywordOf(keyword: string, dialect: Dialect): boolean {
  const drafts = DRAFTS_OF[keyword];
  if (drafts === undefined) return true;
  const at = ORDER.indexOf(dialect);
  return (
    (drafts.since === undefined || ORDER.indexOf(drafts.since) <= at) && (drafts.until === undefined || at <= ORDER.indexOf(drafts.until))
  );
}

/**
 * The vocabularies of 2019-09 and 2020-12 that hold assertions, by the last segment of
 * their URI, and their keywords. A metaschema's `$vocabulary` says which a dialect uses;
 * the keywords of a vocabulary it leaves out are unknown to it.
 */
const VOCABULARY_KEYWORDS: Readonly<Record<string, readonly string[]>> = {
  core: ["$ref", "$dynamicRef", "$recursiveRef"],
  applicator: [
    "prefixItems",
    "items",
    "additionalItems",
    "contains",
    "additionalProperties",
    "properties",
    "patternProperties",
    "dependentSchemas",
    "propertyNames",
    "if",
    "then",
    "else",
    "allOf",
    "anyOf",
    "oneOf",
    "not",
    "unevaluatedItems",
    "unevaluatedProperties",
  ],
  unevaluated: ["unevaluatedItems", "unevaluatedProperties"],
  validation: [
    "type",
    "const",
    "enum",
    "multipleOf",
    "maximum",
    "exclusiveMaximum",
    "minimum",
    "exclusiveMinimum",
    "maxLength",
    "minLength",
    "pattern",
    "maxItems",
    "minItems",
    "uniqueItems",
    "maxContains",
    "minContains",
    "maxProperties",
    "minProperties",
    "required",
    "dependentRequired",
  ],
};

/** The vocabulary a vocabulary URI names (`…/vocab/validation` → `validation`), if it is one agentwire knows. */
export function vocabularyOf(uri: string): string | undefined {
  const match = /^https?:\/\/json-schema\.org\/draft\/(?:2019-09|2020-12)\/vocab\/([a-z-]+)$/.exec(uri);
  return match === null ? undefined : match[1];
}

/**
 * Whether a keyword asserts in a dialect whose metaschema uses only these vocabularies:
 * a keyword of no vocabulary that asserts is an annotation or unknown either way; one of
 * several (2019-09's unevaluated keywords are in its applicator vocabulary) asserts where
 * any of them is used.
 */
export function isInVocabularies(keyword: string, vocabularies: readonly string[]): boolean {
  const holders = Object.keys(VOCABULARY_KEYWORDS).filter((vocabulary) => VOCABULARY_KEYWORDS[vocabulary]!.includes(keyword));
  return holders.length === 0 || holders.some((vocabulary) => vocabularies.includes(vocabulary));
}
