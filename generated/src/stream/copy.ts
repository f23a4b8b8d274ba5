// Copying the JSON values a stream brings in and its patches copy, measured, so that what
// a stream holds stays within a small multiple of its events. Copied from
// templates/stream/copy.ts by agentwire.

import { define, MAX_DEPTH } from "../runtime.js";

/**
 * What a stream's values add up to, measured as JSON roughly measures them (one for each
 * value, plus the length of each string and member name): `brought`, what the events
 * brought in; `copied`, what its patches' `copy` operations (and moves to a deeper place,
 * which measure what they move) have added. A patch may copy as much as the events brought
 * and {@link COPY_ALLOWANCE} more, so that a stream's values stay within twice its events'
 * and a megabyte however its patches copy: without a bound, each `copy` of the whole value
 * doubles it, and thirty operations make a billion values of one.
 */
export interface Measures {
  brought: number;
  copied: number;
}

/** What the copies of a stream may add beyond what its events brought: about a megabyte of JSON, so that copies in a small state are never refused. */
export const COPY_ALLOWANCE = 2 ** 20;

/** Thrown where a value nests deeper than MAX_DEPTH, as the guards refuse one. */
export class TooDeep extends Error {}

/** Thrown where a copy would pass what the stream's patches may still copy. */
export class TooLarge extends Error {}

/**
 * A copy of a JSON value (what events carry): objects and arrays copied, the rest as it
 * is, at `depth` levels below the root of what it is copied into. Its measure is added to
 * `measured.size`, and the copy throws TooLarge past `measured.limit`. Not
 * structuredClone, which costs microseconds on the small values events hold
 * (bench/stream.bench.js). A member named "__proto__" is defined, not assigned, so it
 * stays a member. Members in `removed` are left out.
 */
export function copyOf(
  value: unknown,
  depth: number,
  measured: { size: number; readonly limit: number },
  removed?: ReadonlyMap<object, ReadonlySet<string>>,
): unknown {
  measured.size++;
  if (typeof value === "string") measured.size += value.length;
  if (measured.size > measured.limit) throw new TooLarge();
  if (typeof value !== "object" || value === null) return value;
  if (depth >= MAX_DEPTH) throw new TooDeep();
  if (Array.isArray(value)) {
    const items: unknown[] = [];
    for (const item of value)
      items.push(copyOf(item, depth + 1, measured, removed));
    return items;
  }
  const copied: { [key: string]: unknown } = {};
  const gone = removed?.get(value);
  for (const key of Object.keys(value)) {
    if (gone?.has(key)) continue;
    measured.size += key.length;
    const item = copyOf(
      (value as { [key: string]: unknown })[key],
      depth + 1,
      measured,
      removed,
    );
    if (key === "__proto__") define(copied, key, item);
    else copied[key] = item;
  }
  return copied;
}

/**
 * A copy of a value an event brings in, as {@link copyOf} makes it, measured into
 * `measures.brought`. Throws TooDeep where it nests deeper than MAX_DEPTH.
 */
export function copyValue<T>(value: T, measures: Measures): T {
  const measured = { size: 0, limit: Infinity };
  const copied = copyOf(value, 0, measured) as T;
  measures.brought += measured.size;
  return copied;
}
