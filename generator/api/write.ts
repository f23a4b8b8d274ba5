import { realpathSync } from "node:fs";
import path from "node:path";
import { retiredTops } from "../emit/package.js";
import { locateIn } from "../files/folder.js";
import { nodeFileSystem } from "../files/fs.js";
import type { Change, Place } from "../files/output.js";
import { writeOutput } from "../files/output.js";
import { projectFolder } from "../files/project.js";
import type { OutputFile } from "../format/index.js";
import type { JsonValue } from "../json.js";
import { readJson } from "../json.js";
import type { OpenProject } from "../load/index.js";

/**
 * Where a command of the project writes: the output folder, which it owns but for `dist/`
 * and `node_modules/`, and the project, where it replaces the config's pins and, for
 * `update`, vendored schemas, in the same step (`files/output.ts`).
 */
export function placeOf(project: OpenProject): Place {
  return { output: project.output, writable: [project.folder] };
}

/**
 * The change that writes a generation: its files, the other files it replaces (the
 * config's pins, `update`'s schemas), and, in plain sources, what agentwire wrote in the
 * folder before that the generation no longer has.
 */
export function changeOf(project: OpenProject, files: readonly OutputFile[], replaced: Change["replaced"] = []): Change {
  if (project.config.value.output.package !== undefined) return { files, replaced };
  return { files, replaced, retired: retiredTops(recordOf(project), files) };
}

/** The `sources.json` agentwire wrote in the output folder, undefined where there is none it can read. */
function recordOf(project: OpenProject): JsonValue | undefined {
  try {
    const location = locateIn(project.output, "sources.json", { file: "sources.json" });
    return location.inside && location.exists ? readJson(nodeFileSystem.read(location.path), "sources.json") : undefined;
  } catch {
    return undefined;
  }
}

/** Prints, on standard error, that the command waits for another run to let go of the output. */
export const lockOptions = (err: (text: string) => void) => ({ onWait: (message: string) => err(`agentwire: ${message}`) });

/**
 * Writes a generation into the output folder in one step, under its lock: the files that
 * a generation writes replace theirs, top-level name by top-level name (`src/` whole), and
 * the rest (`dist/`, `node_modules/`) stays. For tests and scripts that hold a generation.
 */
export function writeGeneration(outputDir: string, files: readonly OutputFile[]): void {
  const root = realpathSync(path.dirname(outputDir));
  const output = projectFolder({ root, path: root }, path.basename(outputDir), { file: path.basename(outputDir) });
  writeOutput({ output, writable: [] }, { files, replaced: [] });
}
