import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Change, FailOn, ProtocolDiff } from "../../generator/diff/index.js";
import {
  AUDIENCES,
  CATEGORIES,
  DEFAULT_FAIL_ON,
  diffMarkdown,
  diffProtocol,
  fails,
  formatDiff,
  KINDS,
  readFailOn,
} from "../../generator/diff/index.js";
import type { JsonObject, JsonValue } from "../../generator/json.js";
import { irOf } from "../helpers/in-memory.js";
import { audiencesCell, doc } from "../helpers/readme.js";

interface Fixture {
  readonly description: string;
  readonly old: JsonValue | null;
  readonly new: JsonValue | null;
  readonly overlays?: { readonly old?: readonly JsonObject[]; readonly new?: readonly JsonObject[] };
  readonly expected: readonly Change[];
}

const FIXTURES = path.join(import.meta.dirname, "fixtures");
const fixtures = readdirSync(FIXTURES)
  .filter((file) => file.endsWith(".json"))
  .sort()
  .map((file) => [file.replace(/\.json$/, ""), JSON.parse(readFileSync(path.join(FIXTURES, file), "utf8")) as Fixture] as const);

const diffOf = (fixture: Fixture) =>
  diffProtocol(
    "test",
    fixture.old === null ? undefined : irOf(fixture.old, fixture.overlays?.old ?? []),
    fixture.new === null ? undefined : irOf(fixture.new, fixture.overlays?.new ?? []),
  );

/**
 * Each fixture is two versions of a schema and the changes between them, each with its
 * kind, pointer, message and verdict for receivers and producers (test/diff/fixtures).
 */
describe("diff", () => {
  it.each(fixtures)("%s", (_, fixture) => {
    expect(diffOf(fixture).changes).toEqual(fixture.expected);
  });

  it("has a fixture for every kind of change it knows", () => {
    const covered = new Set(fixtures.flatMap(([, fixture]) => fixture.expected.map((change) => change.kind)));
    expect(Object.keys(KINDS).filter((kind) => !covered.has(kind as never))).toEqual([]);
    expect(Object.keys(KINDS).length).toBeGreaterThanOrEqual(25);
  });

  it("reads from ir/changes.json, per category a kind breaks, whom it breaks and why, and nothing else", () => {
    for (const [kind, info] of Object.entries(KINDS)) {
      const categories = Object.keys(info).filter((key) => key !== "docs");
      expect(
        categories.every((key) => (CATEGORIES as readonly string[]).includes(key)),
        kind,
      ).toBe(true);
      if ("docs" in info) expect([info.docs, categories], kind).toEqual([true, []]);
      for (const category of CATEGORIES) {
        const entry = info[category];
        if (entry === undefined) continue;
        expect(Object.keys(entry).sort(), kind).toEqual(["breaks", "why"]);
        expect(entry.breaks.length, kind).toBeGreaterThan(0);
        expect(entry.breaks, kind).toEqual(AUDIENCES.filter((audience) => entry.breaks.includes(audience)));
        expect(entry.why, kind).toMatch(/^[a-z].*[^.]$/);
      }
    }
  });

  it("are documented in docs/diff.md's table with the breaks they have", () => {
    const cell = "both|receivers|strict receivers|producers|strict receivers and producers|—|docs";
    const rows = [...doc("docs/diff.md").matchAll(new RegExp(`^\\| (${cell}) +\\| (${cell}) +\\| (${cell}) +\\| (\`.*\`) +\\|$`, "gm"))];
    const documented = Object.fromEntries(
      rows.flatMap(([, wire, source, behaviour, kinds]) =>
        [...kinds!.matchAll(/`([a-z-]+)`/g)].map(([, kind]) => [kind, `${wire} | ${source} | ${behaviour}`]),
      ),
    );
    const actual = Object.fromEntries(
      Object.entries(KINDS).map(([kind, info]) => [
        kind,
        "docs" in info ? "docs | docs | docs" : CATEGORIES.map((category) => audiencesCell(info[category]?.breaks ?? [])).join(" | "),
      ]),
    );
    expect(documented).toEqual(actual);
  });

  it("fails on wire and source breaks by default, on any change with any, and never with none", () => {
    const diff = (name: string) => [diffOf(fixtures.find(([fixture]) => fixture === name)![1])];
    const [docsOnly, member, behaviour, tightened, none] = [
      diff("description-changed"),
      diff("member-added"),
      diff("default-changed"),
      diff("constraint-tightened"),
      diff("no-change"),
    ];
    const failOn = (text: string) => {
      const read = readFailOn(text);
      if (typeof read === "object" && "error" in read) throw new Error(read.error);
      return (diffs: readonly ProtocolDiff[]) => fails(diffs, read);
    };
    const byDefault = failOn(DEFAULT_FAIL_ON);
    expect([member, tightened, behaviour, docsOnly, none].map(byDefault)).toEqual([true, true, false, false, false]);
    expect([member, tightened, behaviour, docsOnly, none].map(failOn("breaking"))).toEqual([true, true, true, false, false]);
    expect([member, tightened, behaviour].map(failOn("wire:producers"))).toEqual([false, true, false]);
    expect([member, tightened, behaviour].map(failOn("source, behaviour:receivers"))).toEqual([true, false, true]);
    expect([member, docsOnly, none].map(failOn("any"))).toEqual([true, true, false]);
    expect([member, behaviour].map(failOn("none"))).toEqual([false, false]);
  });

  it("fails on breaks of strict receivers for receivers and strict-receivers, and not for tolerant-receivers", () => {
    const diff = (name: string) => [diffOf(fixtures.find(([fixture]) => fixture === name)![1])];
    const [closed, opened, member, required] = [
      diff("field-added-optional-to-closed-object"),
      diff("object-opened"),
      diff("member-added"),
      diff("field-added-required-to-closed-object"),
    ];
    const failOn = (text: string) => (diffs: readonly ProtocolDiff[]) => fails(diffs, readFailOn(text) as FailOn);
    expect([closed, opened, member, required].map(failOn(DEFAULT_FAIL_ON))).toEqual([true, true, true, true]);
    expect([closed, opened, member, required].map(failOn("wire:receivers"))).toEqual([true, true, true, true]);
    expect([closed, opened, member, required].map(failOn("wire:strict-receivers"))).toEqual([true, true, true, true]);
    expect([closed, opened, member, required].map(failOn("wire:tolerant-receivers"))).toEqual([false, false, true, false]);
    expect([closed, opened, member, required].map(failOn("wire:tolerant-receivers,wire:producers"))).toEqual([false, false, true, true]);
  });

  it("refuses a --fail-on it cannot read, saying what it takes", () => {
    for (const text of ["wires", "wire:senders", "wire:producers:x", "any,wire", "", "none,none", "wire:tolerant", "wire:constructor"])
      expect(readFailOn(text), text).toEqual({ error: expect.stringContaining(`not "${text}"`) });
  });

  it("reports for people, grouped by severity, breaking first, saying whom a change breaks and why", () => {
    const member = diffOf(fixtures.find(([name]) => name === "member-added")![1]);
    expect(formatDiff([member, { protocol: "quiet", changes: [] }])).toBe(
      [
        "test: 2 changes (1 breaking, 1 compatible)",
        "",
        "  breaking",
        '    Msg: gains the member Bye (kind "bye")',
        "      member-added at /$defs/Msg",
        "      wire: breaks receivers: older receivers do not accept the member; tolerant decoders report it as unrecognized",
        "      source: breaks receivers: an exhaustive match stops compiling until it handles the member",
        "",
        "  compatible",
        "    Bye: added",
        "      type-added at /$defs/Bye",
        "",
        "quiet: no changes",
      ].join("\n"),
    );
  });

  it("reports for a pull request in Markdown that no schema text can break out of", () => {
    const change = (message: string, pointer: string): Change => ({
      kind: "type-removed",
      pointer,
      message,
      breaks: { wire: [], source: ["receivers", "producers"], behaviour: [] },
    });
    const hostile = {
      protocol: "x",
      changes: [
        change("A|B: *removed* _x_ x_y\n| forged | row |", "/$defs/A|B"),
        change("`C`: removed", "/$defs/`C`"),
        change("<img src=x>: removed", ""),
      ],
    };
    expect(diffMarkdown([hostile, { protocol: "quiet", changes: [] }])).toBe(
      [
        "**agentwire diff**: 3 changes, 3 breaking, in x; no changes to quiet.",
        "",
        "| protocol | change | kind | pointer | wire | source | behaviour |",
        "| --- | --- | --- | --- | --- | --- | --- |",
        "| x | A\\|B: \\*removed\\* \\_x\\_ x_y \\| forged \\| row \\| | `type-removed` | `/$defs/A\\|B` | compatible | breaks **receivers** and **producers** | compatible |",
        "| x | \\`C\\`: removed | `type-removed` | `` /$defs/`C` `` | compatible | breaks **receivers** and **producers** | compatible |",
        "| x | \\<img src=x\\>: removed | `type-removed` | the root | compatible | breaks **receivers** and **producers** | compatible |",
      ].join("\n"),
    );
  });
});
