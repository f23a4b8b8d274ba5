/**
 * The JSON Schema keywords agentwire knows, by what they do. A keyword in none of these
 * lists is unknown, which JSON Schema treats as an annotation: it is ignored.
 */

/** Keywords that constrain values and that the IR models. */
export const MODELLED = new Set([
  "$ref",
  "$dynamicRef",
  "$recursiveRef",
  "type",
  "enum",
  "const",
  "allOf",
  "anyOf",
  "oneOf",
  "properties",
  "required",
  "additionalProperties",
  "unevaluatedProperties",
  "patternProperties",
  "propertyNames",
  "minProperties",
  "maxProperties",
  "items",
  "minItems",
  "maxItems",
  "uniqueItems",
  "prefixItems",
  "additionalItems",
  "contains",
  "minContains",
  "maxContains",
  "unevaluatedItems",
  "minLength",
  "maxLength",
  "pattern",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "not",
  "if",
  "then",
  "else",
  "dependentRequired",
  "dependentSchemas",
  "dependencies",
]);

/**
 * Keywords of JSON Schema that constrain no value, so that generating without checking
 * them drops nothing: they identify and structure a document, or annotate a value (some
 * become JSDoc). `format` is an annotation, as 2019-09 and 2020-12 read it by default
 * (keywords/format.ts); the content keywords are annotations in every draft.
 * `test/normalize/nothing-dropped.test.ts` holds every other keyword to what it enforces.
 */
export const ANNOTATIONS = new Set([
  "$schema",
  "$id",
  "id",
  "$anchor",
  "$dynamicAnchor",
  "$recursiveAnchor",
  "$vocabulary",
  "$defs",
  "definitions",
  "$comment",
  "title",
  "description",
  "default",
  "examples",
  "deprecated",
  "readOnly",
  "writeOnly",
  "format",
  "contentEncoding",
  "contentMediaType",
  "contentSchema",
]);

/** The keywords that ref another schema: `$ref`, and those resolved in the dynamic scope. */
/** The keywords by which a property's presence brings a requirement or a schema (`dependencies` before 2019-09). */
export const DEPENDENT_KEYWORDS = ["dependentRequired", "dependentSchemas", "dependencies"] as const;

export const DYNAMIC_REF_KEYWORDS = ["$dynamicRef", "$recursiveRef"] as const;
export const REF_KEYWORDS = ["$ref", ...DYNAMIC_REF_KEYWORDS] as const;

/** Keywords that describe a value where it is used rather than what a type is. */
export const USE_SITE_ANNOTATIONS = new Set(["description", "default", "examples", "deprecated", "readOnly", "writeOnly", "$comment"]);

/** A schema that constrains values, as opposed to one that only annotates or holds definitions. */
export function hasAssertions(schema: object): boolean {
  return Object.keys(schema).some((keyword) => MODELLED.has(keyword));
}

/** A schema that is a `$ref` and nothing else but annotations: another name for its target. */
export function isPureRef(schema: object): boolean {
  return "$ref" in schema && Object.keys(schema).every((keyword) => keyword === "$ref" || !MODELLED.has(keyword));
}

/** Annotations an overlay writes for facts JSON Schema has no keyword for. */
export const FALLBACK_KEYWORD = "x-agentwire-fallback";
export const ENUM_NUMBERS_KEYWORD = "x-agentwire-enum-numbers";
export const STAMP_KEYWORD = "x-agentwire-stamp";
/**
 * On a property's `anyOf: [{ "type": "null" }, <its schema>]`: the null branch is the
 * property absent, as proto3 JSON reads a null, not a value of the property.
 */
export const NULL_IS_ABSENT_KEYWORD = "x-agentwire-null-is-absent";
/** The vocabularies a custom metaschema uses, on the effective schema (resolve/metaschema.ts). */
export const VOCABULARIES_KEYWORD = "x-agentwire-vocabularies";

/** The units a stamped field's time can be in: only what a protocol has needed so far. */
export const STAMP_UNITS = ["unix-milliseconds"] as const;
export type StampUnit = (typeof STAMP_UNITS)[number];
/** A widespread annotation (OpenAPI generators) describing each value of an enum. */
export const ENUM_DESCRIPTIONS_KEYWORD = "x-enumDescriptions";
