import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Draft, DraftResult } from "./run.js";
import { figures, refusalKinds, runDraft, SUITE, summaryTable } from "./run.js";

/**
 * The official JSON-Schema-Test-Suite (vendored in test/fixtures/json-schema-test-suite),
 * every required group of drafts 2020-12 and 7 through agentwire, one batch per draft:
 * for each test of each group the generator accepts, `isRoot`, `validateRoot(…).ok` and
 * strict `decodeRoot(…).ok` must all be the test's `valid`.
 */
const DRAFTS: readonly Draft[] = ["draft2020-12", "draft7", "draft4"];

/**
 * Refused groups, pinned at today's count: the figure may only go down. None is refused
 * today; what remains refused by design (a ref to the network, a $dynamicRef outside any
 * definition whose target depends on the path) the suite does not ask.
 */
const MOST_REFUSED: Readonly<Record<Draft, number>> = { "draft2020-12": 0, draft7: 0, draft4: 0 };

/**
 * Wrong answers known today, by "file: group / test". The list must be exactly what is
 * wrong: a fix fails this test until its entries are removed, and a new wrong answer
 * fails it until it is fixed.
 */
const KNOWN_WRONG: Readonly<Record<Draft, readonly string[]>> = {
  "draft2020-12": [],
  draft7: [],
  draft4: [],
};

const results = new Map<Draft, DraftResult>();
beforeAll(async () => {
  for (const draft of DRAFTS) results.set(draft, await runDraft(draft));
});

afterAll(() => {
  if (results.size !== DRAFTS.length) return;
  const all = DRAFTS.map((draft) => results.get(draft)!);
  const refusals = all.map((result) => refusalKinds(result).map(([kind, count]) => `  ${String(count).padStart(4)}  ${kind}`));
  console.log(
    `JSON-Schema-Test-Suite through agentwire:\n\n${summaryTable(all)}\n\n` +
      DRAFTS.map((draft, i) => `refused in ${draft}, by kind:\n${refusals[i]!.join("\n")}`).join("\n\n"),
  );
});

describe.each(DRAFTS)("JSON-Schema-Test-Suite %s", (draft) => {
  it("reads every required file of the vendored suite, and every group of each", () => {
    const result = results.get(draft)!;
    const onDisk = readdirSync(path.join(SUITE, "tests", draft), { withFileTypes: true });
    // optional/ holds the format tests that formats.test.ts runs.
    expect(onDisk.filter((entry) => !entry.isFile() && entry.name !== "optional").map((entry) => entry.name)).toEqual([]);
    expect([...result.files].sort()).toEqual(
      onDisk
        .filter((entry) => entry.isFile())
        .map((entry) => `tests/${draft}/${entry.name}`)
        .sort(),
    );
    expect(result.files.length).toBeGreaterThan(draft === "draft4" ? 25 : 30);
    expect(new Set(result.groups.map((group) => group.group.file)).size).toBe(result.files.length);
    expect(result.groups.every((group) => group.group.tests.length > 0)).toBe(true);
  });

  it("answers every test of every accepted group as the suite does, but for the known wrong answers", () => {
    const result = results.get(draft)!;
    const wrong = result.groups.flatMap((group) => group.wrong);
    const answers = wrong.map((answer) => `${answer.test}: ${answer.answers}`).join("\n");
    expect(
      wrong.map((answer) => answer.test),
      answers,
    ).toEqual(KNOWN_WRONG[draft]);
    expect(figures(result).passed).toBeGreaterThan(0);
  });

  it("refuses no more groups than today", () => {
    const { refused } = figures(results.get(draft)!);
    expect(refused, `${refused} groups refused: lower MOST_REFUSED["${draft}"] to it when it is below`).toBeLessThanOrEqual(
      MOST_REFUSED[draft],
    );
  });

  it("either generates and runs a group or refuses it with an InputError, nothing else", () => {
    const crashed = results
      .get(draft)!
      .groups.filter((group) => group.crashed !== undefined)
      .map((group) => `${group.group.id}: ${group.crashed}`);
    expect(crashed).toEqual([]);
  });
});

describe("the vendored JSON-Schema-Test-Suite", () => {
  it("is the required tests of the three drafts, the remotes, the license and the README, and its remotes are JSON", () => {
    expect(readdirSync(SUITE).sort()).toEqual(["LICENSE", "README.md", "metaschemas", "remotes", "tests"]);
    expect(readdirSync(path.join(SUITE, "tests")).sort()).toEqual([...DRAFTS].sort());
    // Served to the generator under http://localhost:1234/ (run.ts): each is JSON.
    const remotes = readdirSync(path.join(SUITE, "remotes"), { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
    expect(remotes.length).toBe(81);
    for (const entry of remotes)
      expect(() => JSON.parse(readFileSync(path.join(entry.parentPath, entry.name), "utf8")) as unknown).not.toThrow();
  });
});
