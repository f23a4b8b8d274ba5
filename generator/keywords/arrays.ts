import type { ArrayShape } from "../ir/model.js";
import { boundChanges, countChecks, meetLower, meetUpper } from "./bounds.js";
import type { KeywordChange, KeywordCheck } from "./check.js";

/**
 * The array keywords (ajv's `limitItems` and `uniqueItems`): `minItems`, `maxItems`, and
 * `uniqueItems`, under which no two items are equal as JSON values (key order does not
 * matter, 0 and -0 are equal). `items` is a shape of its own, which the callers walk.
 */

export interface ArrayConstraints {
  readonly minItems: number | undefined;
  readonly maxItems: number | undefined;
  readonly uniqueItems: true | undefined;
}

/** The checks of an array's length and items' uniqueness, made of values that JSON writes as arrays. */
export function arrayChecks(shape: ArrayShape): KeywordCheck[] {
  const checks = countChecks(
    "itemCount",
    "item",
    { keyword: "minItems", bound: shape.minItems },
    { keyword: "maxItems", bound: shape.maxItems },
  );
  if (shape.uniqueItems) checks.push({ keyword: "uniqueItems", message: "must not have two equal items", fails: { op: "notUnique" } });
  return checks;
}

/** Both shapes' array keywords at once (allOf): the tighter of each bound, unique if either says so. */
export function meetArrays(a: ArrayShape, b: ArrayShape): ArrayConstraints {
  return {
    minItems: meetLower(a.minItems, b.minItems),
    maxItems: meetUpper(a.maxItems, b.maxItems),
    uniqueItems: a.uniqueItems ?? b.uniqueItems,
  };
}

/** A change of the array keywords, classified: bounds as bounds go; unique items required tighten, no longer required loosen. */
export function arrayChanges(before: ArrayShape, after: ArrayShape): KeywordChange[] {
  const changes = boundChanges("items", [before.minItems, after.minItems], [before.maxItems, after.maxItems]);
  if (!before.uniqueItems !== !after.uniqueItems)
    changes.push(
      after.uniqueItems
        ? { kind: "constraint-tightened", what: "items must now be unique" }
        : { kind: "constraint-loosened", what: "items need no longer be unique" },
    );
  return changes;
}
