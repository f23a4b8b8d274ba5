import type { JsonObject, JsonValue } from "../json.js";
import { isJsonObject } from "../json.js";
import { getAtPointer, localRefPointer } from "../pointer.js";
import { NULL_IS_ABSENT_KEYWORD, USE_SITE_ANNOTATIONS } from "./vocabulary.js";

/**
 * Whether null is a value of the schema, in a document whose `$ref`s are local (the
 * resolved schema's). Null is a primitive, so only the keywords below can refuse it; every
 * other keyword applies to other types. A `$ref` met again on the way down (a recursion) is
 * taken to admit it, which leaves such a property as it is; `seen` holds the refs of the
 * path, not of sibling branches, which each follow a ref of their own.
 */
export function admitsNull(schema: JsonValue, document: JsonValue, seen: ReadonlySet<string> = new Set()): boolean {
  if (typeof schema === "boolean") return schema;
  if (!isJsonObject(schema)) return true;
  const admits = (each: JsonValue) => admitsNull(each, document, seen);
  const { type, allOf, anyOf, oneOf } = schema;
  if (typeof type === "string" && type !== "null") return false;
  if (Array.isArray(type) && !type.includes("null")) return false;
  if ("const" in schema && schema["const"] !== null) return false;
  if (Array.isArray(schema["enum"]) && !schema["enum"].includes(null)) return false;
  if (Array.isArray(allOf) && !allOf.every(admits)) return false;
  if (Array.isArray(anyOf) && !anyOf.some(admits)) return false;
  if (Array.isArray(oneOf) && oneOf.filter(admits).length !== 1) return false;
  if ("not" in schema && admits(schema["not"]!)) return false;
  if ("if" in schema) {
    const branch = admits(schema["if"]!) ? schema["then"] : schema["else"];
    if (branch !== undefined && !admits(branch)) return false;
  }
  const ref = localRefPointer(schema["$ref"]);
  if (ref !== undefined && !seen.has(ref)) {
    const target = getAtPointer(document, ref) as JsonValue | undefined;
    if (target !== undefined && !admitsNull(target, document, new Set([...seen, ref]))) return false;
  }
  return true;
}

/**
 * A property's schema that also takes null for the property absent: `anyOf` of null and
 * the schema, marked so that the null branch is read as absence, not as a value. What
 * describes the property where it is used (its description, default) stays on it.
 */
export function nullOrAbsent(schema: JsonObject): JsonObject {
  const used = Object.entries(schema).filter(([key]) => USE_SITE_ANNOTATIONS.has(key) || key === "title");
  const rest = Object.fromEntries(Object.entries(schema).filter(([key]) => !USE_SITE_ANNOTATIONS.has(key) && key !== "title"));
  return { ...Object.fromEntries(used), anyOf: [NULL, rest], [NULL_IS_ABSENT_KEYWORD]: true };
}

/** The schema a property written by `nullOrAbsent` had, or undefined for any other. */
export function absentOrSchema(schema: JsonValue): JsonValue | undefined {
  if (!isJsonObject(schema) || schema[NULL_IS_ABSENT_KEYWORD] !== true) return undefined;
  const anyOf = schema["anyOf"];
  return Array.isArray(anyOf) && anyOf.length === 2 && isNullType(anyOf[0]!) ? anyOf[1] : undefined;
}

const NULL: JsonObject = { type: "null" };

function isNullType(schema: JsonValue): boolean {
  return isJsonObject(schema) && Object.keys(schema).length === 1 && schema["type"] === "null";
}
