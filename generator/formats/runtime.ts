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
 * A property of an object as JSON.stringify reads it: own and enumerable, else undefined;
 * never one a prototype lends. Asked where a report says which required fields are
 * missing, off the path of a valid value.
 */
export function jsonProperty(value: unknown, key: string): unknown {
  // An array's indices are no properties of an object, and there may be a million.
  if (
    !isRecord(value) ||
    !Object.prototype.propertyIsEnumerable.call(value, key)
  )
    return undefined;
  return value[key];
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
const FULL = { full: true };

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

/**
 * Records that a tagged union's tag is missing or names none of its members: one error at
 * the tag, naming the value seen, rather than one per member. `expected` lists the values.
 */
export function failTag(
  errors: Errors,
  path: string,
  tag: string,
  value: unknown,
  expected: string,
): void {
  const seen =
    value === undefined
      ? `missing "${tag}"`
      : `unknown ${tag} ${display(value)}`;
  fail(errors, path, "discriminator", `${seen}: expected one of ${expected}`);
}

/** A JSON Pointer one property further: `~` and `/` in the key are escaped. */
export function pointer(path: string, key: string): string {
  return `${path}/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`;
}

/** How to decode: `strict` (the default) accepts what the schema accepts; `tolerant` is a receiver's reading. */
export interface DecodeOptions extends ValidateOptions {
  /**
   * `tolerant` follows the rules the protocols give receivers: properties a closed
   * object does not know are dropped (and listed in `ignored`), a value or union tag
   * this version does not know is reported as `unrecognized` rather than invalid, and
   * an enum with a fallback reads an unknown value as its fallback.
   */
  readonly mode?: "strict" | "tolerant";
}

/**
 * A decoded value in its canonical form, or why there is none. `unrecognized` is true
 * when what failed is only something newer than this version (tolerant mode): a consumer
 * of a stream can skip it rather than treat it as an error.
 */
export type DecodeResult<T> =
  | {
      readonly ok: true;
      readonly value: T;
      /** Tolerant mode: JSON Pointers of the properties dropped as unknown. */
      readonly ignored?: readonly string[];
    }
  | {
      readonly ok: false;
      readonly unrecognized: boolean;
      readonly errors: readonly ValidationError[];
      /** Present when reading or checking stopped at {@link ValidateOptions.maxErrors}, with more to say. */
      readonly truncated?: true;
    };

/**
 * The state of one decode: its mode, what it dropped, what it did not recognize and the
 * problems only decoding finds. Used by the generated code, not by its users.
 */
export class Reader {
  readonly tolerant: boolean;
  private readonly ignored: string[] = [];
  private readonly unrecognized: Errors;
  /** The problems reading finds, then what checking the value read finds, up to the limit together. */
  private readonly problems: Errors;

  constructor(options: DecodeOptions | undefined) {
    this.tolerant = options?.mode === "tolerant";
    this.unrecognized = new Errors(options);
    this.problems = new Errors(options);
  }

  /**
   * A property a closed object does not know: dropped, and listed when tolerant; a
   * problem when strict, where checking would refuse it. It is not copied either way, so
   * a value of a million unknown properties costs a look at each, not a copy.
   */
  unknownProperty(path: string, key: string): void {
    if (this.tolerant) this.ignored.push(pointer(path, key));
    else
      fail(
        this.problems,
        pointer(path, key),
        "additionalProperties",
        `must not have the property "${key}"`,
      );
  }

  /**
   * A value of one of the expected types (`typeof`, space-separated) that this version
   * does not know: in tolerant mode, the fallback if the enum has one, else noted as
   * unrecognized. Anything else is left for checking to reject.
   */
  unknownValue(
    value: unknown,
    path: string,
    types: string,
    what: string,
    fallback?: unknown,
  ): unknown {
    if (!this.tolerant || !types.split(" ").includes(typeof value))
      return value;
    if (fallback !== undefined) return fallback;
    fail(
      this.unrecognized,
      path,
      "unrecognized",
      `${JSON.stringify(value)} is not ${what} this version knows`,
    );
    return value;
  }

  /**
   * An integer that the wire accepts for a proto enum (any int32) but that names none of
   * its values in this version: unrecognized in either mode, since the schema accepts it
   * and no canonical value stands for it; when tolerant, the fallback if the enum has one.
   */
  unnamedNumber(
    value: number,
    path: string,
    what: string,
    fallback?: unknown,
  ): unknown {
    if (this.tolerant && fallback !== undefined) return fallback;
    fail(
      this.unrecognized,
      path,
      "unrecognized",
      `${value} is not the number of ${what} this version knows`,
    );
    return value;
  }

  /** A field sent under two of its names, such as `taskId` and `task_id`. */
  twice(path: string, key: string, name: string): void {
    fail(
      this.problems,
      pointer(path, key),
      "duplicate",
      `is "${name}" again, under another of its names: send one`,
    );
  }

  /**
   * Reads the input (with `read`, unless reading changes nothing), then checks what was
   * read: the value, if it is valid in its canonical form, else the reasons, up to the
   * limit. Past the limit, reading stops as checking does.
   */
  decode<T>(
    input: unknown,
    read:
      ((input: unknown, path: string, reader: Reader) => unknown) | undefined,
    check: (value: unknown, path: string, errors: Errors) => void,
  ): DecodeResult<T> {
    let value = input;
    try {
      if (read !== undefined) value = read(input, "", this);
    } catch (error) {
      if (error !== FULL) throw error;
      // Reading stopped: what was read is part of a value, with nothing to check, and
      // either list may lack what the rest would have added.
      this.unrecognized.truncated = true;
      this.problems.truncated = true;
    }
    if (this.unrecognized.found.length > 0)
      return this.failed(true, this.unrecognized);
    if (this.problems.truncated) return this.failed(false, this.problems);
    const errors = this.problems.check(check, value);
    if (errors.found.length > 0) return this.failed(false, errors);
    // Checked as the guard checks, by a function printed from the same check tree.
    const decoded = value as T;
    return this.ignored.length === 0
      ? { ok: true, value: decoded }
      : { ok: true, value: decoded, ignored: this.ignored };
  }

  private failed(unrecognized: boolean, errors: Errors): DecodeResult<never> {
    return errors.truncated
      ? { ok: false, unrecognized, errors: errors.found, truncated: true }
      : { ok: false, unrecognized, errors: errors.found };
  }
}

/** Sets an own property, even one named `__proto__`, without touching a prototype. */
export function define(
  object: { [key: string]: unknown },
  key: string,
  value: unknown,
): void {
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

/**
 * What a builder takes: a type's fields without the tags it fills in, which may not be
 * given. An optional field also takes `undefined`, which leaves it out.
 */
export type Fields<T, Tags extends keyof T> = {
  [K in keyof T as K extends Tags ? never : K]: {} extends Pick<T, K>
    ? T[K] | undefined
    : T[K];
} & { readonly [K in Tags]?: never };

/**
 * The member of a keyed union in which the property `K` is the one present:
 * `Member<StreamResponse, "task">`.
 */
export type Member<U, K extends keyof U> = Extract<
  U,
  { readonly [P in K]: unknown }
>;

/** How a builder builds. */
export interface BuildOptions {
  /**
   * Set the fields the protocol marks as stamps (such as a `timestamp`) to the current
   * time, unless they are given.
   */
  readonly stamp?: boolean;
}

/**
 * A value from its tags and a caller's fields, in that order: fields given as
 * `undefined` are left out, and so is anything named like a tag, which only untyped
 * code can pass. Then the stamps, for the fields the caller did not give.
 */
export function build<T, Tags extends keyof T>(
  tags: Pick<T, Tags>,
  fields?: { readonly [key: string]: unknown },
  stamps?: { readonly [key: string]: unknown },
): T {
  const value: { [key: string]: unknown } = Object.assign({}, tags);
  // Untyped code may pass anything: only an object has fields to copy.
  const given = isRecord(fields) ? fields : {};
  for (const key of Object.keys(given)) {
    const field = given[key];
    if (field === undefined || Object.hasOwn(tags, key)) continue;
    if (key === "__proto__") define(value, key, field);
    else value[key] = field;
  }
  if (stamps !== undefined)
    for (const key of Object.keys(stamps))
      if (!Object.hasOwn(value, key)) value[key] = stamps[key];
  // The fields' type is T's without the tags, which are here: together they are a T.
  return value as T;
}

/** A match's handlers with no keys but those of `All`: an extra handler does not compile. */
export type Only<H, All> = H & {
  readonly [K in Exclude<keyof H, keyof All>]: never;
};

/** What a match returns: whatever its handlers return. */
export type Returned<H> = {
  [K in keyof H]-?: Exclude<H[K], undefined> extends (
    ...args: never[]
  ) => infer R
    ? R
    : never;
}[keyof H];

/**
 * Thrown by an exhaustive match for a value it has no handler for: a tag newer than the
 * schema this package was generated from, or a handler that untyped code left out.
 */
export class UnmatchedError extends Error {
  override readonly name = "UnmatchedError";
  /** The union matched, such as `"Event"`. */
  readonly union: string;
  /**
   * The value of the tag no handler took (`"NEW_EVENT"`); for a union told apart by
   * which property is present, the names of the value's properties.
   */
  readonly tag: unknown;

  /** `property` is the union's tag, or undefined when its members are told apart by which property is present. */
  constructor(union: string, property: string | undefined, value: unknown) {
    const record = isRecord(value) ? value : {};
    const tag =
      property === undefined ? Object.keys(record) : own(record, property);
    super(
      property === undefined
        ? `no ${union} handler for a value with properties ${display(tag)}`
        : `no ${union} handler for ${property} ${display(tag)}`,
    );
    this.union = union;
    this.tag = tag;
  }
}

/**
 * The default case of a hand-written switch over a union: it compiles only when every
 * case is handled, and throws if a value the types did not foresee reaches it.
 */
export function assertNever(value: never, what = "value"): never {
  throw new Error(`unexpected ${what}: ${display(value)}`);
}

/**
 * A value in a message: its JSON, cut short; or, for what JSON.stringify cannot write
 * (nested too deep for the stack, cyclic, a bigint), what kind of value it is.
 */
function display(value: unknown): string {
  if (isArray(value) && value.length > 100)
    return `an array of ${value.length} items`;
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
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
