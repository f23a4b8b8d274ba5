import { isUtf8 } from "node:buffer";
import { InputError } from "./errors.js";
import { NESTING_LIMIT } from "./limits.js";
import { appendPointer } from "./pointer.js";

export type JsonPrimitive = string | number | boolean | null;
export type JsonValue = JsonPrimitive | readonly JsonValue[] | JsonObject;
export interface JsonObject {
  readonly [key: string]: JsonValue;
}

export function isJsonPrimitive(value: JsonValue): value is JsonPrimitive {
  return typeof value !== "object" || value === null;
}

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Structural equality of two JSON values; object key order does not matter. */
export function jsonEqual(a: JsonValue, b: JsonValue): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, i) => jsonEqual(item, b[i] as JsonValue));
  }
  const left = a as JsonObject;
  const right = b as JsonObject;
  const keys = Object.keys(left);
  if (keys.length !== Object.keys(right).length) return false;
  return keys.every((key) => Object.hasOwn(right, key) && jsonEqual(left[key]!, right[key]!));
}

/**
 * Reads a JSON file's bytes: UTF-8 (RFC 8259), a byte order mark before the text read past,
 * as RFC 8259 allows; bytes that are not UTF-8 are refused where they are, rather than read
 * as U+FFFD, which would put in the output a text the file does not hold.
 */
export function readJson(bytes: Uint8Array, file: string): JsonValue {
  if (!isUtf8(bytes)) {
    const offset = firstNonUtf8(bytes);
    const { line, column } = lineAndColumn(Buffer.from(bytes.subarray(0, offset)).toString("utf8"), Infinity);
    const utf16 = (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff);
    throw new InputError(
      { file, line, column },
      `not UTF-8: the byte 0x${bytes[offset]!.toString(16).padStart(2, "0")} at offset ${offset} is not part of a UTF-8 character`,
      utf16 ? "the file looks like UTF-16: save it as UTF-8, which JSON files are" : "save the file as UTF-8, which JSON files are",
    );
  }
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8");
  return parseJson(text.charCodeAt(0) === BYTE_ORDER_MARK ? text.slice(1) : text, file);
}

const BYTE_ORDER_MARK = 0xfeff;

/**
 * Parses JSON text. On a syntax error, reports the file's line and column: V8's messages
 * give an offset only sometimes, so the text is scanned again to find the first fault.
 * What JSON.parse reads without a word is refused too: a key twice in one object (it
 * keeps the last), and nesting deeper than `NESTING_LIMIT`.
 */
export function parseJson(text: string, file: string): JsonValue {
  let value: JsonValue;
  try {
    value = JSON.parse(text) as JsonValue;
  } catch {
    const { offset, problem } = findSyntaxError(text);
    throw new InputError({ file, ...lineAndColumn(text, offset) }, `invalid JSON: ${problem}`);
  }
  checkKeysAndNesting(text, file);
  return value;
}

/** The line and column (both from 1) of an offset into a text, or of its end. */
function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset).split("\n");
  return { line: before.length, column: before.at(-1)!.length + 1 };
}

/**
 * The offset of the first byte that starts no well-formed UTF-8 sequence or ends one
 * early (RFC 3629 section 4: no overlong forms, no surrogates, nothing past U+10FFFF).
 */
function firstNonUtf8(bytes: Uint8Array): number {
  const within = (at: number, low: number, high: number) => at < bytes.length && bytes[at]! >= low && bytes[at]! <= high;
  for (let at = 0; at < bytes.length;) {
    const lead = bytes[at]!;
    let length: number;
    let low = 0x80;
    let high = 0xbf;
    if (lead < 0x80) length = 1;
    else if (lead >= 0xc2 && lead <= 0xdf) length = 2;
    else if (lead >= 0xe0 && lead <= 0xef) {
      length = 3;
      if (lead === 0xe0) low = 0xa0;
      if (lead === 0xed) high = 0x9f;
    } else if (lead >= 0xf0 && lead <= 0xf4) {
      length = 4;
      if (lead === 0xf0) low = 0x90;
      if (lead === 0xf4) high = 0x8f;
    } else return at;
    if (length > 1 && !within(at + 1, low, high)) return at;
    for (let i = 2; i < length; i++) if (!within(at + i, 0x80, 0xbf)) return at;
    at += length;
  }
  return bytes.length;
}

/** The bytes of JSON's strings and brackets, for the scanners that read only those. */
export const QUOTE = 0x22;
export const BACKSLASH = 0x5c;
export const COMMA = 0x2c;
export const OPEN_OBJECT = 0x7b;
export const CLOSE_OBJECT = 0x7d;
export const OPEN_ARRAY = 0x5b;
export const CLOSE_ARRAY = 0x5d;

/**
 * Refuses a key that appears twice in one object and nesting deeper than `NESTING_LIMIT`,
 * in one pass over text JSON.parse accepted (so only strings and brackets need reading),
 * keeping the path to where it is for the pointer of the message.
 */
function checkKeysAndNesting(text: string, file: string): void {
  // Per open object or array: its keys so far (undefined for an array), and the key or index being read.
  const keys: (Set<string> | undefined)[] = [];
  const path: (string | number)[] = [];
  let expectingKey = false;
  const fail = (offset: number, problem: string, hint: string): never => {
    throw new InputError({ file, ...lineAndColumn(text, offset) }, problem, hint);
  };
  const pointerOf = (tokens: readonly (string | number)[]) => appendPointer("", ...tokens);
  const open = (offset: number, objectKeys: Set<string> | undefined) => {
    if (keys.length === NESTING_LIMIT)
      fail(
        offset,
        `nested more than ${NESTING_LIMIT} objects and arrays deep, at ${pointerOf(path)}`,
        "agentwire reads JSON nested at most that deep: move nested schemas into $defs and $ref them",
      );
    keys.push(objectKeys);
    path.push(objectKeys === undefined ? 0 : "");
    expectingKey = objectKeys !== undefined;
  };
  for (let at = 0; at < text.length; at++) {
    const char = text.charCodeAt(at);
    if (char === QUOTE) {
      const start = at;
      let end = text.indexOf('"', at + 1);
      // A quote after an odd run of backslashes is escaped.
      for (;;) {
        let backslashes = 0;
        while (text.charCodeAt(end - 1 - backslashes) === BACKSLASH) backslashes++;
        if (backslashes % 2 === 0) break;
        end = text.indexOf('"', end + 1);
      }
      at = end;
      if (!expectingKey) continue;
      expectingKey = false;
      const raw = text.slice(start + 1, end);
      const key = raw.includes("\\") ? (JSON.parse(text.slice(start, end + 1)) as string) : raw;
      const seen = keys.at(-1)!;
      if (seen.has(key))
        fail(
          start,
          `duplicate key ${JSON.stringify(key)} in the object at ${pointerOf(path.slice(0, -1))}`,
          "JSON.parse would keep the last and drop the others without a word: remove or rename one",
        );
      seen.add(key);
      path[path.length - 1] = key;
    } else if (char === OPEN_OBJECT) open(at, new Set());
    else if (char === OPEN_ARRAY) open(at, undefined);
    else if (char === CLOSE_OBJECT || char === CLOSE_ARRAY) {
      keys.pop();
      path.pop();
      expectingKey = false;
    } else if (char === COMMA) {
      if (keys.at(-1) === undefined) (path[path.length - 1] as number)++;
      else expectingKey = true;
    }
  }
}

/**
 * The offset and nature of the first syntax error in text that JSON.parse rejected. Not
 * jsonc-parser's `visit`: it reports a bad escape at its string's start, says "comma
 * expected" without the object or array, and recurses; matching these messages on it took
 * more code than this scanner.
 */
function findSyntaxError(text: string): { offset: number; problem: string } {
  let at = 0;
  class Fault {
    constructor(readonly problem: string) {}
  }
  const describe = () => (at >= text.length ? "end of input" : JSON.stringify(text[at]));
  const fail = (expected: string): never => {
    throw new Fault(`expected ${expected}, found ${describe()}`);
  };
  const skipSpace = () => {
    while (at < text.length && " \t\n\r".includes(text[at]!)) at++;
  };
  const expect = (char: string) => (text[at] === char ? at++ : fail(JSON.stringify(char)));
  const string = () => {
    expect('"');
    while (text[at] !== '"') {
      if (at >= text.length) fail('closing "');
      const char = text[at]!;
      if (char < " ") fail("an escaped control character");
      if (char === "\\") {
        at++;
        if (text[at] === "u") {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(at + 1, at + 5))) fail("four hex digits after \\u");
          at += 5;
          continue;
        }
        if (!'"\\/bfnrt'.includes(text[at] ?? "x")) fail("a valid escape");
      }
      at++;
    }
    at++;
  };
  let depth = 0;
  /** The items of an object or an array up to `close`, each read by `item`, with commas between. */
  const items = (close: string, item: () => void): void => {
    // Past the limit the text is refused anyway, and this reader recurses.
    if (++depth > NESTING_LIMIT) throw new Fault(`nesting deeper than ${NESTING_LIMIT} objects and arrays`);
    at++;
    skipSpace();
    if (text[at] === close) return void (at++, depth--);
    for (;;) {
      item();
      skipSpace();
      if (text[at] === ",") at++;
      else if (text[at] === close) return void (at++, depth--);
      else fail(`"," or "${close}"`);
    }
  };
  const property = () => {
    skipSpace();
    if (text[at] !== '"') fail("a property name in double quotes");
    string();
    skipSpace();
    expect(":");
    value();
  };
  const value = (): void => {
    skipSpace();
    const char = text[at];
    if (char === "{") return items("}", property);
    if (char === "[") return items("]", value);
    if (char === '"') return string();
    const literal = /^(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(text.slice(at))?.[0];
    if (literal === undefined) fail("a JSON value");
    at += literal!.length;
  };
  try {
    value();
    skipSpace();
    if (at < text.length) fail("end of input");
    return { offset: at, problem: "rejected by JSON.parse" };
  } catch (fault) {
    if (fault instanceof Fault) return { offset: at, problem: fault.problem };
    throw fault;
  }
}
