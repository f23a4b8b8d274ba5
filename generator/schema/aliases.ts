import type { JsonObject } from "../json.js";
import { isJsonObject, jsonEqual } from "../json.js";

/**
 * Wire aliases of an object's properties. Proto-derived schemas accept each field under
 * its JSON name (lowerCamelCase, the canonical form) and under its proto name
 * (snake_case), the latter as a pattern property that matches exactly that name:
 * `"^(order_id)$"` beside `"orderId"`, with the same schema. Returns alias → property.
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

/** The one name a pattern like `^order_id$` or `^(order_id)$` matches, if it matches exactly one. */
export function exactName(pattern: string): string | undefined {
  return /^\^\(?([A-Za-z0-9_-]+)\)?\$$/.exec(pattern)?.[1];
}

/** "orderId" and "order_id" are the same words. */
function sameWords(a: string, b: string): boolean {
  const words = (name: string) => name.replaceAll("_", "").toLowerCase();
  return words(a) === words(b);
}
