import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { run } from "../helpers/cli.js";
import { CONFIG_FILE, REPO } from "../helpers/project.js";
import { scratchFolder } from "../helpers/scratch.js";

const read = (file: string) => readFileSync(file, "utf8");
/** agentwire's own copy of a preset's file: what init vendors, byte for byte. */
const preset = (file: string) => read(path.join(REPO, file));

describe("agentwire init", () => {
  it("writes a starter config for plain sources where none is found, and says what is next", async () => {
    const root = scratchFolder("agentwire-init-");
    expect(await run(root, "init")).toEqual({
      code: 0,
      out: "wrote agentwire.config.json\nnext: add a protocol with `agentwire init --protocol a2a`, or list your own schema in it\n",
      err: "",
    });
    expect(JSON.parse(read(path.join(root, CONFIG_FILE)))).toEqual({
      $schema: "./node_modules/agentwire/schemas/config.schema.json",
      protocols: [],
      output: { folder: "src/protocols" },
    });
    // The config it wrote is one generate reads: nothing to generate yet, and nothing refused.
    expect((await run(root, "generate")).code).toBe(0);
  });

  it("vendors a built-in protocol's schema and overlay, pinned; run again, it changes nothing", async () => {
    const root = scratchFolder("agentwire-init-");
    const first = await run(root, "init", "--protocol", "ag-ui", "--output", "lib/bindings");
    expect(first.code).toBe(0);
    expect(first.out).toMatch(
      /^wrote agentwire\.config\.json\nag-ui: vendored schemas\/ag-ui\.schema\.json, schemas\/overlays\/ag-ui\.json; pinned at sha256 893a81d2…\nnext: npx agentwire generate\n$/,
    );
    for (const file of ["schemas/ag-ui.schema.json", "schemas/overlays/ag-ui.json"]) expect(read(path.join(root, file))).toBe(preset(file));
    const config = read(path.join(root, CONFIG_FILE));
    expect(JSON.parse(config)).toMatchObject({
      protocols: [{ name: "ag-ui", schema: "schemas/ag-ui.schema.json", overlays: ["schemas/overlays/ag-ui.json"] }],
      output: { folder: "lib/bindings" },
    });
    expect(await run(root, "init", "--protocol", "ag-ui")).toEqual({
      code: 0,
      out: "agentwire.config.json and the files of its protocols are as agentwire would write them: nothing to do\n",
      err: "",
    });
    expect(read(path.join(root, CONFIG_FILE))).toBe(config);
    // Pinned as generate would pin it: generating records nothing new.
    expect((await run(root, "generate")).out).not.toContain("pinned");
  });

  it("keeps a vendored file the user edited, exit 2, unless --force", async () => {
    const root = scratchFolder("agentwire-init-");
    await run(root, "init", "--protocol", "a2a");
    const overlay = path.join(root, "schemas/overlays/a2a.json");
    writeFileSync(overlay, '{ "facts": [] }\n');
    const config = read(path.join(root, CONFIG_FILE));
    expect(await run(root, "init", "--protocol", "a2a", "--protocol", "ag-ui")).toEqual({
      code: 2,
      out: "",
      err: "agentwire init: schemas/overlays/a2a.json: differs from agentwire's copy of a2a: it was edited, or vendored from elsewhere\n  keep it, or overwrite it with agentwire init --force\n",
    });
    // Nothing written: not ag-ui's files either.
    expect(read(overlay)).toBe('{ "facts": [] }\n');
    expect(existsSync(path.join(root, "schemas/ag-ui.schema.json"))).toBe(false);
    expect(read(path.join(root, CONFIG_FILE))).toBe(config);
    expect((await run(root, "init", "--protocol", "a2a", "--force")).code).toBe(0);
    expect(read(overlay)).toBe(preset("schemas/overlays/a2a.json"));
  });

  it("adds to the config found above the working folder, in its own layout", async () => {
    const root = scratchFolder("agentwire-init-");
    const own = '{\n\t"protocols": [\n\t\t{ "name": "mine", "schema": "mine.json" }\n\t],\n\t"output": { "folder": "gen" }\n}\n';
    writeFileSync(path.join(root, CONFIG_FILE), own);
    mkdirSync(path.join(root, "deep/er"), { recursive: true });
    expect((await run(path.join(root, "deep/er"), "init", "--protocol", "gtm-agent")).code).toBe(0);
    const config = read(path.join(root, CONFIG_FILE));
    expect(
      config.startsWith('{\n\t"protocols": [\n\t\t{ "name": "mine", "schema": "mine.json" },\n\t\t{\n\t\t\t"name": "gtm-agent",'),
    ).toBe(true);
    expect(JSON.parse(config)).toMatchObject({ protocols: [{ name: "mine" }, { name: "gtm-agent" }], output: { folder: "gen" } });
    expect(readdirSync(path.join(root, "deep/er"))).toEqual([]);
  });

  it("refuses a protocol it does not have, naming those it has, and writes nothing", async () => {
    const root = scratchFolder("agentwire-init-");
    expect(await run(root, "init", "--protocol", "acme")).toEqual({
      code: 2,
      out: "",
      err: 'agentwire init: --protocol: no built-in protocol "acme"\n  built in: a2a, ag-ui, app-server, gtm-agent\n',
    });
    expect(readdirSync(root)).toEqual([]);
  });
});
