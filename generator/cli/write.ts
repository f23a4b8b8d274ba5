import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { OutputFile } from "../format/index.js";

/**
 * Replaces the generated files so that a failure leaves the previous ones in place: all
 * files are first written into a staging folder inside `generated/`; then `src/` takes
 * the old one's place by rename, and each top-level file replaces its old copy by
 * rename. Files agentwire does not own there (`dist/`, `node_modules/`) are untouched.
 */
export function writeGeneration(generatedDir: string, files: readonly OutputFile[]): void {
  mkdirSync(generatedDir, { recursive: true });
  const staging = mkdtempSync(path.join(generatedDir, ".staging-"));
  try {
    for (const file of files) {
      const target = path.join(staging, file.path);
      mkdirSync(path.dirname(target), { recursive: true });
      writeFileSync(target, file.content);
    }
    const tops = [...new Set(files.map((file) => file.path.split("/")[0]!))].sort();
    const retired = path.join(staging, ".retired");
    mkdirSync(retired);
    for (const top of tops) {
      const current = path.join(generatedDir, top);
      try {
        renameSync(current, path.join(retired, top));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
      }
      renameSync(path.join(staging, top), current);
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}
