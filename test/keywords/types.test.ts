import { describe, expect, it } from "vitest";
import type { JsonValue } from "../../generator/json.js";
import { passes } from "../../generator/keywords/check.js";
import type { PrimitiveType } from "../../generator/keywords/check.js";
import { admits } from "../../generator/keywords/index.js";
import { typeCheck } from "../../generator/keywords/types.js";

const VALUES: readonly JsonValue[] = ["", "1", 0, -0, 1.5, 2 ** 53, Infinity, NaN, true, false, null, [], {}];

describe("types: meaning", () => {
  it("tells the primitive types apart; a number is finite, an integer a whole number", () => {
    const of = (type: PrimitiveType) => VALUES.filter((value) => passes([typeCheck(type)], value));
    expect(of("string")).toEqual(["", "1"]);
    expect(of("number")).toEqual([0, -0, 1.5, 2 ** 53]);
    expect(of("integer")).toEqual([0, -0, 2 ** 53]);
    expect(of("boolean")).toEqual([true, false]);
    expect(of("null")).toEqual([null]);
  });

  it("decides the primitive shapes, with their other keywords", () => {
    expect(admits(true, { kind: "boolean" })).toBe(true);
    expect(admits(null, { kind: "boolean" })).toBe(false);
    expect(admits(null, { kind: "null" })).toBe(true);
    expect(admits(0, { kind: "null" })).toBe(false);
    expect(admits("ab", { kind: "string", maxLength: 1 })).toBe(false);
    expect(admits(3, { kind: "number", integer: true, maximum: 2 })).toBe(false);
    expect(admits("b", { kind: "enum", values: ["a", "b"] })).toBe(true);
  });
});

describe("types: checks for the emitter", () => {
  it("say what the validators say", () => {
    expect((["string", "number", "integer", "boolean", "null"] as const).map((type) => typeCheck(type))).toEqual([
      { keyword: "type", message: "must be a string", fails: { op: "notType", type: "string" } },
      { keyword: "type", message: "must be a number", fails: { op: "notType", type: "number" } },
      { keyword: "type", message: "must be an integer", fails: { op: "notType", type: "integer" } },
      { keyword: "type", message: "must be a boolean", fails: { op: "notType", type: "boolean" } },
      { keyword: "type", message: "must be null", fails: { op: "notType", type: "null" } },
    ]);
  });

  it("are tried in order: a measure comes after the type check that guards it", () => {
    const length = { keyword: "minLength", message: "", fails: { op: "<", measure: "codePointLength", bound: 1 } } as const;
    expect(passes([typeCheck("string"), length], 5)).toBe(false);
    expect(() => passes([length], 5)).toThrow("a string test of a non-string");
  });
});
