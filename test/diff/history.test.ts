import { cpSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { fileIr, projectIrs } from "../../generator/api/versions.js";
import type { ProtocolDiff } from "../../generator/diff/index.js";
import { AUDIENCES, CATEGORIES, diffProtocol, severity } from "../../generator/diff/index.js";
import { loadSchemas } from "../../generator/load/index.js";
import { generate } from "../../generator/pipeline.js";
import { CONFIG_FILE, configFor, makeProject } from "../helpers/project.js";
import { audiencesCell, doc } from "../helpers/readme.js";

/**
 * A real history: every published version of A2A's JSON schema (test/fixtures/spec-history),
 * generated in one batch, a protocol per version, and each diffed with the one before.
 */
const HISTORY = path.join(import.meta.dirname, "../fixtures/spec-history/a2a");

interface Version {
  readonly file: string;
  readonly commit: string;
  readonly name: string;
  readonly subject: string;
}

const versions: Version[] = readFileSync(path.join(HISTORY, "versions.tsv"), "utf8")
  .trim()
  .split("\n")
  .slice(1)
  .map((line) => {
    const [file, commit, , subject] = line.split("\t") as [string, string, string, string];
    return { file, commit, name: `a2a-${file.slice(0, 2)}`, subject: subject.trim() };
  });

let root = "";
let diffs: { version: Version; diff: ProtocolDiff }[] = [];
beforeAll(async () => {
  root = makeProject({
    [CONFIG_FILE]: configFor(versions.map(({ file, name }) => ({ name, schema: `schemas/history/${file}` }))),
  });
  cpSync(HISTORY, path.join(root, "schemas/history"), { recursive: true });
  const irs = projectIrs(loadSchemas(root));
  diffs = versions.slice(1).map((version, i) => ({
    version,
    diff: diffProtocol(version.name, irs.get(versions[i]!.name), irs.get(version.name)),
  }));
}, 60_000);

const breaking = ({ changes }: ProtocolDiff) => changes.filter((change) => severity(change) === "breaking");
const markedBreaking = (subject: string) => /^[a-z]+(\([^)]*\))?!:/.test(subject);
const saysHarmless = (subject: string) => /^(docs|chore|ci)(\([^)]*\))?:/.test(subject);

/** docs/diff.md's table of the history: per row, its cells. */
function historyTable(): string[][] {
  const text = doc("docs/diff.md");
  const start = text.indexOf("\n## Proved on a real history");
  const end = text.indexOf("\n## ", start + 1);
  const section = text.slice(start, end === -1 ? undefined : end);
  return [...section.matchAll(/^\| \d\d .*\|$/gm)].map(([line]) =>
    line
      .slice(1, -1)
      .split("|")
      .map((cell) => cell.trim()),
  );
}

describe("A2A's published history", () => {
  it("is every version of the vendored folder, each listed once", () => {
    const files = readdirSync(HISTORY).filter((file) => file.endsWith(".json"));
    expect(versions.map(({ file }) => file).sort()).toEqual(files.sort());
    expect(versions.length).toBe(42);
  });

  it("generates a sample of the versions, the first five's colliding titles qualified by their place", async () => {
    // Every version is resolved and normalized above, for the diffs; the emitters and the
    // printer, the most of a generation's time, are asked of the first five, every sixth and
    // the last, which span the schema's changes of shape.
    const sample = versions.filter((_, i) => i < 5 || i % 6 === 0 || i === versions.length - 1);
    const project = makeProject({
      [CONFIG_FILE]: configFor(sample.map(({ file, name }) => ({ name, schema: `schemas/history/${file}` }))),
    });
    cpSync(HISTORY, path.join(project, "schemas/history"), { recursive: true });
    const { files, protocols } = await generate(project);
    expect(protocols.map(({ name }) => name)).toEqual(sample.map(({ name }) => name));
    expect(sample.length).toBeGreaterThanOrEqual(12);
    const types = files.find((file) => file.path === "src/a2a-01/types.ts")!;
    expect("content" in types && types.content).toContain("export type AgentProviderUrl = ");
  }, 60_000);

  it("diffs every consecutive pair, and finds a break in each commit its authors marked breaking", () => {
    expect(diffs.length).toBe(41);
    const marked = diffs.filter(({ version }) => markedBreaking(version.subject));
    expect(marked.map(({ version }) => version.file)).toEqual(["25-90fa6420.json", "35-2cd7d98b.json", "38-e162c0c6.json"]);
    for (const { version, diff } of marked) expect(breaking(diff).length, version.subject).toBeGreaterThan(0);
  });

  it("says what changed: never 'is an X, was an X', and another kind only where the values are others", () => {
    const messages = diffs.flatMap(({ diff }) => diff.changes.map(({ message }) => message));
    expect(messages.filter((message) => /is (an? \S+), was \1$/.test(message))).toEqual([]);
    // Reviewed: each is an object of optional fields split into alternatives that each require one (A2A 0.2).
    expect(diffs.flatMap(({ diff }) => diff.changes.filter(({ kind }) => kind === "kind-changed").map(({ pointer }) => pointer))).toEqual([
      "/$defs/CancelTaskResponse",
      "/$defs/FilePart/properties/file",
      "/$defs/GetTaskResponse",
      "/$defs/JSONRPCResponse",
    ]);
  });

  it("is docs/diff.md's reviewed table: the changes and whom they break, each harmless-sounding break explained", () => {
    const rows = historyTable();
    expect(rows.map(([number]) => number)).toEqual(diffs.map(({ version }) => version.file.slice(0, 2)));
    for (const [i, { version, diff }] of diffs.entries()) {
      const [, commit, subject, changes, wire, source, behaviour, reviewed] = rows[i]!;
      const breaks = CATEGORIES.map((category) =>
        audiencesCell(AUDIENCES.filter((audience) => diff.changes.some((change) => change.breaks[category].includes(audience)))),
      );
      expect([commit, subject, changes, wire, source, behaviour], version.file).toEqual([
        `[\`${version.commit.slice(0, 8)}\`](https://github.com/a2aproject/A2A/commit/${version.commit})`,
        version.subject,
        String(diff.changes.length),
        ...breaks,
      ]);
      const needsReview = markedBreaking(version.subject) || (saysHarmless(version.subject) && breaks.some((cell) => cell !== "—"));
      if (needsReview) expect(reviewed, version.file).not.toBe("—");
    }
  });
});

describe("GitHub's webhook schemas, 7.5.1 → 7.6.1 (344 definitions)", () => {
  it("diff to what changed: a category's node_id, a merge-group action, and two refactorings", async () => {
    const octokit = path.join(import.meta.dirname, "../fixtures/spec-history/octokit-webhooks");
    const diff = diffProtocol("webhooks", fileIr(octokit, "7.5.1.json", "webhooks"), fileIr(octokit, "7.6.1.json", "webhooks"));
    expect(diff.changes.map(({ kind, message }) => `${kind}: ${message}`)).toEqual([
      'field-added-required-to-closed-object: discussion.category: required field "node_id" added',
      "type-extracted: discussion$category_changed.changes.category.from: is the named type DiscussionCategory",
      "type-extracted: discussion.category: is the named type DiscussionCategory",
      "type-added: merge_group$destroyed: added",
      "type-widened: merge_group_event: is a merge_group$checks_requested or a merge_group$destroyed, was a merge_group$checks_requested",
      "type-added: DiscussionCategory: added",
    ]);
  });
});
