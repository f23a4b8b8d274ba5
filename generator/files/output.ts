import type { FileSystem } from "./fs.js";
import { nodeFileSystem } from "./fs.js";
import type { LockOptions } from "./lock.js";
import { lockOutput } from "./lock.js";
import type { Change, Place } from "./transaction.js";
import { replace } from "./transaction.js";

export type { Change, Place } from "./transaction.js";

/** The output folder, locked and recovered, for one command. */
export interface Output {
  /** Replaces what agentwire owns in the output folder, and the other files of the change, in one step. */
  write(change: Change): void;
}

/**
 * Runs `use` with the output folder locked (waiting for another run to finish) and what an
 * interrupted run left recovered; in `read` mode, without a lock where none can or need be
 * taken. Every command that reads or writes the output folder or the pins goes through here.
 */
export async function withOutput<T>(
  place: Place,
  options: LockOptions,
  use: (output: Output) => Promise<T>,
  fs: FileSystem = nodeFileSystem,
): Promise<T> {
  const lock = lockOutput(place, options, fs);
  try {
    return await use({
      write(change) {
        if (lock === undefined) throw new Error("the output is written under a lock: take it in write mode");
        replace(lock.dir, place, change, fs);
      },
    });
  } finally {
    lock?.release();
  }
}

/** Locks, writes and lets go: one change, from a caller that has nothing else to do under the lock. */
export function writeOutput(place: Place, change: Change, options: Omit<LockOptions, "mode"> = {}, fs: FileSystem = nodeFileSystem): void {
  const lock = lockOutput(place, { ...options, mode: "write" }, fs)!;
  try {
    replace(lock.dir, place, change, fs);
  } finally {
    lock.release();
  }
}
