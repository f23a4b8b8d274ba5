import path from "node:path";
import type { Folder } from "./folder.js";
import { isWithin } from "./folder.js";
import type { FileSystem } from "./fs.js";
import { nodeFileSystem } from "./fs.js";

/**
 * Copies a folder of the project to `to` (a new path elsewhere: a scratch project) as it
 * is, links too, so that the copy confines what is read as the project does: a link that
 * stays inside leads to the copy's own file, one that leads out still leads out, and what
 * is outside is neither followed nor copied. Pipes, sockets and devices are left out.
 */
export function copyFolder(from: Folder, to: string, fs: FileSystem = nodeFileSystem): void {
  const copy = (source: string, target: string): void => {
    fs.makeFolder(target);
    for (const entry of fs.list(source)) {
      const inSource = path.join(source, entry.name);
      const inTarget = path.join(target, entry.name);
      if (entry.isDirectory()) copy(inSource, inTarget);
      else if (entry.isFile()) fs.create(inTarget, fs.read(inSource));
      else if (entry.isSymbolicLink()) {
        const text = fs.readlink(inSource);
        const absoluteInside = path.isAbsolute(text) && isWithin(from.path, text);
        fs.symlink(
          absoluteInside ? path.relative(path.dirname(inTarget), path.join(to, path.relative(from.path, text))) || "." : text,
          inTarget,
        );
      }
    }
  };
  copy(from.path, to);
}
