import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { locate } from "../../generator/files/folder.js";
import { run, snapshot } from "../helpers/cli.js";
import { CONFIG_FILE, configFor, makeProject, REPO } from "../helpers/project.js";

/**
 * Every file agentwire reads or writes has its real path inside the project, the folder
 * of agentwire.config.json: the config, schemas, overlays, refs and remotes (each remote's
 * documents inside its folder), and the output folder. Templates are agentwire's own,
 * never the project's. A symbolic link that stays inside is followed; one that leads out is
 * refused with exit 2, naming the link, and nothing outside is read or written.
 */

const elsewhere = mkdtempSync(path.join(tmpdir(), "agentwire-elsewhere-"));
afterAll(() => rmSync(elsewhere, { recursive: true, force: true }));

/** A file outside every project, with a canary in it that must never reach generated/. */
const SECRET = path.join(elsewhere, "secret.json");
writeFileSync(SECRET, JSON.stringify({ $defs: { Canary: { const: "the secret canary" } } }));

/** The secret by a relative link from a file of schemas/ of a project in the temp folder: two folders up, then across. */
const SECRET_FROM_SCHEMAS = `../../${path.relative(tmpdir(), SECRET)}`;

const config = (entry: object = {}, rest: Readonly<Record<string, unknown>> = {}) =>
  configFor([{ name: "demo", schema: "schemas/demo.schema.json", ...entry }], rest);

/** A project of the given files and links; a link takes the place of a file given at or under it. */
function project(files: Readonly<Record<string, string | object>>, links: Readonly<Record<string, string>>): string {
  const covered = (file: string) => Object.keys(links).some((link) => file === link || file.startsWith(`${link}/`));
  const root = makeProject(Object.fromEntries(Object.entries(files).filter(([file]) => !covered(file))));
  for (const [at, to] of Object.entries(links)) {
    mkdirSync(path.dirname(path.join(root, at)), { recursive: true });
    symlinkSync(to, path.join(root, at));
  }
  return root;
}

/** Nothing of the secret anywhere under a folder. */
function leaked(dir: string): boolean {
  return existsSync(dir) && Object.values(snapshot(dir)).some((text) => text.includes("the secret canary"));
}

describe("links out of the project", () => {
  it.each([
    [
      "a schema that is a link out of the project",
      { [CONFIG_FILE]: config() },
      { "schemas/demo.schema.json": SECRET },
      `agentwire.config.json#/protocols/0/schema: "schemas/demo.schema.json" leads outside the project: schemas/demo.schema.json is a symbolic link to ${SECRET}`,
    ],
    [
      "a schema that is a relative link out of the project",
      { [CONFIG_FILE]: config() },
      { "schemas/demo.schema.json": SECRET_FROM_SCHEMAS },
      `agentwire.config.json#/protocols/0/schema: "schemas/demo.schema.json" leads outside the project: schemas/demo.schema.json is a symbolic link to ${SECRET_FROM_SCHEMAS}`,
    ],
    [
      "a schema in a folder that is a link out of the project",
      { [CONFIG_FILE]: config({ schema: "schemas/vendor/secret.json" }) },
      { "schemas/vendor": elsewhere },
      `agentwire.config.json#/protocols/0/schema: "schemas/vendor/secret.json" leads outside the project: schemas/vendor is a symbolic link to ${elsewhere}`,
    ],
    [
      "a $ref target that is a link out of the project",
      { [CONFIG_FILE]: config(), "schemas/demo.schema.json": { $ref: "other.json#/$defs/Canary" } },
      { "schemas/other.json": SECRET },
      `schemas/demo.schema.json#/$ref: $ref "other.json#/$defs/Canary" points outside the project: schemas/other.json is a symbolic link to ${SECRET}`,
    ],
    [
      "a $ref through a folder that is a link out of the project",
      { [CONFIG_FILE]: config(), "schemas/demo.schema.json": { $ref: "vendor/secret.json#/$defs/Canary" } },
      { "schemas/vendor": `${elsewhere}/` },
      `schemas/demo.schema.json#/$ref: $ref "vendor/secret.json#/$defs/Canary" points outside the project: schemas/vendor is a symbolic link to ${elsewhere}/`,
    ],
    [
      "a remotes folder that is a link out of the project",
      {
        [CONFIG_FILE]: config({}, { remotes: { "https://example.com/": "schemas/vendor/" } }),
        "schemas/demo.schema.json": { $ref: "https://example.com/secret.json#/$defs/Canary" },
      },
      { "schemas/vendor": elsewhere },
      `agentwire.config.json#/remotes/https:~1~1example.com~1: "schemas/vendor/" leads outside the project: schemas/vendor is a symbolic link to ${elsewhere}`,
    ],
    [
      "a link in a remote's folder that leads out of it",
      {
        [CONFIG_FILE]: config({}, { remotes: { "https://example.com/": "schemas/vendor/" } }),
        "schemas/demo.schema.json": { $ref: "https://example.com/secret.json#/$defs/Canary" },
        "schemas/vendor/a.json": {},
      },
      { "schemas/vendor/secret.json": "../../../secret.json" },
      'schemas/demo.schema.json#/$ref: $ref "https://example.com/secret.json#/$defs/Canary" points outside the folder of "https://example.com/", schemas/vendor/: schemas/vendor/secret.json is a symbolic link to ../../../secret.json',
    ],
    [
      "the config, a link out of the project",
      {},
      { [CONFIG_FILE]: path.join(elsewhere, CONFIG_FILE) },
      `agentwire.config.json: it leads outside the project: agentwire.config.json is a symbolic link to ${path.join(elsewhere, CONFIG_FILE)}`,
    ],
    [
      "schemas/, a link out of the project",
      { [CONFIG_FILE]: config() },
      { schemas: elsewhere },
      `agentwire.config.json#/protocols/0/schema: "schemas/demo.schema.json" leads outside the project: schemas is a symbolic link to ${elsewhere}`,
    ],
  ])("refuses %s, exit 2, and reads nothing there", async (_, files, links, message) => {
    // A config beside the secret, which a link to it would open if it were followed.
    writeFileSync(path.join(elsewhere, CONFIG_FILE), JSON.stringify(configFor([{ name: "demo", schema: "secret.json" }])));
    writeFileSync(path.join(elsewhere, "demo.schema.json"), readFileSync(SECRET));
    const root = project({ "schemas/demo.schema.json": { type: "string" }, ...files }, links);
    const { code, out, err } = await run(root, "generate");
    expect({ code, out }).toEqual({ code: 2, out: "" });
    expect(err.split("\n")[0]).toBe(`agentwire generate: ${message}`);
    expect(existsSync(path.join(root, "generated"))).toBe(false);
  });

  it("never reads the project's templates/: the templates are agentwire's own", async () => {
    const root = makeProject({ [CONFIG_FILE]: config(), "schemas/demo.schema.json": { type: "string" } });
    mkdirSync(path.join(root, "templates"));
    writeFileSync(path.join(root, "templates/README.md"), "{{protocols}} the secret canary\n");
    symlinkSync(path.join(elsewhere, "secret.json"), path.join(root, "templates/runtime.ts"));
    const { code, err } = await run(root, "generate");
    expect({ code, err }).toEqual({ code: 0, err: "" });
    expect(leaked(path.join(root, "generated"))).toBe(false);
    expect(readFileSync(path.join(root, "generated/src/runtime.ts"), "utf8")).toBe(
      readFileSync(path.join(REPO, "generated/src/runtime.ts"), "utf8"),
    );
  });

  it("refuses generated/ that is a link out of the project, and writes nothing there", async () => {
    const target = mkdtempSync(path.join(elsewhere, "output-"));
    const root = project({ [CONFIG_FILE]: config(), "schemas/demo.schema.json": { type: "string" } }, { generated: target });
    const { code, err } = await run(root, "generate");
    expect(code).toBe(2);
    expect(err).toBe(
      `agentwire generate: agentwire.config.json#/output/folder: "generated" leads outside the project: generated is a symbolic link to ${target}\n  agentwire reads and writes only inside the project, the config's folder: name a folder of it, relative to the config\n`,
    );
    expect(readdirSync(target)).toEqual([]);
  });

  it("refuses an output folder that is a link to the project itself", async () => {
    const root = project({ [CONFIG_FILE]: config(), "schemas/demo.schema.json": { type: "string" } }, { generated: "." });
    const { code, err } = await run(root, "generate");
    expect(code).toBe(2);
    expect(err.split("\n")[0]).toBe('agentwire generate: agentwire.config.json#/output/folder: "generated" is the project itself');
    expect(readdirSync(root).sort()).toEqual([CONFIG_FILE, "generated", "schemas"]);
  });

  it("check reads no file of generated/ that is a link out of it", async () => {
    const root = makeProject({ [CONFIG_FILE]: config(), "schemas/demo.schema.json": { type: "string" } });
    expect((await run(root, "generate")).code).toBe(0);
    rmSync(path.join(root, "generated/src/demo/types.ts"));
    symlinkSync(SECRET, path.join(root, "generated/src/demo/types.ts"));
    const { code, out, err } = await run(root, "check");
    expect({ code, out }).toEqual({ code: 2, out: "" });
    expect(err).toBe(
      `agentwire check: generated/src/demo/types.ts: it leads outside generated/: generated/src/demo/types.ts is a symbolic link to ${SECRET}\n  remove the link: agentwire writes files there\n`,
    );
  });

  it("refuses a loop of links with its own words", async () => {
    const root = project({ [CONFIG_FILE]: config() }, { "schemas/demo.schema.json": "a.json", "schemas/a.json": "demo.schema.json" });
    const { code, err } = await run(root, "generate");
    expect(code).toBe(2);
    expect(err.split("\n")[0]).toBe(
      "agentwire generate: agentwire.config.json#/protocols/0/schema: cannot follow schemas/demo.schema.json: a symbolic link where a file was expected, or too many links (ELOOP)",
    );
  });
});

describe("the output folder, which no input is read from", () => {
  it("refuses a $ref into the output folder, by its path or through a link: a generation never reads the last one", async () => {
    const root = makeProject({
      [CONFIG_FILE]: config(),
      "schemas/demo.schema.json": { $defs: { Canary: { const: "the secret canary" } } },
    });
    expect((await run(root, "generate")).code).toBe(0);
    const schema = path.join(root, "schemas/demo.schema.json");
    writeFileSync(schema, JSON.stringify({ $ref: "../generated/src/demo/schema.json#/$defs/Canary" }));
    const before = snapshot(path.join(root, "generated"));
    expect(await run(root, "generate")).toEqual({
      code: 2,
      out: "",
      err: 'agentwire generate: schemas/demo.schema.json#/$ref: $ref "../generated/src/demo/schema.json#/$defs/Canary" points into the output folder generated/, which agentwire replaces\n  keep the files a schema refs out of the output folder\n',
    });
    symlinkSync("../generated/src/demo/schema.json", path.join(root, "schemas/last.json"));
    writeFileSync(schema, JSON.stringify({ $ref: "last.json#/$defs/Canary" }));
    expect((await run(root, "generate")).err.split("\n")[0]).toBe(
      'agentwire generate: schemas/demo.schema.json#/$ref: $ref "last.json#/$defs/Canary" points into the output folder generated/, which agentwire replaces',
    );
    expect(snapshot(path.join(root, "generated"))).toEqual(before);
  });

  it("refuses a schema that is a link into the output folder", async () => {
    const root = project(
      { [CONFIG_FILE]: config(), "generated/demo.schema.json": { type: "string" } },
      { "schemas/demo.schema.json": "../generated/demo.schema.json" },
    );
    const { code, err } = await run(root, "generate");
    expect(code).toBe(2);
    expect(err.split("\n")[0]).toBe(
      'agentwire generate: agentwire.config.json#/protocols/0/schema: "schemas/demo.schema.json" is inside the output folder generated/, which agentwire replaces',
    );
  });
});

describe("links that stay inside", () => {
  it("are followed: a schema, a folder of schemas and a $ref target linked within the project, a remotes folder within it", async () => {
    const root = project(
      {
        [CONFIG_FILE]: config({}, { remotes: { "https://example.com/": "schemas/mirror/" } }),
        "schemas/versions/v1.json": { $ref: "../parts/name.json" },
        "schemas/store/name.json": { type: "string", minLength: 1 },
        "schemas/store/remote.json": { type: "integer" },
        "schemas/other.json": {
          type: "object",
          properties: { name: { $ref: "current.json" }, n: { $ref: "https://example.com/remote.json" } },
        },
      },
      {
        // Out of schemas/ to a file of the project: inside the project, so followed.
        "schemas/demo.schema.json": "../vendored/other.json",
        "vendored/other.json": "../schemas/other.json",
        "schemas/current.json": "versions/v1.json",
        "schemas/parts": "store",
        "schemas/mirror": "./store/",
      },
    );
    const { code, err } = await run(root, "generate");
    expect(err).toBe("");
    expect(code).toBe(0);
    const types = readFileSync(path.join(root, "generated/src/demo/types.ts"), "utf8");
    expect(types).toContain("name?: Name;");
    expect(types).toContain("export type Remote = number;");
    expect(types).toContain("/** @minLength 1 */\nexport type Name = string;");
    expect(await run(root, "check")).toMatchObject({ code: 0 });
  });
});

describe("locate", () => {
  it("never looks outside the folder: a link out is refused from its text", () => {
    const root = project({ "schemas/a.json": {} }, { "schemas/out": "/nonexistent/deeper", "schemas/in": "a.json" });
    const folder = path.join(root, "schemas");
    expect(locate(folder, "out/x.json")).toEqual({ inside: false, link: { at: path.join(folder, "out"), to: "/nonexistent/deeper" } });
    expect(locate(folder, "in")).toEqual({ inside: true, path: path.join(folder, "a.json"), exists: true });
    expect(locate(folder, "missing/b.json")).toEqual({ inside: true, path: path.join(folder, "missing/b.json"), exists: false });
    expect(locate(folder, "../schemas/a.json")).toEqual({ inside: true, path: path.join(folder, "a.json"), exists: true });
    expect(locate(folder, "../elsewhere.json")).toEqual({ inside: false });
  });
});
