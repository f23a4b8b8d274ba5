import { spawnSync } from "node:child_process";
import { readFileSync, symlinkSync } from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { writeGeneration } from "../../generator/cli/write.js";
import { generate } from "../../generator/pipeline.js";
import { makeProject, REPO } from "../helpers/project.js";

/**
 * Tuples, contains and unevaluatedItems in a generated package: their types, used where
 * an object holds them, compile under strict tsc with the guards that narrow to them.
 */
it("a package of tuples, contains and unevaluatedItems compiles under strict tsc", async () => {
  const schema = {
    $defs: {
      Pair: { type: "array", prefixItems: [{ type: "string" }, { type: "integer" }], items: false, minItems: 1 },
      Row: {
        type: "array",
        prefixItems: [{ type: "string" }, { $ref: "#/$defs/Pair" }],
        items: { type: "number" },
        contains: { type: "number" },
        maxContains: 2,
      },
      Loose: { prefixItems: [{ type: ["string", "number"] }], unevaluatedItems: false },
      Chosen: {
        type: "array",
        if: { prefixItems: [{ const: 1 }] },
        then: { prefixItems: [true, { type: "string" }] },
        unevaluatedItems: false,
      },
      Holder: {
        type: "object",
        properties: { pair: { $ref: "#/$defs/Pair" }, rows: { type: "array", items: { $ref: "#/$defs/Row" } } },
        required: ["pair"],
      },
    },
  };
  const root = makeProject({
    "schemas/protocols.json": { protocols: [{ name: "tuples", schema: "tuples.schema.json" }] },
    "schemas/tuples.schema.json": schema,
  });
  writeGeneration(path.join(root, "generated"), (await generate(root)).files);
  symlinkSync(path.join(REPO, "node_modules"), path.join(root, "generated", "node_modules"));
  const types = readFileSync(path.join(root, "generated/src/tuples/types.ts"), "utf8");
  expect(types).toContain("export type Pair = [string, number?];");
  expect(types).toContain("export type Row = [string?, Pair?, ...number[]];");
  const result = spawnSync(path.join(REPO, "node_modules/.bin/tsc"), ["-p", path.join(root, "generated/tsconfig.json"), "--noEmit"], {
    encoding: "utf8",
  });
  expect(result.stdout + result.stderr).toBe("");
}, 60_000);
