import path from "node:path";
import { InputError } from "../errors.js";
import type { SourceLocation } from "../errors.js";
import type { FileSystem } from "./fs.js";
import { errno, errnoCode, nodeFileSystem } from "./fs.js";
import { describeFileError } from "./problem.js";

/**
 * A folder of a project that agentwire reads or writes (`schemas/`, `templates/`,
 * `generated/`), by its real path: every file agentwire touches in it has its real path
 * inside it. A symbolic link is followed where it stays inside; one that leads out is
 * refused, and what is outside is never looked at, so that a refusal says nothing of
 * whether the file it names exists.
 */
export interface Folder {
  /** The project's real path: messages name files relative to it. */
  readonly root: string;
  /** The folder's real path. */
  readonly path: string;
}

/** Where a path leads: a real path inside the folder (which may not exist yet), or out of it. */
export type Location =
  | { readonly inside: true; readonly path: string; readonly exists: boolean }
  | {
      readonly inside: false;
      /** The link that leads out, and its text; absent where the path itself is outside. */
      readonly link?: { readonly at: string; readonly to: string };
    };

/** Links followed on one path before it is refused, as the kernel's limit (ELOOP). */
const MAX_LINKS = 40;

/** Whether `child` is `parent` or inside it, by their text: both are absolute and normalized. */
export function isWithin(parent: string, child: string): boolean {
  const relative = path.relative(parent, child);
  return relative === "" || (relative !== ".." && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative));
}

/**
 * Where `target` (absolute, or relative to the folder) leads, following links one name at a
 * time from the folder's real path: lstat and readlink inside the folder only.
 */
export function locate(folder: string, target: string, fs: FileSystem = nodeFileSystem): Location {
  const absolute = path.resolve(folder, target);
  if (!isWithin(folder, absolute)) return { inside: false };
  let at = folder;
  let rest = names(folder, absolute);
  let links = 0;
  while (rest.length > 0) {
    const [name, ...after] = rest as [string, ...string[]];
    const next = path.join(at, name);
    rest = after;
    let stats;
    try {
      stats = fs.lstat(next);
    } catch (error) {
      const code = errnoCode(error);
      if (code === "ENOENT" || code === "ENOTDIR") return { inside: true, path: path.join(next, ...rest), exists: false };
      throw error;
    }
    if (stats.isSymbolicLink()) {
      if (++links > MAX_LINKS) throw errno("ELOOP", "stat", next);
      const to = fs.readlink(next);
      const resolved = path.resolve(at, to);
      if (!isWithin(folder, resolved)) return { inside: false, link: { at: next, to } };
      rest = [...names(folder, resolved), ...rest];
      at = folder;
      continue;
    }
    if (rest.length > 0 && !stats.isDirectory()) return { inside: true, path: path.join(next, ...rest), exists: false };
    at = next;
  }
  return { inside: true, path: at, exists: true };
}

function names(folder: string, inside: string): string[] {
  const relative = path.relative(folder, inside);
  return relative === "" ? [] : relative.split(path.sep);
}

/** A path as messages name it: relative to the project, with "/". */
export function nameOf(root: string, absolute: string): string {
  const relative = path.relative(root, absolute);
  return relative === "" ? "." : relative.split(path.sep).join("/");
}

/** Why a path was refused, for a message: "b.json is a symbolic link to /etc/passwd". */
export function whyOutside(root: string, location: Location & { inside: false }): string {
  return location.link === undefined ? "" : `${nameOf(root, location.link.at)} is a symbolic link to ${location.link.to}`;
}

/** `locate` in a folder of the project, a file-system error on the way (a folder it may not search) being bad input at `where`. */
export function locateIn(folder: Folder, target: string, where: SourceLocation, fs: FileSystem = nodeFileSystem): Location {
  try {
    return locate(folder.path, target, fs);
  } catch (error) {
    throw new InputError(where, `cannot follow ${nameOf(folder.root, path.resolve(folder.path, target))}: ${describeFileError(error)}`);
  }
}

/**
 * Where a file of a folder of the project is, by `locateIn`; one that leads out of the
 * folder (through a link) is bad input at `where`: "it leads outside <folderName>: …".
 */
export function locateInside(
  folder: Folder,
  name: string,
  where: SourceLocation,
  folderName: string,
  hint?: string,
): Location & { readonly inside: true } {
  const location = locateIn(folder, name, where);
  if (!location.inside) throw new InputError(where, `it leads outside ${folderName}: ${whyOutside(folder.root, location)}`, hint);
  return location;
}
