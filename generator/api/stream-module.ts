import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { InputError } from "../errors.js";
import type { Folder } from "../files/folder.js";
import { locateInside, nameOf } from "../files/folder.js";
import { nodeFileSystem } from "../files/fs.js";
import type { OpenProject } from "../load/index.js";
import { presets, toolProject } from "../load/presets.js";
import type { ProjectLookup } from "./project.js";

/**
 * A protocol's stream module, the code its consumers run: the project's own generated
 * sources where its config names the protocol, compiled in memory, since verifying asks
 * for no build; else the build of agentwire's built-in protocol of that name.
 */
export async function loadStreamModule<T>(project: ProjectLookup, name: string): Promise<T> {
  const opened = project.config === undefined ? undefined : project.open();
  if (opened?.config.value.protocols.some((protocol) => protocol.name === name)) return compiledModule<T>(opened, name);
  if (presets().has(name)) return builtModule<T>(name);
  const known = [...new Set([...(opened?.config.value.protocols.map((protocol) => protocol.name) ?? []), ...presets().keys()])];
  throw new InputError(
    { file: opened?.config.file ?? "agentwire" },
    `no protocol "${name}"${opened === undefined ? " is built in" : ` in ${opened.config.file}, nor built in`}`,
    `known: ${known.sort().join(", ")}`,
  );
}

/** agentwire's build of a built-in protocol, in its own package. */
async function builtModule<T>(name: string): Promise<T> {
  const tool = toolProject();
  const file = path.join(tool.output.path, "dist", name, "stream.js");
  if (!existsSync(file)) {
    const why = existsSync(path.join(tool.output.path, "src", name, "stream.ts"))
      ? "agentwire's copy of it is not built: in a checkout of agentwire, run `npm run generate`"
      : `"${name}" has no stream facts, so no stream module`;
    throw new InputError({ file: name }, why);
  }
  return (await import(pathToFileURL(file).href)) as T;
}

/**
 * The project's generated stream module of `name`: a package's build where it is newer
 * than every source it is built from; else the sources, with the modules they import,
 * compiled from TypeScript by the compiler ts-morph carries into a scratch folder,
 * imported, and the folder removed: an ES module's imports are all loaded when it is.
 */
async function compiledModule<T>(project: OpenProject, name: string): Promise<T> {
  const { output } = project;
  const sources: Folder = project.config.value.output.package === undefined ? output : { ...output, path: path.join(output.path, "src") };
  const where = (file: string) => ({ file: nameOf(output.root, path.join(sources.path, file)) });
  const located = (file: string) => locateInside(sources, file, where(file), `${nameOf(output.root, output.path)}/`);
  if (!located(`${name}/index.ts`).exists)
    throw new InputError(where(name), `protocol "${name}" has not been generated`, "run `agentwire generate`");
  if (!located(`${name}/stream.ts`).exists)
    throw new InputError(
      where(`${name}/stream.ts`),
      `protocol "${name}" has no stream facts, so no stream module`,
      'see the "stream" section of its overlay',
    );
  const files = [...tsFiles(located("."), ""), ...tsFiles(located("stream"), "stream"), ...tsFiles(located(name), name)];
  // A package built since its sources last changed runs its build, as make would judge it.
  if (project.config.value.output.package !== undefined) {
    const built = locateInside(output, `dist/${name}/stream.js`, where(name), `${nameOf(output.root, output.path)}/`);
    const newest = Math.max(...files.map((file) => nodeFileSystem.lstat(located(file).path).mtimeMs));
    if (built.exists && nodeFileSystem.lstat(built.path).mtimeMs >= newest) return (await import(pathToFileURL(built.path).href)) as T;
  }
  const modules = files.map((file) => ({ file, text: nodeFileSystem.read(located(file).path).toString("utf8") }));
  // A process that verifies many recordings (a test run, the API in a server) compiles
  // the same sources once: by their content, not their place.
  const key = createHash("sha256")
    .update(JSON.stringify([name, modules]))
    .digest("hex");
  let loaded = compiled.get(key);
  if (loaded === undefined) {
    loaded = compile(name, modules);
    compiled.set(key, loaded);
    loaded.catch(() => compiled.delete(key));
  }
  return (await loaded) as T;
}

const compiled = new Map<string, Promise<unknown>>();
/** Each module's JavaScript by its TypeScript: the modules every protocol shares are compiled once. */
const transpiled = new Map<string, string>();

async function compile(name: string, modules: readonly { readonly file: string; readonly text: string }[]): Promise<unknown> {
  const { ts } = await import("ts-morph");
  const scratch = mkdtempSync(path.join(tmpdir(), "agentwire-verify-"));
  try {
    writeFileSync(path.join(scratch, "package.json"), '{ "type": "module" }\n');
    for (const { file, text } of modules) {
      let javascript = transpiled.get(text);
      if (javascript === undefined) {
        javascript = ts.transpileModule(text, {
          fileName: file,
          compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: false },
        }).outputText;
        transpiled.set(text, javascript);
      }
      const target = path.join(scratch, file.replace(/\.ts$/, ".js"));
      mkdirSync(path.dirname(target), { recursive: true });
      writeFileSync(target, javascript);
    }
    return await import(pathToFileURL(path.join(scratch, name, "stream.js")).href);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** The TypeScript modules directly in a folder, relative to the sources. */
function tsFiles(folder: { readonly path: string }, relative: string): string[] {
  return nodeFileSystem
    .list(folder.path)
    .filter((entry) => entry.isFile() && entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts"))
    .map((entry) => (relative === "" ? entry.name : `${relative}/${entry.name}`))
    .sort();
}
