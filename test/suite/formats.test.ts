import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FORMAT_CHECKS } from "../../generator/keywords/format.js";
import type { DraftResult } from "./run.js";
import { formatFiles, runDraft } from "./run.js";

/**
 * The suite's optional format tests of draft 2020-12, for every format agentwire asserts,
 * through protocols configured `"formats": "assert"`: each test asked of `is`, `validate`
 * and strict `decode`, as suite.test.ts asks the required ones.
 */
const FORMATS = Object.keys(FORMAT_CHECKS);

/**
 * The tests agentwire knowingly answers otherwise, by "file: group / test". All are
 * hostname.json's A-labels: a label "xn--…" is held to RFC 1123's letters, digits and
 * hyphens, as written; its Punycode is not decoded, nor the U-label held to IDNA's rules
 * (RFC 5891, 5892: combining marks first, contextual rules, disallowed code points), which
 * would need Unicode's IDNA tables in the generated package.
 */
const A_LABELS = [
  "invalid Punycode",
  "contains illegal char U+302E Hangul single dot tone mark",
  "Begins with a Spacing Combining Mark",
  "Begins with a Nonspacing Mark",
  "Begins with an Enclosing Mark",
  "Exceptions that are DISALLOWED, right-to-left chars",
  "Exceptions that are DISALLOWED, left-to-right chars",
  "MIDDLE DOT with no preceding 'l'",
  "MIDDLE DOT with nothing preceding",
  "MIDDLE DOT with no following 'l'",
  "MIDDLE DOT with nothing following",
  "Greek KERAIA not followed by Greek",
  "Greek KERAIA not followed by anything",
  "Hebrew GERESH not preceded by Hebrew",
  "Hebrew GERESH not preceded by anything",
  "Hebrew GERSHAYIM not preceded by Hebrew",
  "Hebrew GERSHAYIM not preceded by anything",
  "KATAKANA MIDDLE DOT with no Hiragana, Katakana, or Han",
  "KATAKANA MIDDLE DOT with no other characters",
  "Arabic-Indic digits mixed with Extended Arabic-Indic digits",
  "ZERO WIDTH JOINER not preceded by Virama",
  "ZERO WIDTH JOINER not preceded by anything",
  'contains "--" in the 3rd and 4th position',
];

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
    return `  ${format.padEnd(14)} ${String(passed).padStart(3)} passed, ${wrong} wrong`;
  });
  console.log(`JSON-Schema-Test-Suite's optional format tests (2020-12), formats asserted:\n${rows.join("\n")}`);
});

describe("the suite's optional format tests, formats asserted", () => {
  it("generates every group and runs it", () => {
    expect(new Set(result.groups.map(({ group }) => group.file))).toEqual(new Set(FORMATS.map((format) => `${format}.json`)));
    expect(result.groups.filter((group) => group.refused !== undefined || group.crashed !== undefined)).toEqual([]);
  });

  it("answers every test as the suite does, but hostname's A-labels", () => {
    const wrong = result.groups.flatMap((group) => group.wrong);
    const answers = wrong.map((answer) => `${answer.test}: ${answer.answers}`).join("\n");
    expect(
      wrong.map((answer) => answer.test),
      answers,
    ).toEqual(A_LABELS.map((label) => `hostname.json: validation of A-label (punycode) host names / ${label}`));
  });
});
