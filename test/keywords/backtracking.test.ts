import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { backtrackingReason } from "../../generator/keywords/backtracking.js";
import { patternsOf } from "../../generator/schema/patterns.js";
import { CONFIG_FILE, REPO } from "../helpers/project.js";

/**
 * The patterns `generate` warns of: those that can backtrack catastrophically on the
 * built-in engine, as redos-detector finds them. Sound on the known cases (nested
 * quantifiers, overlapping alternatives under a quantifier, adjacent quantifiers over
 * the same characters), and no false alarm on the four protocols' patterns or the
 * JSON-Schema-Test-Suite's, where it flags one, which is quadratic.
 */

/** The patterns of every JSON file under a folder. */
function patternsUnder(folder: string): string[] {
  const files = readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".json"))
    .map((entry) => path.join(entry.parentPath, entry.name));
  return patternsIn(files);
}

/**
 * The patterns of the four protocols: their schemas and overlays, as the repository's config
 * names them (not the schemas of agentwire's own config and overlays, beside them in schemas/).
 */
function protocolPatterns(): string[] {
  const config = JSON.parse(readFileSync(path.join(REPO, CONFIG_FILE), "utf8")) as { protocols: { schema: string; overlays?: string[] }[] };
  return patternsIn(config.protocols.flatMap(({ schema, overlays = [] }) => [schema, ...overlays].map((file) => path.join(REPO, file))));
}

function patternsIn(files: readonly string[]): string[] {
  const sources = new Set<string>();
  for (const file of files) {
    const document = JSON.parse(readFileSync(file, "utf8")) as unknown;
    // The suite's files are arrays of groups, each with a schema.
    const schemas = Array.isArray(document) ? document.map((group: { schema: unknown }) => group.schema) : [document];
    for (const schema of schemas) for (const { source } of patternsOf(schema as never)) sources.add(source);
  }
  return [...sources];
}

async function flagged(sources: readonly string[]): Promise<string[]> {
  const reasons = await Promise.all(sources.map((source) => backtrackingReason(source)));
  return sources.filter((_, i) => reasons[i] !== undefined);
}

describe("patterns that backtrack catastrophically", () => {
  it("are found: nested quantifiers, overlapping alternatives under a quantifier, adjacent quantifiers", async () => {
    const vulnerable = ["^(a+)+$", "^(a|aa)+$", "\\s+$", "^a*a*b$"];
    expect(await flagged(vulnerable)).toEqual(vulnerable);
    expect(await backtrackingReason("^(a+)+$")).toBe(
      "can backtrack catastrophically (`a` and `a` can match the same text): a text that nearly matches takes time exponential or polynomial in its length",
    );
  });

  it("are not confused with nested quantifiers whose repetitions cannot overlap", async () => {
    const safe = [
      "^[a-z]+$",
      "^(ab|cd)*$",
      "^(/([^/~]|~[01])*)*$",
      "^[a-z][a-z0-9]*(-[a-z0-9]+)*$",
      "^[A-Za-z0-9+/]*={0,2}$",
      "^(task_id)$",
    ];
    expect(await flagged(safe)).toEqual([]);
  });

  it("raise no false alarm on the four protocols' patterns, and one, quadratic, on the JSON-Schema-Test-Suite's", async () => {
    const protocols = protocolPatterns();
    expect(protocols.length).toBeGreaterThan(50);
    expect(await flagged(protocols)).toEqual([]);
    const suite = patternsUnder(path.join(REPO, "test/fixtures/json-schema-test-suite/tests"));
    expect(suite.length).toBeGreaterThan(15);
    // Unanchored, `f.*o` is tried from each "f" of a text of f's with no "o": n² steps.
    expect(await flagged(suite)).toEqual(["f.*o"]);
  }, 60_000);

  it("are redos-detector's own verdicts: its worker's plain references answer as its WeakRefs do", async () => {
    // The sample's patterns, and ones that exhaust the budget, whose forks are the most.
    const sources = [
      ...patternsUnder(path.join(REPO, "test/fixtures/schemastore/schemas")),
      "\\w+[\\\\](\\w+\\.)*\\w+\\.dll",
      "^((([0-9]+)y)?(([0-9]+)w)?(([0-9]+)d)?(([0-9]+)h)?(([0-9]+)m)?(([0-9]+)s)?(([0-9]+)ms)?|0)$",
    ];
    expect(sources.length).toBeGreaterThan(20);
    const detector = createRequire(import.meta.url)("redos-detector") as typeof import("redos-detector");
    const own = sources.map((source) => {
      if (!/[*+?{]/.test(source)) return "safe";
      try {
        const result = detector.isSafePattern(source, { unicode: true, maxSteps: 2_000 });
        return result.safe ? "safe" : result.error === "hitMaxSteps" ? "gave up" : "unsafe";
      } catch {
        return "safe";
      }
    });
    const reasons = await Promise.all(sources.map((source) => backtrackingReason(source)));
    const worker = reasons.map((reason) => (reason === undefined ? "safe" : reason.includes("too many ways") ? "gave up" : "unsafe"));
    expect(worker).toEqual(own);
    expect(new Set(own)).toEqual(new Set(["safe", "unsafe", "gave up"]));
  }, 60_000);
});
