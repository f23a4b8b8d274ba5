import { createTwoFilesPatch } from "diff";
import { InputError } from "../errors.js";
import type { Folder } from "../files/folder.js";
import { locateIn, locateInside, nameOf } from "../files/folder.js";
import { nodeFileSystem } from "../files/fs.js";
import { withOutput } from "../files/output.js";
import type { LockOptions } from "../files/lock.js";
import { describeFileError } from "../files/problem.js";
import type { OutputFile } from "../format/index.js";
import type { OpenProject, Pin } from "../load/index.js";
import { openProject } from "../load/index.js";
import type { Generation } from "../pipeline.js";
import { generate } from "../pipeline.js";
import { repin, stalePins } from "./pins.js";
import { changeOf, placeOf } from "./write.js";

/** What `check` finds: how the output folder and the pins differ from a fresh generation. */
export interface CheckReport {
  /** The output folder, as messages name it: "generated/". */
  readonly output: string;
  readonly generation: Generation;
  readonly drift: Drift;
  /** The pins that no longer match their schema. */
  readonly stalePins: readonly Pin[];
  /** Unified diffs of what `generate` would change: the config's pins first, then the files. */
  readonly patches: readonly string[];
  readonly upToDate: boolean;
}

/**
 * Generates in memory and compares with the output folder and the pins, under the
 * output's lock: a run writing it meanwhile is waited for, and one that was killed is
 * recovered first. Never writes.
 */
export async function checkProject(opened: OpenProject, lock: Omit<LockOptions, "mode"> = {}): Promise<CheckReport> {
  return withOutput(placeOf(opened), { mode: "read", ...lock }, async () => {
    const project = openProject(opened.config.path);
    const generation = await generate(project);
    const drift = findDrift(project, generation.files);
    const stale = stalePins(generation.pins);
    const config = project.config;
    const patches = [...(stale.length > 0 ? [unifiedDiff(config.file, config.text, repin(config.text, stale))] : []), ...drift.patches];
    const count = drift.changed.length + drift.missing.length + drift.stale.length;
    return {
      output: `${nameOf(project.output.root, project.output.path)}/`,
      generation,
      drift,
      stalePins: stale,
      patches,
      upToDate: count === 0 && stale.length === 0,
    };
  });
}

/** How the files on disk differ from a fresh generation. */
export interface Drift {
  readonly changed: readonly string[];
  readonly missing: readonly string[];
  readonly stale: readonly string[];
  /** Unified diffs, per file, of what regenerating would change. */
  readonly patches: readonly string[];
}

/**
 * Compares a generation with the output folder byte for byte: files that differ, files
 * that are missing, and files a generation would not write under what agentwire owns
 * there (stale): a package's `src/`; in plain sources, its protocols' folders and those it
 * wrote before. What is read is inside the output folder: a link out of it is refused.
 */
export function findDrift(project: OpenProject, files: readonly OutputFile[]): Drift {
  const { output } = project;
  const name = `${nameOf(output.root, output.path)}/`;
  const expected = new Map(files.map((file) => [file.path, file.content]));
  const changed: string[] = [];
  const missing: string[] = [];
  const patches: string[] = [];
  for (const [file, content] of expected) {
    const actual = readOutputFile(output, name, file);
    if (actual === undefined) {
      missing.push(file);
      patches.push(unifiedDiff(`${name}${file}`, "", content));
      continue;
    }
    if (actual === content) continue;
    changed.push(file);
    patches.push(unifiedDiff(`${name}${file}`, actual, content));
  }
  const stale = ownedFolders(project, files)
    .flatMap((folder) => listFiles(output, name, folder))
    .filter((file) => !expected.has(file));
  for (const file of stale) patches.push(unifiedDiff(`${name}${file}`, readOutputFile(output, name, file) ?? "", ""));
  return { changed, missing, stale, patches };
}

/** The folders of the output that agentwire owns whole: a package's `src/`; in plain sources, each protocol's, now and before. */
function ownedFolders(project: OpenProject, files: readonly OutputFile[]): string[] {
  if (project.config.value.output.package !== undefined) return ["src"];
  const folders = files.filter((file) => file.path.includes("/")).map((file) => file.path.split("/")[0]!);
  const { retired = [] } = changeOf(project, files);
  return [...new Set([...folders, ...retired])].sort();
}

/** A file of the output folder, undefined where there is none. */
function readOutputFile(output: Folder, name: string, file: string): string | undefined {
  const where = { file: `${name}${file}` };
  const location = locateInside(output, file, where, name, "remove the link: agentwire writes files there");
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

/** The files under a folder of the output, relative to the output; a link is listed as a file, and read as one. */
function listFiles(output: Folder, name: string, relative: string): string[] {
  const location = locateIn(output, relative, { file: `${name}${relative}` });
  if (!location.inside || !location.exists) return [];
  if (!nodeFileSystem.lstat(location.path).isDirectory()) return [relative];
  return nodeFileSystem
    .list(location.path)
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .flatMap((entry) => (entry.isDirectory() ? listFiles(output, name, `${relative}/${entry.name}`) : [`${relative}/${entry.name}`]));
}
