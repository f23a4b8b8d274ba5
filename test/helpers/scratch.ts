import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const made: string[] = [];

/**
 * A new empty folder for a test's throwaway files, by its real path, removed after the
 * test file that made it (`test/helpers/setup.ts`).
 */
export function scratchFolder(prefix: string, parent = tmpdir()): string {
  const folder = realpathSync(mkdtempSync(path.join(parent, prefix)));
  made.push(folder);
  return folder;
}

/** Removes the scratch folders made so far. */
export function removeScratchFolders(): void {
  for (const folder of made.splice(0)) rmSync(folder, { recursive: true, force: true });
}
