// Assembling what a protocol's stream builds over time (messages from their deltas, a task
// from its updates, state from snapshots and patches): what every protocol's `stream.ts`
// shares. Copied from templates/assemble.ts by agentwire; each protocol's module binds it
// to the assembly facts of its overlay. Patches are applied by patch.ts, in place.

import { applyPatch, copyValue, isObject, kindOf, TooDeep } from "./patch.js";
import type { Measures } from "./patch.js";
import { define, MAX_DEPTH } from "./runtime.js";
import type { ChunkRule, Selector, StreamRule, Violation } from "./stream.js";
import { keyOf, matchesAny, valueAt } from "./stream.js";

/**
 * A value built from an event: JSON in which `{ "$from": "/pointer" }` stands for the
 * event's value there (`"$else"` when it has none, or one of the values `"$none"` lists),
 * and an object's properties that come to nothing are left out.
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
  /** Where any element is the one that holds the element a later step looks for, how (`any` only). */
  readonly across: Across | undefined;
}

/**
 * A path through any element of a list to the element of a list each holds whose field
 * has a value (`messages * toolCalls {id}`): the elements of the outer list are found
 * through an index of that field's values (see {@link AcrossIndex}), not by trying each.
 */
interface Across {
  /** What tells two such paths apart: their properties and field. */
  readonly id: string;
  /** The properties from an element of the outer list to its list. */
  readonly properties: readonly string[];
  readonly field: string;
  /** The value looked for, built from the event. */
  readonly wanted: Builder;
}

/** A step compiled: its action's kind, path, key and value. */
interface Step {
  readonly name: string;
  readonly on: readonly Selector[];
  readonly action: Verb;
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
  /**
   * Whether the step can change what an index holds otherwise than by adding to a list
   * or making one (a field elements are found by, a property between an element and the
   * list it holds, a list a patch rewrites): then the indexes are forgotten after it, and
   * made again when next asked. No step of the four protocols can; see {@link disturbs}.
   */
  readonly disturbs: boolean;
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
    const compiled = steps.map(compileStep);
    const watched = watchedPlaces(compiled);
    const all = compiled.map((step, i) => ({
      ...step,
      disturbs: disturbs(step, steps[i]!, watched),
    }));
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

/** The verbs of an action, one of which names its path. */
const VERBS = ["set", "add", "merge", "append", "patch"] as const;
type Verb = (typeof VERBS)[number];

function compileStep({ name, on, action }: AssemblyStep): Step {
  const kind = VERBS.find((verb) => verb in action)!;
  const path = (action as Partial<Record<Verb, Path>>)[kind]!;
  const last = path.at(-1);
  const property = typeof last === "string" && last !== "*" ? last : undefined;
  const compiledPath = path.map((step): PathStep => {
    if (typeof step === "string")
      return {
        kind: step === "*" ? "any" : "property",
        name: step,
        value: undefined,
        across: undefined,
      };
    const [field, template] = Object.entries(step)[0]!;
    return {
      kind: "where",
      name: field,
      value: compileTemplate(template),
      across: undefined,
    };
  });
  const steps = compiledPath.map((step, i) =>
    step.kind === "any" ? { ...step, across: acrossOf(compiledPath, i) } : step,
  );
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
    disturbs: false,
  };
}

/**
 * How the steps after any element (at `at`) reach the element they look for, where they
 * are properties and then the element whose field has a value, before the path's last
 * step (which a walk stops before); undefined for a path that goes on otherwise, which
 * tries each element in turn.
 */
function acrossOf(path: readonly PathStep[], at: number): Across | undefined {
  let where = at + 1;
  while (where < path.length && path[where]!.kind === "property") where++;
  const found = path[where];
  if (found?.kind !== "where" || where >= path.length - 1 || where === at + 1)
    return undefined;
  const properties = path.slice(at + 1, where).map((step) => step.name);
  return {
    id: JSON.stringify([properties, found.name]),
    properties,
    field: found.name,
    wanted: found.value!,
  };
}

// Which steps disturb the indexes is found by comparing paths as places in the snapshot:
// a property by its name, and any element of a list (`*` or a `where`) as one.
const ELEMENT = 0 as const;
/** Any property: where a merge's value is an event's, it may set any. */
const ANY_PROPERTY = 1 as const;
type Token = string | typeof ELEMENT | typeof ANY_PROPERTY;

/** A path as the places it may reach. */
function placesOf(path: readonly PathStep[]): Token[] {
  return path.map((step) => (step.kind === "property" ? step.name : ELEMENT));
}

function mayBeOne(a: Token, b: Token): boolean {
  return (
    a === b ||
    (typeof a === "string" && b === ANY_PROPERTY) ||
    (a === ANY_PROPERTY && typeof b === "string")
  );
}

/** Whether place `a` may be place `b` (`within`: or hold it). */
function mayReach(
  a: readonly Token[],
  b: readonly Token[],
  within: boolean,
): boolean {
  if (within ? a.length > b.length : a.length !== b.length) return false;
  return a.every((token, i) => mayBeOne(token, b[i]!));
}

/**
 * The places the indexes read, besides the lists they hold (which change only as the
 * assembler adds to them or makes them): the fields elements are found by, and the
 * properties between an element and the list it holds (`fields`); and the lists
 * themselves (`lists`), which a patch may rewrite.
 */
function watchedPlaces(steps: readonly Step[]): {
  fields: Token[][];
  lists: Token[][];
} {
  const fields: Token[][] = [];
  const lists: Token[][] = [];
  for (const { path } of steps)
    for (const [i, step] of path.entries()) {
      const list = placesOf(path.slice(0, i));
      if (step.kind === "where") {
        fields.push([...list, ELEMENT, step.name]);
        lists.push(list);
      } else if (step.across !== undefined) {
        const { properties, field } = step.across;
        for (let k = 1; k < properties.length; k++)
          fields.push([...list, ELEMENT, ...properties.slice(0, k)]);
        fields.push([...list, ELEMENT, ...properties, ELEMENT, field]);
        lists.push(list, [...list, ELEMENT, ...properties]);
      }
    }
  return { fields, lists };
}

/** Whether a step can change what an index holds otherwise than by adding to a list or making one; see Step. */
function disturbs(
  step: Step,
  { action }: AssemblyStep,
  watched: ReturnType<typeof watchedPlaces>,
): boolean {
  const at = placesOf(step.path);
  switch (step.action) {
    case "add":
      // It adds to a list, or makes one where there is none.
      return false;
    case "merge": {
      // It sets the properties of its value on the element of its key, whose key stays.
      const template = action.value;
      const set: Token[] =
        isObject(template) && !("$from" in template)
          ? Object.keys(template)
          : [ANY_PROPERTY];
      return set.some((name) =>
        watched.fields.some(
          (place) =>
            mayReach([...at, ELEMENT, name], place, false) &&
            place.at(-1) !== step.key,
        ),
      );
    }
    case "set":
    case "append":
      return watched.fields.some((place) => mayReach(at, place, false));
    case "patch":
      return [...watched.fields, ...watched.lists].some((place) =>
        mayReach(at, place, true),
      );
  }
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
    // Values that stand for none, as absence does (a producer's "" that names nothing).
    const none = Array.isArray(template["$none"]) ? template["$none"] : [];
    if (!("$else" in template) && none.length === 0)
      return (event) => valueAt(event, tokens);
    const otherwise =
      "$else" in template
        ? compileTemplate(template["$else"])
        : () => undefined;
    return (event) => {
      const value = valueAt(event, tokens);
      return value === undefined || none.includes(value)
        ? otherwise(event)
        : value;
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
    initial,
  ) as Assembler<unknown, unknown> as Assembler<T, S>;
}

/**
 * For the elements of a list and an {@link Across} path, which of them hold, in their list
 * at the path's properties, an element whose field has a value: per value, in the order
 * of the list. Built when first asked, for the list as it is then (a cost in proportion
 * to it, once per list: a MESSAGES_SNAPSHOT makes a new one), and kept exact as the
 * assembler adds elements to either list or makes an element's list (`hold`, `pushOnto`,
 * `placed`); forgotten where a step may change it otherwise (Step.disturbs), or where the
 * list an element holds is replaced.
 */
interface AcrossIndex {
  /** The outer list. */
  readonly list: unknown[];
  readonly across: Across;
  /** Per value of the field, the element that holds one, or those that do, in order. */
  readonly holders: Map<unknown, Held | Held[]>;
  /** Set when forgotten: what still refers to it leaves it alone. */
  forgotten: boolean;
}

/** An element of an outer list, as an {@link AcrossIndex} knows it. */
interface Held {
  readonly index: AcrossIndex;
  readonly element: Json;
  /** Its place in the outer list, which the assembler only adds to. */
  readonly position: number;
  /** The list it holds, once it holds one. */
  list: unknown[] | undefined;
}

/** What indexes a list, each made when first needed. */
interface ListIndexes {
  /** Per field, its elements by the field's value: the first of each. */
  byField: Map<string, Map<unknown, Json>> | undefined;
  /** The across indexes of it, by their paths' ids. */
  across: Map<string, AcrossIndex> | undefined;
  /** The elements of across indexes that hold it. */
  heldBy: Held[] | undefined;
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
  /**
   * Per list, its indexes: per field, its elements by that field's value, built when
   * first asked and kept as elements are added; and the across indexes of it and into it.
   */
  private lists = new WeakMap<unknown[], ListIndexes>();
  /**
   * Per object that is to hold the list of an element an across index knows, at its
   * last property: where a list made there goes.
   */
  private holders = new WeakMap<object, Held[]>();
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
    switch (step.action) {
      case "set": {
        const parent = this.parentOf(step, event);
        if (parent instanceof Refusal) return parent;
        const copied = copyValue(value, this.measures);
        parent[step.property!] = copied;
        this.placed(parent, step.property!, copied);
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
          this.pushOnto(list, copyValue(value, this.measures));
        else if (step.action === "merge") {
          // Defined, not assigned: a property named "__proto__" stays a property.
          const copied = copyValue(value, this.measures);
          for (const field of Object.keys(copied)) {
            define(
              existing as { [key: string]: unknown },
              field,
              copied[field],
            );
            this.placed(existing, field, copied[field]);
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
          this.placed(parent, property, copied);
        } else if (typeof current === "string" && typeof value === "string") {
          parent[property] = current + value;
          this.measures.brought += value.length + 1;
        } else if (Array.isArray(current) && Array.isArray(value))
          // One at a time: a spread of many items overflows the call's arguments.
          for (const item of copyValue(value, this.measures))
            this.pushOnto(current, item);
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
      this.placed(parent, property, list);
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
          const holders = this.acrossIndex(at, across).holders.get(
            across.wanted(event),
          );
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
    const indexes = this.indexesOf(list);
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

  private indexesOf(list: unknown[]): ListIndexes {
    let indexes = this.lists.get(list);
    if (indexes === undefined)
      this.lists.set(
        list,
        (indexes = {
          byField: undefined,
          across: undefined,
          heldBy: undefined,
        }),
      );
    return indexes;
  }

  /** The across index of a list, made as the list is now where there is none. */
  private acrossIndex(list: unknown[], across: Across): AcrossIndex {
    const indexes = this.indexesOf(list);
    const byId = (indexes.across ??= new Map());
    let index = byId.get(across.id);
    if (index === undefined) {
      index = { list, across, holders: new Map(), forgotten: false };
      byId.set(across.id, index);
      for (let position = 0; position < list.length; position++)
        this.hold(index, list[position], position);
    }
    return index;
  }

  /**
   * An element of an across index's list, at its position, known to it: the elements of
   * the list it holds filed under their field's values, and the object that holds (or is
   * to hold) that list watched, so that a list made or set there is known too.
   */
  private hold(index: AcrossIndex, element: unknown, position: number): void {
    if (!isObject(element)) return;
    const { properties } = index.across;
    let at: unknown = element;
    for (let k = 0; k < properties.length - 1; k++) {
      at = isObject(at) ? at[properties[k]!] : undefined;
      if (at === undefined || at === null) return;
    }
    if (!isObject(at)) return;
    const held: Held = { index, element, position, list: undefined };
    const watching = this.holders.get(at);
    if (watching === undefined) this.holders.set(at, [held]);
    else this.holders.set(at, [...alive(watching), held]);
    this.heldList(held, at[properties.at(-1)!]);
  }

  /** The list an element holds, known to its index: its elements filed under their field's values. */
  private heldList(held: Held, list: unknown): void {
    if (!Array.isArray(list)) return;
    held.list = list;
    const indexes = this.indexesOf(list);
    indexes.heldBy =
      indexes.heldBy === undefined ? [held] : [...alive(indexes.heldBy), held];
    for (const item of list) file(held, item);
  }

  /** Adds an element at the end of a list, and to the indexes of the list. */
  private pushOnto(list: unknown[], element: unknown): void {
    list.push(element);
    const indexes = this.lists.get(list);
    if (indexes === undefined) return;
    if (indexes.byField !== undefined && isObject(element))
      for (const [field, index] of indexes.byField)
        if (!index.has(element[field])) index.set(element[field], element);
    if (indexes.across !== undefined)
      for (const index of indexes.across.values())
        this.hold(index, element, list.length - 1);
    if (indexes.heldBy !== undefined)
      for (const held of indexes.heldBy)
        if (!held.index.forgotten) file(held, element);
  }

  /**
   * Tells the across indexes that an object's property now holds a value: where the
   * object holds the list of an element they know, and had none, the value is that list;
   * where it replaces the list, the index is forgotten.
   */
  private placed(object: object, property: string, value: unknown): void {
    const watching = this.holders.get(object);
    if (watching === undefined) return;
    for (const held of watching) {
      const { index } = held;
      if (index.forgotten || index.across.properties.at(-1) !== property)
        continue;
      if (held.list === undefined) this.heldList(held, value);
      else if (held.list !== value) this.forget(index);
    }
  }

  /** Forgets an across index: made again, from its list as it is then, when next asked. */
  private forget(index: AcrossIndex): void {
    index.forgotten = true;
    const byId = this.lists.get(index.list)?.across;
    if (byId?.get(index.across.id) === index) byId.delete(index.across.id);
  }

  /** Forgets every index, after a step that may have changed what they hold (Step.disturbs). */
  private forgetIndexes(): void {
    this.lists = new WeakMap();
    this.holders = new WeakMap();
    this.lastList = undefined;
    this.lastIndex = undefined;
    this.lastElement = undefined;
  }
}

/** Files an element of the list `held` holds under its field's value, keeping the order of the outer list. */
function file(held: Held, item: unknown): void {
  if (!isObject(item)) return;
  const { holders } = held.index;
  const value = item[held.index.across.field];
  const there = holders.get(value);
  if (there === undefined) holders.set(value, held);
  else if (!Array.isArray(there)) {
    if (there !== held)
      holders.set(
        value,
        there.position < held.position ? [there, held] : [held, there],
      );
  } else {
    // Mostly after the last: elements are added at the end of the outer list.
    let low = there.at(-1)!.position < held.position ? there.length : 0;
    let high = there.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (there[middle]!.position < held.position) low = middle + 1;
      else high = middle;
    }
    if (there[low] !== held) there.splice(low, 0, held);
  }
}

/** The elements of indexes not forgotten: what a forgotten one left is dropped as another comes. */
function alive(held: readonly Held[]): Held[] {
  return held.filter((each) => !each.index.forgotten);
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
