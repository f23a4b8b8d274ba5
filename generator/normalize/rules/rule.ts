import type { Shape } from "../../ir/model.js";
import type { JsonObject } from "../../json.js";
import type { Context } from "../context.js";

/**
 * A named step of normalization: `name` is its id, `doc` says in one line what it does,
 * and `apply` reads its input (a draft of a schema, an object, a field or some union
 * alternatives) into its output. It knows nothing else: what it may ask of the document
 * comes through the context. The fixture that pins it is
 * `test/normalize/fixtures/rules/<name>.json`.
 */
export interface Rule<In, Out> {
  readonly name: string;
  readonly doc: string;
  readonly apply: (input: In, context: Context) => Out;
}

export function rule<In, Out>(name: string, doc: string, apply: (input: In, context: Context) => Out): Rule<In, Out> {
  return { name, doc, apply };
}

/** A rule whose output is a refined input, such as the draft of a schema being read. */
export type Refinement<T> = Rule<T, T>;

/** Applies rules that refine a value, in their order. */
export function applyInOrder<T>(rules: readonly Refinement<T>[], value: T, context: Context): T {
  let refined = value;
  for (const { apply } of rules) refined = apply(refined, context);
  return refined;
}

/** An object schema and where it is, for errors. */
export interface Located {
  readonly schema: JsonObject;
  readonly pointer: string;
}

/** One object schema as the schema rules read it, each rule returning a new draft. */
export interface Draft extends Located {
  /** What the schema's own keywords say: `type` and what constrains a type, `const`, `enum`. */
  readonly own: Shape;
  /** What its `$ref`, `allOf` members, unions and constraints (`not`, `if`, dependencies) each say, in that order, to meet `own`. */
  readonly parts: readonly Shape[];
  /** Once the parts have met, the shape the later rules refine. */
  readonly shape: Shape;
}

export type SchemaRule = Refinement<Draft>;
