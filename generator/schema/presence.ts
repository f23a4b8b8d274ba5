import type { JsonObject, JsonValue } from "../json.js";
import { isJsonObject } from "../json.js";

/**
 * How the effective schema says "this property is present": `{ "required": ["task"] }`,
 * or, for a property with wire aliases, an anyOf of those, one per name, since any of
 * its names counts. Overlays write this form; the normalizer reads it back.
 */
export function presence(names: readonly string[]): JsonObject {
  return names.length === 1 ? { required: [names[0]!] } : { anyOf: names.map((name) => ({ required: [name] })) };
}

/**
 * The property names a branch requires, when requiring them is all it does:
 * `{ "required": ["task"] }`, or an anyOf of those for a field and its wire aliases.
 */
export function presenceNames(branch: JsonValue): string[] | undefined {
  if (!isJsonObject(branch)) return undefined;
  const keys = Object.keys(branch).filter((key) => !["description", "title", "$comment"].includes(key));
  if (keys.length !== 1) return undefined;
  const required = branch["required"];
  if (keys[0] === "required")
    return Array.isArray(required) && required.length === 1 && typeof required[0] === "string" ? [required[0]] : undefined;
  const anyOf = branch["anyOf"];
  if (keys[0] !== "anyOf" || !Array.isArray(anyOf)) return undefined;
  const names = anyOf.map(presenceNames);
  return names.every((name) => name?.length === 1) ? names.map((name) => name![0]!) : undefined;
}
