import type { JsonObject, JsonValue } from "../json.js";
import { isJsonObject, jsonEqual } from "../json.js";

/**
 * How the effective schema says "this property is present": `{ "required": ["task"] }`,
 * or, for a property with wire aliases, an anyOf of those, one per name, since any of
 * its names counts. Where a null is the property absent (`nullIsAbsent`), present is
 * present and not null: `{ "required": ["task"], "properties": { "task": { "not": { "type":
 * "null" } } } }`. Overlays write this form; the normalizer reads it back.
 */
export function presence(names: readonly string[], nullIsAbsent = false): JsonObject {
  const one = (name: string): JsonObject =>
    nullIsAbsent ? { required: [name], properties: definedProperty(name, NOT_NULL) } : { required: [name] };
  return names.length === 1 ? one(names[0]!) : { anyOf: names.map(one) };
}

const NOT_NULL: JsonObject = { not: { type: "null" } };

/** `{ [name]: schema }`, defined, so that a property named "__proto__" is one. */
function definedProperty(name: string, schema: JsonValue): JsonObject {
  const properties: Record<string, JsonValue> = {};
  Object.defineProperty(properties, name, { value: schema, enumerable: true, writable: true, configurable: true });
  return properties;
}

/**
 * The property names a branch requires, when requiring them is all it does:
 * `{ "required": ["task"] }`, or an anyOf of those for a field and its wire aliases.
 */
export function presenceNames(branch: JsonValue): string[] | undefined {
  if (!isJsonObject(branch)) return undefined;
  const keys = Object.keys(branch).filter((key) => !["description", "title", "$comment"].includes(key));
  const required = branch["required"];
  const name = Array.isArray(required) && required.length === 1 && typeof required[0] === "string" ? required[0] : undefined;
  // Present and not null, where null is absent.
  if (keys.length === 2 && name !== undefined && keys.includes("properties"))
    return jsonEqual(branch["properties"]!, definedProperty(name, NOT_NULL)) ? [name] : undefined;
  if (keys.length !== 1) return undefined;
  if (keys[0] === "required") return name === undefined ? undefined : [name];
  const anyOf = branch["anyOf"];
  if (keys[0] !== "anyOf" || !Array.isArray(anyOf)) return undefined;
  const names = anyOf.map(presenceNames);
  return names.every((name) => name?.length === 1) ? names.map((name) => name![0]!) : undefined;
}
