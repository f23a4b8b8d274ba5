import { InputError } from "../errors.js";
import type { SourceLocation } from "../errors.js";
import { errnoCode } from "./fs.js";

/** What a file-system error means, in the words a user reads. */
const WORDS: Readonly<Record<string, string>> = {
  ENOENT: "no such file",
  EACCES: "permission denied",
  EPERM: "the operation is not permitted",
  ENOSPC: "no space left on the device",
  EDQUOT: "the disk quota is used up",
  EFBIG: "the file is too large",
  EROFS: "the file system is read-only",
  EISDIR: "it is a folder, not a file",
  ENOTDIR: "a part of the path is a file, not a folder",
  EFTYPE: "it is not a regular file (a pipe, a device or a socket)",
  ELOOP: "a symbolic link where a file was expected, or too many links",
  EEXIST: "something is already there",
  ENOTEMPTY: "a folder that is not empty is already there",
  EMFILE: "too many files are open",
  ENFILE: "too many files are open",
  EIO: "the device reported an input/output error",
  EBUSY: "it is in use",
  ENAMETOOLONG: "the name is too long",
  EXDEV: "it is on another file system",
};

/** What to do about it, where there is something to say. */
const HINTS: Readonly<Record<string, string>> = {
  EACCES: "check the permissions and the owner of the folder",
  EPERM: "check the permissions and the owner of the folder, and that nothing holds the file",
  ENOSPC: "free some space on the device",
  EDQUOT: "free some space, or raise the quota",
  EROFS: "write to a file system mounted read-write",
};

/** A file-system error as words and code, "no space left on the device (ENOSPC)"; anything else is not one, and is thrown on. */
export function describeFileError(error: unknown): string {
  const code = errnoCode(error);
  if (code === undefined) throw error;
  // Said without its code: ENOENT is plain, and EFTYPE is agentwire's name for it, not the system's.
  if (code === "ENOENT" || code === "EFTYPE") return WORDS[code]!;
  return `${WORDS[code] ?? (error as Error).message.replace(/^E[A-Z0-9]+: /, "")} (${code})`;
}

/**
 * A file-system error as bad input, exit 2: where it happened, what was being done, and,
 * where there is one, what to do and what became of the files (`outcome`, "nothing was
 * changed"). Anything but a file-system error is thrown on: that is a bug.
 */
export function fileError(error: unknown, location: SourceLocation, doing: string, outcome?: string): InputError {
  const problem = `${doing}: ${describeFileError(error)}`;
  const hint = [HINTS[errnoCode(error)!], outcome].filter((part) => part !== undefined).join("; ");
  return new InputError(location, problem, hint === "" ? undefined : hint);
}
