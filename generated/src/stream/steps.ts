// The assembly steps compiled for the assembler. Copied from templates/stream/steps.ts by
// agentwire.

import { isObject } from "./patch.js";
import { valueAt } from "./select.js";
import type {
  AssemblyStep,
  ChunkRule,
  Path,
  Selector,
  StreamRule,
  Template,
  Verb,
} from "./tables.js";

export type Json = { [key: string]: unknown } | unknown[];

/** A chunk rule that says what its chunks stand for. */
type Expansion = ChunkRule & {
  readonly standsFor: NonNullable<ChunkRule["standsFor"]>;
};

/**
 * Why a step cannot apply, in words: said only when asked, since a walk through any
 * element of a list is refused by every element but the one it leads through.
 */
export class Refusal {
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
export type Builder = (event: unknown) => unknown;

/** A step of a path, compiled: a property, any element of a list, or the element whose field has a value. */
export interface PathStep {
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
export interface Across {
  /** What tells two such paths apart: their properties and field. */
  readonly id: string;
  /** The properties from an element of the outer list to its list. */
  readonly properties: readonly string[];
  readonly field: string;
  /** The value looked for, built from the event. */
  readonly wanted: Builder;
}

/** A step compiled: its action's kind, path, key and value. */
export interface Step {
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
export interface KindStep {
  readonly step: Step;
  readonly always: boolean;
}

/** A chunk rule compiled: the events its chunks stand for, and where a chunk's key goes in them. */
export interface ChunkExpansion {
  readonly rule: Expansion;
  readonly opens: Builder;
  readonly continues: Builder;
  readonly closes: Builder;
  readonly keyPath: readonly string[];
}

export interface Compiled {
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

export function compile(
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

function compileStep({ name, on, action }: AssemblyStep): Step {
  const { verb, path } = action;
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
    action: verb,
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
      verb === "append" &&
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

/** The tokens of a JSON Pointer (RFC 6901), unescaped. */
function pointerTokens(pointer: string): readonly string[] {
  if (pointer === "") return [];
  return pointer
    .slice(1)
    .split("/")
    .map((token) => token.replaceAll("~1", "/").replaceAll("~0", "~"));
}
