import type { JsonValue } from "../json.js";
import { isJsonObject } from "../json.js";
import type { Doc } from "./docs.js";
import { concat, group, hardline, indent, join, line, softline } from "./docs.js";
import { jsonString } from "./escape.js";
import { stringWidth } from "./printer.js";

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
  return scalarJson(value);
}

/**
 * The text `jsonDoc` prints, with its line break at the end, written directly: JSON has
 * one layout choice, whether an array fits on its line, and it is known here without a
 * document: an array that holds a non-empty object (at any depth of arrays) breaks; any
 * other fits when its flat text and the comma after it do.
 */
export function jsonText(value: JsonValue, width: number): string {
  const out: string[] = [];
  writeJson(value, 0, 0, 0, width, out);
  out.push("\n");
  return out.join("");
}

/** Writes `value` at a column of a line indented by `indent`, `rest` columns of text after it before the next line break. */
function writeJson(value: JsonValue, indent: number, column: number, rest: number, width: number, out: string[]): void {
  if (Array.isArray(value)) {
    if (value.length === 0) return void out.push("[]");
    if (!breaksArray(value)) {
      const flat = flatJson(value);
      if (column + stringWidth(flat) + rest <= width) return void out.push(flat);
    }
    const inner = `\n${" ".repeat(indent + 2)}`;
    out.push("[");
    value.forEach((element, i) => {
      out.push(inner);
      const last = i === value.length - 1;
      writeJson(element, indent + 2, indent + 2, last ? 0 : 1, width, out);
      if (!last) out.push(",");
    });
    return void out.push(`\n${" ".repeat(indent)}]`);
  }
  if (isJsonObject(value)) {
    const keys = Object.keys(value);
    if (keys.length === 0) return void out.push("{}");
    const inner = `\n${" ".repeat(indent + 2)}`;
    out.push("{");
    keys.forEach((key, i) => {
      const name = `${jsonString(key)}: `;
      out.push(inner, name);
      const last = i === keys.length - 1;
      writeJson(value[key]!, indent + 2, indent + 2 + stringWidth(name), last ? 0 : 1, width, out);
      if (!last) out.push(",");
    });
    return void out.push(`\n${" ".repeat(indent)}}`);
  }
  out.push(scalarJson(value));
}

/** Whether an array must break: it holds an object with members, itself or in an array it holds (a hard line each). */
function breaksArray(value: readonly JsonValue[]): boolean {
  return value.some((element) =>
    Array.isArray(element) ? breaksArray(element) : isJsonObject(element) && Object.keys(element).length > 0,
  );
}

/** An array that does not break, on one line. */
function flatJson(value: JsonValue): string {
  if (Array.isArray(value)) return `[${value.map(flatJson).join(", ")}]`;
  return isJsonObject(value) ? "{}" : scalarJson(value);
}

/** A string, number, boolean or null. */
function scalarJson(value: JsonValue): string {
  return typeof value === "string" ? jsonString(value) : JSON.stringify(value);
}
