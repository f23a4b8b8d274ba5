// The state of one decode, which every protocol's decoders share: its options, its
// result, and what it drops, does not recognize and finds. Copied from
// templates/decode.ts by agentwire.

import type { ValidateOptions, ValidationError } from "./runtime.js";
import { Errors, fail, FULL, json, pointer } from "./runtime.js";

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
 * The keywords of the failures that a tolerant reading cannot change: it drops only
 * properties a closed object does not know (`additionalProperties`), notes or replaces
 * only values this version does not know (`enum`, `discriminator`), which may make a
 * union's member fit (`anyOf`, `oneOf`), and a count of properties may change with what
 * it drops. A keyword not listed here is taken to be one reading may change.
 */
const KEPT_BY_READING: ReadonlySet<string> = new Set([
  "type",
  "required",
  "const",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "minLength",
  "maxLength",
  "pattern",
  "format",
  "minItems",
  "maxItems",
  "uniqueItems",
  "depth",
]);

/**
 * The decode of an input its guard refused, for a type whose wire form is its canonical
 * form (reading changes nothing the guard accepts): the checks' reasons, as `validateT`
 * gives them, since reading would only copy the input. Tolerant, the same where every
 * reason is one that reading cannot change (its keyword, or a value reading leaves as it
 * is, `Errors.kept`) and the checks did not stop at the limit;
 * else the input is read, dropping what this version does not know, and what was read
 * is checked. For a type with wire forms (`wire`), the same where the checks met none
 * (`Errors.wired`), stopped short of none and found no property a strict reading reports
 * itself: reading would then copy the input as it is. Used by the generated code, not by
 * its users.
 */
export function decodeRefused<T>(
  input: unknown,
  read: ((input: unknown, path: string, reader: Reader) => unknown) | undefined,
  check: (value: unknown, path: string, errors: Errors) => void,
  options: DecodeOptions | undefined,
  wire?: true,
  unknownFirst?: true,
): DecodeResult<T> {
  const errors = new Errors(options).check(check, input);
  const found = errors.found;
  const tolerant = options?.mode === "tolerant";
  // A type with wire forms: reading may convert the input unless the checks met none
  // (an alias a closed object refuses among them) and stopped short of none.
  let converts = wire === true && (errors.wired > 0 || errors.truncated);
  let unknown = 0;
  for (let i = 0; wire && i < found.length; i++)
    if (found[i]!.keyword === "additionalProperties") unknown++;
  // A strict reading reports the unknown properties itself, first, and drops them; where
  // nothing else the checks find depends on them (`unknownFirst`), the reasons are the
  // input's, those first. Elsewhere reading decides; a tolerant one, which drops and lists
  // them, always (their keyword is not kept by reading).
  if (wire && unknown > 0 && !unknownFirst) converts = true;
  let settled = found.length > 0 && !converts;
  if (settled && tolerant) {
    // The failures reading may change, but for those at a value it leaves as it is.
    let changeable = -errors.kept;
    for (let i = 0; i < found.length; i++)
      if (!KEPT_BY_READING.has(found[i]!.keyword)) changeable++;
    settled = !errors.truncated && changeable === 0;
  }
  // The guard and the checks agree, so that there are reasons; were there none, the reader's verdict stands.
  // Where reading converts nothing of the input, its reasons are those of a copy.
  if (!settled)
    return new Reader(options).decode<T>(
      input,
      read,
      check,
      converts ? undefined : errors,
      unknownFirst,
    );
  if (wire && unknown > 0 && unknown < found.length)
    return {
      ok: false,
      unrecognized: false,
      errors: [
        ...found.filter((each) => each.keyword === "additionalProperties"),
        ...found.filter((each) => each.keyword !== "additionalProperties"),
      ],
    };
  return refused(false, errors);
}

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
  /** Whether reading gave an enum's fallback for a value this version does not know. */
  private replaced = false;

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
    if (!this.tolerant || !isListed(types, typeof value)) return value;
    if (fallback !== undefined) {
      this.replaced = true;
      return fallback;
    }
    fail(
      this.unrecognized,
      path,
      "unrecognized",
      `${json(value)} is not ${what} this version knows`,
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
    if (this.tolerant && fallback !== undefined) {
      this.replaced = true;
      return fallback;
    }
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
   * limit. Past the limit, reading stops as checking does. `checked` is what the checks
   * found of the input, where reading converts nothing in it (no wire form): a reading
   * that then drops, replaces and reports nothing read a copy of the input, whose reasons
   * are those, and is not checked again.
   */
  decode<T>(
    input: unknown,
    read:
      ((input: unknown, path: string, reader: Reader) => unknown) | undefined,
    check: (value: unknown, path: string, errors: Errors) => void,
    checked?: Errors,
    unknownFirst?: true,
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
      return refused(true, this.unrecognized);
    if (this.problems.truncated) return refused(false, this.problems);
    let errors: Errors | undefined;
    if (
      checked !== undefined &&
      checked.found.length > 0 &&
      this.problems.found.length === 0 &&
      !this.replaced
    ) {
      if (this.ignored.length === 0) return refused(false, checked);
      // What was dropped is every property the checks refused, and they refused nothing
      // else: where nothing else depends on those (`unknownFirst`), what was read is valid.
      if (
        unknownFirst &&
        !checked.truncated &&
        this.ignored.length === checked.found.length &&
        checked.found.every((each) => each.keyword === "additionalProperties")
      )
        errors = this.problems;
    }
    errors ??= this.problems.check(check, value);
    if (errors.found.length > 0) return refused(false, errors);
    // Checked as the guard checks, by a function printed from the same check tree.
    const decoded = value as T;
    return this.ignored.length === 0
      ? { ok: true, value: decoded }
      : { ok: true, value: decoded, ignored: this.ignored };
  }
}

/** A refusal with what was found, and whether the limit cut it short. */
function refused(unrecognized: boolean, errors: Errors): DecodeResult<never> {
  return errors.truncated
    ? { ok: false, unrecognized, errors: errors.found, truncated: true }
    : { ok: false, unrecognized, errors: errors.found };
}

/** Whether a space-separated list of `typeof` names has `type`: one look, no array. */
function isListed(types: string, type: string): boolean {
  const at = types.indexOf(type);
  if (at < 0) return false;
  const end = at + type.length;
  return (
    (at === 0 || types[at - 1] === " ") &&
    (end === types.length || types[end] === " ")
  );
}
