import type { JsonObject, JsonValue } from "../json.js";
import { isJsonObject, jsonEqual } from "../json.js";
import type { Dialect } from "./dialect.js";

/**
 * Wire aliases of an object's properties. Proto-derived schemas accept each field under
 * its JSON name (lowerCamelCase, the canonical form) and under its proto name
 * (snake_case), the latter as a pattern property that matches exactly that name:
 * `"^(order_id)$"` beside `"orderId"`, with the same schema; one of its names at most
 * (`aliasExclusion`). Returns alias → property.
 */
export function wireAliases(schema: JsonObject): Map<string, string> {
  const aliases = new Map<string, string>();
  const properties = isJsonObject(schema["properties"]) ? schema["properties"] : {};
  const patterns = isJsonObject(schema["patternProperties"]) ? schema["patternProperties"] : {};
  for (const pattern of Object.keys(patterns)) {
    const alias = exactName(pattern);
    if (alias === undefined || Object.hasOwn(properties, alias)) continue;
    const property = Object.keys(properties).find((name) => sameWords(name, alias) && jsonEqual(properties[name]!, patterns[pattern]!));
    if (property !== undefined) aliases.set(alias, property);
  }
  return aliases;
}

/**
 * The keyword under which the effective schema says what an object with a property must
 * also be: `dependentSchemas` from 2019-09, draft 7's `dependencies` before it.
 */
export function dependentSchemasKeyword(dialect: Dialect | undefined): "dependentSchemas" | "dependencies" {
  return dialect === "draft4" || dialect === "draft6" || dialect === "draft7" ? "dependencies" : "dependentSchemas";
}

/**
 * How the effective schema says that a field arrives under one of its names at most: the
 * dependent schema of each alias, "an object with `order_id` has no `orderId`". ProtoJSON
 * reads a field given under both names as a duplicate field, which a parser keeps the last
 * of or, where it cannot tell the order, refuses (Go's protojson refuses, protobuf-es keeps
 * the last); a schema cannot say which value is last, so here, as a key twice in one
 * object, it is refused, by the schema and the decoders alike.
 */
export function aliasExclusion(property: string): JsonObject {
  return { not: { required: [property] } };
}

/** Whether `dependent`, the dependent schema of `name`, is the exclusion of an alias of the schema's. */
export function isAliasExclusion(schema: JsonObject, name: string, dependent: JsonValue): boolean {
  const property = wireAliases(schema).get(name);
  return property !== undefined && jsonEqual(dependent, aliasExclusion(property));
}

/** The one name a pattern like `^order_id$` or `^(order_id)$` matches, if it matches exactly one. */
export function exactName(pattern: string): string | undefined {
  return /^\^\(?([A-Za-z0-9_-]+)\)?\$$/.exec(pattern)?.[1];
}

/** "orderId" and "order_id" are the same words. */
function sameWords(a: string, b: string): boolean {
  const words = (name: string) => name.replaceAll("_", "").toLowerCase();
  return words(a) === words(b);
}
