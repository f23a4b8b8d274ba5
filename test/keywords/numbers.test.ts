import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { NumberShape } from "../../generator/ir/model.js";
import { admitsNumber, meetNumbers, multipleOfBeside, numberChanges, numberChecks, numberType } from "../../generator/keywords/numbers.js";
import { compact } from "../../generator/normalize/intersect.js";
import { agreesWithReference, changesAgreeWithMeaning, meetIsBoth } from "./laws.js";

const number = (keywords: Partial<Omit<NumberShape, "kind">> = {}): NumberShape => ({ kind: "number", integer: false, ...keywords });

const bound = fc.option(fc.constantFrom(-2, -1, -0.5, 0, 0.5, 1, 1.5, 3, 10), { nil: undefined });
const shapeWith = (multipleOf: fc.Arbitrary<number | undefined>) =>
  fc
    .record({ integer: fc.boolean(), minimum: bound, maximum: bound, exclusiveMinimum: bound, exclusiveMaximum: bound, multipleOf })
    .map((keywords) => compact({ kind: "number" as const, ...keywords }) as NumberShape);
const shapes = shapeWith(fc.option(fc.constantFrom(0.1, 0.5, 2, 3), { nil: undefined }));
const values = fc.oneof(
  fc.constantFrom(-2, -1, -0.5, 0, 0.1, 0.2, 0.3, 0.5, 0.7, 1, 1.5, 2, 3, 6, 10, 11),
  fc.integer({ min: -20, max: 20 }),
  fc.double({ min: -20, max: 20, noNaN: true }),
  fc.constantFrom("1", null, true),
);

describe("numbers: meaning", () => {
  it("is finite, and an integer where the shape says so", () => {
    expect([1, 1.5, -0, Infinity, -Infinity, NaN, "1", null].map((value) => admitsNumber(value as never, number()))).toEqual([
      true,
      true,
      true,
      false,
      false,
      false,
      false,
      false,
    ]);
    expect([1, 1.0, 1.5, 2 ** 53, Infinity].map((value) => admitsNumber(value, number({ integer: true })))).toEqual([
      true,
      true,
      false,
      true,
      false,
    ]);
  });

  it("holds exclusive bounds apart from inclusive ones", () => {
    expect([0, Number.MIN_VALUE, -Number.MIN_VALUE].map((value) => admitsNumber(value, number({ minimum: 0 })))).toEqual([
      true,
      true,
      false,
    ]);
    expect([0, Number.MIN_VALUE].map((value) => admitsNumber(value, number({ exclusiveMinimum: 0 })))).toEqual([false, true]);
    expect([10, 9.999].map((value) => admitsNumber(value, number({ maximum: 10 })))).toEqual([true, true]);
    expect([10, 9.999].map((value) => admitsNumber(value, number({ exclusiveMaximum: 10 })))).toEqual([false, true]);
  });

  it("takes multipleOf as the runtime computes it, in floating point: 0.3 is no multiple of 0.1", () => {
    expect([0, 0.2, 0.3, 0.7, 1, -0.4].map((value) => admitsNumber(value, number({ multipleOf: 0.1 })))).toEqual([
      true,
      true,
      false,
      false,
      true,
      true,
    ]);
    expect([4, -4, 3, 0].map((value) => admitsNumber(value, number({ multipleOf: 2 })))).toEqual([true, true, false, true]);
  });

  it("agrees with the reference validator", () => {
    agreesWithReference(shapes, values, admitsNumber);
  });
});

describe("numbers: checks for the emitter", () => {
  it("say what the validators say, each with its test as data", () => {
    expect(numberType(number({ integer: true }))).toEqual({
      keyword: "type",
      message: "must be an integer",
      fails: { op: "notType", type: "integer" },
    });
    expect(numberType(number()).message).toBe("must be a number");
    expect(numberChecks(number({ integer: true, minimum: -2147483648, maximum: 2147483647 }))).toEqual([
      { keyword: "minimum", message: "must be at least -2147483648", fails: { op: "<", measure: "value", bound: -2147483648 } },
      { keyword: "maximum", message: "must be at most 2147483647", fails: { op: ">", measure: "value", bound: 2147483647 } },
    ]);
    expect(numberChecks(number({ minimum: 0, maximum: 9007199254740991 })).map((check) => check.message)).toEqual([
      "must be at least 0",
      "must be at most 9007199254740991",
    ]);
    expect(numberChecks(number({ exclusiveMinimum: 0, exclusiveMaximum: 1.5, multipleOf: 0.1 }))).toEqual([
      { keyword: "exclusiveMinimum", message: "must be more than 0", fails: { op: "<=", measure: "value", bound: 0 } },
      { keyword: "exclusiveMaximum", message: "must be less than 1.5", fails: { op: ">=", measure: "value", bound: 1.5 } },
      { keyword: "multipleOf", message: "must be a multiple of 0.1", fails: { op: "notMultipleOf", divisor: 0.1 } },
    ]);
    expect(numberChecks(number({ integer: true, format: "int32" }))).toEqual([]);
  });
});

describe("numbers: allOf", () => {
  it("keeps the tighter bound of each kind, an integer if either is one", () => {
    expect(meetNumbers(number({ minimum: 1, maximum: 10 }), number({ integer: true, minimum: 3, maximum: 20 }))).toEqual({
      integer: true,
      minimum: 3,
      maximum: 10,
      exclusiveMinimum: undefined,
      exclusiveMaximum: undefined,
      multipleOf: undefined,
    });
    expect(meetNumbers(number({ exclusiveMinimum: 0 }), number({ exclusiveMinimum: -1, exclusiveMaximum: 5 }))).toMatchObject({
      exclusiveMinimum: 0,
      exclusiveMaximum: 5,
    });
  });

  it("keeps one multipleOf, and of two different ones the larger beside the meet, whichever comes first", () => {
    expect(meetNumbers(number({ multipleOf: 2 }), number({ multipleOf: 2 })).multipleOf).toBe(2);
    expect(multipleOfBeside(number({ multipleOf: 2 }), number({ multipleOf: 2 }))).toBeUndefined();
    expect(meetNumbers(number(), number({ multipleOf: 0.5 })).multipleOf).toBe(0.5);
    expect(multipleOfBeside(number(), number({ multipleOf: 0.5 }))).toBeUndefined();
    expect(meetNumbers(number({ multipleOf: 2 }), number({ multipleOf: 3 })).multipleOf).toBe(2);
    expect(multipleOfBeside(number({ multipleOf: 2 }), number({ multipleOf: 3 }))).toBe(3);
    expect(meetNumbers(number({ multipleOf: 3 }), number({ multipleOf: 2 })).multipleOf).toBe(2);
    expect(multipleOfBeside(number({ multipleOf: 3 }), number({ multipleOf: 2 }))).toBe(3);
  });

  it("admits exactly the values both shapes admit", () => {
    // Of two different multipleOf the meet holds one (the other is checked beside it): the second side takes the first's.
    const pairs = fc
      .tuple(shapes, shapes)
      .map(([a, b]) => [a, a.multipleOf !== undefined && b.multipleOf !== undefined ? { ...b, multipleOf: a.multipleOf } : b] as const);
    const meet = (a: NumberShape, b: NumberShape) => compact({ kind: "number" as const, ...meetNumbers(a, b) }) as NumberShape;
    meetIsBoth(pairs, values, meet, admitsNumber);
  });
});

describe("numbers: diff", () => {
  it("classifies the type, each bound and multipleOf", () => {
    expect(numberChanges(number({ integer: true }), number())).toEqual([{ kind: "type-widened", what: "is any number, was an integer" }]);
    expect(numberChanges(number(), number({ integer: true }))).toEqual([{ kind: "type-narrowed", what: "is an integer, was any number" }]);
    expect(numberChanges(number({ minimum: 0, maximum: 10 }), number({ minimum: 1 }))).toEqual([
      { kind: "constraint-tightened", what: "at least 1, was 0" },
      { kind: "constraint-loosened", what: "at most any, was 10" },
    ]);
    expect(numberChanges(number(), number({ exclusiveMinimum: 0 }))).toEqual([
      { kind: "constraint-tightened", what: "at least 0 (exclusive), was any" },
    ]);
    expect(numberChanges(number({ multipleOf: 2 }), number({ multipleOf: 4 }))).toEqual([
      { kind: "constraint-tightened", what: "must be a multiple of 4" },
    ]);
    expect(numberChanges(number({ multipleOf: 4 }), number({ multipleOf: 2 }))).toEqual([
      { kind: "constraint-loosened", what: "must be a multiple of 2, was 4" },
    ]);
    expect(numberChanges(number({ multipleOf: 2 }), number())).toEqual([
      { kind: "constraint-loosened", what: "need no longer be a multiple of anything" },
    ]);
    expect(numberChanges(number({ multipleOf: 2 }), number({ multipleOf: 3 }))).toEqual([
      { kind: "constraint-changed", what: "must be a multiple of 3, was 2" },
    ]);
    expect(numberChanges(number({ format: "int32", minimum: 1 }), number({ format: "int64", minimum: 1 }))).toEqual([]);
  });

  it("calls tightened what admits no more, loosened what admits no less", () => {
    // multipleOf as integers, where "divides" is exact.
    const integral = shapeWith(fc.option(fc.constantFrom(2, 3, 6), { nil: undefined }));
    changesAgreeWithMeaning(integral, values, numberChanges, admitsNumber);
  });
});
