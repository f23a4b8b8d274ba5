import { describe, expect, it } from "vitest";
import {
  ENUM_DESCRIPTIONS_KEYWORD,
  ENUM_NUMBERS_KEYWORD,
  FALLBACK_KEYWORD,
  hasAssertions,
  isPureRef,
  MODELLED,
  NULL_IS_ABSENT_KEYWORD,
  STAMP_KEYWORD,
  USE_SITE_ANNOTATIONS,
} from "../../generator/schema/vocabulary.js";

describe("the keyword lists", () => {
  it("put no keyword in two of them", () => {
    const lists = { MODELLED, USE_SITE_ANNOTATIONS };
    for (const [a, first] of Object.entries(lists))
      for (const [b, second] of Object.entries(lists))
        if (a < b)
          expect(
            [...first].filter((keyword) => second.has(keyword)),
            `${a} and ${b}`,
          ).toEqual([]);
  });

  it("leave agentwire's and OpenAPI's annotations unknown, so that they assert nothing", () => {
    for (const keyword of [FALLBACK_KEYWORD, ENUM_NUMBERS_KEYWORD, STAMP_KEYWORD, NULL_IS_ABSENT_KEYWORD, ENUM_DESCRIPTIONS_KEYWORD]) {
      expect(keyword).toMatch(/^x-/);
      expect(MODELLED.has(keyword), keyword).toBe(false);
    }
  });
});

describe("hasAssertions", () => {
  it("holds when a schema has a keyword that constrains values, modelled or not", () => {
    expect(hasAssertions({ type: "string" })).toBe(true);
    expect(hasAssertions({ description: "d", minimum: 0 })).toBe(true);
    expect(hasAssertions({ $ref: "#/$defs/A" })).toBe(true);
    expect(hasAssertions({ not: {} })).toBe(true);
    expect(hasAssertions({ dependentRequired: {} })).toBe(true);
  });

  it("does not hold for a schema of annotations and definitions only", () => {
    expect(hasAssertions({})).toBe(false);
    expect(hasAssertions({ title: "T", description: "d", default: 1, examples: [], $comment: "c", deprecated: true })).toBe(false);
    expect(hasAssertions({ $schema: "https://json-schema.org/draft/2020-12/schema", $id: "x", $defs: { A: { type: "string" } } })).toBe(
      false,
    );
    expect(hasAssertions({ format: "date-time", [FALLBACK_KEYWORD]: "UNKNOWN", "x-anything": { type: "string" } })).toBe(false);
  });
});

describe("isPureRef", () => {
  it("holds for a $ref with nothing beside it but annotations", () => {
    expect(isPureRef({ $ref: "#/$defs/A" })).toBe(true);
    expect(isPureRef({ $ref: "#/$defs/A", description: "d", title: "t", default: {}, [STAMP_KEYWORD]: "unix-milliseconds" })).toBe(true);
  });

  it("does not hold when a keyword beside the $ref constrains the value, or without a $ref", () => {
    expect(isPureRef({ $ref: "#/$defs/A", type: "object" })).toBe(false);
    expect(isPureRef({ $ref: "#/$defs/A", required: ["a"] })).toBe(false);
    expect(isPureRef({ $ref: "#/$defs/A", not: {} })).toBe(false);
    expect(isPureRef({ description: "no ref" })).toBe(false);
    expect(isPureRef({})).toBe(false);
  });
});
