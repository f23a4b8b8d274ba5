import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ArrayShape } from "../../generator/ir/model.js";
import type { JsonValue } from "../../generator/json.js";
import { arrayChanges, arrayChecks, meetArrays } from "../../generator/keywords/arrays.js";
import { fails, passes } from "../../generator/keywords/check.js";
import { compact } from "../../generator/normalize/intersect.js";
import { hasUniqueItems } from "../../generated/src/runtime.js";
import { agreesWithReference, changesAgreeWithMeaning, FIXED, meetIsBoth } from "./laws.js";

const array = (keywords: Partial<Omit<ArrayShape, "kind" | "items">> = {}): ArrayShape => ({
  kind: "array",
  items: { kind: "unknown" },
  ...keywords,
});

/** Items drawn from few values, equal ones among them written differently, so that repeats are common. */
const items = fc.array(
  fc.oneof(
    fc.constantFrom<JsonValue>(0, -0, 1, "1", null, true, [1, 2], [2, 1], { a: 1, b: [2] }, { b: [2], a: 1 }, { a: 1 }),
    fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<JsonValue>,
  ),
  { maxLength: 5 },
);
const count = fc.option(fc.integer({ min: 0, max: 4 }), { nil: undefined });
const shapes = fc
  .record({ minItems: count, maxItems: count, uniqueItems: fc.constantFrom(true as const, undefined) })
  .map((keywords) => compact({ kind: "array" as const, items: { kind: "unknown" as const }, ...keywords }) as ArrayShape);
const admits = (value: readonly JsonValue[], shape: ArrayShape) => passes(arrayChecks(shape), value);

describe("arrays: meaning", () => {
  it("counts items and compares them as JSON values", () => {
    expect(admits([1, 2], array({ minItems: 2, maxItems: 2 }))).toBe(true);
    expect(admits([1], array({ minItems: 2 }))).toBe(false);
    expect(admits([1, "1", [1, 2], [2, 1]], array({ uniqueItems: true }))).toBe(true);
    expect(
      admits(
        [
          { a: 1, b: 2 },
          { b: 2, a: 1 },
        ],
        array({ uniqueItems: true }),
      ),
    ).toBe(false);
    expect(admits([0, -0], array({ uniqueItems: true }))).toBe(false);
  });

  it("finds repeated items as the runtime's hasUniqueItems does", () => {
    fc.assert(
      fc.property(items, (value) => fails({ op: "notUnique" }, value) === !hasUniqueItems(value)),
      FIXED,
    );
  });

  it("agrees with the reference validator", () => {
    agreesWithReference(shapes, items, admits);
  });
});

describe("arrays: checks for the emitter", () => {
  it("say what the validators say, each with its test as data", () => {
    expect(arrayChecks(array({ minItems: 1, maxItems: 3, uniqueItems: true }))).toEqual([
      { keyword: "minItems", message: "must have at least 1 item", fails: { op: "<", measure: "itemCount", bound: 1 } },
      { keyword: "maxItems", message: "must have at most 3 items", fails: { op: ">", measure: "itemCount", bound: 3 } },
      { keyword: "uniqueItems", message: "must not have two equal items", fails: { op: "notUnique" } },
    ]);
    expect(arrayChecks(array())).toEqual([]);
  });
});

describe("arrays: allOf", () => {
  it("keeps the tighter bounds, and unique items if either asks", () => {
    expect(meetArrays(array({ minItems: 1, maxItems: 5 }), array({ minItems: 2, maxItems: 9, uniqueItems: true }))).toEqual({
      minItems: 2,
      maxItems: 5,
      uniqueItems: true,
    });
    expect(meetArrays(array(), array())).toEqual({ minItems: undefined, maxItems: undefined, uniqueItems: undefined });
  });

  it("admits exactly the arrays both shapes admit", () => {
    const meet = (a: ArrayShape, b: ArrayShape) => compact({ kind: "array" as const, items: a.items, ...meetArrays(a, b) }) as ArrayShape;
    meetIsBoth(fc.tuple(shapes, shapes), items, meet, admits);
  });
});

describe("arrays: diff", () => {
  it("classifies the bounds and uniqueness", () => {
    expect(arrayChanges(array({ minItems: 1 }), array({ minItems: 0, maxItems: 1 }))).toEqual([
      { kind: "constraint-loosened", what: "at least 0 items, was 1" },
      { kind: "constraint-tightened", what: "at most 1 items, was any" },
    ]);
    expect(arrayChanges(array(), array({ uniqueItems: true }))).toEqual([
      { kind: "constraint-tightened", what: "items must now be unique" },
    ]);
    expect(arrayChanges(array({ uniqueItems: true }), array())).toEqual([
      { kind: "constraint-loosened", what: "items need no longer be unique" },
    ]);
    expect(arrayChanges(array({ minItems: 1 }), array({ minItems: 1 }))).toEqual([]);
  });

  it("calls tightened what admits no more, loosened what admits no less", () => {
    changesAgreeWithMeaning(shapes, items, arrayChanges, admits);
  });
});
