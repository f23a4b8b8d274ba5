// What the builders and the match helpers of every protocol share: building a union's
// member from its tags and a caller's fields, and matching a union exhaustively. Copied
// from templates/unions.ts by agentwire.

import { define, display, isRecord, own } from "./runtime.js";

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
 * Calls the handler under `key` with the value, else `otherwise`: the match of a long
 * union, which looks its tag's key up in a table, where a switch would test its cases one
 * by one. As the switch does, it takes a handler the handlers inherit.
 */
export function callHandler<V>(
  handlers: object,
  key: string | undefined,
  value: V,
  otherwise: (value: V) => unknown,
): unknown {
  const handler =
    key === undefined
      ? undefined
      : (handlers as Readonly<Record<string, unknown>>)[key];
  return handler === undefined
    ? otherwise(value)
    : (handler as (value: V) => unknown)(value);
}

/**
 * {@link callHandler} for a union one of whose keys every object inherits
 * (`constructor`): the handler under such a key must be the handlers' own.
 */
export function callOwnHandler<V>(
  handlers: object,
  key: string | undefined,
  value: V,
  otherwise: (value: V) => unknown,
): unknown {
  return key !== undefined &&
    key in Object.prototype &&
    !Object.hasOwn(handlers, key)
    ? otherwise(value)
    : callHandler(handlers, key, value, otherwise);
}

/**
 * The default case of a hand-written switch over a union: it compiles only when every
 * case is handled, and throws if a value the types did not foresee reaches it.
 */
export function assertNever(value: never, what = "value"): never {
  throw new Error(`unexpected ${what}: ${display(value)}`);
}
