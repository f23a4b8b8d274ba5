import type {
  AcrossPlan,
  AssemblyPlan,
  ChunkPlan,
  ChunkRule,
  PlacePlan,
  Selector,
  StepPlan,
  StreamRule,
} from "../../templates/stream/tables.js";
import { isJsonObject } from "../json.js";
import type { JsonValue } from "../json.js";
import { parsePointer } from "../pointer.js";

// The assembly steps compiled, once, by the generator, for the runtime's assembler
// (templates/stream/assemble.ts): each path resolved into places, the templates' pointers
// split, what a step may disturb found, and the steps filed under the kinds they name, in
// the form the tables declare, so that the runtime only makes the templates functions.

/**
 * A value built from an event, as the facts state it: JSON in which `{ "$from": "/pointer" }` stands for the
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
 * One thing an event does to the snapshot, at a path: set a value; add an element to a
 * list unless one has its key, or merge it into the one that has; append text, or items
 * to a list; apply an RFC 6902 patch.
 */
export type Action =
  | {
      readonly verb: "set" | "append" | "patch";
      readonly path: Path;
      readonly value: Template;
    }
  | {
      readonly verb: "add" | "merge";
      readonly path: Path;
      /** The field elements of the list are told apart by. */
      readonly key: string;
      readonly value: Template;
    };

/** An assembly step of the facts, checked against the stream: what events of some kinds do to the snapshot, with where the prose says so. */
export interface AssemblyStep {
  readonly name: string;
  readonly because: string;
  readonly on: readonly Selector[];
  readonly action: Action;
}

/** A chunk rule that says what its chunks stand for. */
type Expansion = ChunkRule & { readonly standsFor: NonNullable<ChunkRule["standsFor"]> };

/** The steps and the chunk rules' expansions, planned. */
export function planAssembly(steps: readonly AssemblyStep[], rules: readonly StreamRule[]): AssemblyPlan {
  const planned = steps.map(planStep);
  const watched = watchedPlaces(planned);
  const all = planned.map((step, i) => ({ ...step, disturbs: disturbs(step, steps[i]!.action.value, watched) }));
  const byKind = new Map<string, { step: StepPlan; always: boolean }[]>();
  for (const step of all)
    for (const { event: kind } of step.on)
      if (!byKind.has(kind))
        byKind.set(
          kind,
          all
            .filter((other) => other.on.some(({ event }) => event === kind))
            .map((other) => ({
              step: other,
              always: other.on.some(({ event, where, unless }) => event === kind && where === undefined && unless === undefined),
            })),
        );
  const expansions = rules.filter((rule): rule is Expansion => rule.kind === "chunk" && rule.standsFor !== undefined);
  const chunks = expansions.map((rule): ChunkPlan => ({
    rule,
    opens: splitPointers(rule.standsFor.opens),
    continues: splitPointers(rule.standsFor.continues),
    closes: splitPointers(rule.standsFor.closes),
    keyPath: rule.key["*"] ?? [],
  }));
  return { steps: all, byKind, chunks, chunked: [...new Set(expansions.flatMap((rule) => rule.events.map(({ event }) => event)))] };
}

function planStep({ name, on, action }: AssemblyStep): StepPlan {
  const { verb, path } = action;
  const last = path.at(-1);
  const property = typeof last === "string" && last !== "*" ? last : undefined;
  const places = path.map((step): PlacePlan => {
    if (typeof step === "string") return step === "*" ? { kind: "any", name: step, across: undefined } : { kind: "property", name: step };
    const [field, template] = Object.entries(step)[0]!;
    return { kind: "where", name: field, value: splitPointers(template) };
  });
  const resolved = places.map((place, i): PlacePlan => (place.kind === "any" ? { ...place, across: acrossOf(places, i) } : place));
  const wheres = resolved.filter((place) => place.kind === "where");
  return {
    name,
    on,
    verb,
    path: resolved,
    property,
    key: "key" in action ? action.key : "",
    value: splitPointers(action.value),
    remembers: verb === "append" && property !== undefined && wheres.every((place) => place.name !== property),
    fields: fieldsOf(
      action.value,
      path.flatMap((step) => (typeof step === "string" ? [] : [Object.values(step)[0]])),
    ),
    disturbs: false,
  };
}

/**
 * How the steps after any element (at `at`) reach the element they look for, where they
 * are properties and then the element whose field has a value, before the path's last
 * step (which a walk stops before); undefined for a path that goes on otherwise, which
 * tries each element in turn.
 */
function acrossOf(path: readonly PlacePlan[], at: number): AcrossPlan | undefined {
  let where = at + 1;
  while (where < path.length && path[where]!.kind === "property") where++;
  const found = path[where];
  if (found?.kind !== "where" || where >= path.length - 1 || where === at + 1) return undefined;
  const properties = path.slice(at + 1, where).map((place) => place.name);
  return { id: JSON.stringify([properties, found.name]), properties, field: found.name, wanted: found.value };
}

/** A template with each `{ "$from": "/a/b" }` pointer split into its tokens: `{ "$from": ["a", "b"] }`. */
function splitPointers(template: Template): unknown {
  if (Array.isArray(template)) return template.map(splitPointers);
  if (!isJsonObject(template as JsonValue)) return template;
  const object = template as { readonly [key: string]: unknown };
  return Object.fromEntries(
    Object.entries(object).map(([key, value]) => [
      key,
      key === "$from" && typeof value === "string" ? parsePointer(value) : key === "$none" ? value : splitPointers(value),
    ]),
  );
}

// Which steps disturb the indexes is found by comparing paths as places in the snapshot:
// a property by its name, and any element of a list (`*` or a `where`) as one.
const ELEMENT = 0;
/** Any property: where a merge's value is an event's, it may set any. */
const ANY_PROPERTY = 1;
type Token = string | typeof ELEMENT | typeof ANY_PROPERTY;

/** A path as the places it may reach. */
function placesOf(path: readonly PlacePlan[]): Token[] {
  return path.map((place) => (place.kind === "property" ? place.name : ELEMENT));
}

function mayBeOne(a: Token, b: Token): boolean {
  return a === b || (typeof a === "string" && b === ANY_PROPERTY) || (a === ANY_PROPERTY && typeof b === "string");
}

/** Whether place `a` may be place `b` (`within`: or hold it). */
function mayReach(a: readonly Token[], b: readonly Token[], within: boolean): boolean {
  if (within ? a.length > b.length : a.length !== b.length) return false;
  return a.every((token, i) => mayBeOne(token, b[i]!));
}

/**
 * The places the indexes read, besides the lists they hold (which change only as the
 * assembler adds to them or makes them): the fields elements are found by, and the
 * properties between an element and the list it holds (`fields`); and the lists
 * themselves (`lists`), which a patch may rewrite.
 */
function watchedPlaces(steps: readonly StepPlan[]): { fields: Token[][]; lists: Token[][] } {
  const fields: Token[][] = [];
  const lists: Token[][] = [];
  for (const { path } of steps)
    for (const [i, place] of path.entries()) {
      const list = placesOf(path.slice(0, i));
      if (place.kind === "where") {
        fields.push([...list, ELEMENT, place.name]);
        lists.push(list);
      } else if (place.kind === "any" && place.across !== undefined) {
        const { properties, field } = place.across;
        for (let k = 1; k < properties.length; k++) fields.push([...list, ELEMENT, ...properties.slice(0, k)]);
        fields.push([...list, ELEMENT, ...properties, ELEMENT, field]);
        lists.push(list, [...list, ELEMENT, ...properties]);
      }
    }
  return { fields, lists };
}

/** Whether a step can change what an index holds otherwise than by adding to a list or making one; see StepPlan. */
function disturbs(step: StepPlan, value: Template, watched: ReturnType<typeof watchedPlaces>): boolean {
  const at = placesOf(step.path);
  switch (step.verb) {
    case "add":
      // It adds to a list, or makes one where there is none.
      return false;
    case "merge": {
      // It sets the properties of its value on the element of its key, whose key stays.
      const set: Token[] =
        isJsonObject(value as JsonValue) && !("$from" in (value as object)) ? Object.keys(value as object) : [ANY_PROPERTY];
      return set.some((name) =>
        watched.fields.some((place) => mayReach([...at, ELEMENT, name], place, false) && place.at(-1) !== step.key),
      );
    }
    case "set":
    case "append":
      return watched.fields.some((place) => mayReach(at, place, false));
    case "patch":
      return [...watched.fields, ...watched.lists].some((place) => mayReach(at, place, true));
  }
}

/** The names of the event's properties that a step's value and wanted values are, where each is one. */
function fieldsOf(value: Template, wanted: readonly Template[]): StepPlan["fields"] {
  const valueField = fieldOf(value);
  const wantedFields = wanted.map(fieldOf);
  return valueField === undefined || wantedFields.includes(undefined) ? undefined : { value: valueField, wanted: wantedFields as string[] };
}

/** The property a template is, where it is `{ "$from": "/name" }` of a name no object inherits. */
function fieldOf(template: Template): string | undefined {
  if (!isJsonObject(template as JsonValue) || Object.keys(template as object).length !== 1) return undefined;
  const from = (template as { readonly $from?: unknown }).$from;
  if (typeof from !== "string") return undefined;
  const tokens = parsePointer(from);
  return tokens.length === 1 && !(tokens[0]! in Object.prototype) ? tokens[0] : undefined;
}
