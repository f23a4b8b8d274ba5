import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import type { Dirent, Stats } from "node:fs";

/**
 * The file-system calls agentwire makes on a project's files, in one object, so that a
 * test can make any of them fail (a permission, a full disk, a kill after the k-th step)
 * without root or a real full disk. Every call takes an absolute path and never follows a
 * symbolic link at its last component: links are followed by `files/folder.ts` alone,
 * which checks where each one leads.
 */
export interface FileSystem {
  lstat(path: string): Stats;
  readlink(path: string): string;
  list(path: string): Dirent[];
  /** A regular file's bytes: a link, a folder, a pipe or a device there is refused, never waited on. */
  read(path: string): Buffer;
  /** Creates a file where there is nothing: an existing file or link there is an error (EEXIST), never written through. */
  create(path: string, content: string | Uint8Array): void;
  /** Creates a folder where there is nothing; its parent must exist. */
  makeFolder(path: string): void;
  rename(from: string, to: string): void;
  /** Removes a file, a link (not what it leads to) or a folder with all it holds; nothing when there is none. */
  remove(path: string): void;
  /** Links `path` to `target` (the link's text, as given). */
  symlink(target: string, path: string): void;
}

// O_NONBLOCK: opening a named pipe for reading would otherwise wait for a writer, forever.
const READ_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

export const nodeFileSystem: FileSystem = {
  lstat: (path) => lstatSync(path),
  readlink: (path) => readlinkSync(path),
  list: (path) => readdirSync(path, { withFileTypes: true }),
  read(path) {
    const fd = openSync(path, READ_FLAGS);
    try {
      const stats = fstatSync(fd);
      if (stats.isDirectory()) throw errno("EISDIR", "open", path);
      if (!stats.isFile()) throw errno("EFTYPE", "open", path);
      return readFileSync(fd);
    } finally {
      closeSync(fd);
    }
  },
  create: (path, content) => writeFileSync(path, content, { flag: "wx" }),
  makeFolder: (path) => mkdirSync(path),
  rename: (from, to) => renameSync(from, to),
  remove: (path) => rmSync(path, { recursive: true, force: true }),
  symlink: (target, path) => symlinkSync(target, path),
};

/** An error as Node's file-system calls throw them, for a code Node has no call to throw (EFTYPE: not a regular file). */
export function errno(code: string, syscall: string, path: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: ${syscall} '${path}'`), { code, syscall, path });
}

/** The code of an error a file-system call threw (`ENOENT`), or undefined for any other error. */
export function errnoCode(error: unknown): string | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return error instanceof Error && typeof code === "string" && /^E[A-Z0-9]+$/.test(code) ? code : undefined;
}

/** Removes what is at `at` where it can: what is left is named as a dead run's leftover, which the next run removes. */
export function removeIfCan(fs: FileSystem, at: string): void {
  try {
    fs.remove(at);
  } catch (error) {
    if (errnoCode(error) === undefined) throw error;
  }
}
