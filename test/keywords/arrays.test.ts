import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ArrayShape } from "../../generator/ir/model.js";
import type { JsonValue } from "../../generator/json.js";
import { arrayChanges, arrayChecks, containsBounds, meetArrays } from "../../generator/keywords/arrays.js";
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

  it("check a closed rest by the length, unless maxItems says as much", () => {
    const closed = (keywords: Partial<ArrayShape>) => array({ items: { kind: "never" }, ...keywords });
    expect(arrayChecks(closed({ prefixItems: [{ kind: "string" }, { kind: "null" }] }))).toEqual([
      { keyword: "items", message: "must have at most 2 items", fails: { op: ">", measure: "itemCount", bound: 2 } },
    ]);
    expect(arrayChecks(closed({}))).toEqual([
      { keyword: "items", message: "must be empty", fails: { op: ">", measure: "itemCount", bound: 0 } },
    ]);
    expect(arrayChecks(closed({ prefixItems: [{ kind: "string" }], maxItems: 1 })).map((check) => check.keyword)).toEqual(["maxItems"]);
  });

  it("bound a count of contains, naming the shape where its description says all", () => {
    expect(containsBounds({ shape: { kind: "number", integer: true }, min: 1 })).toEqual([
      { keyword: "contains", message: "must contain an integer", op: "<", bound: 1 },
    ]);
    expect(containsBounds({ shape: { kind: "string", minLength: 2 }, min: 2, max: 3 })).toEqual([
      { keyword: "minContains", message: "must contain at least 2 items that match its contains schema", op: "<", bound: 2 },
      { keyword: "maxContains", message: "must contain at most 3 items that match its contains schema", op: ">", bound: 3 },
    ]);
    expect(containsBounds({ shape: { kind: "literal", value: 1 }, min: 0, max: 1 })).toEqual([
      { keyword: "maxContains", message: "must contain at most 1 item that is 1", op: ">", bound: 1 },
    ]);
  });
});

describe("arrays: allOf", () => {
  it("keeps the tighter bounds, and unique items if either asks", () => {
    expect(meetArrays(array({ minItems: 1, maxItems: 5 }), array({ minItems: 2, maxItems: 9, uniqueItems: true }))).toEqual({
      minItems: 2,
      maxItems: 5,
      uniqueItems: true,
    });
    expect(meetArrays(array(), array())).toEqual({ minItems: undefined, maxItems: undefined, uniqueItems: undefined, contains: undefined });
  });

  it("keeps every count of both, one of each that is the same", () => {
    const one = { shape: { kind: "string" as const }, min: 1 };
    const two = { shape: { kind: "null" as const }, min: 2, max: 3 };
    expect(meetArrays(array({ contains: [one] }), array({ contains: [one, two] })).contains).toEqual([one, two]);
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

  it("classifies a count of contains added, removed, or bounded otherwise", () => {
    const strings = (min: number, max?: number) => array({ contains: [compact({ shape: { kind: "string" as const }, min, max })] });
    expect(arrayChanges(array(), strings(1))).toEqual([{ kind: "constraint-tightened", what: "must now contain a string" }]);
    expect(arrayChanges(strings(1), array())).toEqual([{ kind: "constraint-loosened", what: "need no longer contain a string" }]);
    expect(arrayChanges(strings(1), strings(2, 4))).toEqual([
      { kind: "constraint-tightened", what: "at least 2 items of a string, was 1" },
      { kind: "constraint-tightened", what: "at most 4 items of a string, was any" },
    ]);
  });

  it("calls tightened what admits no more, loosened what admits no less", () => {
    changesAgreeWithMeaning(shapes, items, arrayChanges, admits);
  });
});
