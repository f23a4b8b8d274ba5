import type { JsonValue } from "../../generator/json.js";
import { isJsonObject, jsonEqual } from "../../generator/json.js";
import { getAtPointer } from "../../generator/pointer.js";

/**
 * A reference for what ajv gets wrong about arrays (it skips `contains` after a
 * `prefixItems` on an empty array, and collects the items a failed or untaken branch
 * evaluated): JSON Schema 2020-12 read literally, each schema giving its verdict and the
 * annotations that say which items it evaluated, as the specification defines them. It
 * knows only the keywords `KEYWORDS` lists; `readsAll` says whether a schema keeps to them.
 */
export const KEYWORDS = new Set([
  "$schema",
  "$defs",
  "$ref",
  "type",
  "const",
  "enum",
  "allOf",
  "anyOf",
  "oneOf",
  "not",
  "if",
  "then",
  "else",
  "prefixItems",
  "items",
  "contains",
  "minContains",
  "maxContains",
  "minItems",
  "maxItems",
  "unevaluatedItems",
  "description",
]);

/** Whether every schema in `schema` uses only the keywords the reference knows. */
export function readsAll(schema: JsonValue): boolean {
  if (typeof schema === "boolean") return true;
  if (!isJsonObject(schema)) return false;
  return Object.entries(schema).every(([keyword, value]) => {
    if (!KEYWORDS.has(keyword)) return false;
    if (keyword === "$ref") return typeof value === "string" && value.startsWith("#");
    if (keyword === "$defs") return isJsonObject(value) && Object.values(value).every(readsAll);
    if (["allOf", "anyOf", "oneOf", "prefixItems"].includes(keyword)) return Array.isArray(value) && value.every(readsAll);
    if (["not", "if", "then", "else", "items", "contains", "unevaluatedItems"].includes(keyword)) return readsAll(value);
    return true;
  });
}

interface Result {
  readonly valid: boolean;
  /** The indices of the items evaluated, or `true` for all of them. */
  readonly items: ReadonlySet<number> | true;
}

/** Whether `value` is valid against `schema`, whose `$ref`s point into `root`. */
export function accepts(root: JsonValue, schema: JsonValue, value: JsonValue): boolean {
  return evaluate(root, schema, value).valid;
}

function evaluate(root: JsonValue, schema: JsonValue, value: JsonValue): Result {
  if (typeof schema === "boolean") return { valid: schema, items: new Set() };
  if (!isJsonObject(schema)) throw new Error("not a schema");
  let valid = true;
  let all = false;
  const items = new Set<number>();
  const merge = (result: Result) => {
    if (result.items === true) all = true;
    else for (const index of result.items) items.add(index);
  };
  const type = schema["type"];
  if (type !== undefined && !(Array.isArray(type) ? type : [type]).some((each) => hasType(value, each as string))) valid = false;
  if ("const" in schema && !jsonEqual(schema["const"]!, value)) valid = false;
  if (Array.isArray(schema["enum"]) && !schema["enum"].some((each) => jsonEqual(each, value))) valid = false;
  const ref = schema["$ref"];
  if (typeof ref === "string") {
    const result = evaluate(root, getAtPointer(root, decodeURIComponent(ref.slice(1))) as JsonValue, value);
    valid &&= result.valid;
    merge(result);
  }
  for (const member of (schema["allOf"] as JsonValue[] | undefined) ?? []) {
    const result = evaluate(root, member, value);
    valid &&= result.valid;
    merge(result);
  }
  const anyOf = (schema["anyOf"] as JsonValue[] | undefined)?.map((member) => evaluate(root, member, value));
  if (anyOf !== undefined) {
    valid &&= anyOf.some((result) => result.valid);
    anyOf.filter((result) => result.valid).forEach(merge);
  }
  const oneOf = (schema["oneOf"] as JsonValue[] | undefined)?.map((member) => evaluate(root, member, value));
  if (oneOf !== undefined) {
    valid &&= oneOf.filter((result) => result.valid).length === 1;
    oneOf.filter((result) => result.valid).forEach(merge);
  }
  if ("not" in schema && evaluate(root, schema["not"]!, value).valid) valid = false;
  if ("if" in schema) {
    const test = evaluate(root, schema["if"]!, value);
    const branch = test.valid ? schema["then"] : schema["else"];
    if (test.valid) merge(test);
    if (branch !== undefined) {
      const result = evaluate(root, branch, value);
      valid &&= result.valid;
      merge(result);
    }
  }
  if (Array.isArray(value)) {
    const prefix = (schema["prefixItems"] as JsonValue[] | undefined) ?? [];
    for (const [i, each] of prefix.entries())
      if (i < value.length) {
        valid &&= evaluate(root, each, value[i]!).valid;
        items.add(i);
      }
    if ("items" in schema) {
      for (let i = prefix.length; i < value.length; i++) valid &&= evaluate(root, schema["items"]!, value[i]!).valid;
      all = true;
    }
    if ("contains" in schema) {
      const matched = value.flatMap((item, i) => (evaluate(root, schema["contains"]!, item).valid ? [i] : []));
      const min = (schema["minContains"] as number | undefined) ?? 1;
      const max = schema["maxContains"] as number | undefined;
      valid &&= matched.length >= min && (max === undefined || matched.length <= max);
      for (const index of matched) items.add(index);
    }
    if (typeof schema["minItems"] === "number") valid &&= value.length >= schema["minItems"];
    if (typeof schema["maxItems"] === "number") valid &&= value.length <= schema["maxItems"];
    if ("unevaluatedItems" in schema && !all) {
      for (let i = 0; i < value.length; i++) if (!items.has(i)) valid &&= evaluate(root, schema["unevaluatedItems"]!, value[i]!).valid;
      all = true;
    }
  }
  return { valid, items: all ? true : items };
}

function hasType(value: JsonValue, type: string): boolean {
  switch (type) {
    case "array":
      return Array.isArray(value);
    case "object":
      return isJsonObject(value);
    case "null":
      return value === null;
    case "integer":
      return Number.isInteger(value);
    default:
      return typeof value === type;
  }
}
