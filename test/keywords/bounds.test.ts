import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { boundChanges, countChecks, meetLower, meetUpper } from "../../generator/keywords/bounds.js";
import { FIXED } from "./laws.js";

const bound = fc.option(fc.integer({ min: 0, max: 5 }), { nil: undefined });
const within = (n: number, [low, high]: readonly [number | undefined, number | undefined]) =>
  n >= (low ?? -Infinity) && n <= (high ?? Infinity);

describe("bounds", () => {
  it("meet: the higher lower bound, the lower upper bound, either where one is missing", () => {
    expect([meetLower(1, 3), meetLower(undefined, 3), meetLower(1, undefined), meetLower(undefined, undefined)]).toEqual([
      3,
      3,
      1,
      undefined,
    ]);
    expect([meetUpper(1, 3), meetUpper(undefined, 3), meetUpper(1, undefined), meetUpper(undefined, undefined)]).toEqual([
      1,
      3,
      1,
      undefined,
    ]);
  });

  it("count checks: singular and plural nouns, lower then upper", () => {
    expect(
      countChecks("itemCount", "item", { keyword: "minItems", bound: 1 }, { keyword: "maxItems", bound: 2 }).map((check) => check.message),
    ).toEqual(["must have at least 1 item", "must have at most 2 items"]);
    expect(
      countChecks("propertyCount", "property", { keyword: "minProperties", bound: 0 }, { keyword: "maxProperties", bound: undefined }),
    ).toEqual([
      { keyword: "minProperties", message: "must have at least 0 properties", fails: { op: "<", measure: "propertyCount", bound: 0 } },
    ]);
  });

  it("changes: a bound added tightens, removed loosens", () => {
    expect(boundChanges("items", [undefined, 1], [3, undefined])).toEqual([
      { kind: "constraint-tightened", what: "at least 1 items, was any" },
      { kind: "constraint-loosened", what: "at most any items, was 3" },
    ]);
    expect(boundChanges("", [2, 2], [5, 5])).toEqual([]);
  });

  it("changes: tightened admits no more, loosened no less", () => {
    fc.assert(
      fc.property(bound, bound, bound, bound, (lowBefore, lowAfter, highBefore, highAfter) => {
        const before = [lowBefore, highBefore] as const;
        const after = [lowAfter, highAfter] as const;
        const counts = [0, 1, 2, 3, 4, 5, 6];
        for (const change of boundChanges("", [lowBefore, lowAfter], [highBefore, highAfter])) {
          const [old, next] = change.what.startsWith("at least")
            ? [[before[0], undefined] as const, [after[0], undefined] as const]
            : [[undefined, before[1]] as const, [undefined, after[1]] as const];
          const [narrow, wide] = change.kind === "constraint-tightened" ? [next, old] : [old, next];
          if (!counts.every((n) => !within(n, narrow) || within(n, wide))) return false;
        }
        return true;
      }),
      FIXED,
    );
  });
});
