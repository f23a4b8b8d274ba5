import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { JsonObject } from "../../generator/json.js";
import { passes } from "../../generator/keywords/check.js";
import type { PropertyCounted } from "../../generator/keywords/properties.js";
import { meetProperties, propertyChanges, propertyChecks } from "../../generator/keywords/properties.js";
import { compact } from "../../generator/normalize/intersect.js";
import { agreesWithReference, changesAgreeWithMeaning, meetIsBoth } from "./laws.js";

const count = fc.option(fc.integer({ min: 0, max: 4 }), { nil: undefined });
const shapes = fc.record({ minProperties: count, maxProperties: count }).map((keywords) => compact(keywords) as PropertyCounted);
const objects = fc.dictionary(fc.constantFrom("a", "b", "c", "d", "e"), fc.jsonValue({ maxDepth: 1 }), {
  maxKeys: 5,
}) as fc.Arbitrary<JsonObject>;
const admits = (value: JsonObject, shape: PropertyCounted) => passes(propertyChecks(shape), value);

describe("properties: meaning", () => {
  it("counts the properties an object has", () => {
    expect(admits({}, { minProperties: 1 })).toBe(false);
    expect(admits({ a: 1 }, { minProperties: 1, maxProperties: 1 })).toBe(true);
    expect(admits({ a: 1, b: null }, { maxProperties: 1 })).toBe(false);
  });

  it("agrees with the reference validator", () => {
    agreesWithReference(
      shapes.map((shape) => ({ kind: "object", ...shape })),
      objects,
      (value, shape) => admits(value, shape),
    );
  });
});

describe("properties: checks for the emitter", () => {
  it("say what the validators say, each with its test as data", () => {
    expect(propertyChecks({ minProperties: 1, maxProperties: 2 })).toEqual([
      { keyword: "minProperties", message: "must have at least 1 property", fails: { op: "<", measure: "propertyCount", bound: 1 } },
      { keyword: "maxProperties", message: "must have at most 2 properties", fails: { op: ">", measure: "propertyCount", bound: 2 } },
    ]);
    expect(propertyChecks({})).toEqual([]);
  });
});

describe("properties: allOf", () => {
  it("keeps the tighter bounds", () => {
    expect(meetProperties({ minProperties: 1, maxProperties: 4 }, { minProperties: 2, maxProperties: 8 })).toEqual({
      minProperties: 2,
      maxProperties: 4,
    });
  });

  it("admits exactly the objects both shapes admit", () => {
    meetIsBoth(fc.tuple(shapes, shapes), objects, (a, b) => compact(meetProperties(a, b)) as PropertyCounted, admits);
  });
});

describe("properties: diff", () => {
  it("classifies the bounds", () => {
    expect(propertyChanges({ minProperties: 1 }, { maxProperties: 3 })).toEqual([
      { kind: "constraint-loosened", what: "at least any properties, was 1" },
      { kind: "constraint-tightened", what: "at most 3 properties, was any" },
    ]);
    expect(propertyChanges({ maxProperties: 3 }, { maxProperties: 5 })).toEqual([
      { kind: "constraint-loosened", what: "at most 5 properties, was 3" },
    ]);
  });

  it("calls tightened what admits no more, loosened what admits no less", () => {
    changesAgreeWithMeaning(shapes, objects, propertyChanges, admits);
  });
});
