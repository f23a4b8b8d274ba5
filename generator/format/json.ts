import type { JsonValue } from "../json.js";
import { isJsonObject } from "../json.js";
import type { Doc } from "./docs.js";
import { concat, group, hardline, indent, join, line, softline } from "./docs.js";
import { jsonString } from "./escape.js";

/**
 * A JSON document laid out as prettier lays out JSON: objects one member per line,
 * arrays on one line when they fit.
 */
export function jsonDoc(value: JsonValue): Doc {
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    return group("[", indent(softline, join(concat(",", line), value.map(jsonDoc))), softline, "]");
  }
  if (isJsonObject(value)) {
    const keys = Object.keys(value);
    if (keys.length === 0) return "{}";
    const members = keys.map((key) => concat(`${jsonString(key)}: `, jsonDoc(value[key]!)));
    return concat("{", indent(hardline, join(concat(",", hardline), members)), hardline, "}");
  }
  return typeof value === "string" ? jsonString(value) : JSON.stringify(value);
}
