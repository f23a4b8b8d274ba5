import { InputError } from "./errors.js";

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
 * Parses JSON text. On a syntax error, reports the file's line and column: V8's messages
 * give an offset only sometimes, so the text is scanned again to find the first fault.
 */
export function parseJson(text: string, file: string): JsonValue {
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    const { offset, problem } = findSyntaxError(text);
    const before = text.slice(0, offset).split("\n");
    throw new InputError({ file, line: before.length, column: before.at(-1)!.length + 1 }, `invalid JSON: ${problem}`);
  }
}

/** The offset and nature of the first syntax error in text that JSON.parse rejected. */
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
  /** The items of an object or an array up to `close`, each read by `item`, with commas between. */
  const items = (close: string, item: () => void): void => {
    at++;
    skipSpace();
    if (text[at] === close) return void at++;
    for (;;) {
      item();
      skipSpace();
      if (text[at] === ",") at++;
      else if (text[at] === close) return void at++;
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
