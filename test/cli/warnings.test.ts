import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { run } from "../helpers/cli.js";
import { CONFIG_FILE, configFor, demoProject, makeProject, REPO } from "../helpers/project.js";

/**
 * `generate` warns, on standard error and with exit 0, of each pattern that can backtrack
 * catastrophically, naming the pattern, the file and the JSON Pointer where it was
 * written. The four protocols have none (test/cli/cli.test.ts: generate prints nothing on
 * standard error).
 */
describe("agentwire generate: patterns that backtrack catastrophically", () => {
  it("are named with their file and pointer, as warnings: the files are written, exit 0", async () => {
    const root = demoProject(
      {
        $defs: {
          Word: { type: "string", pattern: "^(a+)+$" },
          Safe: { type: "string", pattern: "^[a-z]+$" },
          Holder: {
            type: "object",
            patternProperties: { "^(a|aa)+$": { type: "string" } },
            propertyNames: { pattern: "^(\\w+\\s?)*$" },
            properties: { other: { $ref: "other.schema.json" } },
          },
        },
      },
      { "schemas/other.schema.json": { type: "string", pattern: "^a*a*b$" } },
    );
    const { code, err } = await run(root, "generate");
    expect(code).toBe(0);
    expect(existsSync(path.join(root, "generated/src/demo/guards.ts"))).toBe(true);
    const warnings = err.split("\n").filter((line) => line.startsWith("warning: "));
    // In the order of the effective schema: the definition another file gave first.
    expect(warnings).toEqual([
      expect.stringMatching(/^warning: schemas\/other\.schema\.json#\/pattern: the pattern "\^a\*a\*b\$" can backtrack catastrophically/),
      'warning: schemas/demo.schema.json#/$defs/Word/pattern: the pattern "^(a+)+$" can backtrack catastrophically (`a` and `a` can match the same text): a text that nearly matches takes time exponential or polynomial in its length',
      expect.stringMatching(
        /^warning: schemas\/demo\.schema\.json#\/\$defs\/Holder\/patternProperties\/\^\(a\|aa\)\+\$: the pattern "\^\(a\|aa\)\+\$" /,
      ),
      expect.stringMatching(
        /^warning: schemas\/demo\.schema\.json#\/\$defs\/Holder\/propertyNames\/pattern: the pattern "\^\(\\\\w\+\\\\s\?\)\*\$" /,
      ),
    ]);
    expect(err).toContain(
      "\n  Rewrite it so that no two of its parts can match the same text, or run the patterns on a linear-time engine such as RE2",
    );
  });

  it("leave no worker behind: an error in a later protocol still ends the process, with 2", () => {
    const root = makeProject({
      [CONFIG_FILE]: configFor([
        { name: "first", schema: "schemas/first.schema.json" },
        { name: "second", schema: "schemas/second.schema.json" },
      ]),
      // The first protocol's pattern is being checked when the second's error is thrown.
      "schemas/first.schema.json": { $defs: { Word: { type: "string", pattern: "^(a+)+$" } } },
      "schemas/second.schema.json": { $ref: "#/$defs/Nope" },
    });
    const result = spawnSync(process.execPath, [path.join(REPO, "bin/agentwire.js"), "generate"], {
      cwd: root,
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(result.stderr).toContain("schemas/second.schema.json#/$ref");
    expect(result.status).toBe(2);
  }, 90_000);
});
