import type { NumberShape } from "../ir/model.js";
import type { JsonPrimitive } from "../json.js";
import { boundChanges, meetLower, meetUpper } from "./bounds.js";
import type { KeywordChange, KeywordCheck } from "./check.js";
import { passes } from "./check.js";
import { typeCheck } from "./types.js";

/**
 * The number keywords (ajv's `limitNumber` and `multipleOf`): `type: "integer"`,
 * `minimum`, `exclusiveMinimum`, `maximum`, `exclusiveMaximum`, `multipleOf`. A number is
 * finite; `multipleOf` holds when `value / multipleOf` is an integer in floating point, as
 * the runtime computes it (so 0.3 is no multiple of 0.1).
 */

/** What the number keywords of a shape are; `undefined` where there is none. */
export interface NumberConstraints {
  readonly integer: boolean;
  readonly minimum: number | undefined;
  readonly maximum: number | undefined;
  readonly exclusiveMinimum: number | undefined;
  readonly exclusiveMaximum: number | undefined;
  readonly multipleOf: number | undefined;
}

/** The type check: "must be an integer" or "must be a number". */
export function numberType(shape: NumberShape): KeywordCheck {
  return typeCheck(shape.integer ? "integer" : "number");
}

/** The bounds in the order they are checked, each with the test that fails and the message. */
const BOUNDS = [
  { keyword: "minimum", op: "<", must: "must be at least" },
  { keyword: "exclusiveMinimum", op: "<=", must: "must be more than" },
  { keyword: "maximum", op: ">", must: "must be at most" },
  { keyword: "exclusiveMaximum", op: ">=", must: "must be less than" },
] as const;

/** The checks of a number's bounds, made of values that passed `numberType`. */
export function numberChecks(shape: NumberShape): KeywordCheck[] {
  const checks = BOUNDS.flatMap(({ keyword, op, must }): KeywordCheck[] => {
    const bound = shape[keyword];
    return bound === undefined ? [] : [{ keyword, message: `${must} ${bound}`, fails: { op, measure: "value", bound } }];
  });
  if (shape.multipleOf !== undefined)
    checks.push({
      keyword: "multipleOf",
      message: `must be a multiple of ${shape.multipleOf}`,
      fails: { op: "notMultipleOf", divisor: shape.multipleOf },
    });
  return checks;
}

/** Whether a JSON primitive is a value of the number shape. */
export function admitsNumber(value: JsonPrimitive, shape: NumberShape): boolean {
  return passes([numberType(shape), ...numberChecks(shape)], value);
}

/**
 * Both shapes' number keywords at once (allOf): an integer if either is, the tighter of
 * each bound, the smaller multipleOf. Two different multipleOf have a least common multiple
 * that floating point does not give exactly: the larger is `multipleOfBeside`, so that the
 * meet is the same whichever side comes first.
 */
export function meetNumbers(a: NumberShape, b: NumberShape): NumberConstraints {
  return {
    integer: a.integer || b.integer,
    minimum: meetLower(a.minimum, b.minimum),
    maximum: meetUpper(a.maximum, b.maximum),
    exclusiveMinimum: meetLower(a.exclusiveMinimum, b.exclusiveMinimum),
    exclusiveMaximum: meetUpper(a.exclusiveMaximum, b.exclusiveMaximum),
    multipleOf:
      a.multipleOf !== undefined && b.multipleOf !== undefined ? Math.min(a.multipleOf, b.multipleOf) : (a.multipleOf ?? b.multipleOf),
  };
}

/** The multipleOf that the meet of `a` and `b` does not hold, to be checked beside it; undefined if none. */
export function multipleOfBeside(a: NumberShape, b: NumberShape): number | undefined {
  return a.multipleOf !== undefined && b.multipleOf !== undefined && a.multipleOf !== b.multipleOf
    ? Math.max(a.multipleOf, b.multipleOf)
    : undefined;
}

/**
 * A change of the number keywords, classified: an integer becoming any number widens the
 * type; a bound raised or lowered tightens or loosens; a multipleOf that the old one
 * divides tightens, one that divides the old loosens, any other changes the valid values.
 */
export function numberChanges(before: NumberShape, after: NumberShape): KeywordChange[] {
  const changes: KeywordChange[] = [];
  if (before.integer && !after.integer) changes.push({ kind: "type-widened", what: "is any number, was an integer" });
  if (!before.integer && after.integer) changes.push({ kind: "type-narrowed", what: "is an integer, was any number" });
  changes.push(...boundChanges("", [before.minimum, after.minimum], [before.maximum, after.maximum]));
  changes.push(
    ...boundChanges("(exclusive)", [before.exclusiveMinimum, after.exclusiveMinimum], [before.exclusiveMaximum, after.exclusiveMaximum]),
  );
  if (before.multipleOf !== after.multipleOf) changes.push(multipleOfChange(before.multipleOf, after.multipleOf));
  return changes;
}

function multipleOfChange(old: number | undefined, next: number | undefined): KeywordChange {
  const divides = (a: number, b: number) => Number.isInteger(a / b);
  if (old === undefined || (next !== undefined && divides(next, old)))
    return { kind: "constraint-tightened", what: `must be a multiple of ${next}` };
  if (next === undefined) return { kind: "constraint-loosened", what: "need no longer be a multiple of anything" };
  if (divides(old, next)) return { kind: "constraint-loosened", what: `must be a multiple of ${next}, was ${old}` };
  return { kind: "constraint-changed", what: `must be a multiple of ${next}, was ${old}` };
}
