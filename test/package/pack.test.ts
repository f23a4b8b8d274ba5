import { execFileSync, spawnSync, type SpawnSyncReturns } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { publint } from "publint";
import { formatMessage } from "publint/utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { npmEnv, strictOptions } from "../helpers/npm.js";

/**
 * Tests `@agentwire/protocols` as users get it: the tarball the README's command makes
 * (`npm run package`, whose `prepack` builds `dist/`), installed offline into a throwaway
 * app outside the repository, type-checked under the two module resolution modes users
 * run (`nodenext` and `bundler`), compiled and run, and linted with publint and
 * arethetypeswrong.
 *
 * Everything but the app in `app/main.ts` is derived from `generated/package.json`
 * `exports` and the generated `generated/src/<protocol>/types.ts`, so a new protocol is
 * covered without edits here.
 */

const repoRoot = path.resolve(import.meta.dirname, "../..");
const pkgDir = path.join(repoRoot, "generated");
const bin = (name: string): string => path.join(repoRoot, "node_modules", ".bin", name);

interface Manifest {
  name: string;
  exports: Record<string, string | Record<string, string>>;
}

const manifest = JSON.parse(readFileSync(path.join(pkgDir, "package.json"), "utf8")) as Manifest;
const subpaths = Object.keys(manifest.exports);
/** `./<protocol>` subpaths with conditional (types + default) targets. */
const protocols = subpaths
  .filter((subpath) => typeof manifest.exports[subpath] === "object" && !subpath.endsWith("/stream"))
  .map((subpath) => subpath.slice(2));
/** `./<protocol>/stream` subpaths: each protocol's reader and verifier, apart from its types and guards. */
const streams = subpaths.filter((subpath) => subpath.endsWith("/stream"));
/** `./<protocol>/schema.json` subpaths. */
const schemaSubpaths = subpaths.filter((subpath) => subpath.endsWith("/schema.json"));

interface ProtocolNames {
  protocol: string;
  specifier: string;
  /** The first non-generic exported interface or type alias. */
  typeName: string;
  /** Every `export const <Name>Values`, in source order. */
  values: string[];
}

const names: ProtocolNames[] = protocols.map((protocol) => {
  const source = readFileSync(path.join(pkgDir, "src", protocol, "types.ts"), "utf8");
  const typeName = /export (?:interface|type) (\w+)(?=\s*[={])/.exec(source)?.[1];
  if (typeName === undefined) throw new Error(`no exported type found in generated/src/${protocol}/types.ts`);
  const values = [...source.matchAll(/export const (\w+Values)\b/g)].map((match) => match[1]!);
  return { protocol, specifier: `${manifest.name}/${protocol}`, typeName, values };
});

function output(result: SpawnSyncReturns<string>): string {
  const error = result.error === undefined ? "" : `\nspawn error: ${result.error.message}`;
  return `exit ${String(result.status)}${error}\n--- stdout ---\n${result.stdout}\n--- stderr ---\n${result.stderr}`;
}

function run(command: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv = process.env): SpawnSyncReturns<string> {
  return spawnSync(command, args, { cwd, env, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
}

let tmp = "";
let tarball = "";
let packedFiles: string[] = [];
let consumer = "";

beforeAll(() => {
  tmp = mkdtempSync(path.join(tmpdir(), "agentwire-pack-"));

  // `npm run package` without its build: `npm run generate` built dist/ (and `npm test`
  // runs after it), and building it again here would race the tool's own pack, which ships it.
  if (!existsSync(path.join(pkgDir, "dist", "runtime.js"))) throw new Error("generated/dist is not built: run `npm run generate` first");
  const packed = run(
    "npm",
    ["pack", "--silent", "--ignore-scripts", "--workspace", manifest.name, "--pack-destination", tmp],
    repoRoot,
    npmEnv(),
  );
  if (packed.status !== 0) throw new Error(`npm pack failed:\n${output(packed)}`);
  const [filename, ...others] = readdirSync(tmp).filter((file) => file.endsWith(".tgz"));
  if (filename === undefined || others.length > 0) throw new Error(`npm run package made ${readdirSync(tmp).join(", ") || "nothing"}`);
  tarball = path.join(tmp, filename);
  packedFiles = execFileSync("tar", ["-tzf", tarball], { encoding: "utf8" })
    .split("\n")
    .filter((file) => file !== "")
    .map((file) => file.replace(/^package\//, ""))
    .sort();

  consumer = path.join(tmp, "consumer");
  mkdirSync(consumer);
  writeFileSync(
    path.join(consumer, "package.json"),
    `${JSON.stringify({ name: "agentwire-consumer", version: "0.0.0", private: true, type: "module" }, null, 2)}\n`,
  );
  const install = (mode: string) => run("npm", ["install", "--no-audit", "--no-fund", mode, tarball], consumer, npmEnv());
  let installed = install("--offline");
  if (installed.status !== 0) installed = install("--prefer-offline");
  if (installed.status !== 0) throw new Error(`npm install of ${tarball} failed:\n${output(installed)}`);
});

afterAll(() => {
  if (tmp !== "") rmSync(tmp, { recursive: true, force: true });
});

describe(`${manifest.name} as published`, () => {
  it("derives its protocols from package.json exports", () => {
    expect(protocols.length).toBeGreaterThan(0);
    expect(schemaSubpaths.sort()).toEqual(protocols.map((protocol) => `./${protocol}/schema.json`).sort());
    expect(streams.sort()).toEqual(protocols.map((protocol) => `./${protocol}/stream`).sort());
  });

  it("packs the built entry points, schemas and no TypeScript sources", () => {
    const expected = ["package.json", "README.md", "sources.json"];
    for (const protocol of protocols) {
      expected.push(`dist/${protocol}/index.js`, `dist/${protocol}/index.d.ts`, `src/${protocol}/schema.json`);
      expected.push(`dist/${protocol}/stream.js`, `dist/${protocol}/stream.d.ts`);
    }
    const missing = expected.filter((file) => !packedFiles.includes(file));
    expect(missing, `missing from the tarball; it has:\n${packedFiles.join("\n")}`).toEqual([]);
    const sources = packedFiles.filter((file) => /\.[cm]?tsx?$/.test(file) && !/\.d\.[cm]?ts$/.test(file));
    expect(sources, "TypeScript sources in the tarball").toEqual([]);
  }, 5_000);

  describe("type-checks in a consumer", () => {
    const alias = (protocol: string) => protocol.replace(/\W+(\w)/g, (_, c: string) => c.toUpperCase());

    function writeConsumerSource(): void {
      const lines: string[] = [];
      const types: string[] = [];
      const values: string[] = [];
      const schemas: string[] = [];
      for (const { protocol, specifier, typeName, values: valueNames } of names) {
        const id = alias(protocol);
        lines.push(`import type { ${typeName} as ${id}Type } from "${specifier}";`);
        types.push(`${id}Type`);
        const valueName = valueNames[0];
        if (valueName !== undefined) {
          lines.push(`import { ${valueName} as ${id}Values } from "${specifier}";`);
          values.push(`${id}Values`);
        }
      }
      for (const subpath of streams) {
        const id = alias(subpath.slice(2));
        lines.push(`import { createVerifier as ${id}Verifier, readStream as ${id}Reader } from "${manifest.name}/${subpath.slice(2)}";`);
        values.push(`[${id}Verifier, ${id}Reader]`);
      }
      for (const subpath of subpaths) {
        if (typeof manifest.exports[subpath] === "object") continue;
        const id = `json${schemas.length}`;
        lines.push(`import ${id} from "${manifest.name}/${subpath.slice(2)}" with { type: "json" };`);
        schemas.push(id);
      }
      lines.push(
        "",
        `export type Types = [${types.join(", ")}];`,
        ...types.map((type, index) => `export function accept${index}(value: ${type}): ${type} {\n  return value;\n}`),
        "// Each `*Values` const is a non-empty readonly tuple.",
        `export const values: ReadonlyArray<readonly [unknown, ...unknown[]]> = [${values.join(", ")}];`,
        `export const json: readonly object[] = [${schemas.join(", ")}];`,
        "",
      );
      writeFileSync(path.join(consumer, "index.ts"), lines.join("\n"));
    }

    function typecheck(name: string, module: string, moduleResolution: string): SpawnSyncReturns<string> {
      writeConsumerSource();
      const tsconfig = path.join(consumer, `tsconfig.${name}.json`);
      const compilerOptions = { ...strictOptions(module, moduleResolution), noEmit: true };
      writeFileSync(tsconfig, `${JSON.stringify({ compilerOptions, files: ["index.ts"] }, null, 2)}\n`);
      return run(bin("tsc"), ["-p", tsconfig, "--pretty", "false"], consumer);
    }

    it("with module nodenext", () => {
      const result = typecheck("nodenext", "nodenext", "nodenext");
      expect(result.status, `tsc (nodenext) failed on:\n${readFileSync(path.join(consumer, "index.ts"), "utf8")}\n${output(result)}`).toBe(
        0,
      );
    }, 30_000);

    it("with module preserve and moduleResolution bundler", () => {
      const result = typecheck("bundler", "preserve", "bundler");
      expect(result.status, `tsc (bundler) failed on:\n${readFileSync(path.join(consumer, "index.ts"), "utf8")}\n${output(result)}`).toBe(
        0,
      );
    }, 30_000);
  });

  it("imports every subpath at runtime by package name", () => {
    const modules = names.map(({ specifier }) => specifier);
    const streamModules = streams.map((subpath) => `${manifest.name}/${subpath.slice(2)}`);
    const schemas = schemaSubpaths.map((subpath) => `${manifest.name}/${subpath.slice(2)}`);
    const script = `
      const report = {};
      for (const specifier of ${JSON.stringify(modules)}) {
        const mod = await import(specifier);
        const names = Object.keys(mod).filter((name) => name.endsWith("Values"));
        for (const name of names) {
          if (!Array.isArray(mod[name]) || mod[name].length === 0) {
            throw new Error(specifier + ": " + name + " is not a non-empty array");
          }
        }
        report[specifier] = names;
      }
      for (const specifier of ${JSON.stringify(streamModules)}) {
        const mod = await import(specifier);
        report[specifier] = [typeof mod.readStream, typeof mod.createVerifier];
      }
      for (const specifier of ${JSON.stringify(schemas)}) {
        const mod = await import(specifier, { with: { type: "json" } });
        const defs = mod.default?.$defs;
        if (typeof defs !== "object" || defs === null) throw new Error(specifier + " has no $defs");
        report[specifier] = Object.keys(defs).length;
      }
      process.stdout.write(JSON.stringify(report));
    `;
    const result = run(process.execPath, ["--input-type=module", "-e", script], consumer);
    expect(result.status, output(result)).toBe(0);
    const report = JSON.parse(result.stdout) as Record<string, string[] | number>;
    for (const { specifier, values } of names) {
      expect((report[specifier] as string[]).sort(), `*Values exports of ${specifier}`).toEqual([...values].sort());
    }
    for (const specifier of schemas) expect(report[specifier], `$defs of ${specifier}`).toBeGreaterThan(0);
    for (const specifier of streamModules) expect(report[specifier], specifier).toEqual(["function", "function"]);
  }, 15_000);

  describe("an app that uses every kind of export", () => {
    const expected = {
      guards: [true, true, false],
      stamped: "number",
      errors: ["/threadId"],
      decoded: { value: { type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: "!" }, ignored: ["/extra"] },
      types: JSON.parse(readFileSync(path.join(pkgDir, "src/ag-ui/schema.json"), "utf8")).$defs.EventType.enum.length,
      text: "Hello",
      where: "https://example.com/a.png",
      kind: "linked",
      unmatched: 'no InputContentSource handler for type "file"',
      described: ["task task-1 TASK_STATE_WORKING", "task task-2 TASK_STATE_COMPLETED"],
      partial: "other",
      schemaDefs: true,
      stream: { violations: ["run"], messages: [{ id: "m1", role: "assistant", content: "Hello" }] },
    };

    it.each([
      ["nodenext", "nodenext", "nodenext"],
      ["bundler", "preserve", "bundler"],
    ])(
      "compiles under strict tsc with %s resolution, and runs",
      (name, module, moduleResolution) => {
        const dir = path.join(consumer, `app-${name}`);
        mkdirSync(dir, { recursive: true });
        copyFileSync(path.join(import.meta.dirname, "app", "main.ts"), path.join(dir, "main.ts"));
        const compilerOptions = { ...strictOptions(module, moduleResolution), outDir: "out" };
        // The app declares process as it uses it, rather than depending on @types/node.
        writeFileSync(path.join(dir, "globals.d.ts"), "declare const process: { stdout: { write(text: string): boolean } };\n");
        writeFileSync(
          path.join(dir, "tsconfig.json"),
          `${JSON.stringify({ compilerOptions, files: ["main.ts", "globals.d.ts"] }, null, 2)}\n`,
        );
        const compiled = run(bin("tsc"), ["-p", "tsconfig.json", "--pretty", "false"], dir);
        expect(compiled.status, `tsc (${name}) failed:\n${output(compiled)}`).toBe(0);
        const ran = run(process.execPath, [path.join(dir, "out", "main.js")], dir);
        expect(ran.status, output(ran)).toBe(0);
        expect(JSON.parse(ran.stdout)).toEqual(expected);
      },
      30_000,
    );
  });

  it("installs by path too, as a link to generated/, which `npm run generate` builds", () => {
    const linked = path.join(tmp, "linked");
    mkdirSync(linked);
    writeFileSync(path.join(linked, "package.json"), `${JSON.stringify({ name: "linked-app", private: true, type: "module" })}\n`);
    const installed = run("npm", ["install", "--offline", "--no-audit", "--no-fund", pkgDir], linked, npmEnv());
    expect(installed.status, output(installed)).toBe(0);
    const script = `import { isEvent } from "@agentwire/protocols/ag-ui"; process.stdout.write(String(isEvent({ type: "RUN_STARTED", threadId: "t", runId: "r" })));`;
    const result = run(process.execPath, ["--input-type=module", "-e", script], linked);
    expect(result.status, output(result)).toBe(0);
    expect(result.stdout).toBe("true");
  }, 30_000);

  it("passes publint", async () => {
    const { messages, pkg } = await publint({ pkgDir, level: "suggestion" });
    const formatted = messages.map((message) => `${message.type}: ${formatMessage(message, pkg, { color: false }) ?? message.code}`);
    expect(formatted).toEqual([]);
  }, 20_000);

  it("passes arethetypeswrong (esm-only profile)", () => {
    const result = run(bin("attw"), [tarball, "--format", "json", "--profile", "esm-only"], repoRoot);
    let parsed: { problems?: Record<string, { kind: string; entrypoint?: string; resolutionKind?: string }[]> };
    try {
      parsed = JSON.parse(result.stdout) as typeof parsed;
    } catch {
      throw new Error(`attw printed no JSON:\n${output(result)}`);
    }
    // The JSON lists problems for every resolution mode; the esm-only profile ignores
    // node10 and node16 (from CJS), as the CLI's exit code does.
    const ignored = new Set(["node10", "node16-cjs"]);
    const problems = Object.values(parsed.problems ?? {})
      .flat()
      .filter((problem) => problem.resolutionKind === undefined || !ignored.has(problem.resolutionKind));
    expect(problems, "attw problems").toEqual([]);
    expect(result.status, output(result).slice(0, 4000)).toBe(0);
  }, 30_000);
});
