import { describe, expect, it } from "vitest";
import { hasUniqueItems } from "../../generated/src/runtime.js";

/** The shared runtime of the generated package, where its logic is more than a line. */
describe("hasUniqueItems", () => {
  it("compares items as JSON values: key order does not matter, types do", () => {
    expect(hasUniqueItems([1, "1", true, null, [], {}])).toBe(true);
    expect(hasUniqueItems([{ a: 1, b: [2, { c: 3 }] }, { b: [2, { c: 3 }], a: 1 }])).toBe(false);
    expect(hasUniqueItems([{ a: 1 }, { a: 1, b: 2 }])).toBe(true);
    expect(hasUniqueItems([[1, 2], [2, 1]])).toBe(true);
    expect(hasUniqueItems([0, -0])).toBe(false);
    expect(hasUniqueItems(["a\u0000", "a"])).toBe(true);
    expect(hasUniqueItems(JSON.parse('[{"__proto__": 1}, {"__proto__": 2}]') as unknown[])).toBe(true);
    expect(hasUniqueItems(JSON.parse('[{"__proto__": 1}, {"__proto__": 1}]') as unknown[])).toBe(false);
  });

  it("takes a million items and items nested 10,000 deep in its stride", () => {
    expect(hasUniqueItems(Array.from({ length: 1_000_000 }, (_, i) => i))).toBe(true);
    expect(hasUniqueItems([...Array.from({ length: 500_000 }, (_, i) => ({ i })), { i: 7 }])).toBe(false);
    const deep = (leaf: number) => {
      let value: unknown = leaf;
      for (let i = 0; i < 10_000; i++) value = [value];
      return value;
    };
    expect(hasUniqueItems([deep(1), deep(2)])).toBe(true);
    expect(hasUniqueItems([deep(1), deep(1)])).toBe(false);
  });
});
