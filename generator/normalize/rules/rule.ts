/**
 * A named step of normalization. The name says what the rule does, as a sentence; the
 * fixtures that pin it, under `test/normalize/fixtures/`, are named after it.
 */
export interface Rule<Apply> {
  readonly name: string;
  readonly apply: Apply;
}

export function rule<Apply>(name: string, apply: Apply): Rule<Apply> {
  return { name, apply };
}

/** A rule that refines a value, such as the draft of a schema being read. */
export type Refinement<T, Context> = Rule<(value: T, context: Context) => T>;

/** Applies rules that refine a value, in their order. */
export function applyInOrder<T, Context>(rules: readonly Refinement<T, Context>[], value: T, context: Context): T {
  let refined = value;
  for (const { apply } of rules) refined = apply(refined, context);
  return refined;
}
