import { describe, expect, it } from "vitest";
import type { Refusal, Words } from "../generator/refusal.js";
import { refusalError } from "../generator/refusal.js";

const message = (section: unknown, refusal: Refusal, words: readonly Words[] = []) =>
  refusalError("o.json", "/stream", section, [refusal], words).message;

describe("refusalError", () => {
  it("says the validator's words with the key they are of, at the place in the file", () => {
    expect(message({ a: 1 }, { path: "/a", keyword: "type", message: "must be a string" })).toBe('o.json#/stream/a: "a" must be a string');
    expect(message({ a: [1] }, { path: "/a/0", keyword: "type", message: "must be a string" })).toBe(
      'o.json#/stream/a/0: item 0 of "a" must be a string',
    );
    expect(message({}, { path: "/a", keyword: "required", message: "is required" })).toBe('o.json#/stream/a: "a" is required');
    expect(message({ b: 1 }, { path: "/b", keyword: "additionalProperties", message: 'must not have the property "b"' })).toBe(
      'o.json#/stream/b: unknown key "b"',
    );
    expect(message({ a: " " }, { path: "/a", keyword: "pattern", message: "must match the pattern \\S" })).toBe(
      'o.json#/stream/a: "a" must not be blank',
    );
  });

  it("reads the refusal's path as a JSON Pointer, a map's key escaped in it", () => {
    const section = { where: { "/a/b": [], "/a": [] } };
    expect(message(section, { path: "/where/~1a~1b", keyword: "minItems", message: "must have at least 1 item" })).toBe(
      'o.json#/stream/where/~1a~1b: "/a/b" must have at least 1 item',
    );
  });

  it("says the reader's words where a pattern and keyword match, and those for a place within it of anything inside", () => {
    const words: Words[] = [
      { at: "/rules/*", within: true, say: ({ value }) => (Array.isArray(value) ? { problem: "a rule is no list" } : undefined) },
      {
        at: "/rules/*/first|terminal",
        keyword: "minItems",
        say: ({ key }) => ({ problem: `"${key}" lists events`, hint: "such as OPEN" }),
      },
    ];
    const section = { rules: [{ terminal: [] }, [{ x: 1 }]] };
    expect(message(section, { path: "/rules/0/terminal", keyword: "minItems", message: "" }, words)).toBe(
      'o.json#/stream/rules/0/terminal: "terminal" lists events\n  such as OPEN',
    );
    expect(message(section, { path: "/rules/0/terminal", keyword: "type", message: "must be an array" }, words)).toBe(
      'o.json#/stream/rules/0/terminal: "terminal" must be an array',
    );
    expect(message(section, { path: "/rules/1/0/x", keyword: "type", message: "must be a string" }, words)).toBe(
      "o.json#/stream/rules/1: a rule is no list",
    );
  });
});
