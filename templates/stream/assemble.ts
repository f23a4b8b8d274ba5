// Assembling what a protocol's stream builds over time (messages from their deltas, a task
// from its updates, state from snapshots and patches). Copied from
// templates/stream/assemble.ts by agentwire; each protocol's module binds it to the
// assembly facts of its overlay. Patches are applied by patch.ts, in place.

import { define, MAX_DEPTH } from "../runtime.js";
import type { Measures } from "./copy.js";
import { copyValue, TooDeep } from "./copy.js";
import { applyPatch, isObject, kindOf } from "./patch.js";
import type { Violation } from "./result.js";
import { ListIndexes } from "./lists.js";
import { keyOf, matchesAny } from "./select.js";
import type {
  Across,
  Builder,
  ChunkExpansion,
  Compiled,
  Json,
  KindStep,
  PathStep,
  Step,
} from "./steps.js";
import { Refusal, compile } from "./steps.js";
import type { AssemblyPlan } from "./tables.js";

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

// ---------------------------------------------------------------------------------------
// Assembling.

/** What a walk returns where its path leads nowhere; the assembler keeps where and why. */
const MISSED: unique symbol = Symbol("missed");

/**
 * An assembler of the steps, from the initial snapshot. Chunks are first expanded into
 * the events their rules say they stand for.
 */
export function assembler<T, S>(
  plan: AssemblyPlan,
  kindOf: (event: T) => string,
  initial: S,
): Assembler<T, S> {
  return new StepAssembler(
    compile(plan),
    kindOf as (event: unknown) => string,
    initial,
  ) as Assembler<unknown, unknown> as Assembler<T, S>;
}

class StepAssembler {
  private index = -1;
  private readonly lanes = new Map<
    ChunkExpansion,
    { readonly key: string; readonly chunk: unknown }
  >();
  /** The snapshot. */
  private readonly state: { [key: string]: unknown };
  /** What the events brought in, and what patches copied (see Measures). */
  private readonly measures: Measures = { brought: 0, copied: 0 };
  /** The indexes of the lists it has looked up or added to. */
  private indexes = new ListIndexes();
  // Where the last walk that missed stopped (a step of its path) and why; kept in fields,
  // not in a refusal, because a walk through any element misses at all elements but one.
  private missedAt = 0;
  private missedWhy: "absent" | "not-a-list" | "no-element" | "no-match" =
    "absent";
  private missedWanted: unknown;
  // Events mostly come in runs of one kind, for one element (a message's deltas): what the
  // last one looked up is kept, and compared with rather than hashed again, as a new string
  // would be each time (bench/stream.bench.js).
  /** The last kind, its steps, and whether it is a chunk's. */
  private lastKind: string | undefined;
  private lastSteps: readonly KindStep[] | undefined;
  private lastChunked = false;
  /** The index that find used last, its array and field, and the last element it found. */
  private lastList: unknown[] | undefined;
  private lastField: string | undefined;
  private lastIndex: Map<unknown, Json> | undefined;
  private lastValue: unknown;
  private lastElement: Json | undefined;
  /** The last append that remembers (see Step), the values it wanted, and the object it found. */
  private remembered: Step | undefined;
  private rememberedWanted: unknown[] = [];
  private rememberedParent: { [key: string]: unknown } | undefined;

  constructor(
    private readonly compiled: Compiled,
    private readonly kindOf: (event: unknown) => string,
    initial: unknown,
  ) {
    this.state = copyValue(initial, this.measures) as {
      [key: string]: unknown;
    };
  }

  snapshot(): unknown {
    return this.state;
  }

  push(event: unknown): Violation | undefined {
    this.index++;
    const kind = this.kind(event);
    this.learn(kind);
    // Most events are no chunk and come with no chunked span open: they stand for themselves.
    if (this.lanes.size === 0 && !this.lastChunked)
      return this.appendsTextAgain(event) ? undefined : this.apply(event, kind);
    let violation: Violation | undefined;
    for (const each of this.expand(event, kind))
      violation ??= this.apply(each, this.kind(each));
    return violation;
  }

  /**
   * Whether the event, whose kind's one step is the remembered append, appended its text
   * where the last one did: what most events of a stream do (a message's deltas), done
   * without the walk.
   */
  private appendsTextAgain(event: unknown): boolean {
    const step = this.remembered;
    const steps = this.lastSteps!;
    if (step === undefined || steps.length !== 1 || steps[0]!.step !== step)
      return false;
    if (!steps[0]!.always || !this.wantsTheSame(step, event)) return false;
    const { fields } = step;
    const value =
      fields === undefined
        ? step.value(event)
        : (event as { [key: string]: unknown })[fields.value];
    const parent = this.rememberedParent!;
    const current = parent[step.property!];
    if (typeof value !== "string" || typeof current !== "string") return false;
    parent[step.property!] = current + value;
    this.measures.brought += value.length + 1;
    return true;
  }

  /** Whether the event wants the elements the remembered append's path went through. */
  private wantsTheSame(step: Step, event: unknown): boolean {
    const { fields } = step;
    for (let i = 0; i < step.wanted.length; i++) {
      const wanted =
        fields === undefined
          ? step.wanted[i]!(event)
          : (event as { [key: string]: unknown })[fields.wanted[i]!];
      if (wanted !== this.rememberedWanted[i]) return false;
    }
    return true;
  }

  /** An event's kind; a value that is not an object (a raw event gone wrong) has none. */
  private kind(event: unknown): string {
    return isObject(event) ? this.kindOf(event) : "";
  }

  /** The steps and chunk rules of a kind, unless it is the last one's. */
  private learn(kind: string): void {
    if (kind === this.lastKind && this.lastSteps !== undefined) return;
    this.lastKind = kind;
    this.lastSteps = this.compiled.steps.get(kind) ?? [];
    this.lastChunked = this.compiled.chunked.has(kind);
  }

  /**
   * The event, or the events a chunk stands for; before either, the ends of the chunked
   * spans it closes: every open lane but its own and those it passes through.
   */
  private expand(event: unknown, kind: string): unknown[] {
    const closed: unknown[] = [];
    let expanded: unknown[] | undefined;
    for (const chunks of this.compiled.chunks) {
      const { rule } = chunks;
      const lane = this.lanes.get(chunks);
      if (!matchesAny(rule.events, event, kind)) {
        if (lane !== undefined && !matchesAny(rule.passThrough, event, kind)) {
          this.lanes.delete(chunks);
          closed.push(synthesize(chunks, chunks.closes, lane.chunk, lane.key));
        }
        continue;
      }
      expanded = [];
      const key = keyOf(rule.key, event, kind);
      if (lane === undefined || (key !== undefined && key !== lane.key)) {
        if (lane !== undefined)
          closed.push(synthesize(chunks, chunks.closes, lane.chunk, lane.key));
        this.lanes.delete(chunks);
        // A first chunk that names nothing stands for nothing: the verifier reports it.
        if (key === undefined) continue;
        this.lanes.set(chunks, { key, chunk: event });
        expanded.push(synthesize(chunks, chunks.opens, event, key));
      }
      expanded.push(
        synthesize(chunks, chunks.continues, event, key ?? lane!.key),
      );
    }
    closed.push(...(expanded ?? [event]));
    return closed;
  }

  private apply(event: unknown, kind: string): Violation | undefined {
    this.learn(kind);
    for (const { step, always } of this.lastSteps!) {
      if (!always && !matchesAny(step.on, event, kind)) continue;
      // Any other step may change what a path leads to.
      if (step !== this.remembered) this.remembered = undefined;
      const refused = this.attempt(step, event);
      if (refused !== undefined)
        return {
          rule: step.name,
          message: `${kind}: ${refused.message}`,
          index: this.index,
        };
      if (step.disturbs) this.forgetIndexes();
    }
    return undefined;
  }

  /** The step acted out, or why not: a value too deep to copy is refused before anything changes. */
  private attempt(step: Step, event: unknown): Refusal | undefined {
    try {
      return this.act(step, event);
    } catch (error) {
      if (!(error instanceof TooDeep)) throw error;
      return new Refusal(
        () => `the value nests deeper than ${MAX_DEPTH} levels`,
      );
    }
  }

  private act(step: Step, event: unknown): Refusal | undefined {
    const value = step.value(event);
    // A value the event does not carry (a delta left out) does nothing.
    if (value === undefined) return undefined;
    const { path } = step;
    switch (step.verb) {
      case "set": {
        const parent = this.parentOf(step, event);
        if (parent instanceof Refusal) return parent;
        const copied = copyValue(value, this.measures);
        parent[step.property!] = copied;
        this.indexes.placed(parent, step.property!, copied);
        return undefined;
      }
      case "add":
      case "merge": {
        if (!isObject(value))
          return new Refusal(
            () =>
              `${describePath(path, event)} holds objects, and this is ${JSON.stringify(value)}`,
          );
        const key = value[step.key];
        // Without its key an element could be found by none, and two would be taken for one.
        if (key === undefined || key === null)
          return new Refusal(
            () =>
              `an element of ${describePath(path, event)} has no ${step.key}`,
          );
        // Only now, as it makes the list where there is none yet.
        const list = this.listAt(step, event);
        if (list instanceof Refusal) return list;
        const existing = this.find(list, step.key, key);
        if (existing === undefined)
          this.indexes.pushOnto(list, copyValue(value, this.measures));
        else if (step.verb === "merge") {
          // Defined, not assigned: a property named "__proto__" stays a property.
          const copied = copyValue(value, this.measures);
          for (const field of Object.keys(copied)) {
            define(
              existing as { [key: string]: unknown },
              field,
              copied[field],
            );
            this.indexes.placed(existing, field, copied[field]);
          }
        }
        return undefined;
      }
      case "append": {
        const parent = this.appendedTo(step, event);
        if (parent instanceof Refusal) return parent;
        const property = step.property!;
        const current = parent[property];
        if (current === undefined) {
          const copied = copyValue(value, this.measures);
          parent[property] = copied;
          this.indexes.placed(parent, property, copied);
        } else if (typeof current === "string" && typeof value === "string") {
          parent[property] = current + value;
          this.measures.brought += value.length + 1;
        } else if (Array.isArray(current) && Array.isArray(value))
          // One at a time: a spread of many items overflows the call's arguments.
          for (const item of copyValue(value, this.measures))
            this.indexes.pushOnto(current, item);
        else
          return new Refusal(
            () =>
              `cannot append ${JSON.stringify(value)} to ${describePath(path, event)}, which is ${kindOf(current)}`,
          );
        return undefined;
      }
      case "patch": {
        const parent = this.parentOf(step, event);
        if (parent instanceof Refusal) return parent;
        const refused = applyPatch(
          parent,
          step.property!,
          value,
          this.measures,
        );
        if (refused === undefined) return undefined;
        const { operation, reason } = refused;
        return new Refusal(() =>
          operation < 0
            ? `the patch for ${describePath(path, event)} is not a list of operations`
            : `operation ${operation} of the patch (${JSON.stringify((value as unknown[])[operation])}) does not apply to ${describePath(path, event)}: ${reason}`,
        );
      }
    }
  }

  /** The object that holds the last step of a step's path, which is a property. */
  private parentOf(
    { path, property }: Step,
    event: unknown,
  ): { [key: string]: unknown } | Refusal {
    const parent = this.walk(path, 0, path.length - 1, event, this.state);
    if (parent === MISSED) return this.missed(path, path.length - 1, event);
    if (property === undefined || !isObject(parent))
      return new Refusal(
        () => `${describePath(path, event)} is not a property`,
      );
    return parent;
  }

  /** The object an append adds to: the one it added to last, where it wants the same elements again; else walked to. */
  private appendedTo(
    step: Step,
    event: unknown,
  ): { [key: string]: unknown } | Refusal {
    if (step === this.remembered && this.wantsTheSame(step, event))
      return this.rememberedParent!;
    const parent = this.parentOf(step, event);
    if (step.remembers && !(parent instanceof Refusal)) {
      this.remembered = step;
      this.rememberedWanted = step.wanted.map((wanted) => wanted(event));
      this.rememberedParent = parent;
    }
    return parent;
  }

  /** The array at a step's path, made empty where its object has none yet. */
  private listAt(step: Step, event: unknown): unknown[] | Refusal {
    const { path } = step;
    const parent = this.parentOf(step, event);
    if (parent instanceof Refusal) return parent;
    const property = step.property!;
    let list = parent[property];
    if (list === undefined || list === null) {
      parent[property] = list = [];
      this.indexes.placed(parent, property, list);
    }
    return Array.isArray(list)
      ? list
      : new Refusal(() => `${describePath(path, event)} is not a list`);
  }

  /**
   * Where the steps of a path from `from` to `to` (not included) lead from a value; MISSED
   * where they lead nowhere, with where and why in the missed fields.
   */
  private walk(
    path: readonly PathStep[],
    from: number,
    to: number,
    event: unknown,
    start: unknown,
  ): unknown {
    let at = start;
    for (let i = from; i < to; i++) {
      const step = path[i]!;
      if (step.kind === "property") {
        const next = isObject(at) ? at[step.name] : undefined;
        if (next === undefined || next === null) return this.miss(i, "absent");
        at = next;
        continue;
      }
      if (!Array.isArray(at)) return this.miss(i, "not-a-list");
      if (step.kind === "any") {
        // Any element: the first one the rest of the path leads through. Where the rest
        // looks for an element of a list each holds, only those that hold one are tried.
        const { across } = step;
        if (across === undefined)
          for (const element of at) {
            const found = this.walk(path, i + 1, to, event, element);
            if (found !== MISSED) return found;
          }
        else {
          const holders = this.indexes
            .across(at, across)
            .holders.get(across.wanted(event));
          if (holders !== undefined && !Array.isArray(holders)) {
            const found = this.walk(path, i + 1, to, event, holders.element);
            if (found !== MISSED) return found;
          } else if (holders !== undefined)
            for (const { element } of holders) {
              const found = this.walk(path, i + 1, to, event, element);
              if (found !== MISSED) return found;
            }
        }
        return this.miss(i, "no-element");
      }
      const wanted = step.value!(event);
      const element = this.find(at, step.name, wanted);
      if (element === undefined) return this.miss(i, "no-match", wanted);
      at = element;
    }
    return at;
  }

  private miss(
    at: number,
    why: StepAssembler["missedWhy"],
    wanted?: unknown,
  ): typeof MISSED {
    this.missedAt = at;
    this.missedWhy = why;
    this.missedWanted = wanted;
    return MISSED;
  }

  /** Why the last walk, along the path up to `to`, missed: in words, when asked. */
  private missed(
    path: readonly PathStep[],
    to: number,
    event: unknown,
  ): Refusal {
    const { missedAt: at, missedWhy: why, missedWanted: wanted } = this;
    const upTo = (end: number) => describePath(path.slice(0, end), event);
    switch (why) {
      case "absent":
        return new Refusal(() => `there is no ${upTo(at + 1)} yet`);
      case "not-a-list":
        return new Refusal(() => `${upTo(at)} is not a list`);
      case "no-element":
        return new Refusal(
          () => `no element of ${upTo(at)} leads to ${upTo(to)}`,
        );
      case "no-match":
        return new Refusal(
          () =>
            `there is no ${upTo(at)} element whose ${path[at]!.name} is ${JSON.stringify(wanted)}`,
        );
    }
  }

  /** The element of an array whose field has the value, through the array's index. */
  private find(
    list: unknown[],
    field: string,
    value: unknown,
  ): Json | undefined {
    // Mostly the same list as the last time (the messages, the artifacts), and the same
    // element: an element once found under a value stays the one found under it.
    if (list === this.lastList && field === this.lastField) {
      if (value === this.lastValue && this.lastElement !== undefined)
        return this.lastElement;
      const found = this.lastIndex!.get(value);
      if (found !== undefined) {
        this.lastValue = value;
        this.lastElement = found;
      }
      return found;
    }
    const indexes = this.indexes.of(list);
    const byField = (indexes.byField ??= new Map());
    let index = byField.get(field);
    if (index === undefined) {
      index = new Map();
      for (const element of list)
        if (isObject(element) && !index.has(element[field]))
          index.set(element[field], element);
      byField.set(field, index);
    }
    this.lastList = list;
    this.lastField = field;
    this.lastIndex = index;
    this.lastElement = index.get(value);
    this.lastValue = value;
    return this.lastElement;
  }

  /** Forgets every index, after a step that may have changed what they hold (Step.disturbs). */
  private forgetIndexes(): void {
    this.indexes = new ListIndexes();
    this.lastList = undefined;
    this.lastIndex = undefined;
    this.lastElement = undefined;
  }
}

/** An event a chunk stands for, with the chunk's key where the chunk's key path is. */
function synthesize(
  chunks: ChunkExpansion,
  template: Builder,
  chunk: unknown,
  key: string,
): unknown {
  const event = template(chunk) as { [key: string]: unknown };
  const path = chunks.keyPath;
  let at = event;
  for (const token of path.slice(0, -1))
    at = (at[token] ??= {}) as { [key: string]: unknown };
  if (path.length > 0) at[path.at(-1)!] = key;
  return event;
}

/** A path in words: `messages[id="m1"].content`, the keys as the event fills them in. */
function describePath(path: readonly PathStep[], event: unknown): string {
  return path
    .map((step) =>
      step.kind === "where"
        ? `[${step.name}=${JSON.stringify(step.value!(event))}]`
        : `.${step.name}`,
    )
    .join("")
    .slice(1);
}
