import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { run, snapshot } from "../helpers/cli.js";
import { CONFIG_FILE, demoProject, makeProject, REPO } from "../helpers/project.js";

const repoCopy = () => makeProject({}, { withRepoSchemas: true });

describe("agentwire generate", () => {
  it("writes generated/ and prints a line per protocol and the time taken", async () => {
    const root = repoCopy();
    const { code, out, err } = await run(root, "generate");
    expect(code).toBe(0);
    // No warning either: no pattern of the four protocols can backtrack catastrophically.
    expect(err).toBe("");
    expect(out).toMatch(
      /^a2a {9}51 types, 5 unions, 9 files\nag-ui {7}82 types, 7 unions, 9 files\napp-server {2}33 types, 1 union, 9 files\ngtm-agent {3}11 types, 3 unions, 9 files\ngenerated 57 files in \d+ ms\n$/,
    );
    expect(snapshot(path.join(root, "generated"))).toEqual(snapshotOwned(REPO));
  });

  it("on bad input exits with 2, names the file and pointer, and leaves generated/ as it was", async () => {
    const root = repoCopy();
    await run(root, "generate");
    writeFileSync(path.join(root, "generated", "dist-marker"), "kept");
    const before = snapshot(path.join(root, "generated"));
    const schema = path.join(root, "schemas", "app-server.schema.json");
    const broken = JSON.parse(readFileSync(schema, "utf8")) as { $defs: Record<string, unknown> };
    broken.$defs["AppItem"] = { type: "string", pattern: "([a-z]" };
    writeFileSync(schema, JSON.stringify(broken));
    const config = path.join(root, CONFIG_FILE);
    writeFileSync(config, readFileSync(config, "utf8").replace(/"sha256": "992d[0-9a-f]+",?/, ""));
    const { code, err, out } = await run(root, "generate");
    expect(code).toBe(2);
    expect(out).toBe("");
    expect(err).toBe(
      'agentwire generate: schemas/app-server.schema.json#/$defs/AppItem/pattern: invalid pattern "([a-z]": Invalid regular expression: /([a-z]/u: Unterminated group\n  patterns are ECMAScript regular expressions with the u flag (draft 2020-12)\n',
    );
    expect(snapshot(path.join(root, "generated"))).toEqual(before);
  });

  it("reports a syntax error by line and column", async () => {
    const { code, err } = await run(demoProject('{\n  "type": "object",,\n}'), "generate");
    expect(code).toBe(2);
    expect(err).toBe(
      'agentwire generate: schemas/demo.schema.json:2:20: invalid JSON: expected a property name in double quotes, found ","\n',
    );
  });

  it("finds the project from a folder inside it", async () => {
    const root = demoProject({ type: "string" });
    mkdirSync(path.join(root, "deep", "er"), { recursive: true });
    expect((await run(path.join(root, "deep", "er"), "generate")).code).toBe(0);
    expect(readFileSync(path.join(root, "generated/src/demo/types.ts"), "utf8")).toContain("export type Demo = string;");
  });

  it("removes what a generation no longer writes, and keeps what it does not own", async () => {
    const root = demoProject({ type: "string" });
    mkdirSync(path.join(root, "generated/src/old"), { recursive: true });
    writeFileSync(path.join(root, "generated/src/old/types.ts"), "stale");
    mkdirSync(path.join(root, "generated/dist"), { recursive: true });
    writeFileSync(path.join(root, "generated/dist/index.js"), "built");
    await run(root, "generate");
    expect(() => statSync(path.join(root, "generated/src/old"))).toThrow();
    expect(readFileSync(path.join(root, "generated/dist/index.js"), "utf8")).toBe("built");
    expect(readdirSync(path.join(root, "generated")).sort()).toEqual([
      "README.md",
      "dist",
      "package.json",
      "sources.json",
      "src",
      "tsconfig.json",
    ]);
  });
});

describe("agentwire check", () => {
  it("exits 0 when generated/ matches and never writes", async () => {
    const root = repoCopy();
    await run(root, "generate");
    const before = snapshot(root);
    const { code, out } = await run(root, "check");
    expect(code).toBe(0);
    expect(out).toBe("generated/ is up to date (57 files)\n");
    expect(snapshot(root)).toEqual(before);
  });

  it("exits 1 with a unified diff of changed, missing and stale files", async () => {
    const root = demoProject({ type: "string", description: "A string." });
    await run(root, "generate");
    const types = path.join(root, "generated/src/demo/types.ts");
    writeFileSync(types, readFileSync(types, "utf8").replace("A string.", "Edited by hand."));
    rmSync(path.join(root, "generated/src/demo/index.ts"));
    writeFileSync(path.join(root, "generated/src/demo/extra.ts"), "export {};\n");
    const { code, out, err } = await run(root, "check");
    expect(code).toBe(1);
    expect(out).toContain("--- a/generated/src/demo/types.ts\n+++ b/generated/src/demo/types.ts\n");
    expect(out).toContain("-/** Edited by hand. */\n+/** A string. */\n");
    expect(out).toContain("+++ b/generated/src/demo/index.ts\n@@ -0,0 +1,18 @@");
    expect(out).toContain("--- a/generated/src/demo/extra.ts\n+++ b/generated/src/demo/extra.ts\n@@ -1,1 +0,0 @@\n-export {};");
    expect(err).toBe(
      "generated/ is out of date: 1 changed, 1 missing, 1 stale (3 files). Run `agentwire generate` and commit the result.\n",
    );
  });

  it("cuts a diff at 400 lines, and prints all of it with --full", async () => {
    // Nothing generated yet: every file is missing, a diff of well over 400 lines.
    const root = demoProject({ type: "string" });
    const cut = await run(root, "check");
    expect(cut.code).toBe(1);
    const lines = cut.out.split("\n");
    const rest = Number(/^… (\d+) more lines of diff not shown \(--full shows them\)$/.exec(lines.at(-2)!)?.[1]);
    expect(lines.length).toBe(400 + 2);
    const full = await run(root, "check", "--full");
    expect(full.code).toBe(1);
    expect(full.err).toBe(cut.err);
    expect(full.out).not.toContain("more lines of diff not shown");
    expect(full.out.startsWith(lines.slice(0, 400).join("\n"))).toBe(true);
    expect(full.out.split("\n").length).toBe(400 + rest + 1);
  });

  it("exits 2 on bad input", async () => {
    expect((await run(demoProject({ $ref: "#/$defs/Nope" }), "check")).code).toBe(2);
  });
});

describe("agentwire: usage", () => {
  it.each(["generate", "check", "diff", "update"])("explains %s with --help", async (command) => {
    const { code, out } = await run(REPO, command, "--help");
    expect(code).toBe(0);
    expect(out).toMatch(new RegExp(`^Usage: agentwire ${command}[ \\n]`));
  });

  it("refuses an unknown command or argument with 2", async () => {
    expect((await run(REPO, "generat")).code).toBe(2);
    expect((await run(REPO, "check", "--fix")).code).toBe(2);
    expect((await run(REPO)).code).toBe(2);
    expect((await run(REPO, "--help")).code).toBe(0);
  });

  it("suggests the command or option an unknown one is near", async () => {
    const command = await run(REPO, "genrate");
    expect(command.code).toBe(2);
    expect(command.err).toMatch(/^agentwire: unknown command "genrate" \(did you mean "generate"\?\)\n\nUsage: agentwire <command>/);
    const option = await run(REPO, "diff", "--jsn");
    expect(option.code).toBe(2);
    expect(option.err).toMatch(/^agentwire diff: unknown option "--jsn" \(did you mean "--json"\?\)\n\nUsage: agentwire diff /);
    expect((await run(REPO, "check", "--ful")).err).toMatch(/^agentwire check: unknown option "--ful" \(did you mean "--full"\?\)\n/);
    expect((await run(REPO, "frobnicate")).err).toMatch(/^agentwire: unknown command "frobnicate"\n\n/);
  });

  it("prints its version with --version", async () => {
    const { version } = JSON.parse(readFileSync(path.join(REPO, "package.json"), "utf8")) as { version: string };
    expect(await run(REPO, "--version")).toEqual({ code: 0, out: `agentwire ${version}\n`, err: "" });
  });

  it("is the package's bin", () => {
    const result = spawnSync(process.execPath, [path.join(REPO, "bin/agentwire.js"), "check"], { cwd: REPO, encoding: "utf8" });
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
  });
});

/** The files agentwire owns in a project's generated/, as `agentwire generate` writes them. */
function snapshotOwned(root: string): Record<string, string> {
  const all = snapshot(path.join(root, "generated"));
  return Object.fromEntries(
    Object.entries(all).filter(
      ([file]) => file.startsWith("src/") || ["README.md", "package.json", "sources.json", "tsconfig.json"].includes(file),
    ),
  );
}
