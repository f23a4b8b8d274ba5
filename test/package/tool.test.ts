import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { Ran } from "../helpers/npm.js";
import { exec, installOffline, npmEnv, shown, strictOptions, writeOfflineInstall } from "../helpers/npm.js";
import { scratchFolder } from "../helpers/scratch.js";

/**
 * agentwire as users get it: the tarball `npm pack` makes of this repository, installed
 * offline (test/helpers/npm.ts says how) into two scratch repositories outside this one,
 * one `"type": "module"` and one CommonJS, as `npm init -y` writes it. In each, what the
 * README tells a user to run: `agentwire init --protocol ag-ui`, `generate` (plain sources
 * in the first, a package folder in the second), a consumer compiled under strict tsc with
 * nodenext and with bundler resolution, and run, and `check`; then, in the first, an edit
 * of the vendored schema, which `check` and `diff --since HEAD` catch. `verify` runs in a
 * folder outside any config, with the built-in preset. The programmatic API is imported by
 * its package name, from TypeScript compiled against its declarations, and from CommonJS.
 *
 * One pack and one install for the file: the CommonJS repository gets a copy of the
 * module repository's node_modules, since the two differ only in package.json's "type".
 */

const repoRoot = path.resolve(import.meta.dirname, "../..");
const tsc = path.join(repoRoot, "node_modules", ".bin", "tsc");
const { version } = JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as { version: string };

let tarball = "";
/** The tarball's files, without the leading package/. */
let packed: string[] = [];
let installed: Ran;
/** The `"type": "module"` repository, which generates plain sources into src/protocols/. */
let esm = "";
/** The CommonJS repository, which generates the package @acme/protocols into generated/. */
let cjs = "";

/** Fails with everything the run printed unless it exited with `status`. */
function expectExit(ran: Ran, status: number, what: string): void {
  expect(ran.status, `${what}: ${shown(ran)}`).toBe(status);
}

/** Throws with everything the run printed unless it exited with 0: for hooks, whose steps the tests rely on. */
function succeeded(ran: Ran, what: string): Ran {
  if (ran.status !== 0) throw new Error(`${what} failed: ${shown(ran)}`);
  return ran;
}

/** Runs the agentwire command a repository installed (node_modules/.bin/agentwire, what npx runs) in `cwd`. */
function agentwire(repo: string, cwd: string, ...args: string[]): Promise<Ran> {
  return exec(path.join(repo, "node_modules", ".bin", "agentwire"), args, cwd);
}

function readJson(file: string): Record<string, unknown> {
  return JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
}

function writeJson(file: string, value: unknown): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
}

interface Schema {
  $defs: Record<string, { properties: Record<string, object>; required: string[] }>;
}

/** A schema of AG-UI as a breaking update would make it: TEXT_MESSAGE_CONTENT gains a required property. */
function withRequiredChannel(schema: Schema): Schema {
  const event = schema.$defs["TextMessageContentEvent"]!;
  return {
    ...schema,
    $defs: {
      ...schema.$defs,
      TextMessageContentEvent: {
        ...event,
        properties: { ...event.properties, channel: { type: "string" } },
        required: [...event.required, "channel"],
      },
    },
  };
}

/** A consumer of a protocol's module: builds an event, decodes it as it arrives and matches it, and refuses a bad one. */
function consumerSource(specifier: string): string {
  return [
    `import { createTextMessageContentEvent, decodeEvent, matchEventPartial } from "${specifier}";`,
    `import type { Event } from "${specifier}";`,
    "",
    "declare const process: { stdout: { write(text: string): boolean } };",
    "",
    'const text = (event: Event): string => matchEventPartial(event, { TEXT_MESSAGE_CONTENT: (content) => content.delta }, () => "");',
    'const wire: unknown = JSON.parse(JSON.stringify(createTextMessageContentEvent({ messageId: "m1", delta: "Hello" })));',
    "const decoded = decodeEvent(wire);",
    'const refused = decodeEvent({ type: "TEXT_MESSAGE_CONTENT", messageId: 1, delta: "" });',
    "const paths = refused.ok ? [] : refused.errors.map((error) => error.path);",
    "process.stdout.write(JSON.stringify({ text: decoded.ok ? text(decoded.value) : null, refused: paths }));",
    "",
  ].join("\n");
}

/** What the consumer prints. */
const consumerOutput = { text: "Hello", refused: ["/messageId"] };

/** Whether this node can require() an ES module (Node 20.19 and 22.12 on); before, it fails with ERR_REQUIRE_ESM. */
const requireEsm = process.features.require_module;

const resolutions = [
  ["nodenext", "nodenext", "nodenext"],
  ["bundler", "preserve", "bundler"],
] as const;

/**
 * Writes the consumer of `specifier` into `src/consumer-<name>/main.ts` of a repository,
 * compiles it under strict tsc with one module resolution into its `out/`, and runs it.
 * Resolves to tsc's run, node's, and the compiled file.
 */
async function consumer(repo: string, specifier: string, name: string, module: string, moduleResolution: string) {
  const dir = path.join(repo, "src", `consumer-${name}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, "main.ts"), consumerSource(specifier));
  const compilerOptions = { ...strictOptions(module, moduleResolution, []), rootDir: "..", outDir: "out" };
  writeJson(path.join(dir, "tsconfig.json"), { compilerOptions, files: ["main.ts"] });
  const compiled = await exec(tsc, ["-p", path.join(dir, "tsconfig.json"), "--pretty", "false"], dir);
  // What a bundler makes of module preserve is an ES module, whatever the repository's type.
  if (module === "preserve") writeJson(path.join(dir, "out/package.json"), { type: "module" });
  const main = path.join(dir, "out", `consumer-${name}`, "main.js");
  const ran = compiled.status === 0 ? await exec(process.execPath, [main], dir) : compiled;
  return { compiled, ran, main };
}

beforeAll(async () => {
  // `npm test` builds the generator first and `npm run generate` builds generated/dist,
  // the presets' stream modules that verify runs: the tarball holds both, packed as built.
  for (const built of ["build/bundle/index.js", "build/bundle/cli/main.js", "build/generator/index.d.ts", "generated/dist/ag-ui/stream.js"])
    if (!existsSync(path.join(repoRoot, built))) throw new Error(`${built} is missing: run npm run generate`);
  const tmp = scratchFolder("agentwire-tool-");
  esm = path.join(tmp, "module");
  cjs = path.join(tmp, "commonjs");
  mkdirSync(esm);
  mkdirSync(cjs);

  const [pack] = await Promise.all([
    exec("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", tmp], repoRoot, npmEnv()).then((ran) =>
      succeeded(ran, "npm pack"),
    ),
    exec("npm", ["init", "-y"], cjs, npmEnv()).then((ran) => succeeded(ran, "npm init -y")),
  ]);
  const [{ filename }] = JSON.parse(pack.stdout) as [{ filename: string }];
  tarball = path.join(tmp, filename);
  packed = execFileSync("tar", ["-tzf", tarball], { encoding: "utf8" })
    .split("\n")
    .filter((file) => file !== "")
    .map((file) => file.replace(/^package\//, ""));

  writeJson(path.join(esm, "package.json"), { ...readJson(path.join(cjs, "package.json")), name: "module", type: "module" });
  // With @types/node, as a TypeScript project on Node has it: the API's types name node:fs.
  installed = await installOffline(esm, tarball, ["@types/node"]);
  succeeded(installed, `npm ci of ${tarball}`);
  writeOfflineInstall(cjs, tarball, ["@types/node"]);
  // The links of node_modules/.bin are relative: copied as they are, they point into the copy.
  cpSync(path.join(esm, "node_modules"), path.join(cjs, "node_modules"), { recursive: true, verbatimSymlinks: true });
});

// The groups below, and the tests in each, run at once: they wait on child processes (npm,
// tsc, agentwire, node) most of the time, and each works in folders of its own.
describe.concurrent("agentwire, installed from its tarball", () => {
  describe("the tarball", () => {
    it("is under 1 MB and holds the built generator, its templates and schemas, and no tests or benchmarks", () => {
      expect(statSync(tarball).size).toBeLessThan(1_000_000);
      for (const file of [
        "bin/agentwire.js",
        "build/bundle/index.js",
        "build/bundle/cli/main.js",
        "build/generator/index.d.ts",
        "build/generator/ir/changes.json",
        "templates/runtime.ts",
        "schemas/ag-ui.schema.json",
        "schemas/overlays/ag-ui.json",
        "generated/dist/ag-ui/stream.js",
      ])
        expect(packed, file).toContain(file);
      expect(packed.filter((file) => /^(test|bench|generator)\//.test(file))).toEqual([]);
    });

    it("installs offline from the lockfile, with no install scripts to run or warn of", () => {
      expectExit(installed, 0, "npm ci");
      expect(`${installed.stdout}${installed.stderr}`).not.toMatch(/install.scripts?/i);
      expect(readJson(path.join(esm, "node_modules/agentwire/package.json"))["version"]).toBe(version);
    });

    it("`npx agentwire --version` prints the version of its package.json", async () => {
      const ran = await exec("npx", ["agentwire", "--version"], esm, npmEnv());
      expectExit(ran, 0, "npx agentwire --version");
      expect(ran.stdout).toBe(`agentwire ${version}\n`);
    });
  });

  describe('a "type": "module" repository, with plain sources', () => {
    let init: Ran;
    let generate: Ran;

    beforeAll(async () => {
      init = succeeded(await agentwire(esm, esm, "init", "--protocol", "ag-ui"), "agentwire init");
      generate = succeeded(await agentwire(esm, esm, "generate"), "agentwire generate");
      // Committed, for diff --since HEAD; the consumers and the API's projects are not the user's.
      writeFileSync(path.join(esm, ".gitignore"), "node_modules/\nsrc/consumer-*/\napi/\n");
      const git = (...args: string[]) => execFileSync("git", args, { cwd: esm, stdio: "pipe" });
      git("init", "--quiet");
      git("add", "--all");
      git(
        "-c",
        "user.name=agentwire",
        "-c",
        "user.email=agentwire@example.com",
        "-c",
        "commit.gpgsign=false",
        "commit",
        "--quiet",
        "-m",
        "ag-ui",
      );
    });

    it("`init --protocol ag-ui` writes a config for plain sources, and vendors the schema and its overlay, pinned", () => {
      expect(init.stdout).toContain("wrote agentwire.config.json");
      expect(init.stdout).toContain("ag-ui: vendored schemas/ag-ui.schema.json, schemas/overlays/ag-ui.json");
      const schema = readFileSync(path.join(esm, "schemas/ag-ui.schema.json"));
      expect(readJson(path.join(esm, "agentwire.config.json"))).toMatchObject({
        protocols: [
          {
            name: "ag-ui",
            schema: "schemas/ag-ui.schema.json",
            overlays: ["schemas/overlays/ag-ui.json"],
            sha256: createHash("sha256").update(schema).digest("hex"),
          },
        ],
        output: { folder: "src/protocols" },
      });
      expect(schema.equals(readFileSync(path.join(esm, "node_modules/agentwire/schemas/ag-ui.schema.json")))).toBe(true);
      const overlay = readFileSync(path.join(esm, "schemas/overlays/ag-ui.json"));
      expect(overlay.equals(readFileSync(path.join(esm, "node_modules/agentwire/schemas/overlays/ag-ui.json")))).toBe(true);
    });

    it("`generate` writes the protocol's modules and the runtime they share to src/protocols/", () => {
      expect(generate.stdout).toMatch(/^ag-ui +\d+ types/m);
      const files = [
        "ag-ui/index.ts",
        "ag-ui/types.ts",
        "ag-ui/stream.ts",
        "ag-ui/schema.json",
        "runtime.ts",
        "decode.ts",
        "unions.ts",
        "stream/read.ts",
        "stream/assemble.ts",
        "stream/patch.ts",
        "sources.json",
      ];
      expect(files.filter((file) => !existsSync(path.join(esm, "src/protocols", file)))).toEqual([]);
    });

    it.each(resolutions)(
      "a consumer of ./protocols/ag-ui/index.js compiles under strict tsc with %s resolution, and runs",
      async (name, module, moduleResolution) => {
        const { compiled, ran } = await consumer(esm, "../protocols/ag-ui/index.js", name, module, moduleResolution);
        expectExit(compiled, 0, `tsc (${name})`);
        expectExit(ran, 0, "node");
        expect(JSON.parse(ran.stdout)).toEqual(consumerOutput);
      },
    );

    it("`check` passes; after a breaking edit of the vendored schema it fails, and `diff --since HEAD` names the change", async () => {
      const clean = await agentwire(esm, esm, "check");
      expectExit(clean, 0, "check");
      expect(clean.stdout).toContain("src/protocols/ is up to date");

      const file = path.join(esm, "schemas/ag-ui.schema.json");
      writeJson(file, withRequiredChannel(JSON.parse(readFileSync(file, "utf8")) as Schema));
      const [stale, diff] = await Promise.all([agentwire(esm, esm, "check"), agentwire(esm, esm, "diff", "--since", "HEAD")]);
      expectExit(stale, 1, "check after the edit");
      expect(stale.stdout).toContain("+  channel: string;");
      expect(stale.stderr).toContain("src/protocols/ is out of date");
      // Exit 1 on a breaking change, without being asked to fail.
      expectExit(diff, 1, "diff --since HEAD");
      expect(diff.stdout).toContain("ag-ui: 1 change (1 breaking)");
      expect(diff.stdout).toContain('TextMessageContentEvent: required field "channel" added');
    });
  });

  describe("a CommonJS repository, as `npm init -y` writes it, with a package folder", () => {
    beforeAll(async () => {
      succeeded(await agentwire(cjs, cjs, "init", "--protocol", "ag-ui"), "agentwire init");
      const configFile = path.join(cjs, "agentwire.config.json");
      writeJson(configFile, {
        ...readJson(configFile),
        output: { folder: "generated", package: { name: "@acme/protocols", version: "1.0.0" } },
      });
      succeeded(await agentwire(cjs, cjs, "generate"), "agentwire generate");
      succeeded(
        await exec(tsc, ["-p", path.join(cjs, "generated/tsconfig.json"), "--pretty", "false"], cjs),
        "tsc -p generated/tsconfig.json",
      );
      // The dependency "@acme/protocols": "file:generated" is a link in node_modules to the
      // folder, made here as npm makes it: npm would also install the folder's
      // devDependencies (typescript), whose registry metadata an offline cache need not have.
      mkdirSync(path.join(cjs, "node_modules/@acme"));
      symlinkSync("../../generated", path.join(cjs, "node_modules/@acme/protocols"));
    });

    it("`generate` writes the package: its manifest, tsconfig, README, sources.json and sources, which tsc builds", () => {
      expect(readJson(path.join(cjs, "package.json"))["type"]).toBe("commonjs");
      const files = [
        "package.json",
        "tsconfig.json",
        "README.md",
        "sources.json",
        "src/ag-ui/index.ts",
        "src/runtime.ts",
        "dist/ag-ui/index.js",
        "dist/ag-ui/index.d.ts",
      ];
      expect(files.filter((file) => !existsSync(path.join(cjs, "generated", file)))).toEqual([]);
      expect(readJson(path.join(cjs, "generated/package.json"))).toMatchObject({
        name: "@acme/protocols",
        version: "1.0.0",
        exports: { "./ag-ui": { types: "./dist/ag-ui/index.d.ts", default: "./dist/ag-ui/index.js" } },
      });
    });

    it.each(resolutions)(
      "a consumer of @acme/protocols/ag-ui compiles under strict tsc with %s resolution, and runs",
      async (name, module, moduleResolution) => {
        const { compiled, ran, main } = await consumer(cjs, "@acme/protocols/ag-ui", name, module, moduleResolution);
        expectExit(compiled, 0, `tsc (${name})`);
        // With nodenext the consumer is CommonJS, as its package.json says, and requires the
        // package, an ES module.
        if (name === "nodenext") {
          expect(readFileSync(main, "utf8")).toContain('require("@acme/protocols/ag-ui")');
          if (!requireEsm) return expect(ran.stderr).toContain("ERR_REQUIRE_ESM");
        }
        expectExit(ran, 0, "node");
        expect(JSON.parse(ran.stdout)).toEqual(consumerOutput);
      },
    );

    it("`check` passes, the package built", async () => {
      const ran = await agentwire(cjs, cjs, "check");
      expectExit(ran, 0, "check");
      expect(ran.stdout).toContain("generated/ is up to date");
    });
  });

  describe("`verify`, in a folder outside any config, with the built-in preset", () => {
    const tracePath = path.join(repoRoot, "test/fixtures/traces/ag-ui/dart-sse__tool-call-stream.json");
    const trace = JSON.parse(readFileSync(tracePath, "utf8")) as { raw: string; events: { type: string }[] };
    let dir = "";

    beforeAll(() => {
      dir = scratchFolder("agentwire-recordings-");
      for (let at = dir; at !== path.dirname(at); at = path.dirname(at))
        if (existsSync(path.join(at, "agentwire.config.json"))) throw new Error(`${at} has an agentwire.config.json`);
    });

    it("passes a clean SSE recording with exit 0", async () => {
      // The body as recorded, with the blank line that dispatches its last event (the Dart
      // fixture ends without one, which the reader reports as an event cut off).
      writeFileSync(path.join(dir, "clean.sse"), `${trace.raw}\n`);
      const ran = await agentwire(esm, dir, "verify", "ag-ui", "clean.sse");
      expectExit(ran, 0, "verify");
      expect(ran.stdout).toBe("clean.sse: no violations in 6 events (sse)\n");
    });

    it("fails a broken JSON-lines recording with exit 1, naming the rule", async () => {
      const events = trace.events.filter((event) => event.type !== "TOOL_CALL_START");
      writeFileSync(path.join(dir, "broken.jsonl"), events.map((event) => `${JSON.stringify(event)}\n`).join(""));
      const ran = await agentwire(esm, dir, "verify", "ag-ui", "broken.jsonl");
      expectExit(ran, 1, "verify");
      expect(ran.stdout).toContain('broken.jsonl:2: event 1: tool-call: TOOL_CALL_ARGS for tool call "tool_01", which is not open');
      expect(ran.stdout).toContain("broken.jsonl: 3 violations in 5 events (jsonl)");
    });
  });

  describe("the programmatic API, imported as agentwire", () => {
    it("from TypeScript compiled under strict tsc: results narrowed on ok; a broken config's errors", async () => {
      const dir = path.join(esm, "api");
      const project = path.join(dir, "project");
      const broken = path.join(dir, "broken");
      const schema = JSON.parse(readFileSync(path.join(repoRoot, "schemas/ag-ui.schema.json"), "utf8")) as Schema;
      // The schema as an update would make it, for diff to compare with the one init vendors.
      writeJson(path.join(project, "edited.schema.json"), withRequiredChannel(schema));
      writeJson(path.join(broken, "agentwire.config.json"), { protocols: [{ name: "ag-ui", schema: 42 }], output: { folder: "out" } });
      writeFileSync(
        path.join(dir, "api.ts"),
        [
          'import { check, diff, generate, init } from "agentwire";',
          'import type { Diagnostic, Result } from "agentwire";',
          "",
          'const [project = "", broken = ""] = process.argv.slice(2);',
          "const errorsOf = (result: Result<object>): readonly Diagnostic[] => (result.ok ? [] : result.errors);",
          "",
          'const initialized = await init({ cwd: project, config: "agentwire.config.json", protocols: ["ag-ui"] });',
          "const generated = await generate({ cwd: project });",
          "// @ts-expect-error: files is a field of a result that is ok, and this one may not be",
          "void generated.files;",
          "const checked = await check({ cwd: project });",
          'const diffed = await diff({ cwd: project, before: "schemas/ag-ui.schema.json", after: "edited.schema.json" });',
          "const refused = await generate({ cwd: broken });",
          "const report = {",
          "  init: initialized.ok ? initialized.written : errorsOf(initialized),",
          "  generate: generated.ok ? { output: generated.output, files: generated.files.map((file) => file.path) } : errorsOf(generated),",
          "  check: checked.ok ? { upToDate: checked.upToDate, changed: checked.changed } : errorsOf(checked),",
          "  diff: diffed.ok ? { breaking: diffed.breaking, text: diffed.text } : errorsOf(diffed),",
          '  refused: refused.ok ? "generated" : refused.errors.map(({ file, pointer, message }) => ({ file, pointer, message })),',
          "};",
          "process.stdout.write(JSON.stringify(report));",
          "",
        ].join("\n"),
      );
      const compilerOptions = { ...strictOptions("nodenext", "nodenext", ["node"]), outDir: "out" };
      writeJson(path.join(dir, "tsconfig.json"), { compilerOptions, files: ["api.ts"] });
      const compiled = await exec(tsc, ["-p", path.join(dir, "tsconfig.json"), "--pretty", "false"], dir);
      expectExit(compiled, 0, "tsc");
      const ran = await exec(process.execPath, [path.join(dir, "out/api.js"), project, broken], dir);
      expectExit(ran, 0, "node");

      const report = JSON.parse(ran.stdout) as Record<string, unknown>;
      expect(report["init"]).toEqual(["schemas/ag-ui.schema.json", "schemas/overlays/ag-ui.json", "agentwire.config.json"]);
      expect(report["generate"]).toMatchObject({
        output: "src/protocols/",
        files: expect.arrayContaining(["ag-ui/index.ts", "runtime.ts", "sources.json"]),
      });
      const { files } = report["generate"] as { files: string[] };
      expect(files.filter((file) => !existsSync(path.join(project, "src/protocols", file)))).toEqual([]);
      expect(report["check"]).toEqual({ upToDate: true, changed: [] });
      expect(report["diff"]).toMatchObject({
        breaking: true,
        text: expect.stringContaining('TextMessageContentEvent: required field "channel" added'),
      });
      expect(report["refused"]).toEqual([
        {
          file: "agentwire.config.json",
          pointer: "/protocols/0/schema",
          message: expect.stringMatching(/^agentwire\.config\.json#\/protocols\/0\/schema: /),
        },
      ]);
    });

    it("from CommonJS, by require", async () => {
      const script = 'process.stdout.write(JSON.stringify(Object.keys(require("agentwire")).sort()));';
      const ran = await exec(process.execPath, ["-e", script], cjs);
      if (!requireEsm) return expect(ran.stderr).toContain("ERR_REQUIRE_ESM");
      expectExit(ran, 0, "node");
      expect(JSON.parse(ran.stdout)).toEqual(["check", "diff", "generate", "init", "verify"]);
    });
  });
});
