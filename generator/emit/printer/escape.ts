import type { JsonPrimitive } from "../../json.js";
import { Code, ts } from "./code.js";

/**
 * One function per escaping concern. Each takes text from a schema and returns code
 * that means that text, whatever characters it holds.
 */

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** Words that cannot name a type or a value in a module. */
const RESERVED = new Set(
  (
    "break case catch class const continue debugger default delete do else enum export extends false finally for function if " +
    "import in instanceof new null return super switch this throw true try typeof var void while with yield " +
    "implements interface let package private protected public static await " +
    "any bigint boolean never number object string symbol undefined unknown"
  ).split(" "),
);

/**
 * A name declared by the generated code. Names come from the resolve stage already made
 * of identifier characters; a reserved word gets a `$` appended, as protobuf-es does.
 */
export function identifier(name: string): Code {
  if (!IDENTIFIER.test(name)) throw new Error(`not an identifier: ${JSON.stringify(name)}`);
  return Code.trusted(RESERVED.has(name) ? `${name}$` : name);
}

/** Whether a name can follow a dot: `subject.name`. Reserved words can. */
export function isIdentifierName(name: string): boolean {
  return IDENTIFIER.test(name);
}

/** Whether a name can be declared as it is: an identifier that is not a reserved word. */
export function isPlainIdentifier(name: string): boolean {
  return IDENTIFIER.test(name) && !RESERVED.has(name);
}

/** A property key: bare when it is an identifier name, else a string literal. */
export function propertyKey(name: string): Code {
  return IDENTIFIER.test(name) ? Code.trusted(name) : stringLiteral(name);
}

/**
 * A key in an object literal. A `__proto__:` key, bare or quoted, would set the object's
 * prototype rather than make a property, so that one is computed.
 */
export function objectKey(name: string): Code {
  return name === "__proto__" ? ts`[${name}]` : propertyKey(name);
}

/**
 * A string literal in the quotes prettier would choose: double, unless the text holds
 * more double quotes than single ones. Backslashes, the chosen quote, control characters
 * and the line and paragraph separators are escaped.
 */
export function stringLiteral(text: string): Code {
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
  return Code.trusted(`${quote}${escaped}${quote}`);
}

/** A number as prettier prints it (`1e21`, not `1e+21`). */
export function numberLiteral(value: number): Code {
  if (!Number.isFinite(value)) throw new Error(`not a JSON number: ${value}`);
  return Code.trusted(String(value).replace("e+", "e"));
}

export function literal(value: JsonPrimitive): Code {
  if (typeof value === "string") return stringLiteral(value);
  if (typeof value === "number") return numberLiteral(value);
  return Code.trusted(String(value));
}

/**
 * A template literal: the text with `${name}` for each placeholder name. Backslashes,
 * backticks and `${` in the text are escaped.
 */
export function templateLiteral(parts: readonly (string | { readonly name: string })[]): Code {
  const text = parts
    .map((part) =>
      typeof part === "string"
        ? [...part].map((char) => (char === "\\" || char === "`" || char === "$" ? `\\${char}` : escapeControl(char))).join("")
        : `\${${part.name}}`,
    )
    .join("");
  return Code.trusted(`\`${text}\``);
}

function escapeControl(char: string): string {
  const code = char.codePointAt(0)!;
  return code < 0x20 || code === 0x7f || code === 0x2028 || code === 0x2029 ? `\\u${code.toString(16).padStart(4, "0")}` : char;
}
