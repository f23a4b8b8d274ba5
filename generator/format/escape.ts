import type { JsonPrimitive } from "../json.js";
import { isIdentifierName } from "../code/build.js";

/**
 * One function per escaping concern: each takes text from a schema and returns the
 * source text that means it, whatever characters it holds.
 */

/**
 * A string literal in the quotes prettier would choose: double, unless the text holds
 * more double quotes than single ones. Backslashes, the chosen quote, control characters
 * and the line and paragraph separators are escaped.
 */
export function stringLiteral(text: string): string {
  const doubles = text.split('"').length - 1;
  const singles = text.split("'").length - 1;
  const quote = doubles > singles ? "'" : '"';
  let escaped = "";
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (char === "\\" || char === quote) escaped += `\\${char}`;
    else if (char === "\n") escaped += "\\n";
    else if (char === "\r") escaped += "\\r";
    else if (char === "\t") escaped += "\\t";
    else if (code < 0x20 || code === 0x7f || code === 0x2028 || code === 0x2029 || (code >= 0xd800 && code <= 0xdfff))
      escaped += `\\u${code.toString(16).padStart(4, "0")}`;
    else escaped += char;
  }
  return `${quote}${escaped}${quote}`;
}

/** A JSON primitive as a literal; a number as prettier prints it (`1e21`, not `1e+21`). */
export function literalText(value: JsonPrimitive): string {
  if (typeof value === "string") return stringLiteral(value);
  if (typeof value === "number") return String(value).replace("e+", "e");
  return String(value);
}

/** A property key in a type or after a dot: bare when it is an identifier name, else a string literal. */
export function propertyKey(name: string): string {
  return isIdentifierName(name) ? name : stringLiteral(name);
}

/**
 * A key in an object literal. A `__proto__:` key, bare or quoted, would set the object's
 * prototype rather than make a property, so that one is computed.
 */
export function objectKey(name: string): string {
  return name === "__proto__" ? `[${stringLiteral(name)}]` : propertyKey(name);
}

/** The text of a template literal between placeholders: backslashes, backticks, `$` and control characters escaped. */
export function templateText(text: string): string {
  return [...text].map((char) => (char === "\\" || char === "`" || char === "$" ? `\\${char}` : escapeControl(char))).join("");
}

function escapeControl(char: string): string {
  const code = char.codePointAt(0)!;
  return code < 0x20 || code === 0x7f || code === 0x2028 || code === 0x2029 ? `\\u${code.toString(16).padStart(4, "0")}` : char;
}

/**
 * A regular expression literal with the `u` flag for a JSON Schema pattern. A slash would
 * end the literal and a line terminator cannot appear in one, so both are escaped; every
 * other character, escapes included, is kept as written.
 */
export function regexLiteral(source: string): string {
  let escaped = "";
  for (let i = 0; i < source.length; i++) {
    const char = source[i]!;
    if (char === "\\" && i + 1 < source.length) {
      const next = source[++i]!;
      escaped += LINE_TERMINATORS[next] !== undefined ? `\\${LINE_TERMINATORS[next]!.slice(1)}` : `\\${next}`;
    } else if (char === "/") escaped += "\\/";
    else escaped += LINE_TERMINATORS[char] ?? char;
  }
  return `/${escaped}/u`;
}

const LINE_TERMINATORS: Readonly<Record<string, string>> = { "\n": "\\n", "\r": "\\r", "\u2028": "\\u2028", "\u2029": "\\u2029" };
