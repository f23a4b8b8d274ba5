import { describe, expect, it } from "vitest";
import { hasUniqueItems, isJsonEqual, json } from "../../generated/src/runtime.js";

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

describe("isJsonEqual", () => {
  it("compares as JSON values: numbers by value, keys in any order, items in order", () => {
    const expected = { a: [1, { b: null }], c: "x" };
    expect(isJsonEqual({ c: "x", a: [1.0, { b: null }] }, expected)).toBe(true);
    expect(isJsonEqual({ a: [1, { b: null }] }, expected)).toBe(false);
    expect(isJsonEqual({ a: [1, { b: null }], c: "x", d: 0 }, expected)).toBe(false);
    expect(isJsonEqual({ a: [{ b: null }, 1], c: "x" }, expected)).toBe(false);
    expect(isJsonEqual([false], [0])).toBe(false);
    expect(isJsonEqual([0], [-0])).toBe(true);
    expect(isJsonEqual({}, [])).toBe(false);
    expect(isJsonEqual([], {})).toBe(false);
    expect(isJsonEqual(JSON.parse('{"__proto__": 1}'), JSON.parse('{"__proto__": 1}'))).toBe(true);
    expect(isJsonEqual({}, JSON.parse('{"__proto__": 1}'))).toBe(false);
  });

  it("reads a value as JSON.stringify writes it, and refuses what it writes as something else", () => {
    // Left out by JSON: undefined and functions in properties, inherited and hidden properties.
    expect(isJsonEqual({ a: 1, b: undefined, f: () => 1 }, { a: 1 })).toBe(true);
    expect(isJsonEqual(Object.assign(Object.create({ b: 2 }) as object, { a: 1 }), { a: 1 })).toBe(true);
    expect(isJsonEqual(Object.defineProperty({ a: 1 }, "b", { value: 2, enumerable: false }), { a: 1 })).toBe(true);
    expect(isJsonEqual(Object.assign(Object.create(null) as object, { a: 1 }), { a: 1 })).toBe(true);
    expect(isJsonEqual({ a: undefined }, { a: null })).toBe(false);
    // Written as something else: a box, a Date, a toJSON method, a hole, which is null.
    expect(isJsonEqual(new String("ab"), { 0: "a", 1: "b" })).toBe(false);
    expect(isJsonEqual(new Number(1), {})).toBe(false);
    expect(isJsonEqual(new Date(0), {})).toBe(false);
    expect(isJsonEqual({ toJSON: () => ({ a: 1 }) }, { a: 1 })).toBe(false);
    expect(isJsonEqual(Object.defineProperty([1], "toJSON", { value: () => [1] }), [1])).toBe(false);
    expect(isJsonEqual(new Array(1), [null])).toBe(false);
    expect(isJsonEqual([NaN], [null])).toBe(false);
  });
});

describe("json", () => {
  it("writes every string as JSON.stringify does, whether it quotes it as it is or not", () => {
    const texts = ["", "a", 'a"b', "a\\b", "\n", "\u0000", "\u001f", "\u007f", "é😀", "\ud800", "a\udfffb", "x\u2028y", "TEXT_MESSAGE_START"];
    for (let code = 0; code < 0x10000; code += 7) texts.push(`a${String.fromCharCode(code)}b`);
    for (const text of texts) expect(json(text)).toBe(JSON.stringify(text));
    for (const value of [1, null, true, [1, "a"], { a: "b" }, undefined]) expect(json(value)).toBe(JSON.stringify(value));
  });
});
