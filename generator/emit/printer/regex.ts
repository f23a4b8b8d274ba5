import { Code } from "./code.js";

/**
 * A regular expression literal with the `u` flag for a JSON Schema pattern. A slash would
 * end the literal and a line terminator cannot appear in one, so both are escaped; every
 * other character, escapes included, is kept as written.
 */
export function regexLiteral(source: string): Code {
  let escaped = "";
  for (let i = 0; i < source.length; i++) {
    const char = source[i]!;
    if (char === "\\" && i + 1 < source.length) {
      const next = source[++i]!;
      escaped += LINE_TERMINATORS[next] !== undefined ? `\\${LINE_TERMINATORS[next]!.slice(1)}` : `\\${next}`;
    } else if (char === "/") escaped += "\\/";
    else escaped += LINE_TERMINATORS[char] ?? char;
  }
  new RegExp(escaped, "u");
  return Code.trusted(`/${escaped}/u`);
}

const LINE_TERMINATORS: Readonly<Record<string, string>> = { "\n": "\\n", "\r": "\\r", "\u2028": "\\u2028", "\u2029": "\\u2029" };
