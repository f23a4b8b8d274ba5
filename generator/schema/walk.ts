import type { JsonObject, JsonValue } from "../json.js";
import { isJsonObject } from "../json.js";
import { appendPointer, parsePointer } from "../pointer.js";

/** Keywords whose value is one subschema. */
const SINGLE = [
  "additionalProperties",
  "unevaluatedProperties",
  "propertyNames",
  "items",
  "additionalItems",
  "unevaluatedItems",
  "contains",
  "not",
  "if",
  "then",
  "else",
  "contentSchema",
] as const;

/** Keywords whose value is an array of subschemas. */
const LIST = ["allOf", "anyOf", "oneOf", "prefixItems"] as const;

/** Keywords whose value maps names to subschemas. */
const MAP = ["$defs", "definitions", "properties", "patternProperties", "dependentSchemas"] as const;

/** The keywords whose values are subschemas, by the form the value takes: what every reader of schemas shares. */
export const SUBSCHEMA_KEYWORDS = { single: SINGLE, list: LIST, map: MAP } as const;

/**
 * `dependencies` (drafts 4 to 7, read in every draft: `schema/dialect.ts`) maps names to a
 * subschema or to a list of property names, which is no schema.
 */
const DEPENDENCIES = "dependencies";
const isDependentSchema = (value: JsonValue): boolean => !Array.isArray(value);

// As sets, for the walks that ask of every keyword of every schema.
const SINGLE_KEYWORDS: ReadonlySet<string> = new Set(SINGLE);
const LIST_KEYWORDS: ReadonlySet<string> = new Set(LIST);
const MAP_KEYWORDS: ReadonlySet<string> = new Set(MAP);

/** A subschema: a schema in a keyword position, with its pointer from the document root. */
export interface Subschema {
  readonly schema: JsonValue;
  readonly pointer: string;
}

/**
 * The direct subschemas of a schema, in keyword order and then in document order. Only
 * keyword positions count: a property named "properties" is data, not a keyword.
 */
export function subschemasOf(schema: JsonValue, pointer: string): Subschema[] {
  if (!isJsonObject(schema)) return [];
  const found: Subschema[] = [];
  for (const keyword of Object.keys(schema)) {
    const value = schema[keyword]!;
    if (SINGLE_KEYWORDS.has(keyword)) {
      // Draft 2019 and earlier allow `items` to be an array of schemas (a tuple).
      if (Array.isArray(value)) value.forEach((item, i) => found.push({ schema: item, pointer: appendPointer(pointer, keyword, i) }));
      else found.push({ schema: value, pointer: appendPointer(pointer, keyword) });
    } else if (LIST_KEYWORDS.has(keyword) && Array.isArray(value)) {
      value.forEach((item, i) => found.push({ schema: item, pointer: appendPointer(pointer, keyword, i) }));
    } else if (MAP_KEYWORDS.has(keyword) && isJsonObject(value)) {
      for (const name of Object.keys(value)) found.push({ schema: value[name]!, pointer: appendPointer(pointer, keyword, name) });
    } else if (keyword === DEPENDENCIES && isJsonObject(value)) {
      for (const name of Object.keys(value))
        if (isDependentSchema(value[name]!)) found.push({ schema: value[name]!, pointer: appendPointer(pointer, keyword, name) });
    }
  }
  return found;
}

/**
 * Whether the place `target`, at or below `pointer`, is a subschema of the schema at
 * `pointer`: keyword positions lead from one to the other. A place reached through a key
 * that is no keyword (`/group/x` of a definition `group` holding schemas) is not.
 */
export function isSubschemaPlace(schema: JsonValue, pointer: string, target: string): boolean {
  if (target === pointer) return true;
  if (!target.startsWith(`${pointer}/`)) return false;
  // Down the target's tokens, a keyword and then an index or a name where the keyword holds
  // several: the places subschemasOf lists, without listing every one of them at each step
  // (a root's `$defs` of thousands, asked of every ref).
  const tokens = parsePointer(target.slice(pointer.length));
  let here = schema;
  for (let i = 0; i < tokens.length;) {
    if (!isJsonObject(here)) return false;
    const keyword = tokens[i]!;
    if (!Object.hasOwn(here, keyword)) return false;
    const value = here[keyword]!;
    if (SINGLE_KEYWORDS.has(keyword) && !Array.isArray(value)) {
      here = value;
      i += 1;
      continue;
    }
    const key = tokens[i + 1];
    if (key === undefined) return false;
    if ((SINGLE_KEYWORDS.has(keyword) || LIST_KEYWORDS.has(keyword)) && Array.isArray(value)) {
      if (!/^(0|[1-9]\d*)$/.test(key) || Number(key) >= value.length) return false;
      here = value[Number(key)]!;
    } else if ((MAP_KEYWORDS.has(keyword) || keyword === DEPENDENCIES) && isJsonObject(value) && Object.hasOwn(value, key)) {
      here = value[key]!;
      if (!MAP_KEYWORDS.has(keyword) && !isDependentSchema(here)) return false;
    } else return false;
    i += 2;
  }
  return true;
}

/** Visits a schema and every schema beneath it, depth first, parents before children. */
export function walkSchemas(schema: JsonValue, pointer: string, visit: (schema: JsonValue, pointer: string) => void): void {
  visit(schema, pointer);
  for (const child of subschemasOf(schema, pointer)) walkSchemas(child.schema, child.pointer, visit);
}

/**
 * Rebuilds a schema tree bottom up: `rewrite` sees each schema object after its
 * subschemas were rebuilt, and returns its replacement. The input is not modified.
 */
export function mapSchemas(schema: JsonValue, pointer: string, rewrite: (schema: JsonObject, pointer: string) => JsonValue): JsonValue {
  if (!isJsonObject(schema)) return schema;
  // Built with fromEntries, which defines keys: a property named "__proto__" stays one.
  const rebuilt = Object.fromEntries(
    Object.keys(schema).map((keyword): [string, JsonValue] => {
      const value = schema[keyword]!;
      const at = appendPointer(pointer, keyword);
      if (SINGLE_KEYWORDS.has(keyword))
        return [
          keyword,
          Array.isArray(value) ? value.map((item, i) => mapSchemas(item, appendPointer(at, i), rewrite)) : mapSchemas(value, at, rewrite),
        ];
      if (LIST_KEYWORDS.has(keyword) && Array.isArray(value))
        return [keyword, value.map((item, i) => mapSchemas(item, appendPointer(at, i), rewrite))];
      if (MAP_KEYWORDS.has(keyword) && isJsonObject(value))
        return [
          keyword,
          Object.fromEntries(Object.keys(value).map((name) => [name, mapSchemas(value[name]!, appendPointer(at, name), rewrite)])),
        ];
      if (keyword === DEPENDENCIES && isJsonObject(value))
        return [
          keyword,
          Object.fromEntries(
            Object.keys(value).map((name) => {
              const dependent = value[name]!;
              return [name, isDependentSchema(dependent) ? mapSchemas(dependent, appendPointer(at, name), rewrite) : dependent];
            }),
          ),
        ];
      return [keyword, value];
    }),
  );
  return rewrite(rebuilt, pointer);
}
