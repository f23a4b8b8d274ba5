import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import path from "node:path";
import { threadId } from "node:worker_threads";
import { InputError } from "../errors.js";
import { nameOf } from "./folder.js";
import type { FileSystem } from "./fs.js";
import { errnoCode, removeIfCan } from "./fs.js";
import { fileError } from "./problem.js";
import type { Place } from "./transaction.js";
import { isPending, recover } from "./transaction.js";

/**
 * One agentwire at a time in an output folder. The lock is a folder, `.agentwire/` in the
 * output folder, that holds its owner (`owner.json`: pid, thread, host, since when) and,
 * while the owner writes, its transaction (`files/transaction.ts`). It is made whole under
 * a name of its own (`.agentwire-<pid>-<thread>-<token>/`) and renamed into place, which
 * fails while another lock is there: no moment exists at which a lock has no owner. Each
 * such folder holds a `.gitignore` of `*`, so that git never commits one, whatever the
 * repository's own `.gitignore` says.
 *
 * A lock whose owner has died (killed, or a crash) is stale: it is renamed aside, and
 * whoever then holds the lock finishes or undoes its transaction before anything else, so
 * that every transaction is recovered before the next begins. A stale lock is taken aside
 * under a second lock made the same way, `.agentwire-steal/`, held for an instant: two runs
 * that find one stale lock cannot take aside a live lock that a third made in between.
 */

const LOCK = ".agentwire";
const STEAL = `${LOCK}-steal`;
const OWNER = "owner.json";
/** The folders a lock is made in, taken aside in, and removed from: named by the process and thread that made them. */
const OWNED = /^\.agentwire-(\d+)-(\d+)-[0-9a-f]+$/;
/** Earlier agentwire versions staged in `.staging-*` and could leave one behind. */
const LEGACY_STAGING = /^\.staging-/;
const POLL_MS = 100;
const DEFAULT_WAIT_MS = 60_000;

interface Owner {
  readonly pid: number;
  readonly thread: number;
  readonly host: string;
  readonly token: string;
  readonly since: string;
}

/** The tokens of the locks this thread holds, to tell them from locks a crash of this very process left (in tests). */
const held = new Set<string>();

export interface LockOptions {
  /**
   * `write` makes the output folder if it is missing. `read` is for commands that only
   * read it: where it is missing, or on a file system agentwire may not write to, they
   * read without a lock, unless an interrupted write is there to recover.
   */
  readonly mode: "write" | "read";
  /** How long to wait for another run to finish, in milliseconds. */
  readonly waitMs?: number;
  /** Told once, when the lock is held by another live run and this one waits. */
  readonly onWait?: (message: string) => void;
}

export interface Lock {
  /** The lock's folder, where the holder's transaction is kept. */
  readonly dir: string;
  release(): void;
}

/**
 * Takes the output folder's lock, waiting while another live run holds it, then recovers
 * what dead runs left. Undefined in `read` mode where no lock can or need be taken.
 */
export function lockOutput(place: Place, options: LockOptions, fs: FileSystem): Lock | undefined {
  const { output } = place;
  const root = output.root;
  const outputName = `${nameOf(root, output.path)}/`;
  const lock = path.join(output.path, LOCK);
  const kind = kindOf(fs, output.path);
  if (kind === "file")
    throw new InputError({ file: outputName }, "it is a file, not a folder", `move it away: agentwire writes ${outputName} as a folder`);
  const made = kind === "none";
  if (made) {
    if (options.mode === "read") return undefined;
    try {
      makeFolders(fs, output.path, root);
    } catch (error) {
      throw fileError(error, { file: outputName }, "cannot make the folder", "nothing was changed");
    }
  }
  const token = randomBytes(8).toString("hex");
  let mine: string;
  try {
    mine = makeOwned(fs, output.path, token);
  } catch (error) {
    const code = errnoCode(error);
    if (options.mode === "read" && (code === "EROFS" || code === "EACCES" || code === "EPERM") && !hasPending(fs, output.path))
      return undefined;
    throw fileError(error, { file: outputName }, "cannot lock it for writing", "nothing was changed");
  }
  try {
    acquire(fs, place, mine, token, options);
  } catch (error) {
    removeIfCan(fs, mine);
    if (errnoCode(error) === undefined) throw error;
    throw fileError(error, { file: outputName }, "cannot lock it for writing", "nothing was changed");
  }
  const release = (): void => {
    held.delete(token);
    // Renamed aside first, so that the lock is let go at once and whole; removed after.
    const aside = asideName(output.path);
    try {
      fs.rename(lock, aside);
    } catch (error) {
      if (errnoCode(error) === undefined) throw error;
      // Left as it is: its owner is dead once this process ends, and the next run removes it.
      return;
    }
    // A transaction that failed after its commit stays for the next run to finish.
    if (!isPending(aside, fs)) removeIfCan(fs, aside);
    // Made for the lock, and nothing written in it: as it was, absent.
    if (made)
      try {
        if (fs.list(output.path).length === 0) fs.remove(output.path);
      } catch (error) {
        if (errnoCode(error) === undefined) throw error;
      }
  };
  try {
    recoverLeftovers(fs, place);
  } catch (error) {
    release();
    if (errnoCode(error) === undefined) throw error;
    throw fileError(error, { file: outputName }, "cannot remove what an interrupted run left");
  }
  return { dir: lock, release };
}

/** Renames `mine` into the lock's place, waiting while a live run holds it and taking aside one a dead run left. */
function acquire(fs: FileSystem, place: Place, mine: string, token: string, options: LockOptions): void {
  const output = place.output.path;
  const lock = path.join(output, LOCK);
  const deadline = Date.now() + (options.waitMs ?? DEFAULT_WAIT_MS);
  let told = false;
  for (;;) {
    try {
      fs.rename(mine, lock);
      held.add(token);
      return;
    } catch (error) {
      const code = errnoCode(error);
      if (code !== "EEXIST" && code !== "ENOTEMPTY") throw error;
    }
    const current = ownerOf(fs, path.join(lock, OWNER), lock);
    if (current === "gone") continue;
    // Waiting for oneself would never end: the holder cannot let go while this thread waits.
    if (current !== undefined && current.pid === process.pid && current.thread === threadId && held.has(current.token))
      throw new Error(`this thread holds the lock of ${place.output.path} already: one command at a time per output folder and thread`);
    if (current !== undefined && isAlive(current)) {
      const name = nameOf(place.output.root, lock);
      if (Date.now() >= deadline)
        throw new InputError(
          { file: `${name}/` },
          `another agentwire (pid ${current.pid}) has been writing ${nameOf(place.output.root, output)}/ since ${current.since}`,
          `wait for it to finish and run this again; if no agentwire is running, remove ${name}/`,
        );
      if (!told) options.onWait?.(`waiting for agentwire (pid ${current.pid}) to finish writing ${nameOf(place.output.root, output)}/`);
      told = true;
      sleep(POLL_MS);
      continue;
    }
    takeAside(fs, output, lock, current);
  }
}

/**
 * Takes a stale lock aside, under a name of this run, for `recoverLeftovers`: under the
 * steal lock, and only if it is still the lock of the owner judged dead.
 */
function takeAside(fs: FileSystem, output: string, lock: string, judged: Owner | undefined): void {
  const steal = path.join(output, STEAL);
  // A token of its own, which no lock holds: a steal lock of this thread is never live once this returns.
  const claim = makeOwned(fs, output, randomBytes(8).toString("hex"));
  try {
    fs.rename(claim, steal);
  } catch (error) {
    removeIfCan(fs, claim);
    const code = errnoCode(error);
    if (code !== "EEXIST" && code !== "ENOTEMPTY") throw error;
    // Another run is taking a stale lock aside; or one died doing it.
    if (isStale(fs, steal)) fs.rename(steal, asideName(output));
    else sleep(1);
    return;
  }
  try {
    const now = ownerOf(fs, path.join(lock, OWNER), lock);
    if (now === "gone" || now?.token !== judged?.token) return;
    fs.rename(lock, asideName(output));
  } finally {
    const done = asideName(output);
    fs.rename(steal, done);
    removeIfCan(fs, done);
  }
}

/** Whether a lock folder (the lock, or the steal lock) is there and its owner dead, or it has none agentwire wrote. */
function isStale(fs: FileSystem, folder: string): boolean {
  const owner = ownerOf(fs, path.join(folder, OWNER), folder);
  return owner !== "gone" && (owner === undefined || !isAlive(owner));
}

/** A folder of this run in the output folder, whole: its `.gitignore` and its owner under `token`. */
function makeOwned(fs: FileSystem, output: string, token: string): string {
  const folder = path.join(output, `${LOCK}-${process.pid}-${threadId}-${token}`);
  try {
    fs.makeFolder(folder);
    fs.create(path.join(folder, ".gitignore"), "*\n");
    fs.create(path.join(folder, OWNER), `${JSON.stringify(ownerNow(token))}\n`);
  } catch (error) {
    removeIfCan(fs, folder);
    throw error;
  }
  return folder;
}

/** A name to take a folder aside to, before it is removed or recovered: a folder of this run, by its name. */
function asideName(output: string): string {
  return path.join(output, `${LOCK}-${process.pid}-${threadId}-${randomBytes(8).toString("hex")}`);
}

/**
 * With the lock held: finishes or undoes the transactions dead runs left (there is at most
 * one: each run recovers before it writes), and removes what else they left.
 */
function recoverLeftovers(fs: FileSystem, place: Place): void {
  const output = place.output.path;
  for (const entry of fs.list(output).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const at = path.join(output, entry.name);
    if (LEGACY_STAGING.test(entry.name) && entry.isDirectory()) {
      fs.remove(at);
      continue;
    }
    const match = OWNED.exec(entry.name);
    if (match === null && entry.name !== STEAL) continue;
    // A file or a link under such a name is none of agentwire's making: its folders are real.
    if (!entry.isDirectory()) fs.remove(at);
    else if (entry.name === STEAL) {
      if (isStale(fs, at)) fs.remove(at);
    } else if (isPending(at, fs)) {
      recover(at, place, fs);
      fs.remove(at);
    } else if (!isOtherLiveRun(Number(match![1]), Number(match![2]))) fs.remove(at); // else making its lock, or letting go of one
  }
}

/** Whether a folder named as made by this pid and thread is another's: this thread has none left but its lock, which is not named so. */
function isOtherLiveRun(pid: number, thread: number): boolean {
  if (pid === process.pid) return thread !== threadId;
  return isAlive({ pid, thread, host: hostname(), token: "", since: "" });
}

/** Whether an interrupted write waits in the output folder. */
function hasPending(fs: FileSystem, output: string): boolean {
  try {
    return fs.list(output).some((entry) => (entry.name === LOCK || OWNED.test(entry.name)) && isPending(path.join(output, entry.name), fs));
  } catch (error) {
    if (errnoCode(error) === undefined) throw error;
    return false; // Then reading it fails too, and says why.
  }
}

/** This run's owner record, under a token. */
function ownerNow(token: string): Owner {
  return { pid: process.pid, thread: threadId, host: hostname(), token, since: new Date().toISOString() };
}

/**
 * The owner a file records; undefined where it records none an agentwire wrote; "gone"
 * where `holder` (the lock folder, or the file itself) is not there any more.
 */
function ownerOf(fs: FileSystem, file: string, holder: string): Owner | "gone" | undefined {
  let text: string;
  try {
    text = fs.read(file).toString("utf8");
  } catch (error) {
    if (errnoCode(error) === undefined) throw error;
    return kindOf(fs, holder) === "none" ? "gone" : undefined;
  }
  try {
    const owner = JSON.parse(text) as Partial<Owner>;
    return typeof owner.pid === "number" &&
      typeof owner.thread === "number" &&
      typeof owner.host === "string" &&
      typeof owner.token === "string"
      ? { pid: owner.pid, thread: owner.thread, host: owner.host, token: owner.token, since: String(owner.since) }
      : undefined;
  } catch {
    return undefined;
  }
}

/** Whether the run that owns a lock may still be running: on another host, it cannot be told, and is taken to be. */
function isAlive(owner: Owner): boolean {
  if (owner.host !== hostname()) return true;
  if (owner.pid === process.pid) return owner.thread !== threadId || held.has(owner.token);
  try {
    process.kill(owner.pid, 0);
    return true;
  } catch (error) {
    return errnoCode(error) === "EPERM";
  }
}

function kindOf(fs: FileSystem, at: string): "none" | "folder" | "file" {
  try {
    return fs.lstat(at).isDirectory() ? "folder" : "file";
  } catch (error) {
    const code = errnoCode(error);
    if (code === "ENOENT" || code === "ENOTDIR") return "none";
    throw error;
  }
}

function makeFolders(fs: FileSystem, at: string, root: string): void {
  if (at === root || kindOf(fs, at) !== "none") return;
  makeFolders(fs, path.dirname(at), root);
  fs.makeFolder(at);
}

const pause = new Int32Array(new SharedArrayBuffer(4));

/** Waits without returning to the event loop: the command has nothing else to do meanwhile. */
function sleep(ms: number): void {
  Atomics.wait(pause, 0, 0, ms);
}
