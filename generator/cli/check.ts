import { realpathSync } from "node:fs";
import path from "node:path";
import { createTwoFilesPatch } from "diff";
import { InputError } from "../errors.js";
import type { Folder } from "../files/folder.js";
import { locateIn, locateInside } from "../files/folder.js";
import { nodeFileSystem } from "../files/fs.js";
import { withOutput } from "../files/output.js";
import { describeFileError } from "../files/problem.js";
import { projectFiles, projectFolder } from "../files/project.js";
import type { OutputFile } from "../format/index.js";
import { generate } from "../pipeline.js";
import type { Io } from "./io.js";
import type { Arguments } from "./main.js";
import { CONFIG_PATH, describeStalePin, readConfigText, repin, stalePins } from "./pins.js";
import { lockOptions, placeOf } from "./write.js";

/** How the files on disk differ from a fresh generation. */
export interface Drift {
  readonly changed: readonly string[];
  readonly missing: readonly string[];
  readonly stale: readonly string[];
  /** Unified diffs, per file, of what regenerating would change. */
  readonly patches: readonly string[];
}

/**
 * Compares a generation with `generated/` byte for byte: files that differ, files that
 * are missing, and files under `src/` that a generation would not write (stale). What is
 * read is inside `generated/`: a link out of it is refused, never read.
 */
export function findDrift(generatedDir: string, files: readonly OutputFile[]): Drift {
  const output = projectFolder(realpathSync(path.dirname(generatedDir)), path.basename(generatedDir));
  const expected = new Map(files.map((file) => [file.path, file.content]));
  const changed: string[] = [];
  const missing: string[] = [];
  const patches: string[] = [];
  for (const [file, content] of expected) {
    const actual = readOutputFile(output, file);
    if (actual === undefined) {
      missing.push(file);
      patches.push(unifiedDiff(`generated/${file}`, "", content));
      continue;
    }
    if (actual === content) continue;
    changed.push(file);
    patches.push(unifiedDiff(`generated/${file}`, actual, content));
  }
  const stale = listFiles(output, "src").filter((file) => !expected.has(file));
  for (const file of stale) patches.push(unifiedDiff(`generated/${file}`, readOutputFile(output, file) ?? "", ""));
  return { changed, missing, stale, patches };
}

/** A file of generated/, undefined where there is none. */
function readOutputFile(output: Folder, file: string): string | undefined {
  const where = { file: `generated/${file}` };
  const location = locateInside(output, file, where, "generated/", "remove the link: agentwire writes files there");
  if (!location.exists) return undefined;
  try {
    return nodeFileSystem.read(location.path).toString("utf8");
  } catch (error) {
    throw new InputError(where, `cannot read it: ${describeFileError(error)}`);
  }
}

/** A unified diff of a file, as `git diff` heads it: `a/<file>`, `b/<file>`, three lines of context. */
function unifiedDiff(file: string, before: string, after: string): string {
  return createTwoFilesPatch(`a/${file}`, `b/${file}`, before, after, undefined, undefined, { context: 3 });
}

/** The files under a folder of generated/, relative to generated/; a link is listed as a file, and read as one. */
function listFiles(output: Folder, relative: string): string[] {
  const location = locateIn(output, relative, { file: `generated/${relative}` });
  if (!location.inside || !location.exists || !nodeFileSystem.lstat(location.path).isDirectory()) return [];
  return nodeFileSystem
    .list(location.path)
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .flatMap((entry) => (entry.isDirectory() ? listFiles(output, `${relative}/${entry.name}`) : [`${relative}/${entry.name}`]));
}

/** The lines of diff `check` prints unless given --full: a screenful or so, which says what drifted. */
const MAX_DIFF_LINES = 400;

/**
 * `agentwire check`: exit 0 when generated/ is what a generation writes and every schema
 * is the one its pin records, else 1 with the diff of what `generate` would change.
 */
export async function runCheck(args: Arguments, io: Io, root: string): Promise<number> {
  const project = projectFiles(root);
  // Under the lock: a run writing generated/ meanwhile is waited for, and one that was killed is recovered first.
  return withOutput(placeOf(project), { mode: "read", ...lockOptions(io.err) }, () =>
    compare(io, project.root, project.schemas, args.values["full"] === true),
  );
}

async function compare(io: Io, root: string, schemas: Folder, full: boolean): Promise<number> {
  const generation = await generate(root);
  const drift = findDrift(path.join(root, "generated"), generation.files);
  const stale = stalePins(generation.pins);
  const count = drift.changed.length + drift.missing.length + drift.stale.length;
  if (count === 0 && stale.length === 0) {
    io.out(`generated/ is up to date (${generation.files.length} files)`);
    return 0;
  }
  const patches = [...drift.patches];
  if (stale.length > 0) {
    const config = readConfigText(schemas).text;
    patches.unshift(unifiedDiff(CONFIG_PATH, config, repin(config, stale)));
  }
  printDiff(io, patches.join("\n"), full);
  for (const pin of stale) io.err(describeStalePin(pin));
  const parts = [
    drift.changed.length > 0 ? `${drift.changed.length} changed` : "",
    drift.missing.length > 0 ? `${drift.missing.length} missing` : "",
    drift.stale.length > 0 ? `${drift.stale.length} stale` : "",
  ].filter((part) => part !== "");
  const what = count === 0 ? `${CONFIG_PATH} does not pin the schemas` : `generated/ is out of date: ${parts.join(", ")} (${count} files)`;
  io.err(`${what}. Run \`npm run generate\` and commit the result.`);
  return 1;
}

/** A diff, cut at MAX_DIFF_LINES unless the whole of it is asked for. */
function printDiff(io: Io, diff: string, full: boolean): void {
  const lines = diff.split("\n");
  if (full || lines.length <= MAX_DIFF_LINES) {
    io.out(diff);
    return;
  }
  io.out(lines.slice(0, MAX_DIFF_LINES).join("\n"));
  io.out(`… ${lines.length - MAX_DIFF_LINES} more lines of diff not shown (--full shows them)`);
}
