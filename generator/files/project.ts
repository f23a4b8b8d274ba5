import { existsSync, realpathSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { InputError } from "../errors.js";
import type { SourceLocation } from "../errors.js";
import type { Folder } from "./folder.js";
import { locateIn, whyOutside } from "./folder.js";
import type { FileSystem } from "./fs.js";
import { nodeFileSystem } from "./fs.js";

/** The config's name: the file whose folder is the project. */
export const CONFIG_FILE = "agentwire.config.json";

/**
 * agentwire's own folder, the installed package's (or this repository's): its templates
 * and presets are read from there, never from the user's project. It is the nearest
 * folder up from this module that holds templates/runtime.ts: two up in the sources
 * (generator/files/), three in the build (build/generator/files/, whose build/templates/
 * holds the templates' declarations only), two from the bundle the command runs
 * (build/bundle/).
 */
export const TOOL_ROOT = toolRootFrom(path.dirname(fileURLToPath(import.meta.url)));

function toolRootFrom(start: string): string {
  for (let dir = start; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, "templates", "runtime.ts"))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`agentwire's package folder is not above ${start}`);
  }
}

/** The nearest config, from `start` upwards: its path, or undefined where there is none. */
export function findConfig(start: string): string | undefined {
  for (let dir = path.resolve(start); ; dir = path.dirname(dir)) {
    const config = path.join(dir, CONFIG_FILE);
    if (existsSync(config)) return config;
    if (path.dirname(dir) === dir) return undefined;
  }
}

/** The project of a config: its folder, by real path, which every file agentwire reads or writes is inside. */
export function projectOf(config: string): Folder {
  let real: string;
  try {
    real = realpathSync(path.dirname(path.resolve(config)));
  } catch {
    throw new InputError({ file: config }, "no such folder", "name an agentwire.config.json with --config, or run `agentwire init`");
  }
  return { root: real, path: real };
}

/**
 * A folder of the project by its real path (it may not exist yet): a link may lead to
 * another folder of the project, not out of it, and the project itself is not one.
 */
export function projectFolder(project: Folder, relative: string, where: SourceLocation, fs: FileSystem = nodeFileSystem): Folder {
  const location = path.isAbsolute(relative) ? undefined : locateIn(project, relative, where, fs);
  if (location === undefined || !location.inside) {
    // Outside by its text ("../out") there is no link to name: only one that leads out has a why.
    const why = location === undefined ? "" : whyOutside(project.root, location);
    throw new InputError(
      where,
      why === "" ? `"${relative}" is outside the project` : `"${relative}" leads outside the project: ${why}`,
      "agentwire reads and writes only inside the project, the config's folder: name a folder of it, relative to the config",
    );
  }
  if (location.path === project.root)
    throw new InputError(where, `"${relative}" is the project itself`, "name a folder of the project, such as src/protocols");
  return { root: project.root, path: location.path };
}
