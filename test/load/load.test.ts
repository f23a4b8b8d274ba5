import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseJson, readJson } from "../../generator/json.js";
import { NESTING_LIMIT } from "../../generator/limits.js";
import { load, pinsOf } from "../../generator/load/index.js";
import { inputError } from "../helpers/failure.js";
import { CONFIG_FILE, configFor, makeProject, PACKAGE_OUTPUT, REPO } from "../helpers/project.js";

const loadError = (root: string) => inputError(() => load(root));

const config = (...protocols: object[]) => ({ [CONFIG_FILE]: configFor(protocols) });

describe("load", () => {
  it("reads the repository's four protocols, sorted by name, with their overlays", async () => {
    const project = load(REPO);
    expect(project.protocols.map((protocol) => protocol.config.name)).toEqual(["a2a", "ag-ui", "app-server", "gtm-agent"]);
    for (const protocol of project.protocols) {
      expect(protocol.schema.sha256).toBe(protocol.config.sha256);
      // Every protocol can be re-vendored by `agentwire update`, from where its upstream publishes.
      expect(protocol.config.upstream).toMatch(/^https:\/\//);
      expect(protocol.overlays.map((overlay) => overlay.file)).toEqual(protocol.config.overlays);
    }
  });

  it("reports a JSON syntax error with its line and column", async () => {
    const root = makeProject({
      ...config({ name: "demo", schema: "schemas/demo.schema.json" }),
      "schemas/demo.schema.json": '{\n  "type": "object",\n  "properties": { "a": }\n}\n',
    });
    expect(await loadError(root)).toBe('schemas/demo.schema.json:3:24: invalid JSON: expected a JSON value, found "}"');
  });

  it.each([
    [{ name: "demo" }, 'agentwire.config.json#/protocols/0: missing "schema"'],
    [
      { name: "demo", schema: "schemas/demo.schema.json", overlay: "x.json" },
      'agentwire.config.json#/protocols/0/overlay: unknown key "overlay"',
    ],
    [
      { name: "Demo Proto", schema: "schemas/demo.schema.json" },
      'agentwire.config.json#/protocols/0/name: protocol name "Demo Proto" must be lowercase words joined by "-"',
    ],
    // The config is at the project's root: a path that climbs out of it leaves the project.
    [
      { name: "demo", schema: "../outside.json" },
      'agentwire.config.json#/protocols/0/schema: "../outside.json" is outside the project\n  vendor the file into the project',
    ],
    [
      { name: "demo", schema: "schemas/../../outside.json" },
      'agentwire.config.json#/protocols/0/schema: "schemas/../../outside.json" is outside the project',
    ],
    [{ name: "demo", schema: "/etc/passwd" }, 'agentwire.config.json#/protocols/0/schema: "/etc/passwd" is outside the project'],
    [{ name: "demo", schema: "." }, 'agentwire.config.json#/protocols/0/schema: "." is outside the project'],
    [
      { name: "demo", schema: "schemas/demo.schema.json", overlays: ["../overlay.json"] },
      'agentwire.config.json#/protocols/0/overlays/0: "../overlay.json" is outside the project',
    ],
    [{ name: "demo", schema: "missing.json" }, "agentwire.config.json#/protocols/0/schema: cannot read missing.json: no such file"],
    [
      { name: "demo", schema: "schemas/demo.schema.json", sha256: "0".repeat(63) },
      "agentwire.config.json#/protocols/0/sha256: sha256 must be 64 lowercase hex digits",
    ],
  ])("refuses the config entry %j", async (entry, message) => {
    const root = makeProject({ ...config(entry), "schemas/demo.schema.json": { type: "object" } });
    expect(await loadError(root)).toContain(message);
  });

  it("reads a schema whatever its pin says, and reports the pin beside the schema's sha256", () => {
    const root = makeProject({
      ...config(
        { name: "demo", schema: "schemas/demo.schema.json", sha256: "0".repeat(64) },
        { name: "other", schema: "schemas/demo.schema.json" },
      ),
      "schemas/demo.schema.json": "{}\n",
    });
    const sha256 = "ca3d163bab055381827226140568f3bef7eaac187cebd76878e0b63e9e442356";
    expect(pinsOf(load(root))).toEqual([
      { protocol: "demo", entry: "/protocols/0", file: "schemas/demo.schema.json", sha256, pinned: "0".repeat(64) },
      { protocol: "other", entry: "/protocols/1", file: "schemas/demo.schema.json", sha256, pinned: undefined },
    ]);
  });

  it("refuses two protocols with one name", async () => {
    const root = makeProject({
      ...config({ name: "demo", schema: "schemas/demo.schema.json" }, { name: "demo", schema: "schemas/demo.schema.json" }),
      "schemas/demo.schema.json": {},
    });
    expect(await loadError(root)).toBe(
      'agentwire.config.json#/protocols/1/name: duplicate protocol name "demo", also at /protocols/0\n  each protocol needs its own name: it names a folder of the generated package',
    );
  });

  it("reads remotes: base URLs mapped to folders of the project, the longest base first", () => {
    const root = makeProject({
      [CONFIG_FILE]: configFor([{ name: "demo", schema: "schemas/demo.schema.json" }], {
        remotes: { "https://example.com/": "schemas/vendor/example", "https://example.com/schemas/v2/": "schemas/vendor/v2/" },
      }),
      "schemas/demo.schema.json": {},
      "schemas/vendor/example/a.json": {},
      "schemas/vendor/v2/b.json": {},
    });
    expect(load(root).remotes).toEqual([
      { base: "https://example.com/schemas/v2/", folder: path.join(root, "schemas/vendor/v2") },
      { base: "https://example.com/", folder: path.join(root, "schemas/vendor/example") },
    ]);
  });

  it.each([
    [[], 'agentwire.config.json#/remotes: "remotes" must be an object mapping base URLs to folders'],
    [{ "remotes/": "schemas/remotes/" }, 'agentwire.config.json#/remotes/remotes~1: "remotes/" is not a base URL'],
    [
      { "https://example.com/schema.json": "schemas/remotes/" },
      'agentwire.config.json#/remotes/https:~1~1example.com~1schema.json: "https://example.com/schema.json" is not a base URL',
    ],
    [{ "file:///tmp/": "schemas/remotes/" }, '"file:///tmp/" is not a base URL'],
    [{ "https://example.com/?v=1/": "schemas/remotes/" }, "is not a base URL"],
    [{ "https://example.com/": "" }, "the folder must be a non-empty path relative to the config"],
    [
      { "https://example.com/": "../remotes/" },
      'agentwire.config.json#/remotes/https:~1~1example.com~1: "../remotes/" is outside the project',
    ],
    [
      { "https://example.com/": "schemas/elsewhere/" },
      'agentwire.config.json#/remotes/https:~1~1example.com~1: the folder of "https://example.com/", schemas/elsewhere/, does not exist',
    ],
    [{ "https://example.com/": "schemas/demo.schema.json" }, "schemas/demo.schema.json/, is a file"],
    // The schema asks for the "/" as written; two keys may still be one base URL as `new URL` reads them.
    [{ "https://example.com": "schemas/remotes/" }, '"https://example.com" is not a base URL'],
    [
      { "https://EXAMPLE.com/": "schemas/remotes/", "https://example.com/": "schemas/remotes/" },
      'the base URL "https://example.com/" is also mapped at /remotes/https:~1~1EXAMPLE.com~1',
    ],
  ])("refuses the remotes %j", async (remotes, message) => {
    const root = makeProject({
      [CONFIG_FILE]: configFor([{ name: "demo", schema: "schemas/demo.schema.json" }], { remotes }),
      "schemas/demo.schema.json": {},
      "schemas/remotes/a.json": {},
    });
    expect(await loadError(root)).toContain(message);
  });

  it.each([
    [
      "schemas/tasks.json",
      'agentwire.config.json#/protocols/0/externalSchemas: "externalSchemas" must be an array of paths relative to the config',
    ],
    [[""], 'agentwire.config.json#/protocols/0/externalSchemas: "externalSchemas" must be an array of paths relative to the config'],
    [["schemas/missing.json"], "agentwire.config.json#/protocols/0/externalSchemas/0: cannot read schemas/missing.json"],
    [["../tasks.json"], 'agentwire.config.json#/protocols/0/externalSchemas/0: "../tasks.json" is outside the project'],
  ])("refuses the externalSchemas %j", async (externalSchemas, message) => {
    const root = makeProject({
      [CONFIG_FILE]: configFor([{ name: "demo", schema: "schemas/demo.schema.json", externalSchemas }]),
      "schemas/demo.schema.json": {},
    });
    expect(await loadError(root)).toContain(message);
  });

  it("refuses a config without protocols", async () => {
    expect(await loadError(makeProject({ [CONFIG_FILE]: { protocol: [] } }))).toBe(
      'agentwire.config.json: expected an object with a "protocols" array\n  `agentwire init` writes a starter config',
    );
  });

  it("reads the output: a package folder with its manifest, or a folder of plain sources", () => {
    const schema = { "schemas/demo.schema.json": {} };
    const protocols = [{ name: "demo", schema: "schemas/demo.schema.json" }];
    expect(load(makeProject({ [CONFIG_FILE]: configFor(protocols), ...schema })).output).toEqual(PACKAGE_OUTPUT);
    const manifest = { name: "acme-protocols", version: "1.2.3-beta.1", description: "Acme's.", license: "MIT" };
    const output = { folder: "packages/protocols", package: manifest };
    expect(load(makeProject({ [CONFIG_FILE]: configFor(protocols, { output }), ...schema })).output).toEqual(output);
    const plain = { folder: "src/protocols" };
    expect(load(makeProject({ [CONFIG_FILE]: configFor(protocols, { output: plain }), ...schema })).output).toEqual(plain);
  });

  it.each([
    [undefined, 'agentwire.config.json: missing "output", where the bindings go\n  e.g. "output": { "folder": "src/protocols" }'],
    ["generated", 'agentwire.config.json#/output: "output" must be an object'],
    [{}, 'agentwire.config.json#/output/folder: "folder" must be a non-empty path relative to the config'],
    [{ folder: "" }, 'agentwire.config.json#/output/folder: "folder" must be a non-empty path relative to the config'],
    [{ folder: "out", format: "esm" }, 'agentwire.config.json#/output/format: unknown key "format"\n  known keys: folder, package'],
    [{ folder: "out", package: "@acme/protocols" }, 'agentwire.config.json#/output/package: "package" must be an object'],
    [
      { folder: "out", package: { version: "0.1.0" } },
      "agentwire.config.json#/output/package/name: the package name must be a lowercase npm package name",
    ],
    [
      { folder: "out", package: { name: "Acme", version: "0.1.0" } },
      "/output/package/name: the package name must be a lowercase npm package name",
    ],
    [{ folder: "out", package: { name: "@acme/", version: "0.1.0" } }, "/output/package/name: the package name must be"],
    [
      { folder: "out", package: { name: "acme" } },
      "agentwire.config.json#/output/package/version: the package version must be a semantic version",
    ],
    [
      { folder: "out", package: { name: "acme", version: "1.0" } },
      "/output/package/version: the package version must be a semantic version",
    ],
    [
      { folder: "out", package: { name: "acme", version: "1.0.0", license: "" } },
      '/output/package/license: "license" must be a non-empty string',
    ],
    [{ folder: "out", package: { name: "acme", version: "1.0.0", private: true } }, '/output/package/private: unknown key "private"'],
    // The output folder is replaced by agentwire: never the project itself, nor a folder out of it.
    [
      { folder: "." },
      'agentwire.config.json#/output/folder: "." is the project itself\n  name a folder of the project, such as src/protocols',
    ],
    [{ folder: "src/.." }, 'agentwire.config.json#/output/folder: "src/.." is the project itself'],
    [{ folder: "../generated" }, 'agentwire.config.json#/output/folder: "../generated" is outside the project'],
    [{ folder: "/tmp/generated" }, 'agentwire.config.json#/output/folder: "/tmp/generated" is outside the project'],
  ])("refuses the output %j", async (output, message) => {
    const root = makeProject({
      [CONFIG_FILE]: { protocols: [{ name: "demo", schema: "schemas/demo.schema.json" }], ...(output === undefined ? {} : { output }) },
      "schemas/demo.schema.json": {},
    });
    expect(await loadError(root)).toContain(message);
  });

  it("refuses a schema, an overlay or a remote's folder inside the output folder, which agentwire replaces", async () => {
    const files = {
      "generated/demo.schema.json": {},
      "generated/overlay.json": {},
      "generated/vendor/a.json": {},
      "schemas/demo.schema.json": {},
    };
    const refused = (entry: object, extra: Readonly<Record<string, unknown>> = {}) =>
      loadError(makeProject({ [CONFIG_FILE]: configFor([{ name: "demo", ...entry }], extra), ...files }));
    expect(await refused({ schema: "generated/demo.schema.json" })).toBe(
      'agentwire.config.json#/protocols/0/schema: "generated/demo.schema.json" is inside the output folder generated/, which agentwire replaces\n  keep schemas and overlays out of the output folder',
    );
    expect(await refused({ schema: "schemas/demo.schema.json", overlays: ["generated/overlay.json"] })).toMatch(
      /^agentwire\.config\.json#\/protocols\/0\/overlays\/0: "generated\/overlay\.json" is inside the output folder generated\//,
    );
    expect(await refused({ schema: "schemas/demo.schema.json" }, { remotes: { "https://example.com/": "generated/vendor/" } })).toMatch(
      /^agentwire\.config\.json#\/remotes\/https:~1~1example\.com~1: "generated\/vendor\/" is inside the output folder generated\//,
    );
    // In a plain-sources output, the same: the folder is the one the config names.
    expect(
      await loadError(
        makeProject({
          [CONFIG_FILE]: configFor([{ name: "demo", schema: "src/protocols/demo.schema.json" }], { output: { folder: "src/protocols" } }),
          "src/protocols/demo.schema.json": {},
        }),
      ),
    ).toMatch(/"src\/protocols\/demo\.schema\.json" is inside the output folder src\/protocols\//);
  });
});

describe("parseJson", () => {
  it.each([
    ['{"a": 1,}', 1, 9, 'expected a property name in double quotes, found "}"'],
    ["[1, 2", 1, 6, 'expected "," or "]", found end of input'],
    ['{"a": 1}\n x', 2, 2, 'expected end of input, found "x"'],
    ['"tab\there"', 1, 5, "expected an escaped control character"],
    ["", 1, 1, "expected a JSON value, found end of input"],
    ['{"a": 1 // note\n}', 1, 9, 'expected "," or "}", found "/"'],
    ['{"a": 1 "b": 2}', 1, 9, 'expected "," or "}", found "\\""'],
    ['"\\x"', 1, 3, 'expected a valid escape, found "x"'],
  ])("%j fails at %i:%i", async (text, line, column, problem) => {
    expect(() => parseJson(text, "x.json")).toThrow(`x.json:${line}:${column}: invalid JSON: ${problem}`);
  });
});

describe("readJson", () => {
  const bytes = (...parts: (string | number[])[]) =>
    Buffer.concat(parts.map((part) => (typeof part === "string" ? Buffer.from(part) : Buffer.from(part))));

  it("refuses bytes that are not UTF-8 at their offset, rather than reading U+FFFD", () => {
    expect(() => readJson(bytes('{\n  "a": "', [0xff], '"\n}'), "x.json")).toThrow(
      "x.json:2:9: not UTF-8: the byte 0xff at offset 10 is not part of a UTF-8 character\n  save the file as UTF-8, which JSON files are",
    );
    // Well-formed in form, but an overlong "/", a surrogate, past U+10FFFF, or cut short.
    for (const wrong of [
      [0xc0, 0xaf],
      [0xed, 0xa0, 0x80],
      [0xf4, 0x90, 0x80, 0x80],
      [0xe2, 0x82],
    ])
      expect(() => readJson(bytes('"é', wrong, '"'), "x.json"), wrong.join(" ")).toThrow("x.json:1:3: not UTF-8: the byte 0x");
    expect(() => readJson(bytes([0xff, 0xfe], "{\0}\0"), "x.json")).toThrow("the file looks like UTF-16: save it as UTF-8");
  });

  it("reads past a byte order mark, as RFC 8259 allows, and reads every character of UTF-8 as it is", () => {
    expect(readJson(bytes([0xef, 0xbb, 0xbf], '{"a": "é€𝄞"}'), "x.json")).toEqual({ a: "é€𝄞" });
  });

  it("refuses a key twice in one object, with its line, column and the object's pointer", () => {
    expect(() => parseJson('{"$defs": {\n  "A": {},\n  "B": {"x": [{"k": 1, "k": 2}]},\n  "A": {}\n}}', "x.json")).toThrow(
      'x.json:3:24: duplicate key "k" in the object at /$defs/B/x/0\n  JSON.parse would keep the last and drop the others without a word: remove or rename one',
    );
    expect(() => parseJson('{"a/b": 1, "a\\u002fb": 2}', "x.json")).toThrow('x.json:1:12: duplicate key "a/b" in the object at ');
    expect(() => parseJson('{"__proto__": 1, "__proto__": 2}', "x.json")).toThrow('duplicate key "__proto__"');
    // Keys apart in different objects, a string value like a key, and escaped quotes are no duplicates.
    expect(parseJson('{"a": {"a": "a"}, "b": ["a", {"a": "\\"a\\":"}], "c\\\\": 1, "c": 2}', "x.json")).toMatchObject({ c: 2 });
  });

  it(`refuses objects and arrays nested more than ${NESTING_LIMIT} deep, valid or not`, () => {
    const nested = (depth: number) => "[".repeat(depth) + "]".repeat(depth);
    expect(parseJson(nested(NESTING_LIMIT), "x.json")).toBeInstanceOf(Array);
    expect(() => parseJson(`{"a": ${nested(NESTING_LIMIT)}}`, "x.json")).toThrow(
      `x.json:1:${6 + NESTING_LIMIT}: nested more than ${NESTING_LIMIT} objects and arrays deep, at /a${"/0".repeat(NESTING_LIMIT - 1)}`,
    );
    // A document too deep for a recursive reader to find its syntax error in is refused for its depth.
    expect(() => parseJson("[".repeat(100_000), "x.json")).toThrow(
      `x.json:1:${NESTING_LIMIT + 1}: invalid JSON: nesting deeper than ${NESTING_LIMIT} objects and arrays`,
    );
  });
});
