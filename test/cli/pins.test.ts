import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { repin } from "../../generator/api/pins.js";
import type { Pin } from "../../generator/load/index.js";
import { run, snapshot } from "../helpers/cli.js";
import { CONFIG_FILE, makeProject } from "../helpers/project.js";

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
const A = "a".repeat(64);
const B = "b".repeat(64);
const pin = (entry: number, value: string, pinned?: string): Pin => ({
  protocol: `p${entry}`,
  entry: `/protocols/${entry}`,
  file: `schemas/p${entry}.json`,
  sha256: value,
  pinned,
});

describe("repin", () => {
  it("replaces a pin where it is, and leaves every other byte of the config as it was", () => {
    const config = `{\n  "protocols": [\n    { "name": "x", "schema": "x.json", "sha256": "${A}" },\n    { "name": "y", "schema": "y.json", "sha256": "${A}" }\n  ]\n}\n`;
    // Two entries pinned alike: only the one named changes.
    expect(repin(config, [pin(1, B, A)])).toBe(config.replace(`"y.json", "sha256": "${A}"`, `"y.json", "sha256": "${B}"`));
  });

  it("adds a missing pin right after the entry's schema, indented as its neighbours", () => {
    const config =
      '{\n    "protocols": [\n        {\n            "name": "x",\n            "schema": "x.json",\n            "overlays": []\n        }\n    ]\n}\n';
    expect(repin(config, [pin(0, A)])).toBe(
      `{\n    "protocols": [\n        {\n            "name": "x",\n            "schema": "x.json",\n            "sha256": "${A}",\n            "overlays": []\n        }\n    ]\n}\n`,
    );
  });

  it("keeps tabs and CRLF line ends", () => {
    const config = '{\r\n\t"protocols": [\r\n\t\t{\r\n\t\t\t"name": "x",\r\n\t\t\t"schema": "x.json"\r\n\t\t}\r\n\t]\r\n}\r\n';
    expect(repin(config, [pin(0, A)])).toBe(
      `{\r\n\t"protocols": [\r\n\t\t{\r\n\t\t\t"name": "x",\r\n\t\t\t"schema": "x.json",\r\n\t\t\t"sha256": "${A}"\r\n\t\t}\r\n\t]\r\n}\r\n`,
    );
  });
});

/** The repository's schemas, generated, with AG-UI's schema about to be edited. */
async function generatedCopy(): Promise<{ root: string; schema: string; config: string }> {
  const root = makeProject({}, { withRepoSchemas: true });
  await run(root, "generate");
  return { root, schema: path.join(root, "schemas/ag-ui.schema.json"), config: path.join(root, CONFIG_FILE) };
}

/** AG-UI's schema with one more optional property on RunStartedEvent. */
function withOptionalProperty(text: string): string {
  const schema = JSON.parse(text) as { $defs: Record<string, { properties: Record<string, unknown> }> };
  schema.$defs["RunStartedEvent"]!.properties["resumedFrom"] = { type: "string", description: "The checkpoint this run resumes from." };
  return `${JSON.stringify(schema, null, 2)}\n`;
}

describe("the pins of agentwire.config.json, a lockfile", () => {
  it("generate pins an edited schema, says so in one line, and changes nothing else in the config", async () => {
    const { root, schema, config } = await generatedCopy();
    const before = readFileSync(config, "utf8");
    const old = sha256(readFileSync(schema, "utf8"));
    writeFileSync(schema, withOptionalProperty(readFileSync(schema, "utf8")));
    const now = sha256(readFileSync(schema, "utf8"));
    const { code, out } = await run(root, "generate");
    expect(code).toBe(0);
    expect(out).toContain(
      `\nag-ui: pinned schemas/ag-ui.schema.json at sha256 ${now.slice(0, 8)}… (was ${old.slice(0, 8)}…)\ngenerated 57 files`,
    );
    expect(readFileSync(config, "utf8")).toBe(before.replace(old, now));
    expect(await run(root, "check")).toMatchObject({ code: 0 });
    // Nothing changed: nothing pinned, nothing said.
    expect((await run(root, "generate")).out).not.toContain("pinned");
  });

  it("check reports a schema edited since its pin as drift: exit 1, the schema named, the diff generate would make", async () => {
    const { root, schema } = await generatedCopy();
    const old = sha256(readFileSync(schema, "utf8"));
    writeFileSync(schema, withOptionalProperty(readFileSync(schema, "utf8")));
    const now = sha256(readFileSync(schema, "utf8"));
    const before = snapshot(root);
    const { code, out, err } = await run(root, "check");
    expect(code).toBe(1);
    expect(out).toContain(`--- a/agentwire.config.json\n+++ b/agentwire.config.json\n`);
    expect(out).toContain(`-      "sha256": "${old}",\n+      "sha256": "${now}",\n`);
    expect(out).toContain("+++ b/generated/src/ag-ui/types.ts\n");
    expect(out).toContain("+  resumedFrom?: string;\n");
    expect(err).toBe(
      `ag-ui: schemas/ag-ui.schema.json changed since it was pinned (sha256 ${now.slice(0, 8)}…, pinned ${old.slice(0, 8)}…)\n` +
        "generated/ is out of date: 6 changed (6 files). Run `agentwire generate` and commit the result.\n",
    );
    expect(snapshot(root)).toEqual(before);
  });

  it("diff never reads the pins: an edit is previewed before generating", async () => {
    const { root, schema } = await generatedCopy();
    const original = readFileSync(schema, "utf8");
    writeFileSync(path.join(root, "v1.json"), original);
    writeFileSync(schema, withOptionalProperty(original));
    // AG-UI's events are closed: older strict receivers refuse the field, tolerant ones drop it.
    const { code, out } = await run(root, "diff", "v1.json", "schemas/ag-ui.schema.json", "--fail-on", "wire:tolerant-receivers,source");
    expect(code).toBe(0);
    expect(out).toBe(
      'ag-ui: 1 change (1 breaking)\n\n  breaking\n    RunStartedEvent: optional field "resumedFrom" added\n      field-added-optional-to-closed-object at /$defs/RunStartedEvent/properties/resumedFrom\n      wire: breaks strict receivers: older strict receivers refuse a property their closed object does not declare; tolerant ones drop it\n',
    );
  });

  it("a schema change rewrites only the generated files whose content changes, and sources.json", async () => {
    const { root, schema } = await generatedCopy();
    const changedBy = async (edit: (text: string) => string): Promise<string[]> => {
      const before = snapshot(path.join(root, "generated"));
      writeFileSync(schema, edit(readFileSync(schema, "utf8")));
      expect((await run(root, "generate")).code).toBe(0);
      const after = snapshot(path.join(root, "generated"));
      return Object.keys(after).filter((file) => after[file] !== before[file]);
    };
    // The same schema, laid out differently: only its hash changes.
    expect(await changedBy((text) => `${JSON.stringify(JSON.parse(text), null, 4)}\n`)).toEqual(["sources.json"]);
    // A description: the JSDoc of the type and of its builder, the effective schema, and the definitions of its Standard Schemas.
    const described = (text: string) =>
      text.replace('"Opens a run. Run-scoped, so it carries no subagent attribution."', '"A run has started."');
    expect(await changedBy(described)).toEqual([
      "sources.json",
      "src/ag-ui/builders.ts",
      "src/ag-ui/schema.json",
      "src/ag-ui/standard.ts",
      "src/ag-ui/types.ts",
    ]);
  });
});
