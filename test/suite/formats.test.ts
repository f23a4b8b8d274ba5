import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FORMAT_CHECKS } from "../../generator/keywords/format.js";
import type { DraftResult } from "./run.js";
import { formatFiles, runDraft } from "./run.js";
import { isHostname } from "../../templates/formats.js";

/**
 * The suite's optional format tests of draft 2020-12, for every format agentwire asserts,
 * through protocols configured `"formats": "assert"`: each test asked of `is`, `validate`
 * and strict `decode`, as suite.test.ts asks the required ones.
 */
const FORMATS = Object.keys(FORMAT_CHECKS);

/**
 * The tests agentwire knowingly answers otherwise, by "file: group / test": none. Of
 * IDNA, hostname's A-labels are held to the rules the suite tests (`isULabel` in
 * templates/formats.ts), not to its whole table of valid code points.
 */
const KNOWN_WRONG: readonly string[] = [];

let result: DraftResult;
beforeAll(async () => {
  result = await runDraft("draft2020-12", { files: formatFiles("draft2020-12", FORMATS), formats: "assert" });
});

afterAll(() => {
  if (result === undefined) return;
  const rows = FORMATS.map((format) => {
    const groups = result.groups.filter(({ group }) => group.file === `${format}.json`);
    const passed = groups.reduce((sum, group) => sum + group.passed, 0);
    const wrong = groups.reduce((sum, group) => sum + group.wrong.length, 0);
    return `  ${format.padEnd(21)} ${String(passed).padStart(3)} passed, ${wrong} wrong`;
  });
  console.log(`JSON-Schema-Test-Suite's optional format tests (2020-12), formats asserted:\n${rows.join("\n")}`);
});

describe("templates/formats.ts", () => {
  it("decodes an A-label's Punycode as RFC 3492 does", () => {
    expect(["xn--bcher-kva.example", "xn--mnchen-3ya.de", "xn--ls8h.la"].map(isHostname)).toEqual([true, true, true]);
    expect(["xn--bcher-kva-", "xn--.example", "xn--bcher-kv9.example"].map(isHostname)).toEqual([false, false, false]);
  });
});

describe("the suite's optional format tests, formats asserted", () => {
  it("generates every group and runs it", () => {
    expect(new Set(result.groups.map(({ group }) => group.file))).toEqual(new Set(FORMATS.map((format) => `${format}.json`)));
    expect(result.groups.filter((group) => group.refused !== undefined || group.crashed !== undefined)).toEqual([]);
  });

  it("answers every test as the suite does, but for the known wrong answers", () => {
    const wrong = result.groups.flatMap((group) => group.wrong);
    const answers = wrong.map((answer) => `${answer.test}: ${answer.answers}`).join("\n");
    expect(
      wrong.map((answer) => answer.test),
      answers,
    ).toEqual(KNOWN_WRONG);
  });
});
