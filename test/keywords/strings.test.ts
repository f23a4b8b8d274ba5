import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { StringShape } from "../../generator/ir/model.js";
import { fails } from "../../generator/keywords/check.js";
import { admitsString, meetStrings, STRING_TYPE, stringChanges, stringChecks } from "../../generator/keywords/strings.js";
import { compact } from "../../generator/normalize/intersect.js";
import { codePointLength } from "../../generated/src/runtime.js";
import { agreesWithReference, changesAgreeWithMeaning, FIXED, meetIsBoth } from "./laws.js";

const string = (keywords: Partial<Omit<StringShape, "kind">> = {}): StringShape => ({ kind: "string", ...keywords });

/** Strings of UTF-16 units that make pairs, lone surrogates of both halves, and plain letters. */
const texts = fc
  .array(fc.constantFrom(0x61, 0x62, 0xe9, 0xd83d, 0xde00, 0xd800, 0xdc00), { maxLength: 6 })
  .map((units) => String.fromCharCode(...units));
const length = fc.option(fc.integer({ min: 0, max: 4 }), { nil: undefined });
const shapes = fc
  .record({
    minLength: length,
    maxLength: length,
    patterns: fc.option(fc.subarray(["^a", "b$", "^.{0,2}$", "\\p{L}"], { minLength: 1 }), { nil: undefined }),
  })
  .map((keywords) => compact({ kind: "string" as const, ...keywords }) as StringShape);

describe("strings: meaning", () => {
  it("counts code points, not UTF-16 units", () => {
    expect(admitsString("😀", string({ minLength: 2 }))).toBe(false);
    expect(admitsString("😀", string({ maxLength: 1 }))).toBe(true);
    expect(admitsString("\ud800", string({ minLength: 1, maxLength: 1 }))).toBe(true);
    expect(admitsString("😀\ud83d", string({ maxLength: 1 }))).toBe(false);
  });

  it("measures length as the runtime's codePointLength does, lone surrogates and all", () => {
    fc.assert(
      fc.property(texts, fc.integer({ min: 0, max: 6 }), (text, bound) => {
        return fails({ op: "<", measure: "codePointLength", bound }, text) === codePointLength(text) < bound;
      }),
      FIXED,
    );
  });

  it("reads patterns with the u flag, and needs every one to match", () => {
    expect(admitsString("😀", string({ patterns: ["^.$"] }))).toBe(true);
    expect(admitsString("é", string({ patterns: ["^\\p{L}$"] }))).toBe(true);
    expect(admitsString("ab", string({ patterns: ["^a", "b$"] }))).toBe(true);
    expect(admitsString("ac", string({ patterns: ["^a", "b$"] }))).toBe(false);
  });

  it("admits strings only", () => {
    expect([1, null, true].map((value) => admitsString(value, string()))).toEqual([false, false, false]);
  });

  it("agrees with the reference validator", () => {
    agreesWithReference(shapes, texts, admitsString);
  });
});

describe("strings: checks for the emitter", () => {
  it("say what the validators say, each with its test as data", () => {
    expect(STRING_TYPE).toEqual({ keyword: "type", message: "must be a string", fails: { op: "notType", type: "string" } });
    expect(stringChecks(string({ minLength: 3, maxLength: 1, patterns: ["^[A-Za-z0-9+/]*={0,2}$"] }))).toEqual([
      { keyword: "minLength", message: "must have at least 3 characters", fails: { op: "<", measure: "codePointLength", bound: 3 } },
      { keyword: "maxLength", message: "must have at most 1 character", fails: { op: ">", measure: "codePointLength", bound: 1 } },
      {
        keyword: "pattern",
        message: "must match the pattern ^[A-Za-z0-9+/]*={0,2}$",
        fails: { op: "notMatch", pattern: "^[A-Za-z0-9+/]*={0,2}$" },
      },
    ]);
    expect(stringChecks(string({ minLength: 1, patterns: ["^(/([^/~]|~[01])*)*$", "^/"] })).map((check) => check.message)).toEqual([
      "must have at least 1 character",
      "must match the pattern ^(/([^/~]|~[01])*)*$",
      "must match the pattern ^/",
    ]);
    expect(stringChecks(string({ format: "uri" }))).toEqual([]);
  });
});

describe("strings: allOf", () => {
  it("keeps the tighter length bounds and every pattern once", () => {
    expect(
      meetStrings(
        string({ minLength: 1, maxLength: 9, patterns: ["^a"] }),
        string({ minLength: 2, maxLength: 10, patterns: ["^a", "b$"] }),
      ),
    ).toEqual({
      minLength: 2,
      maxLength: 9,
      patterns: ["^a", "b$"],
    });
    expect(meetStrings(string(), string())).toEqual({ minLength: undefined, maxLength: undefined, patterns: undefined });
  });

  it("admits exactly the strings both shapes admit", () => {
    const meet = (a: StringShape, b: StringShape) => compact({ kind: "string" as const, ...meetStrings(a, b) }) as StringShape;
    meetIsBoth(fc.tuple(shapes, shapes), texts, meet, admitsString);
  });
});

describe("strings: diff", () => {
  it("classifies length bounds and patterns", () => {
    expect(stringChanges(string({ minLength: 1 }), string({ minLength: 3, maxLength: 5 }))).toEqual([
      { kind: "constraint-tightened", what: "at least 3 characters, was 1" },
      { kind: "constraint-tightened", what: "at most 5 characters, was any" },
    ]);
    expect(stringChanges(string({ maxLength: 5 }), string())).toEqual([
      { kind: "constraint-loosened", what: "at most any characters, was 5" },
    ]);
    expect(stringChanges(string(), string({ patterns: ["^a"] }))).toEqual([{ kind: "constraint-tightened", what: 'must now match "^a"' }]);
    expect(stringChanges(string({ patterns: ["^a", "b$"] }), string({ patterns: ["b$"] }))).toEqual([
      { kind: "constraint-loosened", what: 'need no longer match "^a"' },
    ]);
    expect(stringChanges(string({ patterns: ["^a"] }), string({ patterns: ["^b"] }))).toEqual([
      { kind: "constraint-changed", what: 'must match "^b", not "^a"' },
    ]);
    expect(stringChanges(string({ format: "uri" }), string())).toEqual([]);
  });

  it("calls tightened what admits no more, loosened what admits no less", () => {
    changesAgreeWithMeaning(shapes, texts, stringChanges, admitsString);
  });
});
