import type { ArrayShape, Contains } from "../ir/model.js";
import { count, describe } from "../ir/describe.js";
import { jsonEqual } from "../json.js";
import { boundChanges, countChecks, meetLower, meetUpper } from "./bounds.js";
import type { KeywordChange, KeywordCheck } from "./check.js";

/**
 * The array keywords (ajv's `limitItems`, `uniqueItems` and `contains`): `minItems`,
 * `maxItems`, `uniqueItems`, under which no two items are equal as JSON values (key order
 * does not matter, 0 and -0 are equal), a closed tuple's length, and how many items
 * `contains` counts. `prefixItems`, `items` and the `contains` shapes are shapes of their
 * own, which the callers walk.
 */

export interface ArrayConstraints {
  readonly minItems: number | undefined;
  readonly maxItems: number | undefined;
  readonly uniqueItems: true | undefined;
  readonly contains: readonly Contains[] | undefined;
}

/**
 * The checks of an array's length and items' uniqueness, made of values that JSON writes
 * as arrays. An array whose rest is `never` holds no item after its prefix: a length,
 * not a loop, unless `maxItems` says as much already.
 */
export function arrayChecks(shape: ArrayShape): KeywordCheck[] {
  const checks = countChecks(
    "itemCount",
    "item",
    { keyword: "minItems", bound: shape.minItems },
    { keyword: "maxItems", bound: shape.maxItems },
  );
  const positions = shape.prefixItems?.length ?? 0;
  if (shape.items.kind === "never" && (shape.maxItems === undefined || shape.maxItems > positions))
    checks.push({
      keyword: "items",
      message: positions === 0 ? "must be empty" : `must have at most ${count(positions, "item")}`,
      fails: { op: ">", measure: "itemCount", bound: positions },
    });
  if (shape.uniqueItems) checks.push({ keyword: "uniqueItems", message: "must not have two equal items", fails: { op: "notUnique" } });
  return checks;
}

/**
 * The bounds of a count of the items of `contains`' shape, as failures of that count. The
 * shape is named where its description says all it requires, else by where it is said.
 */
export function containsBounds(contains: Contains): ContainsBound[] {
  const shape = contains.shape;
  const exact =
    ["ref", "literal", "enum", "boolean", "null"].includes(shape.kind) ||
    (shape.kind === "string" && Object.keys(shape).length === 1) ||
    (shape.kind === "number" && Object.keys(shape).length === 2);
  const each = (n: number) =>
    `${count(n, "item")} ${exact ? `that ${n === 1 ? "is" : "are"} ${describe(shape)}` : `that ${n === 1 ? "matches" : "match"} its contains schema`}`;
  const bounds: ContainsBound[] = [];
  if (contains.min > 0)
    bounds.push({
      keyword: contains.min === 1 ? "contains" : "minContains",
      message:
        contains.min > 1
          ? `must contain at least ${each(contains.min)}`
          : `must contain ${exact ? describe(shape) : "an item that matches its contains schema"}`,
      op: "<",
      bound: contains.min,
    });
  if (contains.max !== undefined)
    bounds.push({
      keyword: "maxContains",
      message: `must contain at most ${each(contains.max)}`,
      op: ">",
      bound: contains.max,
    });
  return bounds;
}

/** A count of matching items fails `keyword` when it is `op` the bound. */
export interface ContainsBound {
  readonly keyword: string;
  readonly message: string;
  readonly op: "<" | ">";
  readonly bound: number;
}

/**
 * Both shapes' array keywords at once (allOf): the tighter of each bound, unique if either
 * says so, every count of both (one of each when they are the same).
 */
export function meetArrays(a: ArrayShape, b: ArrayShape): ArrayConstraints {
  const contains = [...(a.contains ?? [])];
  for (const each of b.contains ?? []) if (!contains.some((other) => jsonEqual(other as never, each as never))) contains.push(each);
  return {
    minItems: meetLower(a.minItems, b.minItems),
    maxItems: meetUpper(a.maxItems, b.maxItems),
    uniqueItems: a.uniqueItems ?? b.uniqueItems,
    contains: contains.length === 0 ? undefined : contains,
  };
}

/**
 * A change of the array keywords, classified: bounds as bounds go; unique items required
 * tighten, no longer required loosen; a count of items of a shape added tightens, removed
 * loosens, and its bounds go as bounds (a count is matched by its shape).
 */
export function arrayChanges(before: ArrayShape, after: ArrayShape): KeywordChange[] {
  const changes = boundChanges("items", [before.minItems, after.minItems], [before.maxItems, after.maxItems]);
  if (!before.uniqueItems !== !after.uniqueItems)
    changes.push(
      after.uniqueItems
        ? { kind: "constraint-tightened", what: "items must now be unique" }
        : { kind: "constraint-loosened", what: "items need no longer be unique" },
    );
  const find = (list: readonly Contains[] | undefined, shape: Contains["shape"]) =>
    (list ?? []).find((each) => jsonEqual(each.shape as never, shape as never));
  for (const each of after.contains ?? []) {
    const old = find(before.contains, each.shape);
    if (old === undefined) changes.push({ kind: "constraint-tightened", what: `must now contain ${describe(each.shape)}` });
    else changes.push(...boundChanges(`items of ${describe(each.shape)}`, [old.min, each.min], [old.max, each.max]));
  }
  for (const each of before.contains ?? [])
    if (find(after.contains, each.shape) === undefined)
      changes.push({ kind: "constraint-loosened", what: `need no longer contain ${describe(each.shape)}` });
  return changes;
}
