import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { locate } from "../../generator/files/folder.js";
import { run, snapshot } from "../helpers/cli.js";
import { makeProject } from "../helpers/project.js";

/**
 * Every file agentwire reads or writes has its real path inside its folder: schemas/ for
 * the config, schemas, overlays, refs and remotes; templates/; generated/ for the output.
 * A symbolic link that stays inside is followed; one that leads out is refused with exit 2,
 * naming the link, and nothing outside is read or written.
 */

const elsewhere = mkdtempSync(path.join(tmpdir(), "agentwire-elsewhere-"));
afterAll(() => rmSync(elsewhere, { recursive: true, force: true }));

/** A file outside every project, with a canary in it that must never reach generated/. */
const SECRET = path.join(elsewhere, "secret.json");
writeFileSync(SECRET, JSON.stringify({ $defs: { Canary: { const: "the secret canary" } } }));

const config = (entry: object = {}, rest: object = {}) => ({
  protocols: [{ name: "demo", schema: "demo.schema.json", ...entry }],
  ...rest,
});

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

describe("links out of the project's folders", () => {
  it.each([
    [
      "a schema that is a link out of schemas/",
      { "schemas/protocols.json": config() },
      { "schemas/demo.schema.json": SECRET },
      `schemas/protocols.json#/protocols/0/schema: "demo.schema.json" leads outside the schemas folder: schemas/demo.schema.json is a symbolic link to ${SECRET}`,
    ],
    [
      "a schema that is a relative link out of schemas/, to a file of the project",
      { "schemas/protocols.json": config(), "outside.json": { type: "string" } },
      { "schemas/demo.schema.json": "../outside.json" },
      'schemas/protocols.json#/protocols/0/schema: "demo.schema.json" leads outside the schemas folder: schemas/demo.schema.json is a symbolic link to ../outside.json',
    ],
    [
      "a schema in a folder that is a link out of schemas/",
      { "schemas/protocols.json": config({ schema: "vendor/secret.json" }) },
      { "schemas/vendor": elsewhere },
      `schemas/protocols.json#/protocols/0/schema: "vendor/secret.json" leads outside the schemas folder: schemas/vendor is a symbolic link to ${elsewhere}`,
    ],
    [
      "a $ref target that is a link out of schemas/",
      { "schemas/protocols.json": config(), "schemas/demo.schema.json": { $ref: "other.json#/$defs/Canary" } },
      { "schemas/other.json": SECRET },
      `schemas/demo.schema.json#/$ref: $ref "other.json#/$defs/Canary" points outside the schemas folder: schemas/other.json is a symbolic link to ${SECRET}`,
    ],
    [
      "a $ref through a folder that is a link out of schemas/",
      { "schemas/protocols.json": config(), "schemas/demo.schema.json": { $ref: "vendor/secret.json#/$defs/Canary" } },
      { "schemas/vendor": `${elsewhere}/` },
      `schemas/demo.schema.json#/$ref: $ref "vendor/secret.json#/$defs/Canary" points outside the schemas folder: schemas/vendor is a symbolic link to ${elsewhere}/`,
    ],
    [
      "a remotes folder that is a link out of schemas/",
      {
        "schemas/protocols.json": config({}, { remotes: { "https://example.com/": "vendor/" } }),
        "schemas/demo.schema.json": { $ref: "https://example.com/secret.json#/$defs/Canary" },
      },
      { "schemas/vendor": elsewhere },
      `schemas/protocols.json#/remotes/https:~1~1example.com~1: "vendor/" leads outside the schemas folder: schemas/vendor is a symbolic link to ${elsewhere}`,
    ],
    [
      "a link in a remote's folder that leads out of it",
      {
        "schemas/protocols.json": config({}, { remotes: { "https://example.com/": "vendor/" } }),
        "schemas/demo.schema.json": { $ref: "https://example.com/secret.json#/$defs/Canary" },
        "schemas/vendor/a.json": {},
      },
      { "schemas/vendor/secret.json": "../../../secret.json" },
      'schemas/demo.schema.json#/$ref: $ref "https://example.com/secret.json#/$defs/Canary" points outside the schemas folder: schemas/vendor/secret.json is a symbolic link to ../../../secret.json',
    ],
    [
      "the config, a link out of schemas/",
      {},
      { "schemas/protocols.json": path.join(elsewhere, "protocols.json") },
      `schemas/protocols.json: "protocols.json" leads outside the schemas folder: schemas/protocols.json is a symbolic link to ${path.join(elsewhere, "protocols.json")}`,
    ],
    [
      "schemas/ itself, a link out of the project",
      {},
      { schemas: elsewhere },
      `schemas/: schemas is a symbolic link to ${elsewhere}, outside the project`,
    ],
  ])("refuses %s, exit 2, and reads nothing there", async (_, files, links, message) => {
    writeFileSync(path.join(elsewhere, "protocols.json"), JSON.stringify(config({ schema: "../secret.json" })));
    const root = project({ "schemas/demo.schema.json": { type: "string" }, ...files }, links);
    const { code, out, err } = await run(root, "generate");
    expect({ code, out }).toEqual({ code: 2, out: "" });
    expect(err.split("\n")[0]).toBe(`agentwire generate: ${message}`);
    expect(existsSync(path.join(root, "generated"))).toBe(false);
  });

  it("refuses a template that is a link out of templates/", async () => {
    const root = makeProject({ "schemas/protocols.json": config(), "schemas/demo.schema.json": { type: "string" } });
    rmSync(path.join(root, "templates/README.md"));
    writeFileSync(path.join(elsewhere, "README.md"), "{{protocols}} the secret canary\n");
    symlinkSync(path.join(elsewhere, "README.md"), path.join(root, "templates/README.md"));
    const { code, err } = await run(root, "generate");
    expect(code).toBe(2);
    expect(err).toBe(
      `agentwire generate: templates/README.md: it leads outside the templates folder: templates/README.md is a symbolic link to ${path.join(elsewhere, "README.md")}\n`,
    );
    expect(leaked(path.join(root, "generated"))).toBe(false);
  });

  it("refuses generated/ that is a link out of the project, and writes nothing there", async () => {
    const target = mkdtempSync(path.join(elsewhere, "output-"));
    const root = project({ "schemas/protocols.json": config(), "schemas/demo.schema.json": { type: "string" } }, { generated: target });
    const { code, err } = await run(root, "generate");
    expect(code).toBe(2);
    expect(err).toBe(
      `agentwire generate: generated/: generated is a symbolic link to ${target}, outside the project\n  agentwire reads and writes only inside the project: make generated/ a folder of it\n`,
    );
    expect(readdirSync(target)).toEqual([]);
  });

  it("check reads no file of generated/ that is a link out of it", async () => {
    const root = makeProject({ "schemas/protocols.json": config(), "schemas/demo.schema.json": { type: "string" } });
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
    const root = project(
      { "schemas/protocols.json": config() },
      { "schemas/demo.schema.json": "a.json", "schemas/a.json": "demo.schema.json" },
    );
    const { code, err } = await run(root, "generate");
    expect(code).toBe(2);
    expect(err.split("\n")[0]).toBe(
      "agentwire generate: schemas/protocols.json#/protocols/0/schema: cannot follow schemas/demo.schema.json: a symbolic link where a file was expected, or too many links (ELOOP)",
    );
  });
});

describe("links that stay inside", () => {
  it("are followed: a schema, a folder of schemas and a $ref target linked within schemas/, a remotes folder within it", async () => {
    const root = project(
      {
        "schemas/protocols.json": config({}, { remotes: { "https://example.com/": "mirror/" } }),
        "schemas/versions/v1.json": { $ref: "../parts/name.json" },
        "schemas/store/name.json": { type: "string", minLength: 1 },
        "schemas/store/remote.json": { type: "integer" },
        "schemas/other.json": {
          type: "object",
          properties: { name: { $ref: "current.json" }, n: { $ref: "https://example.com/remote.json" } },
        },
      },
      {
        "schemas/demo.schema.json": "other.json",
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
