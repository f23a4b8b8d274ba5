import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Change } from "../../generator/diff/index.js";
import { diffMarkdown, diffProtocol, fails, formatDiff, KINDS } from "../../generator/diff/index.js";
import type { JsonObject, JsonValue } from "../../generator/json.js";
import { irOf } from "../helpers/in-memory.js";
import { REPO } from "../helpers/project.js";

interface Fixture {
  readonly description: string;
  readonly old: JsonValue | null;
  readonly new: JsonValue | null;
  readonly overlays?: { readonly old?: readonly JsonObject[]; readonly new?: readonly JsonObject[] };
  readonly expected: readonly Pick<Change, "kind" | "pointer" | "message" | "receivers" | "producers">[];
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

  it("reads from kinds.json a verdict per audience for every kind, and nothing else", () => {
    for (const info of Object.values(KINDS)) {
      expect(["breaking", "compatible"]).toContain(info.receivers);
      expect(["breaking", "compatible"]).toContain(info.producers);
      expect(Object.keys(info).every((key) => ["receivers", "producers", "docs", "why"].includes(key))).toBe(true);
      if ("docs" in info) expect(info.docs).toBe(true);
    }
  });

  it("are documented in the README's table with the verdicts they have", () => {
    const readme = readFileSync(path.join(REPO, "README.md"), "utf8");
    const rows = [...readme.matchAll(/^\| (breaking|compatible|docs) +\| (breaking|compatible|docs) +\| (`.*`) +\|$/gm)];
    const documented = Object.fromEntries(
      rows.flatMap(([, receivers, producers, kinds]) =>
        [...kinds!.matchAll(/`([a-z-]+)`/g)].map(([, kind]) => [kind, `${receivers} ${producers}`]),
      ),
    );
    const actual = Object.fromEntries(
      Object.entries(KINDS).map(([kind, info]) => [kind, "docs" in info ? "docs docs" : `${info.receivers} ${info.producers}`]),
    );
    expect(documented).toEqual(actual);
  });

  it("fails on breaking changes by default, on any change with any, and never with none", () => {
    const docsOnly = [diffOf(fixtures.find(([name]) => name === "description-changed")![1])];
    const breaking = [diffOf(fixtures.find(([name]) => name === "member-added")![1])];
    const none = [diffOf(fixtures.find(([name]) => name === "no-change")![1])];
    expect([fails(breaking, "breaking"), fails(docsOnly, "breaking"), fails(none, "breaking")]).toEqual([true, false, false]);
    expect([fails(breaking, "any"), fails(docsOnly, "any"), fails(none, "any")]).toEqual([true, true, false]);
    expect([fails(breaking, "none"), fails(docsOnly, "none")]).toEqual([false, false]);
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
        "      breaks receivers: an exhaustive match stops compiling until it handles the member; tolerant decoders report it as unrecognized",
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
      receivers: "breaking",
      producers: "breaking",
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
        "| protocol | change | kind | pointer | receivers | producers |",
        "| --- | --- | --- | --- | --- | --- |",
        "| x | A\\|B: \\*removed\\* \\_x\\_ x_y \\| forged \\| row \\| | `type-removed` | `/$defs/A\\|B` | **breaking** | **breaking** |",
        "| x | \\`C\\`: removed | `type-removed` | `` /$defs/`C` `` | **breaking** | **breaking** |",
        "| x | \\<img src=x\\>: removed | `type-removed` | the root | **breaking** | **breaking** |",
      ].join("\n"),
    );
  });
});
