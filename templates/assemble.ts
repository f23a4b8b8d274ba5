// Assembling what a protocol's stream builds over time (messages from their deltas, a task
// from its updates, state from snapshots and patches): what every protocol's `stream.ts`
// shares. Copied from templates/assemble.ts by agentwire; each protocol's module binds it
// to the assembly facts of its overlay. Patches are applied with rfc6902.

import { applyPatch } from "rfc6902";
import type { Operation } from "rfc6902";
import type { ChunkRule, Selector, StreamRule, Violation } from "./stream.js";
import { define, MAX_DEPTH } from "./runtime.js";
import { keyOf, matchesAny, valueAt } from "./stream.js";

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

/**
 * A copy of a JSON value (what events carry): objects and arrays copied, the rest as it
 * is. The assembler keeps copies, so that changing what it built changes no event. Not
 * structuredClone, which costs microseconds on the small values events hold
 * (bench/stream.bench.js). A value nested past MAX_DEPTH, as the guards refuse one,
 * throws, and the push that asked for the copy refuses the event.
 */
function copy<T>(value: T, depth = 0): T {
  if (typeof value !== "object" || value === null) return value;
  if (depth === MAX_DEPTH) throw new TooDeep();
  if (Array.isArray(value)) {
    const items: unknown[] = [];
    for (const item of value) items.push(copy(item, depth + 1));
    return items as T;
  }
  const copied: { [key: string]: unknown } = {};
  for (const key of Object.keys(value)) {
    const item = copy((value as { [key: string]: unknown })[key], depth + 1);
    if (key === "__proto__") define(copied, key, item);
    else copied[key] = item;
  }
  return copied as T;
}

class TooDeep extends Error {}

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

// ---------------------------------------------------------------------------------------
// The facts compiled. They are data, and a push reads them for every event: compiled once
// per step array (pointers split, templates made functions, steps filed under the kinds
// they name), a push parses nothing and asks only the steps that can match its event.

/** A template compiled: the value it builds from an event. */
type Builder = (event: unknown) => unknown;

/** A step of a path, compiled: a property, any element of a list, or the element whose field has a value. */
interface PathStep {
  readonly kind: "property" | "any" | "where";
  /** The property, or the element's field. */
  readonly name: string;
  /** The field's value, built from the event (`where` only). */
  readonly value: Builder | undefined;
}

/** A step compiled: its action's kind, path, key and value. */
interface Step {
  readonly name: string;
  readonly on: readonly Selector[];
  readonly action: "set" | "add" | "merge" | "append" | "patch";
  readonly path: readonly PathStep[];
  /** The path's last step, where it is a property; undefined where it is not. */
  readonly property: string | undefined;
  /** The field elements are told apart by (`add` and `merge`). */
  readonly key: string;
  readonly value: Builder;
  /** The values its path's `where` steps look for, built from the event. */
  readonly wanted: readonly Builder[];
  /**
   * An append whose object, once found, is found again by an event that wants the same
   * elements, until another step changes the snapshot: appending changes no step of the
   * path, unless a `where` step looks at the very property appended to.
   */
  readonly remembers: boolean;
  /**
   * Where the value and the wanted values are each a property of the event, their names:
   * a run of appends reads them where it runs, which a lookup shared by every template
   * cannot do as fast.
   */
  readonly fields:
    { readonly value: string; readonly wanted: readonly string[] } | undefined;
}

/** A step filed under a kind: `always` where a selector of it takes any event of the kind. */
interface KindStep {
  readonly step: Step;
  readonly always: boolean;
}

/** A chunk rule compiled: the events its chunks stand for, and where a chunk's key goes in them. */
interface ChunkExpansion {
  readonly rule: Expansion;
  readonly opens: Builder;
  readonly continues: Builder;
  readonly closes: Builder;
  readonly keyPath: readonly string[];
}

interface Compiled {
  /** Per kind, the steps a selector of which names it, in their order. */
  readonly steps: ReadonlyMap<string, readonly KindStep[]>;
  readonly chunks: readonly ChunkExpansion[];
  /** The kinds a chunk rule's events name: only they, or an open lane, expand. */
  readonly chunked: ReadonlySet<string>;
}

const compiledSteps = new WeakMap<
  readonly AssemblyStep[],
  ReadonlyMap<string, readonly KindStep[]>
>();
const compiledChunks = new WeakMap<
  readonly StreamRule[],
  Pick<Compiled, "chunks" | "chunked">
>();

function compile(
  steps: readonly AssemblyStep[],
  rules: readonly StreamRule[],
): Compiled {
  let byKind = compiledSteps.get(steps);
  if (byKind === undefined) {
    const all = steps.map(compileStep);
    const filed = new Map<string, KindStep[]>();
    for (const step of all)
      for (const { event: kind } of step.on)
        if (!filed.has(kind))
          filed.set(
            kind,
            all
              .filter((other) => other.on.some(({ event }) => event === kind))
              .map((other) => ({
                step: other,
                always: other.on.some(
                  ({ event, where, unless }) =>
                    event === kind &&
                    where === undefined &&
                    unless === undefined,
                ),
              })),
          );
    compiledSteps.set(steps, (byKind = filed));
  }
  let chunks = compiledChunks.get(rules);
  if (chunks === undefined) {
    const expansions = rules
      .filter(
        (rule): rule is Expansion =>
          rule.kind === "chunk" && rule.standsFor !== undefined,
      )
      .map((rule) => ({
        rule,
        opens: compileTemplate(rule.standsFor.opens),
        continues: compileTemplate(rule.standsFor.continues),
        closes: compileTemplate(rule.standsFor.closes),
        keyPath: rule.key["*"] ?? [],
      }));
    chunks = {
      chunks: expansions,
      chunked: new Set(
        expansions.flatMap(({ rule }) => rule.events.map(({ event }) => event)),
      ),
    };
    compiledChunks.set(rules, chunks);
  }
  return { steps: byKind, ...chunks };
}

function compileStep({ name, on, action }: AssemblyStep): Step {
  const [kind, path] =
    "set" in action
      ? (["set", action.set] as const)
      : "add" in action
        ? (["add", action.add] as const)
        : "merge" in action
          ? (["merge", action.merge] as const)
          : "append" in action
            ? (["append", action.append] as const)
            : (["patch", action.patch] as const);
  const last = path.at(-1);
  const property = typeof last === "string" && last !== "*" ? last : undefined;
  const steps = path.map((step): PathStep => {
    if (typeof step === "string")
      return {
        kind: step === "*" ? "any" : "property",
        name: step,
        value: undefined,
      };
    const [field, template] = Object.entries(step)[0]!;
    return { kind: "where", name: field, value: compileTemplate(template) };
  });
  const wheres = steps.filter((step) => step.kind === "where");
  return {
    name,
    on,
    action: kind,
    property,
    path: steps,
    key: "key" in action ? action.key : "",
    value: compileTemplate(action.value),
    wanted: wheres.map((step) => step.value!),
    fields: fieldsOf(
      action.value,
      path.flatMap((step) =>
        typeof step === "string" ? [] : [Object.values(step)[0]],
      ),
    ),
    remembers:
      kind === "append" &&
      property !== undefined &&
      wheres.every((step) => step.name !== property),
  };
}

/** The names of the event's properties that a step's value and wanted values are, where each is one. */
function fieldsOf(
  value: Template,
  wanted: readonly Template[],
): Step["fields"] {
  const valueField = fieldOf(value);
  const wantedFields = wanted.map(fieldOf);
  return valueField === undefined || wantedFields.includes(undefined)
    ? undefined
    : { value: valueField, wanted: wantedFields as string[] };
}

/** The property a template is, where it is `{ "$from": "/name" }` of a name no object inherits. */
function fieldOf(template: Template): string | undefined {
  if (!isObject(template) || Object.keys(template).length !== 1)
    return undefined;
  const from = template["$from"];
  if (typeof from !== "string") return undefined;
  const tokens = pointerTokens(from);
  return tokens.length === 1 && !(tokens[0]! in Object.prototype)
    ? tokens[0]
    : undefined;
}

/** A template as a function of the event; see {@link Template}. */
function compileTemplate(template: unknown): Builder {
  if (Array.isArray(template)) {
    const items = template.map(compileTemplate);
    return (event) => items.map((item) => item(event));
  }
  if (!isObject(template)) return () => template;
  // Mostly a property of the event itself, which no plain object inherits: one lookup.
  const field = fieldOf(template);
  if (field !== undefined)
    return (event) => (isObject(event) ? event[field] : undefined);
  const from = template["$from"];
  if (typeof from === "string") {
    const tokens = pointerTokens(from);
    if (!("$else" in template)) return (event) => valueAt(event, tokens);
    const otherwise = compileTemplate(template["$else"]);
    return (event) => {
      const value = valueAt(event, tokens);
      return value === undefined ? otherwise(event) : value;
    };
  }
  const properties = Object.entries(template).map(
    ([key, value]) => [key, compileTemplate(value)] as const,
  );
  return (event) => {
    const built: { [key: string]: unknown } = {};
    for (const [key, fill] of properties) {
      const filled = fill(event);
      if (filled !== undefined) built[key] = filled;
    }
    return built;
  };
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
  steps: readonly AssemblyStep[],
  rules: readonly StreamRule[],
  kindOf: (event: T) => string,
  initial: S,
): Assembler<T, S> {
  return new StepAssembler(
    compile(steps, rules),
    kindOf as (event: unknown) => string,
    copy(initial) as { [key: string]: unknown },
  ) as Assembler<unknown, unknown> as Assembler<T, S>;
}

class StepAssembler {
  private index = -1;
  private readonly lanes = new Map<
    ChunkExpansion,
    { readonly key: string; readonly chunk: unknown }
  >();
  /** Per array and field, its elements by that field's value: built when first asked, kept as elements are added. */
  private readonly indexes = new WeakMap<
    unknown[],
    Map<string, Map<unknown, Json>>
  >();
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
    private readonly state: { [key: string]: unknown },
  ) {}

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
    switch (step.action) {
      case "set": {
        const parent = this.parentOf(step, event);
        if (parent instanceof Refusal) return parent;
        parent[step.property!] = copy(value);
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
        if (existing === undefined) {
          const element = copy(value);
          list.push(element);
          this.indexes.get(list)?.get(step.key)?.set(key, element);
        } else if (step.action === "merge") {
          // Defined, not assigned: a property named "__proto__" stays a property.
          const copied = copy(value);
          for (const field of Object.keys(copied))
            define(
              existing as { [key: string]: unknown },
              field,
              copied[field],
            );
        }
        return undefined;
      }
      case "append": {
        const parent = this.appendedTo(step, event);
        if (parent instanceof Refusal) return parent;
        const property = step.property!;
        const current = parent[property];
        if (current === undefined) parent[property] = copy(value);
        else if (typeof current === "string" && typeof value === "string")
          parent[property] = current + value;
        else if (Array.isArray(current) && Array.isArray(value))
          // One at a time: a spread of many items overflows the call's arguments.
          for (const item of copy(value)) current.push(item);
        else
          return new Refusal(
            () =>
              `cannot append ${JSON.stringify(value)} to ${describePath(path, event)}, which is ${JSON.stringify(current)}`,
          );
        return undefined;
      }
      case "patch": {
        const parent = this.parentOf(step, event);
        if (parent instanceof Refusal) return parent;
        return patched(parent, step.property!, value, () =>
          describePath(path, event),
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
    const list = (parent[step.property!] ??= []);
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
        // Any element: the first one the rest of the path leads through.
        for (const element of at) {
          const found = this.walk(path, i + 1, to, event, element);
          if (found !== MISSED) return found;
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
    this.lastList = list;
    this.lastField = field;
    this.lastIndex = index;
    this.lastElement = index.get(value);
    this.lastValue = value;
    return this.lastElement;
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
  // No operations change nothing; a value there is none of stays absent, not undefined.
  if (patch.length === 0) return undefined;
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
  const box = { value: copy(parent[key]) };
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

/** The tokens of a JSON Pointer (RFC 6901), unescaped. */
function pointerTokens(pointer: string): readonly string[] {
  if (pointer === "") return [];
  return pointer
    .slice(1)
    .split("/")
    .map((token) => token.replaceAll("~1", "/").replaceAll("~0", "~"));
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

function isObject(value: unknown): value is { [key: string]: unknown } {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
