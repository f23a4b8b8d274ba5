import type { JsonPrimitive } from "../json.js";
import { isIdentifier } from "../identifiers.js";

/**
 * One function per escaping concern: each takes text from a schema and returns the
 * source text that means it, whatever characters it holds.
 */

/**
 * The characters that change how source text reads without being seen, or without
 * being what they seem: the controls (C0, DEL, C1: NUL, ESC, …), the format characters
 * (the bidirectional controls of Trojan Source, CVE-2021-42574, U+202A–202E and
 * U+2066–2069, the marks U+200E, U+200F and U+061C; the zero-width U+200B–200D and
 * U+2060, the byte order mark U+FEFF, the soft hyphen, the invisible tags U+E0000–E007F),
 * the line and paragraph separators and lone surrogates. Wherever text from a schema is
 * written into code, a comment or JSON, each is written as an escape that names it.
 */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/u;
const INVISIBLES = new RegExp(INVISIBLE.source, "gu");

/** Text a string literal holds as it is, in double quotes: no double quote, no backslash, nothing invisible. */
const PLAIN = /^[^"\\\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]*$/u;

/** `\u202e` for a character of the Basic Multilingual Plane, `\u{e0041}` beyond it, as string literals, templates and comments write them. */
function unicodeEscape(code: number): string {
  return code <= 0xffff ? `\\u${code.toString(16).padStart(4, "0")}` : `\\u{${code.toString(16)}}`;
}

/**
 * Text with its invisible characters shown as escapes, for comments: JSDoc and `//`
 * comments show `\u202e` as text where a bidirectional control would reorder what is
 * read. Tabs, which show as space, stay.
 */
export function commentText(text: string): string {
  return shownEscaped(text, "\t");
}

/**
 * Text for a terminal: what the CLI prints, which quotes schemas, pointers and file
 * names. An escape sequence (ESC, CSI) would move the cursor, clear the screen or retitle
 * the window; each invisible character shows as its escape. Tabs and line breaks stay.
 */
export function terminalText(text: string): string {
  return shownEscaped(text, "\t\n");
}

/** Text with each invisible character but those `kept` written as its escape. */
function shownEscaped(text: string, kept: string): string {
  if (isPrintableAscii(text, "")) return text;
  return text.replace(INVISIBLES, (char) => (kept.includes(char) ? char : unicodeEscape(char.codePointAt(0)!)));
}

/** Whether the text is printable ASCII without any of the characters `special`: most text, which needs no escape. Tested without a regular expression. */
function isPrintableAscii(text: string, special: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code > 0x7e || (special !== "" && special.includes(text[i]!))) return false;
  }
  return true;
}

/**
 * A string literal in the quotes prettier would choose: double, unless the text holds
 * more double quotes than single ones. Backslashes, the chosen quote and every invisible
 * character are escaped.
 */
export function stringLiteral(text: string): string {
  if (PLAIN.test(text)) return `"${text}"`;
  const doubles = text.split('"').length - 1;
  const singles = text.split("'").length - 1;
  const quote = doubles > singles ? "'" : '"';
  const escaped = text.replace(quote === '"' ? ESCAPED_IN_DOUBLE : ESCAPED_IN_SINGLE, (char) =>
    char === "\n"
      ? "\\n"
      : char === "\r"
        ? "\\r"
        : char === "\t"
          ? "\\t"
          : char === "\\" || char === quote
            ? `\\${char}`
            : unicodeEscape(char.codePointAt(0)!),
  );
  return `${quote}${escaped}${quote}`;
}

/** What a string literal in each quote escapes: backslashes, the quote, and every invisible character (line breaks and tabs among them). */
const ESCAPED_IN_DOUBLE = new RegExp(`[\\\\"]|${INVISIBLE.source}`, "gu");
const ESCAPED_IN_SINGLE = new RegExp(`[\\\\']|${INVISIBLE.source}`, "gu");

/**
 * A JSON string: as `JSON.stringify` writes it (which escapes the C0 controls and lone
 * surrogates), with the other invisible characters escaped too, as JSON writes an escape
 * (`\u202e`, a pair of surrogates beyond the Basic Multilingual Plane).
 */
export function jsonString(text: string): string {
  // Each UTF-16 unit of the character, as JSON writes an escape.
  return JSON.stringify(text).replace(INVISIBLES, (char) =>
    Array.from({ length: char.length }, (_, i) => `\\u${char.charCodeAt(i).toString(16).padStart(4, "0")}`).join(""),
  );
}

/** A JSON primitive as a literal; a number as prettier prints it (`1e21`, not `1e+21`). */
export function literalText(value: JsonPrimitive): string {
  if (typeof value === "string") return stringLiteral(value);
  if (typeof value === "number") return String(value).replace("e+", "e");
  return String(value);
}

/** A property key in a type or after a dot: bare when it is an identifier name, else a string literal. */
export function propertyKey(name: string): string {
  return isIdentifier(name) ? name : stringLiteral(name);
}

/**
 * A key in an object literal. A `__proto__:` key, bare or quoted, would set the object's
 * prototype rather than make a property, so that one is computed.
 */
export function objectKey(name: string): string {
  return name === "__proto__" ? `[${stringLiteral(name)}]` : propertyKey(name);
}

/** The text of a template literal between placeholders: backslashes, backticks, `$` and invisible characters escaped. */
export function templateText(text: string): string {
  if (isPrintableAscii(text, "\\`$")) return text;
  return [...text]
    .map((char) =>
      char === "\\" || char === "`" || char === "$" ? `\\${char}` : INVISIBLE.test(char) ? unicodeEscape(char.codePointAt(0)!) : char,
    )
    .join("");
}

/**
 * A regular expression literal with the `u` flag for a JSON Schema pattern. A slash would
 * end the literal and a line terminator cannot appear in one, so both are escaped, and
 * every invisible character is written `\u{…}`, which means that character anywhere in a
 * pattern with the u flag (in a class, a group name, after a quantifier); every other
 * character, escapes included, is kept as written.
 */
export function regexLiteral(source: string): string {
  let escaped = "";
  const chars = [...source];
  for (let i = 0; i < chars.length; i++) {
    const char = chars[i]!;
    if (char === "\\" && i + 1 < chars.length) {
      const next = chars[++i]!;
      escaped += INVISIBLE.test(next) ? patternEscape(next) : `\\${next}`;
    } else if (char === "/") escaped += "\\/";
    else escaped += INVISIBLE.test(char) ? patternEscape(char) : char;
  }
  return `/${escaped}/u`;
}

/** An invisible character in a pattern with the u flag: `\n`, `\r`, `\t`, else `\u{202e}`. */
function patternEscape(char: string): string {
  return PATTERN_ESCAPES[char] ?? `\\u{${char.codePointAt(0)!.toString(16)}}`;
}

const PATTERN_ESCAPES: Readonly<Record<string, string>> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };
