// Assembling what a protocol's stream builds over time (messages from their deltas, a task
// from its updates, state from snapshots and patches): what every protocol's `stream.ts`
// shares. Copied from templates/assemble.ts by agentwire; each protocol's module binds it
// to the assembly facts of its overlay. Patches are applied with rfc6902.

import { applyPatch } from "rfc6902";
import type { Operation } from "rfc6902";
import type { ChunkRule, Selector, StreamRule, Violation } from "./stream.js";
import { keyOf, matchesAny } from "./stream.js";

/**
 * A value built from an event: JSON in which `{ "$from": "/pointer" }` stands for the
 * event's value there (`"$else"` when it has none), and an object's properties that come
 * to nothing are left out.
 */
export type Template = unknown;

/**
 * A place in the snapshot: property names, `"*"` for any element of an array, and
 * `{ field: Template }` for the element whose field has that value.
 */
export type Path = readonly (string | { readonly [field: string]: Template })[];

/**
 * One thing an event does to the snapshot: set a value; add an element to a list unless
 * one has its key, or merge it into the one that has; append text, or items to a list;
 * apply an RFC 6902 patch.
 */
export type Action =
  | { readonly set: Path; readonly value: Template }
  | { readonly add: Path; readonly key: string; readonly value: Template }
  | { readonly merge: Path; readonly key: string; readonly value: Template }
  | { readonly append: Path; readonly value: Template }
  | { readonly patch: Path; readonly value: Template };

/** What events of some kinds do to the snapshot, with where the prose says so. */
export interface AssemblyStep {
  readonly name: string;
  readonly because: string;
  readonly on: readonly Selector[];
  readonly action: Action;
}

/**
 * Builds a snapshot from events, one at a time. A step that cannot apply (a patch that
 * does not apply, a delta for a message there is none of) is a violation and changes
 * nothing; nothing throws.
 */
export interface Assembler<T, S> {
  push(event: T): Violation | undefined;
  /** What the events so far have built. The live value: read it, do not change it. */
  snapshot(): S;
}

const { structuredClone: clone } = globalThis as unknown as {
  structuredClone<T>(value: T): T;
};

type Json = { [key: string]: unknown } | unknown[];

/** A chunk rule that says what its chunks stand for. */
type Expansion = ChunkRule & {
  readonly standsFor: NonNullable<ChunkRule["standsFor"]>;
};

/**
 * Why a step cannot apply, in words: said only when asked, since a walk through any
 * element of a list is refused by every element but the one it leads through.
 */
class Refusal {
  constructor(private readonly explain: () => string) {}
  get message(): string {
    return this.explain();
  }
}

/**
 * An assembler of the steps, from the initial snapshot. Chunks are first expanded into
 * the events their rules say they stand for.
 */
export function assembler<T, S>(
  steps: readonly AssemblyStep[],
  rules: readonly StreamRule[],
  kindOf: (event: T) => string,
  initial: S,
): Assembler<T, S> {
  const chunks = rules.filter(
    (rule): rule is Expansion =>
      rule.kind === "chunk" && rule.standsFor !== undefined,
  );
  return new StepAssembler(
    steps,
    chunks,
    kindOf as (event: unknown) => string,
    clone(initial) as { [key: string]: unknown },
  ) as Assembler<unknown, unknown> as Assembler<T, S>;
}

class StepAssembler {
  private index = -1;
  private readonly lanes = new Map<
    Expansion,
    { readonly key: string; readonly chunk: unknown }
  >();
  /** Per array and field, its elements by that field's value: built when first asked, kept as elements are added. */
  private readonly indexes = new WeakMap<
    unknown[],
    Map<string, Map<unknown, Json>>
  >();

  constructor(
    private readonly steps: readonly AssemblyStep[],
    private readonly chunks: readonly Expansion[],
    private readonly kindOf: (event: unknown) => string,
    private readonly state: { [key: string]: unknown },
  ) {}

  snapshot(): unknown {
    return this.state;
  }

  push(event: unknown): Violation | undefined {
    this.index++;
    let violation: Violation | undefined;
    for (const each of this.expand(event)) violation ??= this.apply(each);
    return violation;
  }

  /** An event's kind; a value that is not an object (a raw event gone wrong) has none. */
  private kind(event: unknown): string {
    return isObject(event) ? this.kindOf(event) : "";
  }

  /**
   * The event, or the events a chunk stands for; before either, the ends of the chunked
   * spans it closes: every open lane but its own and those it passes through.
   */
  private expand(event: unknown): unknown[] {
    const kind = this.kind(event);
    const closed: unknown[] = [];
    let expanded: unknown[] | undefined;
    for (const rule of this.chunks) {
      const lane = this.lanes.get(rule);
      if (!matchesAny(rule.events, event, kind)) {
        if (lane !== undefined && !matchesAny(rule.passThrough, event, kind)) {
          this.lanes.delete(rule);
          closed.push(
            synthesize(rule, rule.standsFor.closes, lane.chunk, lane.key),
          );
        }
        continue;
      }
      expanded = [];
      const key = keyOf(rule.key, event, kind);
      if (lane === undefined || (key !== undefined && key !== lane.key)) {
        if (lane !== undefined)
          closed.push(
            synthesize(rule, rule.standsFor.closes, lane.chunk, lane.key),
          );
        this.lanes.delete(rule);
        // A first chunk that names nothing stands for nothing: the verifier reports it.
        if (key === undefined) continue;
        this.lanes.set(rule, { key, chunk: event });
        expanded.push(synthesize(rule, rule.standsFor.opens, event, key));
      }
      expanded.push(
        synthesize(rule, rule.standsFor.continues, event, key ?? lane!.key),
      );
    }
    closed.push(...(expanded ?? [event]));
    return closed;
  }

  private apply(event: unknown): Violation | undefined {
    const kind = this.kind(event);
    for (const step of this.steps) {
      if (!matchesAny(step.on, event, kind)) continue;
      const refused = this.act(step.action, event);
      if (refused !== undefined)
        return {
          rule: step.name,
          message: `${kind}: ${refused.message}`,
          index: this.index,
        };
    }
    return undefined;
  }

  private act(action: Action, event: unknown): Refusal | undefined {
    const value = build(action.value, event);
    // A value the event does not carry (a delta left out) does nothing.
    if (value === undefined) return undefined;
    if ("set" in action) {
      const at = this.parentOf(action.set, event);
      if (at instanceof Refusal) return at;
      at.parent[at.key] = clone(value);
      return undefined;
    }
    if ("add" in action || "merge" in action) {
      const path = "add" in action ? action.add : action.merge;
      if (!isObject(value))
        return new Refusal(
          () =>
            `${describePath(path, event)} holds objects, and this is ${JSON.stringify(value)}`,
        );
      const key = value[action.key];
      // Without its key an element could be found by none, and two would be taken for one.
      if (key === undefined || key === null)
        return new Refusal(
          () =>
            `an element of ${describePath(path, event)} has no ${action.key}`,
        );
      // Only now, as it makes the list where there is none yet.
      const list = this.listAt(path, event);
      if (list instanceof Refusal) return list;
      const existing = this.find(list, action.key, key);
      if (existing === undefined) {
        const element = clone(value);
        list.push(element);
        this.indexes.get(list)?.get(action.key)?.set(key, element);
      } else if ("merge" in action) assignOwn(existing, clone(value));
      return undefined;
    }
    if ("append" in action) {
      const at = this.parentOf(action.append, event);
      if (at instanceof Refusal) return at;
      const current = at.parent[at.key];
      if (current === undefined) at.parent[at.key] = clone(value);
      else if (typeof current === "string" && typeof value === "string")
        at.parent[at.key] = current + value;
      else if (Array.isArray(current) && Array.isArray(value))
        // One at a time: a spread of many items overflows the call's arguments.
        for (const item of clone(value)) current.push(item);
      else
        return new Refusal(
          () =>
            `cannot append ${JSON.stringify(value)} to ${describePath(action.append, event)}, which is ${JSON.stringify(current)}`,
        );
      return undefined;
    }
    const at = this.parentOf(action.patch, event);
    if (at instanceof Refusal) return at;
    return patched(at.parent, at.key, value, () =>
      describePath(action.patch, event),
    );
  }

  /** The object that holds the last step of a path, and that step. */
  private parentOf(
    path: Path,
    event: unknown,
  ): { parent: { [key: string]: unknown }; key: string } | Refusal {
    const parent = this.walk(path.slice(0, -1), event, path.slice(0, -1));
    if (parent instanceof Refusal) return parent;
    const last = path.at(-1);
    if (typeof last !== "string" || last === "*" || !isObject(parent))
      return new Refusal(
        () => `${describePath(path, event)} is not a property`,
      );
    return { parent, key: last };
  }

  /** The array at a path, made empty where its object has none yet. */
  private listAt(path: Path, event: unknown): unknown[] | Refusal {
    const at = this.parentOf(path, event);
    if (at instanceof Refusal) return at;
    const list = (at.parent[at.key] ??= []);
    return Array.isArray(list)
      ? list
      : new Refusal(() => `${describePath(path, event)} is not a list`);
  }

  /** Where a path leads, from the snapshot or from a value in it; a refusal that says where it stops. */
  private walk(
    path: Path,
    event: unknown,
    whole: Path,
    start: unknown = this.state,
  ): unknown {
    let at = start;
    for (const [i, step] of path.entries()) {
      const here = () =>
        describePath(whole.slice(0, whole.length - path.length + i), event);
      if (typeof step === "string" && step !== "*") {
        if (!isObject(at) || at[step] === undefined || at[step] === null)
          return new Refusal(
            () =>
              `there is no ${describePath(whole.slice(0, whole.length - path.length + i + 1), event)} yet`,
          );
        at = at[step];
        continue;
      }
      if (!Array.isArray(at))
        return new Refusal(() => `${here()} is not a list`);
      if (step === "*") {
        // Any element: the first one the rest of the path leads through.
        for (const element of at) {
          const found = this.walk(path.slice(i + 1), event, whole, element);
          if (!(found instanceof Refusal)) return found;
        }
        return new Refusal(
          () =>
            `no element of ${here()} leads to ${describePath(whole, event)}`,
        );
      }
      const [field, template] = Object.entries(step)[0]!;
      const wanted = build(template, event);
      const element = this.find(at, field, wanted);
      if (element === undefined)
        return new Refusal(
          () =>
            `there is no ${here()} element whose ${field} is ${JSON.stringify(wanted)}`,
        );
      at = element;
    }
    return at;
  }

  /** The element of an array whose field has the value, through the array's index. */
  private find(
    list: unknown[],
    field: string,
    value: unknown,
  ): Json | undefined {
    let byField = this.indexes.get(list);
    if (byField === undefined) this.indexes.set(list, (byField = new Map()));
    let index = byField.get(field);
    if (index === undefined) {
      index = new Map();
      for (const element of list)
        if (isObject(element) && !index.has(element[field]))
          index.set(element[field], element);
      byField.set(field, index);
    }
    return index.get(value);
  }
}

/**
 * Applies an RFC 6902 patch to a copy of a value, read relative to it (its root is ""),
 * and keeps the copy only when every operation applied.
 */
function patched(
  parent: { [key: string]: unknown },
  key: string,
  patch: unknown,
  where: () => string,
): Refusal | undefined {
  if (!Array.isArray(patch))
    return new Refusal(
      () => `the patch for ${where()} is not a list of operations`,
    );
  const operations: Operation[] = [];
  for (const [i, operation] of patch.entries()) {
    const rebased = rebase(operation);
    if (rebased instanceof Refusal)
      return new Refusal(
        () =>
          `operation ${i} of the patch (${JSON.stringify(operation)}) does not apply to ${where()}: ${rebased.message}`,
      );
    operations.push(rebased);
  }
  // Boxed, so that an operation on the root ("") has an object to change.
  const box = { value: clone(parent[key]) };
  for (const [i, operation] of operations.entries()) {
    const refused = (why: string) =>
      new Refusal(
        () =>
          `operation ${i} of the patch (${JSON.stringify(patch[i])}) does not apply to ${where()} (${why})`,
      );
    const missed = replacesNoElement(box, operation);
    if (missed !== undefined) return refused(missed);
    let result: ReturnType<typeof applyPatch>[number] | undefined;
    try {
      [result] = applyPatch(box, [operation]);
    } catch (error) {
      return refused((error as Error).message);
    }
    if (result) return refused(result.name);
    if (box.value === undefined)
      return refused("it removes the whole value, which must stay one");
  }
  parent[key] = box.value;
  return undefined;
}

/**
 * An operation with its pointers moved under the box's `value`. A pointer is "" or starts
 * with "/" (RFC 6901): any other would name a property of the box beside the value, and
 * the patch would seem to apply while it changed nothing.
 */
function rebase(operation: unknown): Operation | Refusal {
  if (!isObject(operation)) return operation as Operation;
  const rebased: { [key: string]: unknown } = { ...operation };
  for (const field of ["path", "from"]) {
    const pointer = rebased[field];
    if (typeof pointer !== "string") continue;
    if (pointer !== "" && !pointer.startsWith("/"))
      return new Refusal(
        () => `its ${field} ${JSON.stringify(pointer)} is not a JSON Pointer`,
      );
    rebased[field] = `/value${pointer}`;
  }
  return rebased as unknown as Operation;
}

/**
 * Why a replace would not replace an element of an array: rfc6902 takes any token under
 * an array for an index, and sets `01` or `-` as a property beside the elements while it
 * reports success. RFC 6901 spells an index as `0` or digits without a leading zero.
 */
function replacesNoElement(
  box: { value: unknown },
  operation: unknown,
): string | undefined {
  if (
    !isObject(operation) ||
    operation["op"] !== "replace" ||
    typeof operation["path"] !== "string"
  )
    return undefined;
  const tokens = operation["path"]
    .split("/")
    .slice(1)
    .map((token) => token.replaceAll("~1", "/").replaceAll("~0", "~"));
  let at: unknown = box;
  for (const token of tokens.slice(0, -1)) {
    if (typeof at !== "object" || at === null || !Object.hasOwn(at, token))
      return undefined;
    at = (at as { [key: string]: unknown })[token];
  }
  const last = tokens.at(-1)!;
  return Array.isArray(at) && !/^(0|[1-9][0-9]*)$/.test(last)
    ? `${JSON.stringify(last)} is not an index of the list there`
    : undefined;
}

/** An event a chunk stands for, with the chunk's key where the chunk's key path is. */
function synthesize(
  rule: Expansion,
  template: unknown,
  chunk: unknown,
  key: string,
): unknown {
  const event = build(template, chunk) as { [key: string]: unknown };
  const path = rule.key["*"] ?? [];
  let at = event;
  for (const token of path.slice(0, -1))
    at = (at[token] ??= {}) as { [key: string]: unknown };
  if (path.length > 0) at[path.at(-1)!] = key;
  return event;
}

/** A template filled in from an event. */
function build(template: unknown, event: unknown): unknown {
  if (Array.isArray(template))
    return template.map((item) => build(item, event));
  if (!isObject(template)) return template;
  if (typeof template["$from"] === "string") {
    const value = valueAt(event, template["$from"]);
    return value === undefined && "$else" in template
      ? build(template["$else"], event)
      : value;
  }
  const built: { [key: string]: unknown } = {};
  for (const [key, value] of Object.entries(template)) {
    const filled = build(value, event);
    if (filled !== undefined) built[key] = filled;
  }
  return built;
}

/** The value at a JSON Pointer, or undefined. */
function valueAt(value: unknown, pointer: string): unknown {
  if (pointer === "") return value;
  let at = value;
  for (const token of pointer.slice(1).split("/")) {
    const key = token.replaceAll("~1", "/").replaceAll("~0", "~");
    if (!isObject(at) || !Object.hasOwn(at, key)) return undefined;
    at = at[key];
  }
  return at;
}

/** A path in words: `messages[id="m1"].content`, the keys as the event fills them in. */
function describePath(path: Path, event: unknown): string {
  return path
    .map((step) => {
      if (typeof step === "string") return `.${step}`;
      const [field, template] = Object.entries(step)[0]!;
      return `[${field}=${JSON.stringify(build(template, event))}]`;
    })
    .join("")
    .slice(1);
}

/**
 * Copies a value's own properties onto an object as properties, as `Object.assign` does
 * but for `__proto__`, which `Object.assign` would take as the object's prototype.
 */
function assignOwn(target: Json, source: { [key: string]: unknown }): void {
  for (const key of Object.keys(source))
    Object.defineProperty(target, key, {
      value: source[key],
      writable: true,
      enumerable: true,
      configurable: true,
    });
}

function isObject(value: unknown): value is { [key: string]: unknown } {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
