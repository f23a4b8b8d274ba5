import { readFileSync } from "node:fs";
import path from "node:path";
import { RE2 } from "re2-wasm";
import { afterEach, describe, expect, it } from "vitest";
import { matches, useRegExp } from "../../generated/src/runtime.js";
import type { RegExpLike } from "../../generated/src/runtime.js";

/**
 * The runtime's pluggable pattern engine (`useRegExp`) with RE2 through the adapter the
 * README gives: on every pattern test of the JSON-Schema-Test-Suite (pattern and
 * patternProperties, each draft vendored), RE2 answers as the built-in engine does, and
 * the patterns RE2 cannot read fall back to the built-in engine.
 */

const SUITE = path.resolve(import.meta.dirname, "../fixtures/json-schema-test-suite/tests");

interface Group {
  readonly schema: { readonly pattern?: string; readonly patternProperties?: Record<string, unknown> };
  readonly tests: readonly { readonly data: unknown }[];
}

/** Each pattern of the suite's pattern tests, with the texts its tests test it on. */
function suitePatterns(): Map<string, Set<string>> {
  const found = new Map<string, Set<string>>();
  const add = (pattern: string, text: string) => found.set(pattern, (found.get(pattern) ?? new Set()).add(text));
  for (const draft of ["draft2020-12", "draft7", "draft4"])
    for (const file of ["pattern.json", "patternProperties.json"]) {
      const groups = JSON.parse(readFileSync(path.join(SUITE, draft, file), "utf8")) as Group[];
      for (const { schema, tests } of groups) {
        const patterns = [...(schema.pattern === undefined ? [] : [schema.pattern]), ...Object.keys(schema.patternProperties ?? {})];
        for (const pattern of patterns)
          for (const { data } of tests) {
            if (typeof data === "string") add(pattern, data);
            else if (typeof data === "object" && data !== null && !Array.isArray(data)) for (const key of Object.keys(data)) add(pattern, key);
          }
      }
    }
  return found;
}

afterEach(() => useRegExp());

describe("useRegExp with RE2", () => {
  it("answers the suite's pattern tests as the built-in engine does", () => {
    const refused: string[] = [];
    // The README's adapter: RE2 where it reads the pattern, the built-in engine where not.
    useRegExp((source, flags): RegExpLike => {
      try {
        return new RE2(source, flags);
      } catch {
        refused.push(source);
        return new RegExp(source, flags);
      }
    });
    const patterns = suitePatterns();
    expect(patterns.size).toBeGreaterThan(10);
    const disagree: string[] = [];
    let tests = 0;
    for (const [source, texts] of patterns) {
      // A new RegExp each time: `matches` compiles each pattern object once.
      const pattern = new RegExp(source, "u");
      for (const text of texts) {
        tests++;
        if (matches(pattern, text) !== new RegExp(source, "u").test(text)) disagree.push(`/${source}/ on ${JSON.stringify(text)}`);
      }
    }
    expect(disagree).toEqual([]);
    expect(tests).toBeGreaterThanOrEqual(30);
    // RE2 knows \p{L}, not the long name of a Unicode property.
    expect(refused).toEqual(["^\\p{Letter}+$"]);
  });

  it("is used from the call on, and useRegExp() goes back to the built-in engine", () => {
    const pattern = /^(a+)+$/u;
    const attack = `${"a".repeat(40)}!`;
    useRegExp((source, flags) => new RE2(source, flags));
    expect(matches(pattern, attack)).toBe(false);
    expect(matches(pattern, "aaaa")).toBe(true);
    useRegExp();
    expect(matches(pattern, "aaaa!")).toBe(false);
  });
});
