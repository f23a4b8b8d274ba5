import { describe, expect, it } from "vitest";
import type { EnumShape } from "../../generator/ir/model.js";
import { admitsValue, narrowValues, valueChanges, valueChecks, valuesOf } from "../../generator/keywords/values.js";

const roles: EnumShape = {
  kind: "enum",
  values: ["user", "agent", "system"],
  descriptions: ["a person", null, "the host"],
  fallback: "user",
};

describe("values: meaning", () => {
  it("is one of the values, by ===", () => {
    expect([1, "1", true].map((value) => admitsValue(value, { kind: "literal", value: 1 }))).toEqual([true, false, false]);
    expect(["user", "User", null].map((value) => admitsValue(value, roles))).toEqual([true, false, false]);
    expect(admitsValue(null, { kind: "enum", values: ["a", null] })).toBe(true);
  });

  it("is an object or an array equal as JSON: numbers by value, keys in any order, items in order", () => {
    const pair = { kind: "literal", value: { a: [1, { b: null }], c: "x" } } as const;
    expect(admitsValue({ c: "x", a: [1.0, { b: null }] }, pair)).toBe(true);
    expect(admitsValue({ a: [1, { b: null }] }, pair)).toBe(false);
    expect(admitsValue({ a: [1, { b: null }], c: "x", d: 1 }, pair)).toBe(false);
    expect(admitsValue({ a: [{ b: null }, 1], c: "x" }, pair)).toBe(false);
    expect(admitsValue([false], { kind: "literal", value: [0] })).toBe(false);
    expect(admitsValue({}, { kind: "literal", value: [] })).toBe(false);
    expect(admitsValue("[]", { kind: "literal", value: [] })).toBe(false);
  });

  it("lists a literal's value and an enum's, and no other shape's", () => {
    expect(valuesOf({ kind: "literal", value: "x" })).toEqual(["x"]);
    expect(valuesOf(roles)).toEqual(["user", "agent", "system"]);
    expect(valuesOf({ kind: "string" })).toBeUndefined();
  });
});

describe("values: checks for the emitter", () => {
  it("say what the validators say, each with its test as data", () => {
    expect(valueChecks({ kind: "literal", value: "TEXT_MESSAGE_CONTENT" })).toEqual([
      { keyword: "const", message: 'must be "TEXT_MESSAGE_CONTENT"', fails: { op: "notEqual", value: "TEXT_MESSAGE_CONTENT" } },
    ]);
    expect(valueChecks({ kind: "literal", value: 3 })[0]!.message).toBe("must be 3");
    expect(valueChecks({ kind: "enum", values: ["ROLE_UNSPECIFIED", "ROLE_USER", "ROLE_AGENT"] })).toEqual([
      {
        keyword: "enum",
        message: 'must be one of "ROLE_UNSPECIFIED", "ROLE_USER", "ROLE_AGENT"',
        fails: { op: "notOneOf", values: ["ROLE_UNSPECIFIED", "ROLE_USER", "ROLE_AGENT"] },
      },
    ]);
    expect(valueChecks({ kind: "enum", values: [1, null, false] })[0]!.message).toBe("must be one of 1, null, false");
    expect(valueChecks({ kind: "literal", value: { a: [1] } })).toEqual([
      { keyword: "const", message: 'must be {"a":[1]}', fails: { op: "notEqual", value: { a: [1] } } },
    ]);
  });
});

describe("values: allOf", () => {
  it("keeps the values the other side admits, with their descriptions and the fallback if kept", () => {
    expect(narrowValues(roles, (value) => value !== "agent")).toEqual({
      kind: "enum",
      values: ["user", "system"],
      descriptions: ["a person", "the host"],
      fallback: "user",
    });
    expect(narrowValues(roles, (value) => value !== "user")).toEqual({
      kind: "enum",
      values: ["agent", "system"],
      descriptions: [null, "the host"],
    });
  });

  it("is the enum itself when all are kept, a literal when one of several is, never when none is", () => {
    expect(narrowValues(roles, () => true)).toBe(roles);
    expect(narrowValues(roles, (value) => value === "agent")).toEqual({ kind: "literal", value: "agent" });
    expect(narrowValues(roles, () => false)).toEqual({ kind: "never" });
    const one: EnumShape = { kind: "enum", values: ["only"] };
    expect(narrowValues(one, () => true)).toBe(one);
  });
});

describe("values: diff", () => {
  it("classifies another constant, values added and removed", () => {
    expect(valueChanges({ kind: "literal", value: "a" }, { kind: "literal", value: "b" })).toEqual([
      { kind: "const-changed", what: 'is "b", was "a"' },
    ]);
    expect(valueChanges({ kind: "enum", values: ["a", "b"] }, { kind: "enum", values: ["b", "c"] })).toEqual([
      { kind: "enum-value-added", what: 'gains "c"' },
      { kind: "enum-value-removed", what: 'loses "a"' },
    ]);
    expect(valueChanges({ kind: "literal", value: "a" }, { kind: "enum", values: ["a", "b"] })).toEqual([
      { kind: "enum-value-added", what: 'gains "b"' },
    ]);
    expect(valueChanges({ kind: "literal", value: [1] }, { kind: "literal", value: [1, 2] })).toEqual([
      { kind: "const-changed", what: "is [1,2], was [1]" },
    ]);
  });

  it("classifies an enum's wire integers and fallback", () => {
    const plain: EnumShape = { kind: "enum", values: ["A", "B"] };
    const wired: EnumShape = { ...plain, wire: { numbers: { A: 0, B: 1 } } };
    expect(valueChanges(plain, wired)).toEqual([{ kind: "wire-form-added", what: "values may now arrive as integers" }]);
    expect(valueChanges(wired, plain)).toEqual([{ kind: "wire-form-removed", what: "values may no longer arrive as integers" }]);
    expect(valueChanges(wired, { ...plain, wire: { numbers: { A: 0, B: 2 } } })).toEqual([
      { kind: "enum-number-changed", what: '"B" is 2 on the wire, was 1' },
    ]);
    expect(valueChanges(plain, { ...plain, fallback: "A" })).toEqual([{ kind: "enum-fallback-changed", what: 'falls back to "A"' }]);
    expect(valueChanges({ ...plain, fallback: "A" }, plain)).toEqual([{ kind: "enum-fallback-changed", what: "has no fallback now" }]);
  });
});
