import { RE2 } from "re2-wasm";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { generatedProject } from "../helpers/project.js";

/**
 * Patterns at run time: each runs once on each text a check of a value tests, whether
 * the check is a guard, a validator or a decoder; and the engine is the user's to choose
 * (`useRegExp`), so that RE2 can run a pattern that backtracks catastrophically in linear
 * time.
 */

const SCHEMA = {
  $defs: {
    Word: { type: "string", pattern: "^[a-z]+$" },
    Holder: {
      type: "object",
      properties: {
        word: { $ref: "#/$defs/Word" },
        words: { type: "array", items: { $ref: "#/$defs/Word" } },
        either: { anyOf: [{ $ref: "#/$defs/Word" }, { type: "number" }] },
        tagged: { type: "string", pattern: "^t" },
      },
      patternProperties: { "^x-": { type: "string" } },
      additionalProperties: false,
    },
    Slow: { type: "string", pattern: "^(a+)+$" },
  },
};

type Functions = Record<string, (...args: unknown[]) => unknown>;
let index: Functions;
beforeAll(async () => {
  index = (await generatedProject("patterns", SCHEMA)).index as Functions;
}, 60_000);
afterEach(() => index["useRegExp"]!());

/** Each text every pattern was tested on while `run` ran, through RegExp.prototype.test as the built-in engine runs them. */
function tested(run: () => unknown): string[] {
  const texts: string[] = [];
  const test = Object.getOwnPropertyDescriptor(RegExp.prototype, "test")!;
  Object.defineProperty(RegExp.prototype, "test", {
    ...test,
    value: function (this: RegExp, text: string): boolean {
      texts.push(`${this.source} ${text}`);
      return (test.value as (text: string) => boolean).call(this, text);
    },
  });
  try {
    run();
  } finally {
    Object.defineProperty(RegExp.prototype, "test", test);
  }
  return texts;
}

const twice = (texts: readonly string[]) => texts.filter((text, i) => texts.indexOf(text) !== i);

describe("each pattern runs once on each text a check tests", () => {
  const invalid = { word: "A1", words: ["ok", "B2"], either: "C3", tagged: "nope", "x-a": 1, other: true };
  const valid = { word: "good", words: ["ok", "fine"], either: "yes", tagged: "tag", "x-a": "b" };

  it.each(["isHolder", "validateHolder", "decodeHolder"])("%s, of an invalid value and of a valid one", (name) => {
    const check = index[name]!;
    for (const value of [invalid, valid]) {
      const texts = tested(() => check(value));
      expect(texts.length).toBeGreaterThan(0);
      // A decoder reads a property a pattern matches as the pattern's shape, so the name
      // is tested to read it and again to check what was read; a value's text, once.
      expect(twice(texts).filter((text) => name !== "decodeHolder" || !text.startsWith("^x- "))).toEqual([]);
    }
    // A validator tests everything it reports: every word, the tag, and each name against ^x-.
    if (name !== "isHolder")
      expect([...new Set(tested(() => check(invalid)))].sort()).toEqual(
        ["^[a-z]+$ A1", "^[a-z]+$ ok", "^[a-z]+$ B2", "^[a-z]+$ C3", "^t nope", "^x- x-a", "^x- other"].sort(),
      );
  });

  it("says what failed, once", () => {
    const result = index["validateHolder"]!(invalid) as { ok: boolean; errors: { path: string; keyword: string }[] };
    expect(result.errors.map(({ path, keyword }) => `${path} ${keyword}`)).toEqual([
      "/word pattern",
      "/words/1 pattern",
      "/either pattern",
      "/tagged pattern",
      "/x-a type",
      "/other additionalProperties",
    ]);
  });
});

describe("useRegExp", () => {
  it("runs every pattern on the engine given, compiled once each with its source and the u flag", () => {
    const compiled: string[] = [];
    const seen: string[] = [];
    index["useRegExp"]!((source: string, flags: string) => {
      compiled.push(`/${source}/${flags}`);
      return {
        test: (text: string) => {
          seen.push(text);
          return true;
        },
      };
    });
    // The engine says every text matches: the patterns' failures are gone.
    expect(index["validateHolder"]!({ word: "A1", words: ["B2", "C3"], tagged: "nope" })).toMatchObject({ ok: true });
    expect(index["isSlow"]!("b")).toBe(true);
    expect(compiled.sort()).toEqual(["/^(a+)+$/u", "/^[a-z]+$/u", "/^t/u"]);
    expect(seen.sort()).toEqual(["A1", "B2", "C3", "b", "nope"]);
    index["useRegExp"]!();
    expect(index["isSlow"]!("b")).toBe(false);
  });

  it("with RE2, answers a pattern that backtracks catastrophically on the built-in engine in linear time", () => {
    index["useRegExp"]!((source: string, flags: string) => new RE2(source, flags));
    // 2^40 paths for the built-in engine: hours.
    const attack = `${"a".repeat(40)}!`;
    expect(index["isSlow"]!(attack)).toBe(false);
    expect(index["validateSlow"]!(attack)).toMatchObject({ ok: false, errors: [{ path: "", keyword: "pattern" }] });
    expect(index["decodeSlow"]!(`${"a".repeat(100_000)}!`)).toMatchObject({ ok: false });
    expect(index["isSlow"]!("a".repeat(100_000))).toBe(true);
  });
});
