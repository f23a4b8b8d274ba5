import { realpathSync } from "node:fs";
import path from "node:path";
import type { Place } from "../files/output.js";
import { writeOutput } from "../files/output.js";
import type { ProjectFiles } from "../files/project.js";
import { projectFolder } from "../files/project.js";
import type { OutputFile } from "../format/index.js";

/**
 * Where a command of the project writes: `generated/`, which it owns but for `dist/` and
 * `node_modules/`, and `schemas/`, where it replaces the config's pins and, for `update`,
 * vendored schemas, in the same step (`files/output.ts`).
 */
export function placeOf(project: ProjectFiles): Place {
  return { output: project.output, writable: [project.schemas] };
}

/** Prints, on standard error, that the command waits for another run to let go of the output. */
export const lockOptions = (err: (text: string) => void) => ({ onWait: (message: string) => err(`agentwire: ${message}`) });

/**
 * Writes a generation into the output folder in one step, under its lock: the files that
 * a generation writes replace theirs, top-level name by top-level name (`src/` whole), and
 * the rest (`dist/`, `node_modules/`) stays. For tests and scripts that hold a generation.
 */
export function writeGeneration(generatedDir: string, files: readonly OutputFile[]): void {
  const output = projectFolder(realpathSync(path.dirname(generatedDir)), path.basename(generatedDir));
  writeOutput({ output, writable: [] }, { files, replaced: [] });
}
