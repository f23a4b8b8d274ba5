import path from "node:path";
import { InputError } from "../errors.js";
import type { Folder } from "./folder.js";
import { isWithin, locate, nameOf } from "./folder.js";
import type { FileSystem } from "./fs.js";
import { errnoCode, removeIfCan } from "./fs.js";
import { fileError } from "./problem.js";

/**
 * Replacing what agentwire owns in the output folder, and the project files that go with
 * it (the config's pins, `update`'s vendored schemas), as one step: a kill at any moment
 * leaves the old files or the new ones, never a mix, once the next run has recovered.
 *
 * Everything happens in a transaction folder inside the output folder (the lock's,
 * `files/lock.ts`). Before the commit, nothing the user sees has changed but for tops
 * moved aside, which a rollback moves back; after it, only renames remain, which a roll
 * forward finishes:
 *
 *   1. the new files are written under `new/`;
 *   2. the plan is written (`plan.json`: the top-level names replaced, and the other files);
 *   3. each other file's new content is written beside it (`.agentwire-new/<name>`);
 *   4. each current top-level name is moved into `retired/`;
 *   5. commit: `plan.json` is renamed `committed.json`;
 *   6. each new top-level name is moved into the output folder, each other file renamed
 *      over its old copy, and `committed.json` removed.
 *
 * A write that fails (a full disk, a permission) fails before the commit, since every
 * byte is written by then: it is rolled back at once, and nothing has changed.
 */

/** What a transaction writes. */
export interface Change {
  /** Every file agentwire owns in the output folder, relative to it with "/": each top-level name they start with is replaced whole. */
  readonly files: readonly { readonly path: string; readonly content: string | Uint8Array }[];
  /** Files outside the output folder replaced in the same step, by real path inside a writable folder. */
  readonly replaced: readonly { readonly path: string; readonly content: string | Uint8Array }[];
  /** Top-level names of the output folder removed in the same step, that no file replaces: what agentwire wrote there before and writes no more. */
  readonly retired?: readonly string[];
}

/** Where a transaction writes: the output folder, and the folders whose files it may replace. */
export interface Place {
  readonly output: Folder;
  readonly writable: readonly Folder[];
}

/** What a transaction folder records. Recovery reads it back and trusts nothing in it that leaves the place. */
interface Plan {
  readonly tops: readonly string[];
  /** The other files, relative to the project. */
  readonly replaced: readonly string[];
}

const PLAN = "plan.json";
const COMMITTED = "committed.json";
const NEW = "new";
const RETIRED = "retired";
const BESIDE = ".agentwire-new";

/** A failed step: what it concerned (the file the user knows, not the transaction's copy) and what it was doing. */
class StepFailure {
  constructor(
    readonly error: unknown,
    readonly subject: string,
    readonly doing: string,
  ) {}
}

/** A step's failure, or a file-system error outside a step (a folder that cannot be looked into); anything else is thrown on. */
function asFailure(error: unknown, outputName: string): StepFailure {
  if (error instanceof StepFailure) return error;
  if (errnoCode(error) !== undefined) return new StepFailure(error, outputName, "cannot look into it");
  throw error;
}

function step<T>(subject: string, doing: string, run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (errnoCode(error) === undefined) throw error;
    throw new StepFailure(error, subject, doing);
  }
}

/** Runs the transaction in `dir`, an empty folder of its own. */
export function replace(dir: string, place: Place, change: Change, fs: FileSystem): void {
  const { output } = place;
  const root = output.root;
  const tops = [...new Set([...change.files.map((file) => file.path.split("/")[0]!), ...(change.retired ?? [])])].sort();
  const plan: Plan = { tops, replaced: change.replaced.map((file) => nameOf(root, file.path)) };
  const outputName = nameOf(root, output.path);
  let committed = false;
  try {
    const made = new Set<string>([dir]);
    const folder = (at: string): void => {
      if (made.has(at)) return;
      folder(path.dirname(at));
      fs.makeFolder(at);
      made.add(at);
    };
    for (const file of change.files) {
      const staged = path.join(dir, NEW, ...file.path.split("/"));
      step(`${outputName}/${file.path}`, "cannot write", () => {
        folder(path.dirname(staged));
        fs.create(staged, file.content);
      });
    }
    step(outputName, "cannot write", () => {
      fs.create(path.join(dir, `${PLAN}.tmp`), `${JSON.stringify(plan)}\n`);
      fs.rename(path.join(dir, `${PLAN}.tmp`), path.join(dir, PLAN));
    });
    for (const file of change.replaced)
      step(nameOf(root, file.path), "cannot write", () => {
        const temp = besideOf(file.path);
        const beside = path.dirname(temp);
        if (!exists(fs, beside)) fs.makeFolder(beside);
        if (!exists(fs, path.join(beside, ".gitignore"))) fs.create(path.join(beside, ".gitignore"), "*\n");
        fs.remove(temp);
        fs.create(temp, file.content);
      });
    step(outputName, "cannot write", () => fs.makeFolder(path.join(dir, RETIRED)));
    for (const top of tops) {
      const current = path.join(output.path, top);
      if (exists(fs, current)) step(`${outputName}/${top}`, "cannot move", () => fs.rename(current, path.join(dir, RETIRED, top)));
    }
    step(outputName, "cannot write", () => fs.rename(path.join(dir, PLAN), path.join(dir, COMMITTED)));
    committed = true;
    rollForward(dir, place, plan, fs);
    // The old files, and the folders the new ones left: the lock's removal takes what stays.
    removeIfCan(fs, path.join(dir, RETIRED));
    removeIfCan(fs, path.join(dir, NEW));
  } catch (error) {
    const failure = asFailure(error, outputName);
    if (!committed)
      try {
        rollBack(dir, place, plan, fs);
      } catch (again) {
        asFailure(again, outputName);
        // The plan is still there: the next run rolls back what this one could not.
      }
    throw fileError(
      failure.error,
      { file: failure.subject },
      failure.doing,
      committed ? `${outputName}/ is part new, part old: the next agentwire command finishes it` : "nothing was changed",
    );
  }
}

/**
 * Finishes or undoes the transaction a run left in `dir` (killed, or failed after its
 * commit): committed, it is finished; planned, undone; otherwise nothing had changed.
 * Every step of both is idempotent, so recovery itself may be killed and run again.
 */
export function recover(dir: string, place: Place, fs: FileSystem): void {
  try {
    if (exists(fs, path.join(dir, COMMITTED))) rollForward(dir, place, readPlan(dir, COMMITTED, place, fs), fs);
    else if (exists(fs, path.join(dir, PLAN))) rollBack(dir, place, readPlan(dir, PLAN, place, fs), fs);
  } catch (error) {
    const failure = asFailure(error, nameOf(place.output.root, place.output.path));
    throw fileError(
      failure.error,
      { file: failure.subject },
      `${failure.doing}, finishing the interrupted write of ${nameOf(place.output.root, place.output.path)}/`,
    );
  }
}

/** Whether `dir` holds a transaction that recovery would finish or undo. */
export function isPending(dir: string, fs: FileSystem): boolean {
  return exists(fs, path.join(dir, COMMITTED)) || exists(fs, path.join(dir, PLAN));
}

// A transaction folder left behind may have been committed to a repository: recovery moves
// only what is in real folders of it (a link there could bring in what is outside), and
// renames over the other files only real files of their copies' folders.

function rollForward(dir: string, place: Place, plan: Plan, fs: FileSystem): void {
  const { output } = place;
  const outputName = nameOf(output.root, output.path);
  const staging = isRealFolder(fs, path.join(dir, NEW));
  for (const top of plan.tops) {
    const staged = path.join(dir, NEW, top);
    if (!staging || !exists(fs, staged)) continue;
    const current = path.join(output.path, top);
    const retired = path.join(dir, RETIRED, top);
    step(`${outputName}/${top}`, "cannot move", () => {
      // Retired before the commit; here only if something made it again since.
      if (exists(fs, current)) {
        if (!exists(fs, path.join(dir, RETIRED))) fs.makeFolder(path.join(dir, RETIRED));
        if (exists(fs, retired)) fs.remove(current);
        else fs.rename(current, retired);
      }
      fs.rename(staged, current);
    });
  }
  for (const name of plan.replaced) {
    const target = path.join(output.root, ...name.split("/"));
    const temp = besideOf(target);
    if (isRealFolder(fs, path.dirname(temp)) && isFile(fs, temp)) step(name, "cannot replace", () => fs.rename(temp, target));
  }
  for (const beside of besideFolders(place, plan)) step(nameOf(output.root, beside), "cannot remove", () => fs.remove(beside));
  step(outputName, "cannot write", () => fs.remove(path.join(dir, COMMITTED)));
}

function rollBack(dir: string, place: Place, plan: Plan, fs: FileSystem): void {
  const { output } = place;
  const outputName = nameOf(output.root, output.path);
  const retiring = isRealFolder(fs, path.join(dir, RETIRED));
  for (const top of plan.tops) {
    const retired = path.join(dir, RETIRED, top);
    const current = path.join(output.path, top);
    if (retiring && exists(fs, retired) && !exists(fs, current))
      step(`${outputName}/${top}`, "cannot move back", () => fs.rename(retired, current));
  }
  for (const beside of besideFolders(place, plan)) step(nameOf(output.root, beside), "cannot remove", () => fs.remove(beside));
  step(outputName, "cannot write", () => fs.remove(path.join(dir, PLAN)));
}

/**
 * The copy a file's new content is written to before it is renamed over the file: in a
 * folder beside it (the same file system, so the rename is one step) that holds a
 * `.gitignore` of `*`, so that a copy a kill leaves is never committed.
 */
function besideOf(file: string): string {
  return path.join(path.dirname(file), BESIDE, path.basename(file));
}

/** The folders of the copies of a plan's other files, each once. */
function besideFolders(place: Place, plan: Plan): string[] {
  return [...new Set(plan.replaced.map((name) => path.dirname(besideOf(path.join(place.output.root, ...name.split("/"))))))];
}

function isRealFolder(fs: FileSystem, at: string): boolean {
  return exists(fs, at) && fs.lstat(at).isDirectory();
}

function isFile(fs: FileSystem, at: string): boolean {
  return exists(fs, at) && fs.lstat(at).isFile();
}

function exists(fs: FileSystem, at: string): boolean {
  try {
    fs.lstat(at);
    return true;
  } catch (error) {
    const code = errnoCode(error);
    if (code === "ENOENT" || code === "ENOTDIR") return false;
    throw error;
  }
}

/**
 * A plan read back. It is in the output folder, where a repository could have committed
 * one: it may name only top-level names of the output folder and files of the writable
 * folders, by paths whose links stay inside them.
 */
function readPlan(dir: string, name: string, place: Place, fs: FileSystem): Plan {
  const file = nameOf(place.output.root, path.join(dir, name));
  const refuse = (why: string): never => {
    throw new InputError(
      { file },
      `not a plan agentwire wrote: ${why}`,
      `remove ${nameOf(place.output.root, dir)}/ and run agentwire generate`,
    );
  };
  let plan: unknown;
  try {
    plan = JSON.parse(fs.read(path.join(dir, name)).toString("utf8"));
  } catch (error) {
    if (errnoCode(error) !== undefined) throw error;
    return refuse("it is not JSON");
  }
  const { tops, replaced } = (plan ?? {}) as Record<string, unknown>;
  if (!isStrings(tops) || !isStrings(replaced)) return refuse('it needs "tops" and "replaced", arrays of strings');
  for (const top of tops)
    if (top === "" || top === "." || top === ".." || /[/\\\0]/.test(top) || top.startsWith(".agentwire"))
      refuse(`${JSON.stringify(top)} is not a name of a file in ${nameOf(place.output.root, place.output.path)}/`);
  for (const other of replaced) {
    const target = path.resolve(place.output.root, other);
    // The writable folder may hold the output folder (the project does), whose files are replaced by their tops alone.
    const folder = isWithin(place.output.path, target) ? undefined : place.writable.find((candidate) => isWithin(candidate.path, target));
    const location = folder === undefined ? undefined : locate(folder.path, target, fs);
    if (location === undefined || !location.inside || location.path !== target || other.includes("\\"))
      refuse(`${JSON.stringify(other)} is not a file of the folders agentwire writes`);
  }
  return { tops, replaced };
}

function isStrings(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === "string");
}
