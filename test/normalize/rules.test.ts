import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { JsonObject, JsonValue } from "../../generator/json.js";
import { isJsonObject } from "../../generator/json.js";
import { Context } from "../../generator/normalize/context.js";
import { RULES } from "../../generator/normalize/rules/index.js";
import { readSchema } from "../../generator/normalize/schema.js";
import { Provenance } from "../../generator/resolve/index.js";
import { inputError } from "../helpers/failure.js";

/**
 * One fixture per normalization rule, `fixtures/rules/<rule>.json`: cases of what the rule
 * gives for a small input (`in` → `out`, `null` where a union rule does not decide) or the
 * first line of the error it raises (`in` → `error`). A case may give the `document` the
 * rule reads `$defs` and `$ref` targets from. Fixtures are written by hand: nothing here
 * rewrites them.
 */
const dir = path.join(import.meta.dirname, "fixtures", "rules");

interface Case {
  about: string;
  document?: JsonObject;
  in: JsonValue;
  out?: JsonValue;
  error?: string;
}

interface Fixture {
  rule: string;
  cases: Case[];
}

const fixtures = readdirSync(dir)
  .filter((file) => file.endsWith(".json"))
  .map((file) => ({ file, ...(JSON.parse(readFileSync(path.join(dir, file), "utf8")) as Fixture) }));

const PROVENANCE = new Provenance("schemas/test.schema.json", []);

/** Applies a rule to a case's input, frozen, so that a rule that changes its input fails. */
function apply(name: string, testCase: Case): unknown {
  const rule = RULES.find((candidate) => candidate.name === name)!;
  const context = Context.of(testCase.document ?? {}, PROVENANCE, readSchema);
  const input = deepFreeze(structuredClone(testCase.in));
  const at = isJsonObject(input) && typeof input["pointer"] === "string" ? input["pointer"] : "";
  return (rule.apply as (input: JsonValue, context: Context) => unknown)(input, context.within(at));
}

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

describe("normalize: the rules", () => {
  it("each has a unique name, a one-line doc and a fixture; each fixture is of a rule", () => {
    const names = RULES.map((rule) => rule.name);
    expect(new Set(names).size).toBe(names.length);
    for (const rule of RULES) {
      expect(rule.name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(rule.doc).not.toMatch(/\n|^\s*$/);
    }
    expect(fixtures.map((fixture) => fixture.file).sort()).toEqual(names.map((name) => `${name}.json`).sort());
    for (const fixture of fixtures) {
      expect(fixture.rule).toBe(path.basename(fixture.file, ".json"));
      expect(fixture.cases.some((testCase) => "out" in testCase)).toBe(true);
      for (const testCase of fixture.cases) expect("out" in testCase !== "error" in testCase).toBe(true);
    }
  });

  it("each is exported under its name in capitals, so that the code and the fixtures name it alike", async () => {
    const folder = path.join(import.meta.dirname, "../../generator/normalize/rules");
    const exported = new Map<unknown, string>();
    for (const file of readdirSync(folder).filter((name) => name.endsWith(".ts")))
      for (const [name, value] of Object.entries(await import(path.join(folder, file)))) exported.set(value, name);
    const mismatched = RULES.filter((rule) => exported.has(rule) && exported.get(rule) !== rule.name.toUpperCase().replaceAll("-", "_"));
    expect(mismatched.map((rule) => `${exported.get(rule)} is "${rule.name}"`)).toEqual([]);
  });

  const cases = fixtures.flatMap((fixture) => fixture.cases.map((testCase) => ({ rule: fixture.rule, ...testCase })));
  it.each(cases)("$rule: $about", async (testCase) => {
    if (testCase.error !== undefined) {
      const message = await inputError(() => apply(testCase.rule, testCase));
      expect(message.split("\n")[0]).toBe(testCase.error);
    } else {
      const out = apply(testCase.rule, testCase);
      expect(JSON.parse(JSON.stringify(out ?? null))).toStrictEqual(testCase.out);
    }
  });
});
