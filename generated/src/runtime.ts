// The few helpers the generated code of every protocol shares. Copied from
// templates/runtime.ts by agentwire; the package has no runtime dependencies.

/**
 * An object that is not an array or null: what JSON Schema calls an object. The checks
 * add, where they test an object, that it has no `toJSON` method, which JSON.stringify
 * would call instead of writing the object (a Date has one); they ask it there rather than
 * here so that each place keeps its own inline cache of the objects it sees.
 */
export function isRecord(
  value: unknown,
): value is { readonly [key: string]: unknown } {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * A long tagged union's table from each tag to what it dispatches to. The entries are
 * arguments, each checked against `T` alone, where an array literal of them would be typed
 * as the union of their types, which TypeScript cannot form for thousands of members.
 */
export function tableOf<T>(
  ...entries: readonly (readonly [unknown, T])[]
): ReadonlyMap<unknown, T> {
  return new Map(entries);
}

/**
 * `Array.isArray`, typed so that the items are `unknown` rather than `any`, and so that
 * the checks can ask, as of an object, whether it has a `toJSON` method.
 */
export function isArray(
  value: unknown,
): value is readonly unknown[] & { readonly toJSON?: unknown } {
  return Array.isArray(value);
}

/**
 * Whether a value is a primitive in a box (`new String("a")`), which JSON.stringify writes
 * as the primitive. The checks ask it of objects that could pass with no properties of
 * their own but a string's indices, the only ones a box has.
 */
export function isBoxed(value: object): boolean {
  return (
    value instanceof String ||
    value instanceof Number ||
    value instanceof Boolean ||
    value instanceof BigInt
  );
}

/**
 * Whether JSON.stringify leaves a property with this value out of an object: undefined,
 * a function or a symbol. Such a property is absent on the wire.
 */
export function isOmitted(value: unknown): boolean {
  return (
    value === undefined ||
    typeof value === "function" ||
    typeof value === "symbol"
  );
}

/**
 * A property the object has itself. Used for names that every object inherits
 * (`constructor`, `toString`, `__proto__`…), which a plain read would find on the prototype.
 */
export function own(
  object: { readonly [key: string]: unknown },
  key: string,
): unknown {
  return Object.hasOwn(object, key) ? object[key] : undefined;
}

/** What the checks ask of a compiled pattern: whether a text matches it, anywhere. */
export interface RegExpLike {
  test(text: string): boolean;
}

/**
 * Compiles a schema's pattern for the checks: its source, and its flags (`"u"`). Given to
 * {@link useRegExp} to run the patterns on another engine than the built-in RegExp, such
 * as RE2, whose time is linear in the text.
 */
export type RegExpEngine = (source: string, flags: string) => RegExpLike;

/** The engine {@link useRegExp} set, and each pattern compiled by it. */
let engine: RegExpEngine | undefined;
let compiled = new WeakMap<RegExp, RegExpLike>();

/**
 * The last text a pattern failed, and the pattern's source (each module has its own
 * RegExp of a pattern). A validator asks the guard first, which stops at its first
 * failure, and then the check, which tests that again: kept, a pattern runs once on a text
 * it fails, where a pattern that backtracks spends its time. One text is kept alive by
 * it, the last that failed. (The flags are always "u".)
 */
let failedSource: string | undefined;
let failedText = "";

/**
 * Runs the schemas' patterns on another engine from now on, for every protocol of the
 * package; `useRegExp()` goes back to the built-in RegExp. Each pattern is compiled by
 * `engine` the first time it is tested after this call; what the engine throws (a
 * pattern it cannot read) is thrown by the check that tested it.
 */
export function useRegExp(next?: RegExpEngine): void {
  engine = next;
  compiled = new WeakMap();
  failedSource = undefined;
  failedText = "";
}

/**
 * Whether a text matches a schema's pattern (a module-level RegExp), on the built-in
 * engine unless {@link useRegExp} gave another.
 */
export function matches(pattern: RegExp, text: string): boolean {
  if (text === failedText && pattern.source === failedSource) return false;
  if (
    engine === undefined ? pattern.test(text) : compiledFor(pattern).test(text)
  )
    return true;
  failedSource = pattern.source;
  failedText = text;
  return false;
}

function compiledFor(pattern: RegExp): RegExpLike {
  let other = compiled.get(pattern);
  if (other === undefined) {
    other = engine!(pattern.source, pattern.flags);
    compiled.set(pattern, other);
  }
  return other;
}

/** The length of a string in Unicode code points, as JSON Schema counts it. */
export function codePointLength(text: string): number {
  let length = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    length++;
  }
  return length;
}

/**
 * Whether no two items are equal as JSON values (`uniqueItems`). Each item is written
 * out once in a canonical form, so a long array costs its length, not its square.
 */
export function hasUniqueItems(items: readonly unknown[]): boolean {
  const seen = new Set<string>();
  for (const item of items) {
    const key = canonicalJson(item);
    if (seen.has(key)) return false;
    seen.add(key);
  }
  return true;
}

/**
 * A value as JSON with its object keys sorted, so that equal values have equal texts.
 * Written with a stack rather than recursion, for values nested however deep.
 */
function canonicalJson(value: unknown): string {
  const parts: string[] = [];
  // A string is text to write; anything else, wrapped, is a value.
  const stack: (string | { readonly value: unknown })[] = [{ value }];
  while (stack.length > 0) {
    const next = stack.pop()!;
    if (typeof next === "string") {
      parts.push(next);
      continue;
    }
    const current = next.value;
    if (isArray(current) && typeof current.toJSON !== "function") {
      stack.push("]");
      for (let i = current.length - 1; i >= 0; i--) {
        stack.push({ value: current[i] });
        if (i > 0) stack.push(",");
      }
      parts.push("[");
    } else if (
      isRecord(current) &&
      typeof current.toJSON !== "function" &&
      !isBoxed(current)
    ) {
      // As on the wire: without the properties JSON leaves out.
      const keys = Object.keys(current)
        .filter((key) => !isOmitted(current[key]))
        .sort();
      stack.push("}");
      for (let i = keys.length - 1; i >= 0; i--) {
        stack.push({ value: current[keys[i]!] });
        stack.push(`${i > 0 ? "," : ""}${JSON.stringify(keys[i])}:`);
      }
      parts.push("{");
    } else if (typeof current === "bigint")
      // JSON cannot write one; the item's own check refuses it.
      parts.push(`${current}n`);
    // Anything else as JSON.stringify writes it: a Date as its text, a box as its primitive.
    else parts.push(JSON.stringify(current) ?? "null");
  }
  return parts.join("");
}

/**
 * Whether a value is, as JSON writes it, the JSON value `expected` (a `const` or an `enum`
 * value that is an object or an array): numbers by value, objects whatever the order of
 * their keys, arrays item by item. A value that JSON writes as something else (a box, a
 * Date, an array with a `toJSON` method) is not equal to it; a property JSON leaves out
 * (undefined, a function) is absent. Recursion follows `expected`, which is the schema's.
 */
export function isJsonEqual(value: unknown, expected: unknown): boolean {
  if (typeof expected !== "object" || expected === null)
    return value === expected;
  if (isArray(expected)) {
    if (
      !isArray(value) ||
      typeof value.toJSON === "function" ||
      value.length !== expected.length
    )
      return false;
    for (let i = 0; i < expected.length; i++)
      if (!isJsonEqual(value[i], expected[i])) return false;
    return true;
  }
  if (!isRecord(value) || typeof value.toJSON === "function" || isBoxed(value))
    return false;
  const properties = expected as { readonly [key: string]: unknown };
  let count = 0;
  for (const key in value) {
    if (!Object.prototype.hasOwnProperty.call(value, key)) continue;
    const property = value[key];
    if (isOmitted(property)) continue;
    if (
      !Object.hasOwn(properties, key) ||
      !isJsonEqual(property, properties[key])
    )
      return false;
    count++;
  }
  return count === Object.keys(properties).length;
}

/**
 * How many levels deep the checks of recursive types (a value that holds values of its
 * own type, such as a JSON value) follow a value. Deeper values are refused, with the
 * keyword "depth", rather than exhausting the stack: documents nest far less, and a
 * document that nests deeper is built to hurt.
 */
export const MAX_DEPTH = 500;
let depth = 0;

/** Goes one level deeper into a recursive type; false when that would pass MAX_DEPTH. */
export function descend(): boolean {
  if (depth >= MAX_DEPTH) return false;
  depth++;
  return true;
}

/** Comes back up the level `descend` went down. */
export function ascend(): void {
  depth--;
}

/** One way a value fails its schema. */
export interface ValidationError {
  /** Where the failing value is, as a JSON Pointer into the value ("" is the value itself). */
  readonly path: string;
  /**
   * The JSON Schema keyword that failed: type, required, enum, const, pattern, oneOf…;
   * `discriminator` when a tagged union's tag is missing or names none of its members.
   */
  readonly keyword: string;
  /** What is wrong, for a person: `must be one of "developer", "system"`. */
  readonly message: string;
}

/** A value that passed, typed; or the reasons it did not, up to a limit. */
export type ValidationResult<T> =
  | { readonly ok: true; readonly value: T }
  | {
      readonly ok: false;
      readonly errors: readonly ValidationError[];
      /**
       * Present when the checks stopped at the limit ({@link ValidateOptions.maxErrors})
       * with more to say: `errors` are then the first ones found, not all.
       */
      readonly truncated?: true;
    };

/** How to validate. */
export interface ValidateOptions {
  /**
   * The most errors collected: past it the checks stop, and the result says `truncated`
   * (100 unless given, at least 1). A value that fails everywhere then costs no more
   * than finding this many failures, however large it is; `Infinity` collects them all.
   */
  readonly maxErrors?: number;
}

/** How many errors a validation collects unless told otherwise. */
export const MAX_ERRORS = 100;

/**
 * The errors of one validation, up to a limit: `fail` past it ends the checks, by a throw
 * that the function that began them (`validateT`, `decodeT`) catches, so that no work is
 * done for errors no one will see. Used by the generated code, not by its users.
 */
export class Errors {
  readonly found: ValidationError[] = [];
  readonly limit: number;
  truncated = false;
  /**
   * How many of the failures are at a value that a tolerant reading leaves as it is,
   * though their keyword is one reading may change: a tag missing, or not of the tags'
   * type (`discriminator`); an enum's value not of its values' types (`enum`). A tolerant
   * decode need not read the input for them.
   */
  kept = 0;
  /**
   * How many wire forms the checks met, failing or not, that a decoder reads into another
   * value (an alias, a null for a field absent, an enum's number, digits): where there are
   * none, reading would copy the input as it is, and the checks of the input are those of
   * what reading gives.
   */
  wired = 0;

  constructor(options: ValidateOptions | undefined) {
    const limit = options?.maxErrors ?? MAX_ERRORS;
    // NaN, 0 and less mean the least there is: one.
    this.limit = limit >= 1 ? limit : 1;
  }

  /** Runs a check function on a value, until its end or the limit. */
  check(
    check: (value: unknown, path: string, errors: Errors) => void,
    value: unknown,
  ): this {
    try {
      check(value, "", this);
    } catch (error) {
      if (error !== FULL) throw error;
      this.truncated = true;
    }
    return this;
  }
}

/** What `fail` throws when the errors are full; nothing else throws it. */
export const FULL = { full: true };

/**
 * The result of a check that found no error: the value, of the type its check function
 * checks. The one cast of validation, behind check functions printed from the same check
 * tree as the guards, which a value passes exactly when its check finds nothing.
 */
export function validated<T>(
  value: unknown,
  check: (value: unknown, path: string, errors: Errors) => void,
  options: ValidateOptions | undefined,
): ValidationResult<T> {
  const errors = new Errors(options).check(check, value);
  if (errors.found.length === 0) return { ok: true, value: value as T };
  return errors.truncated
    ? { ok: false, errors: errors.found, truncated: true }
    : { ok: false, errors: errors.found };
}

/** Records a failure; past the limit, ends the checks instead. */
export function fail(
  errors: Errors,
  path: string,
  keyword: string,
  message: string,
): void {
  if (errors.found.length >= errors.limit) throw FULL;
  errors.found.push({ path, keyword, message });
}

/** Records a failure of a value that is in a wire form where `wire` (see `Errors.wired`). */
export function failWire(
  errors: Errors,
  path: string,
  keyword: string,
  message: string,
  wire: boolean,
): void {
  if (wire) errors.wired++;
  fail(errors, path, keyword, message);
}

/**
 * Records a failure of a value that a tolerant reading may change only where `readable`
 * (an enum's value of one of its values' types): else it leaves it (see `Errors.kept`).
 */
export function failKept(
  errors: Errors,
  path: string,
  keyword: string,
  message: string,
  readable: boolean,
): void {
  fail(errors, path, keyword, message);
  if (!readable) errors.kept++;
}

/**
 * Records that a tagged union's tag is missing or names none of its members: one error at
 * the tag, naming the value seen, rather than one per member. `expected` lists the values;
 * `read` is the one type of the tags (`typeof`) if they have one, whose unknown values
 * alone a tolerant reading notes as unrecognized: a tag missing, or of another type, is
 * a failure reading leaves as it is (`Errors.kept`).
 */
export function failTag(
  errors: Errors,
  path: string,
  tag: string,
  value: unknown,
  expected: string,
  read?: string,
): void {
  const seen =
    value === undefined
      ? `missing "${tag}"`
      : `unknown ${tag} ${display(value)}`;
  fail(errors, path, "discriminator", `${seen}: expected one of ${expected}`);
  if (value === undefined || typeof value !== read) errors.kept++;
}

/** A JSON Pointer one property further: `~` and `/` in the key are escaped. */
export function pointer(path: string, key: string): string {
  return `${path}/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`;
}

/**
 * Sets an own property of a new plain object, even one named `__proto__`, without
 * touching a prototype. `__proto__` is the one name whose assignment Object.prototype
 * intercepts (a setter); any other is assigned, which costs a fraction of a definition.
 */
export function define(
  object: { [key: string]: unknown },
  key: string,
  value: unknown,
): void {
  if (key !== "__proto__") {
    object[key] = value;
    return;
  }
  Object.defineProperty(object, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

/** A number sent as a string of decimal digits, as proto3 JSON may send an int32. */
export function fromDecimal(value: unknown, digits: RegExp): unknown {
  return typeof value === "string" && matches(digits, value)
    ? Number(value)
    : value;
}

/** Characters a JSON string escapes: a quote, a backslash, a control character, a surrogate. */
const ESCAPED = /["\\\u0000-\u001f\ud800-\udfff]/;

/**
 * `JSON.stringify(value)`, with a string that needs no escape quoted as it is (most tags
 * and enum values in messages), which costs a test rather than a serialization.
 */
export function json(value: unknown): string | undefined {
  return typeof value === "string" && !ESCAPED.test(value)
    ? `"${value}"`
    : JSON.stringify(value);
}

/**
 * A value in a message: its JSON, cut short; or, for what JSON.stringify cannot write
 * (nested too deep for the stack, cyclic, a bigint), what kind of value it is.
 */
export function display(value: unknown): string {
  if (isArray(value) && value.length > 100)
    return `an array of ${value.length} items`;
  let text: string | undefined;
  try {
    text = json(value);
  } catch {
    text = undefined;
  }
  if (text === undefined) {
    if (isArray(value)) return `an array of ${value.length} items`;
    if (isRecord(value))
      return `an object with the properties ${Object.keys(value).slice(0, 5).join(", ")}`;
    return typeof value === "bigint" ? `${value}n` : String(value);
  }
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
