import { execFileSync, spawnSync, type SpawnSyncReturns } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { publint } from "publint";
import { formatMessage } from "publint/utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * Tests `@agentwire/protocols` as users get it: the packed tarball (built by `prepack`),
 * installed into a throwaway consumer project, type-checked under the two module
 * resolution modes users run (`nodenext` and `bundler`), imported at runtime by
 * package name, and linted with publint and arethetypeswrong.
 *
 * Everything is derived from `generated/package.json` `exports` and the generated
 * `generated/src/<protocol>/types.ts`, so a new protocol is covered without edits here.
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
const protocols = subpaths.filter((subpath) => typeof manifest.exports[subpath] === "object").map((subpath) => subpath.slice(2));
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

/**
 * The environment for npm child processes: without the variables `npx`/`npm run` set for
 * this repository (its local prefix, package and lifecycle fields), so npm acts on the
 * directory it is started in, like a user's shell would.
 */
function npmEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^npm_(package_|lifecycle_|command$|config_(local_prefix|call|workspaces?|include_workspace_root)$)/i.test(key)) continue;
    if (key === "INIT_CWD") continue;
    env[key] = value;
  }
  return env;
}

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

  // `npm pack` runs `prepack`, which builds `dist/`; its script output goes to stderr.
  const packed = execFileSync("npm", ["pack", "--json", "--pack-destination", tmp], {
    cwd: pkgDir,
    env: npmEnv(),
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
  const [result] = JSON.parse(packed) as { filename: string; files: { path: string }[] }[];
  if (result === undefined) throw new Error(`npm pack printed no result:\n${packed}`);
  tarball = path.join(tmp, result.filename);
  packedFiles = result.files.map((file) => file.path).sort();

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
}, 60_000);

afterAll(() => {
  if (tmp !== "") rmSync(tmp, { recursive: true, force: true });
});

describe(`${manifest.name} as published`, () => {
  it("derives its protocols from package.json exports", () => {
    expect(protocols.length).toBeGreaterThan(0);
    expect(schemaSubpaths.sort()).toEqual(protocols.map((protocol) => `./${protocol}/schema.json`).sort());
  });

  it("packs the built entry points, schemas and no TypeScript sources", () => {
    const expected = ["package.json", "README.md"];
    for (const protocol of protocols) {
      expected.push(`dist/${protocol}/index.js`, `dist/${protocol}/index.d.ts`, `src/${protocol}/schema.json`);
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
      const compilerOptions = {
        target: "es2022",
        lib: ["es2022"],
        module,
        moduleResolution,
        resolveJsonModule: true,
        strict: true,
        noEmit: true,
        exactOptionalPropertyTypes: true,
        noUncheckedIndexedAccess: true,
        skipLibCheck: false,
        types: [],
      };
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
  }, 15_000);

  it("builds, checks and matches an event through the installed package", () => {
    const script = `
      import { createRunStartedEvent, isEvent, matchEvent, UnmatchedError } from "@agentwire/protocols/ag-ui";
      const event = createRunStartedEvent({ threadId: "t", runId: "r" }, { stamp: true });
      const handlers = new Proxy({}, { get: (_, type) => (value) => type + " " + value.runId });
      let unmatched;
      try { matchEvent({ type: "NEWER" }, handlers); } catch (error) { unmatched = error instanceof UnmatchedError && error.message; }
      process.stdout.write(JSON.stringify([isEvent(event), typeof event.timestamp, matchEvent(event, handlers), unmatched]));
    `;
    const result = run(process.execPath, ["--input-type=module", "-e", script], consumer);
    expect(result.status, output(result)).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual([true, "number", "RUN_STARTED r", 'no Event handler for type "NEWER"']);
  }, 15_000);

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
