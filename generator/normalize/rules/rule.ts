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
