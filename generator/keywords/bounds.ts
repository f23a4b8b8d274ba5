import { count } from "../ir/describe.js";
import type { KeywordChange, KeywordCheck, Measure } from "./check.js";

/**
 * What the bound keywords share (ajv's `limit*`): a lower and an upper bound on a
 * measure, `undefined` where there is none. Under allOf the tighter one wins; a change
 * that raises the lower or lowers the upper tightens.
 */

/** Both lower bounds at once: the higher. */
export function meetLower(a: number | undefined, b: number | undefined): number | undefined {
  return a === undefined ? b : b === undefined ? a : Math.max(a, b);
}

/** Both upper bounds at once: the lower. */
export function meetUpper(a: number | undefined, b: number | undefined): number | undefined {
  return a === undefined ? b : b === undefined ? a : Math.min(a, b);
}

/** A count's bounds (characters, items, properties): "must have at least 3 characters". */
export function countChecks(
  measure: Measure,
  noun: string,
  lower: { readonly keyword: string; readonly bound: number | undefined },
  upper: { readonly keyword: string; readonly bound: number | undefined },
): KeywordCheck[] {
  const checks: KeywordCheck[] = [];
  if (lower.bound !== undefined)
    checks.push({
      keyword: lower.keyword,
      message: `must have at least ${count(lower.bound, noun)}`,
      fails: { op: "<", measure, bound: lower.bound },
    });
  if (upper.bound !== undefined)
    checks.push({
      keyword: upper.keyword,
      message: `must have at most ${count(upper.bound, noun)}`,
      fails: { op: ">", measure, bound: upper.bound },
    });
  return checks;
}

/**
 * A lower and an upper bound before and after: raising the lower or lowering the upper
 * tightens, the reverse loosens. `unit` follows the number: "at least 3 characters, was 1".
 */
export function boundChanges(
  unit: string,
  [lowBefore, lowAfter]: readonly [number | undefined, number | undefined],
  [highBefore, highAfter]: readonly [number | undefined, number | undefined],
): KeywordChange[] {
  const of = unit === "" ? "" : ` ${unit}`;
  const changes: KeywordChange[] = [];
  if (lowBefore !== lowAfter) {
    const tighter = lowBefore === undefined || (lowAfter !== undefined && lowAfter > lowBefore);
    changes.push({
      kind: tighter ? "constraint-tightened" : "constraint-loosened",
      what: `at least ${lowAfter ?? "any"}${of}, was ${lowBefore ?? "any"}`,
    });
  }
  if (highBefore !== highAfter) {
    const tighter = highBefore === undefined || (highAfter !== undefined && highAfter < highBefore);
    changes.push({
      kind: tighter ? "constraint-tightened" : "constraint-loosened",
      what: `at most ${highAfter ?? "any"}${of}, was ${highBefore ?? "any"}`,
    });
  }
  return changes;
}
