// The assembly steps as the assembler runs them: the generator's plan (a stream module's
// ASSEMBLY) with its templates made functions. Copied from templates/stream/steps.ts by
// agentwire.

import { isObject } from "./patch.js";
import { valueAt } from "./select.js";
import type {
  AcrossPlan,
  AssemblyPlan,
  ChunkRule,
  PlacePlan,
  PlannedTemplate,
  StepPlan,
} from "./tables.js";

export type Json = { [key: string]: unknown } | unknown[];

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
// The plan compiled: the generator split its pointers and filed its steps under the kinds
// they name; here, once per plan, its templates are made functions, so that a push parses
// nothing and asks only the steps that can match its event.

/** A template compiled: the value it builds from an event. */
export type Builder = (event: unknown) => unknown;

/**
 * A place of a path as the walks read it: a property, any element of a list, or the
 * element whose field has a value; every place of one shape.
 */
export interface PathStep {
  readonly kind: PlacePlan["kind"];
  /** The property, or the element's field. */
  readonly name: string;
  /** The field's value, built from the event (`where` only). */
  readonly value: Builder | undefined;
  /** Where any element is the one that holds the element a later step looks for, how (`any` only). */
  readonly across: Across | undefined;
}

/**
 * An {@link AcrossPlan}, the value it looks for built from the event: the elements of the
 * outer list are found through an index of that field's values (see `AcrossIndex`).
 */
export interface Across extends Omit<AcrossPlan, "wanted"> {
  readonly wanted: Builder;
}

/**
 * A step as the assembler runs it: its plan, with its templates made functions, and the
 * values its path's `where` places look for beside.
 */
export interface Step extends Omit<StepPlan, "path" | "value"> {
  readonly path: readonly PathStep[];
  readonly value: Builder;
  readonly wanted: readonly Builder[];
}

/** A step filed under a kind: `always` where a selector of it takes any event of the kind. */
export interface KindStep {
  readonly step: Step;
  readonly always: boolean;
}

/** A chunk rule compiled: the events its chunks stand for, and where a chunk's key goes in them. */
export interface ChunkExpansion {
  readonly rule: ChunkRule;
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

const compiled = new WeakMap<AssemblyPlan, Compiled>();

export function compile(plan: AssemblyPlan): Compiled {
  let done = compiled.get(plan);
  if (done !== undefined) return done;
  const steps = new Map<StepPlan, Step>();
  const stepOf = (planned: StepPlan): Step => {
    let step = steps.get(planned);
    if (step === undefined) steps.set(planned, (step = compileStep(planned)));
    return step;
  };
  done = {
    steps: new Map(
      [...plan.byKind].map(([kind, filed]) => [
        kind,
        filed.map(({ step, always }) => ({ step: stepOf(step), always })),
      ]),
    ),
    chunks: plan.chunks.map(({ rule, opens, continues, closes, keyPath }) => ({
      rule,
      opens: compileTemplate(opens),
      continues: compileTemplate(continues),
      closes: compileTemplate(closes),
      keyPath,
    })),
    chunked: new Set(plan.chunked),
  };
  compiled.set(plan, done);
  return done;
}

function compileStep(step: StepPlan): Step {
  const path = step.path.map(compilePlace);
  return {
    name: step.name,
    on: step.on,
    verb: step.verb,
    path,
    property: step.property,
    key: step.key,
    value: compileTemplate(step.value),
    wanted: path.flatMap(({ kind, value }) =>
      kind === "where" ? [value!] : [],
    ),
    remembers: step.remembers,
    fields: step.fields,
    disturbs: step.disturbs,
  };
}

/** A place of a path, its templates made functions; every step of one shape, which the walks read. */
function compilePlace(place: PlacePlan): PathStep {
  return {
    kind: place.kind,
    name: place.name,
    value: place.kind === "where" ? compileTemplate(place.value) : undefined,
    across:
      place.kind === "any" && place.across !== undefined
        ? { ...place.across, wanted: compileTemplate(place.across.wanted) }
        : undefined,
  };
}

/** A template as a function of the event; see {@link PlannedTemplate}. */
function compileTemplate(template: PlannedTemplate): Builder {
  if (Array.isArray(template)) {
    const items = template.map(compileTemplate);
    return (event) => items.map((item) => item(event));
  }
  if (!isObject(template)) return () => template;
  const from = template["$from"];
  if (Array.isArray(from)) {
    const tokens = from as readonly string[];
    // Mostly a property of the event itself, which no plain object inherits: one lookup.
    if (
      Object.keys(template).length === 1 &&
      tokens.length === 1 &&
      !(tokens[0]! in Object.prototype)
    ) {
      const field = tokens[0]!;
      return (event) => (isObject(event) ? event[field] : undefined);
    }
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
