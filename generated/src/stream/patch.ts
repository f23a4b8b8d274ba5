// Applying JSON Patch (RFC 6902) to the JSON values a stream assembles, in place: what the
// assembler (assemble.ts) patches state and activity content with. Copied from
// templates/patch.ts by agentwire.
//
// A patch applies to the JSON value only. A pointer's token names an own member of an
// object or an index of a list (RFC 6901: "0", or digits without a leading zero; "-" only
// where RFC 6902 lets it name the end of a list), never what an object inherits, so a
// patch cannot reach a prototype; a member named "__proto__" is a member, defined as
// JSON.parse defines one. A patch that does not apply changes nothing: each change is
// logged as it is made and undone in reverse when a later operation is refused, and a
// member removed stays in its object until the whole patch has applied, so that undoing
// the removal puts it back where it was among the others.

import { define, MAX_DEPTH } from "../runtime.js";
import type { Measures } from "./copy.js";
import { COPY_ALLOWANCE, copyOf, TooDeep, TooLarge } from "./copy.js";

/** Why a patch does not apply: the operation that does not, and why, in words. */
export interface PatchRefusal {
  readonly operation: number;
  readonly reason: string;
}

type JsonObject = { [key: string]: unknown };
type Container = JsonObject | unknown[];

/** Members removed by the patch being applied, per object; deleted when it has applied. */
type Removed = Map<JsonObject, Set<string>>;

// ---------------------------------------------------------------------------------------
// Pointers (RFC 6901).

const INDEX = /^(?:0|[1-9][0-9]*)$/;
const BAD_ESCAPE = /~(?![01])/;

/** The tokens of a JSON Pointer, unescaped; a string saying why where it is not one. */
function tokensOf(pointer: unknown, field: string): string[] | Refused {
  if (typeof pointer !== "string")
    return new Refused(`its ${field} is not a JSON Pointer, a string`);
  if (pointer === "") return [];
  if (pointer[0] !== "/")
    return new Refused(
      `its ${field} ${JSON.stringify(pointer)} is not a JSON Pointer, which is "" or starts with "/"`,
    );
  const tokens = pointer.slice(1).split("/");
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (!token.includes("~")) continue;
    if (BAD_ESCAPE.test(token))
      return new Refused(
        `its ${field} ${JSON.stringify(pointer)} is not a JSON Pointer: "~" escapes only "0" and "1"`,
      );
    tokens[i] = token.replaceAll("~1", "/").replaceAll("~0", "~");
  }
  return tokens;
}

/** A pointer of tokens, written out. */
function pointerOf(tokens: readonly string[]): string {
  return tokens
    .map((token) => `/${token.replaceAll("~", "~0").replaceAll("/", "~1")}`)
    .join("");
}

/** Why an operation does not apply, said where it is found. */
class Refused {
  constructor(readonly reason: string) {}
}

/** A place a pointer names: a member of an object, or an index of a list. */
interface Place {
  readonly container: Container;
  /** The member's name, or the index as the pointer spells it. */
  readonly token: string;
  /** The pointer up to its container, for the reasons given. */
  readonly tokens: readonly string[];
}

/** An object that is not an array or null: a JSON object, as the snapshot's values are. */
export function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

// ---------------------------------------------------------------------------------------
// Applying.

/** One change made, and how to undo it. */
type Change =
  /** A member set: put back the value it had, or remove it where it had none. */
  | {
      kind: "member";
      object: JsonObject;
      key: string;
      had: boolean;
      value: unknown;
    }
  /** A member marked removed: unmark it. */
  | { kind: "removed"; object: JsonObject; key: string }
  /** A removed member set again: mark it removed again. */
  | { kind: "revived"; object: JsonObject; key: string }
  /** An element inserted: take it out. */
  | { kind: "inserted"; list: unknown[]; index: number }
  /** An element taken out: put it back. */
  | { kind: "deleted"; list: unknown[]; index: number; value: unknown }
  /** An element replaced: put back the one it was. */
  | { kind: "element"; list: unknown[]; index: number; value: unknown };

/**
 * Applies an RFC 6902 patch in place to the value at `holder[key]`, which its pointers
 * read relative to (its root is ""), within the stream's measures: every operation, or,
 * where one does not apply, none, and why. A patch may not remove the value itself.
 */
export function applyPatch(
  holder: JsonObject,
  key: string,
  patch: unknown,
  measures: Measures,
): PatchRefusal | undefined {
  if (!Array.isArray(patch))
    return { operation: -1, reason: "the patch is not a list of operations" };
  const application = new Application(holder, key, measures);
  for (let i = 0; i < patch.length; i++) {
    let refused: Refused | undefined;
    try {
      refused = application.apply(patch[i]);
    } catch (error) {
      if (error instanceof TooDeep)
        refused = new Refused(
          `the value would nest deeper than ${MAX_DEPTH} levels`,
        );
      else if (error instanceof TooLarge)
        refused = new Refused(
          `its copies would add more than the stream's events brought in and ${COPY_ALLOWANCE} more (${measures.brought}, measured as JSON: one for each value and the length of each string and name), of which copies already added ${measures.copied}`,
        );
      else throw error;
    }
    if (refused !== undefined) {
      application.undo();
      return { operation: i, reason: refused.reason };
    }
  }
  application.commit();
  return undefined;
}

class Application {
  private readonly changes: Change[] = [];
  private removed: Removed | undefined;
  private readonly brought: number;
  private readonly copied: number;

  constructor(
    private readonly holder: JsonObject,
    private readonly key: string,
    private readonly measures: Measures,
  ) {
    this.brought = measures.brought;
    this.copied = measures.copied;
  }

  /** Applies one operation; why not, where it does not apply. */
  apply(operation: unknown): Refused | undefined {
    if (!isObject(operation)) return new Refused("an operation is an object");
    const op = Object.hasOwn(operation, "op") ? operation["op"] : undefined;
    const path = tokensOf(
      Object.hasOwn(operation, "path") ? operation["path"] : undefined,
      "path",
    );
    if (path instanceof Refused) return path;
    switch (op) {
      case "add":
      case "replace":
      case "test": {
        const value = Object.hasOwn(operation, "value")
          ? operation["value"]
          : undefined;
        if (value === undefined)
          return new Refused(`a "${op}" operation has a value`);
        if (op === "test") return this.test(path, value);
        const place = this.placeOf(path);
        if (place instanceof Refused) return place;
        const copied = this.bring(value, path.length);
        return op === "add"
          ? this.add(place, copied)
          : this.replace(place, copied);
      }
      case "remove": {
        const place = this.placeOf(path);
        if (place instanceof Refused) return place;
        const removed = this.remove(place);
        return removed instanceof Refused ? removed : undefined;
      }
      case "move":
      case "copy": {
        const from = tokensOf(
          Object.hasOwn(operation, "from") ? operation["from"] : undefined,
          "from",
        );
        if (from instanceof Refused) return from;
        return op === "move" ? this.move(from, path) : this.copy(from, path);
      }
      default:
        return new Refused(
          `${JSON.stringify(op) ?? "no op"} is not an operation of RFC 6902 (add, remove, replace, move, copy, test)`,
        );
    }
  }

  /** Undoes every change, last first: the value is as it was before the patch. */
  undo(): void {
    for (let i = this.changes.length - 1; i >= 0; i--) {
      const change = this.changes[i]!;
      switch (change.kind) {
        case "member":
          if (change.had) put(change.object, change.key, change.value);
          else delete change.object[change.key];
          break;
        case "removed":
          this.removed!.get(change.object)!.delete(change.key);
          break;
        case "revived":
          this.removed!.get(change.object)!.add(change.key);
          break;
        case "inserted":
          change.list.splice(change.index, 1);
          break;
        case "deleted":
          change.list.splice(change.index, 0, change.value);
          break;
        case "element":
          change.list[change.index] = change.value;
          break;
      }
    }
    this.measures.brought = this.brought;
    this.measures.copied = this.copied;
  }

  /** Deletes the members the patch removed, now that all of it applied. */
  commit(): void {
    if (this.removed === undefined) return;
    for (const [object, keys] of this.removed)
      for (const key of keys) delete object[key];
  }

  // -------------------------------------------------------------------------------------
  // The operations.

  private add(place: Place, value: unknown): Refused | undefined {
    const { container, token } = place;
    if (Array.isArray(container)) {
      const index =
        token === "-" ? container.length : this.index(place, container.length);
      if (index instanceof Refused) return index;
      container.splice(index, 0, value);
      this.changes.push({ kind: "inserted", list: container, index });
      return undefined;
    }
    this.set(container, token, value);
    return undefined;
  }

  private replace(place: Place, value: unknown): Refused | undefined {
    const { container, token } = place;
    if (Array.isArray(container)) {
      const index = this.index(place, container.length - 1);
      if (index instanceof Refused) return index;
      this.changes.push({
        kind: "element",
        list: container,
        index,
        value: container[index],
      });
      container[index] = value;
      return undefined;
    }
    if (!this.has(container, token)) return this.absent(place);
    this.set(container, token, value);
    return undefined;
  }

  /** Takes the value out of its place and returns it. */
  private remove(place: Place): unknown {
    const { container, token } = place;
    if (container === this.holder)
      return new Refused(
        "it removes the whole value, which must stay one (replace it instead)",
      );
    if (Array.isArray(container)) {
      const index = this.index(place, container.length - 1);
      if (index instanceof Refused) return index;
      const [value] = container.splice(index, 1);
      this.changes.push({ kind: "deleted", list: container, index, value });
      return value;
    }
    if (!this.has(container, token)) return this.absent(place);
    this.removed ??= new Map();
    let keys = this.removed.get(container);
    if (keys === undefined) this.removed.set(container, (keys = new Set()));
    keys.add(token);
    this.changes.push({ kind: "removed", object: container, key: token });
    return container[token];
  }

  private move(from: string[], path: string[]): Refused | undefined {
    if (
      from.length < path.length &&
      from.every((token, i) => token === path[i])
    )
      return new Refused(
        `it moves ${pointerOf(from) || '""'} into ${pointerOf(path)}, inside itself`,
      );
    const source = this.placeOf(from);
    if (source instanceof Refused) return source;
    if (from.length === path.length && from.every((t, i) => t === path[i])) {
      // A move to where the value is changes nothing, once the value is there.
      const there = this.valueAt(source);
      return there instanceof Refused ? there : undefined;
    }
    const value = this.remove(source);
    if (value instanceof Refused) return value;
    // Deeper than it was, it could pass MAX_DEPTH: measured, and the measuring counted as copying.
    if (
      path.length > from.length &&
      typeof value === "object" &&
      value !== null
    )
      this.measure(value, path.length);
    const target = this.placeOf(path);
    if (target instanceof Refused) return target;
    return this.add(target, value);
  }

  private copy(from: string[], path: string[]): Refused | undefined {
    const source = this.placeOf(from);
    if (source instanceof Refused) return source;
    const value = this.valueAt(source);
    if (value instanceof Refused) return value;
    const target = this.placeOf(path);
    if (target instanceof Refused) return target;
    const measured = { size: 0, limit: this.allowance() };
    const copied = copyOf(value, path.length, measured, this.removed);
    this.measures.copied += measured.size;
    return this.add(target, copied);
  }

  private test(path: string[], expected: unknown): Refused | undefined {
    const place = this.placeOf(path);
    if (place instanceof Refused) return place;
    const value = this.valueAt(place);
    if (value instanceof Refused) return value;
    return this.equal(value, expected, 0)
      ? undefined
      : new Refused(
          `the value at ${pointerOf([...place.tokens, place.token]) || '""'} is not the one it tests for`,
        );
  }

  // -------------------------------------------------------------------------------------
  // Reading and writing places.

  /** The place a pointer names: its container must be there; what it names need not be. */
  private placeOf(tokens: readonly string[]): Place | Refused {
    if (tokens.length === 0)
      return { container: this.holder, token: this.key, tokens };
    let at: unknown = this.rootValue();
    if (at === undefined) return new Refused("there is no value to patch yet");
    const last = tokens.length - 1;
    for (let i = 0; i < last; i++) {
      const next = this.childOf(at, tokens, i);
      if (next instanceof Refused) return next;
      at = next;
    }
    if (typeof at !== "object" || at === null)
      return new Refused(
        `${pointerOf(tokens.slice(0, last)) || "the value"} is ${kindOf(at)}, which has no members or elements`,
      );
    return {
      container: at as Container,
      token: tokens[last]!,
      tokens: tokens.slice(0, last),
    };
  }

  /** The value a place holds. */
  private valueAt(place: Place): unknown {
    const { container, token } = place;
    if (container === this.holder) {
      const root = this.rootValue();
      return root === undefined
        ? new Refused("there is no value to patch yet")
        : root;
    }
    if (Array.isArray(container)) {
      const index = this.index(place, container.length - 1);
      return index instanceof Refused ? index : container[index];
    }
    return this.has(container, token) ? container[token] : this.absent(place);
  }

  /** The value of the token `tokens[i]` in `at`: an own member, or an element. */
  private childOf(at: unknown, tokens: readonly string[], i: number): unknown {
    const token = tokens[i]!;
    if (Array.isArray(at)) {
      if (INDEX.test(token) && Number(token) < at.length)
        return at[Number(token)];
    } else if (isObject(at)) {
      if (this.has(at, token)) return at[token];
    } else
      return new Refused(
        `${pointerOf(tokens.slice(0, i)) || "the value"} is ${kindOf(at)}, which has no members or elements`,
      );
    const place = { container: at, token, tokens: tokens.slice(0, i) };
    return Array.isArray(at)
      ? this.index(place, at.length - 1)
      : this.absent(place);
  }

  private rootValue(): unknown {
    return this.has(this.holder, this.key) ? this.holder[this.key] : undefined;
  }

  /** The index a place's token names, at most `last`. */
  private index(place: Place, last: number): number | Refused {
    const { token } = place;
    const list = pointerOf(place.tokens) || "the value";
    if (!INDEX.test(token))
      return new Refused(
        token === "-"
          ? `"-" names no element of the list at ${list} (only an add, a move or a copy may put a value at its end)`
          : `${JSON.stringify(token)} is not an index of the list at ${list} (0, or digits without a leading zero)`,
      );
    const index = Number(token);
    return index <= last
      ? index
      : new Refused(
          `the list at ${list} has ${last + 1} elements, and ${token} is past its end`,
        );
  }

  /** Whether an object has a member: its own, and not removed by this patch. */
  private has(object: JsonObject, key: string): boolean {
    return (
      Object.hasOwn(object, key) &&
      (this.removed === undefined || !this.removed.get(object)?.has(key))
    );
  }

  private absent(place: Place): Refused {
    return new Refused(
      place.container === this.holder
        ? "there is no value to patch yet"
        : `there is no ${pointerOf([...place.tokens, place.token])}`,
    );
  }

  /** Sets a member, logging what it was. */
  private set(object: JsonObject, key: string, value: unknown): void {
    const own = Object.hasOwn(object, key);
    this.changes.push({
      kind: "member",
      object,
      key,
      had: own,
      value: own ? object[key] : undefined,
    });
    if (own && this.removed?.get(object)?.delete(key))
      this.changes.push({ kind: "revived", object, key });
    put(object, key, value);
  }

  /** A copy of a value the operation brings in, at `depth`, measured into what the events brought. */
  private bring(value: unknown, depth: number): unknown {
    const measured = { size: 0, limit: Infinity };
    const copied = copyOf(value, depth, measured);
    this.measures.brought += measured.size;
    return copied;
  }

  /** Measures a value as if copied to `depth`, to refuse one that would nest too deep there. */
  private measure(value: unknown, depth: number): void {
    const measured = { size: 0, limit: this.allowance() };
    walk(value, depth, measured, this.removed);
    this.measures.copied += measured.size;
  }

  /** What copies may still add; see Measures. */
  private allowance(): number {
    return this.measures.brought + COPY_ALLOWANCE - this.measures.copied;
  }

  /** Whether two JSON values are equal: the same type and value, members and elements. */
  private equal(value: unknown, expected: unknown, depth: number): boolean {
    if (value === expected) return true;
    if (typeof value !== "object" || typeof expected !== "object") return false;
    if (value === null || expected === null) return false;
    // The value is the snapshot's, which nests no deeper than MAX_DEPTH.
    if (depth >= MAX_DEPTH) return false;
    if (Array.isArray(value)) {
      if (!Array.isArray(expected) || expected.length !== value.length)
        return false;
      for (let i = 0; i < value.length; i++)
        if (!this.equal(value[i], expected[i], depth + 1)) return false;
      return true;
    }
    if (Array.isArray(expected)) return false;
    const object = value as JsonObject;
    const keys = Object.keys(expected);
    let count = 0;
    for (const key of Object.keys(object)) if (this.has(object, key)) count++;
    if (count !== keys.length) return false;
    for (const key of keys)
      if (
        !this.has(object, key) ||
        !this.equal(object[key], (expected as JsonObject)[key], depth + 1)
      )
        return false;
    return true;
  }
}

/** Walks a value as copyOf would copy it to `depth`, measuring, without copying. */
function walk(
  value: unknown,
  depth: number,
  measured: { size: number; readonly limit: number },
  removed: Removed | undefined,
): void {
  measured.size++;
  if (typeof value === "string") measured.size += value.length;
  if (measured.size > measured.limit) throw new TooLarge();
  if (typeof value !== "object" || value === null) return;
  if (depth >= MAX_DEPTH) throw new TooDeep();
  if (Array.isArray(value)) {
    for (const item of value) walk(item, depth + 1, measured, removed);
    return;
  }
  const gone = removed?.get(value as JsonObject);
  for (const key of Object.keys(value)) {
    if (gone?.has(key)) continue;
    measured.size += key.length;
    walk((value as JsonObject)[key], depth + 1, measured, removed);
  }
}

/**
 * What a value of the snapshot is, in words that cost nothing however large it is, as a
 * refusal says it: its JSON where short (a number, true, false, null), else its kind.
 */
export function kindOf(value: unknown): string {
  if (typeof value === "string") return "text";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object" && value !== null) return "an object";
  return String(JSON.stringify(value));
}

/** Sets a member; one named "__proto__" is defined, so that it stays a member. */
function put(object: JsonObject, key: string, value: unknown): void {
  if (key === "__proto__") define(object, key, value);
  else object[key] = value;
}
