import { Ajv2020 } from "ajv/dist/2020.js";
import fc from "fast-check";
import type { ChangeKind } from "../../generator/ir/changes.js";
import type { KeywordChange } from "../../generator/keywords/check.js";

/**
 * What every keyword family must keep, as property tests with fixed seeds (the
 * repository's property tests run the same cases every time):
 *
 * - its meaning is the reference validator's (ajv on the keywords as JSON Schema);
 * - under allOf, the met keywords admit a value exactly when both sides do;
 * - a change it calls tightened admits no value the old keywords did not, one it calls
 *   loosened rejects none they admitted.
 */
export const FIXED = { seed: 0x6b657977, numRuns: 500 } as const;

const ajv = new Ajv2020({ strict: false, validateFormats: false });
const compiled = new Map<string, (value: unknown) => boolean>();

/** The reference validator's verdict on a value, for a schema compiled once. */
export function referenceAccepts(schema: object, value: unknown): boolean {
  const key = JSON.stringify(schema);
  let validate = compiled.get(key);
  if (validate === undefined) {
    const compiledSchema = ajv.compile(schema);
    validate = (candidate) => compiledSchema(candidate);
    compiled.set(key, validate);
  }
  return validate(value);
}

/** A shape's keywords as JSON Schema: the IR's names are the keywords' but for `kind`, `integer` and `patterns`. */
export function schemaOf(shape: object): object {
  const schema: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(shape)) {
    if (value === undefined || key === "items") continue;
    if (key === "kind") schema["type"] = value;
    else if (key === "integer") schema["type"] = value ? "integer" : "number";
    else if (key === "patterns") schema["allOf"] = (value as string[]).map((pattern) => ({ pattern }));
    else schema[key] = value;
  }
  return schema;
}

export function agreesWithReference<S extends object, V>(
  shapes: fc.Arbitrary<S>,
  values: fc.Arbitrary<V>,
  admits: (value: V, shape: S) => boolean,
): void {
  fc.assert(
    fc.property(shapes, values, (shape, value) => admits(value, shape) === referenceAccepts(schemaOf(shape), value)),
    FIXED,
  );
}

export function meetIsBoth<S, V>(
  shapes: fc.Arbitrary<readonly [S, S]>,
  values: fc.Arbitrary<V>,
  meet: (a: S, b: S) => S,
  admits: (value: V, shape: S) => boolean,
): void {
  fc.assert(
    fc.property(shapes, values, ([a, b], value) => admits(value, meet(a, b)) === (admits(value, a) && admits(value, b))),
    FIXED,
  );
}

const NARROWER: readonly ChangeKind[] = ["constraint-tightened", "type-narrowed"];
const WIDER: readonly ChangeKind[] = ["constraint-loosened", "type-widened"];

export function changesAgreeWithMeaning<S, V>(
  shapes: fc.Arbitrary<S>,
  values: fc.Arbitrary<V>,
  changes: (before: S, after: S) => readonly KeywordChange[],
  admits: (value: V, shape: S) => boolean,
): void {
  fc.assert(
    fc.property(shapes, shapes, fc.array(values, { minLength: 20, maxLength: 20 }), (before, after, sample) => {
      const kinds = changes(before, after).map((change) => change.kind);
      const within = (a: S, b: S) => sample.every((value) => !admits(value, a) || admits(value, b));
      if (kinds.every((kind) => NARROWER.includes(kind))) return within(after, before);
      if (kinds.every((kind) => WIDER.includes(kind))) return within(before, after);
      return true;
    }),
    FIXED,
  );
}
