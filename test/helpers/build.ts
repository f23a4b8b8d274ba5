import { execFileSync } from "node:child_process";
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import path from "node:path";
import { afterAll } from "vitest";
import { CONFIG_FILE, REPO } from "./project.js";

const made: string[] = [];
afterAll(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/**
 * The agentwire command compiled and bundled now from generator/, for tests that must run it as its own
 * process: build/ may be older than the sources (`npx vitest run` does not rebuild it).
 * Compiled into a private folder under the repository's ignored .tmp/, laid out as the
 * repository is (package.json, bin/, build/, templates/), so the bin script runs unchanged,
 * finds its version and templates two folders up and resolves its dependencies from the
 * repository's node_modules; its built-in protocols are the repository's (its config,
 * schemas/ and generated/, linked). build/ itself is left alone, since other test files
 * may be running it meanwhile.
 * Returns the path of the copied bin script. Removed after the test file.
 */
export function freshBin(): string {
  const parent = path.join(REPO, ".tmp");
  mkdirSync(parent, { recursive: true });
  const root = mkdtempSync(path.join(parent, "build-"));
  made.push(root);
  const tsc = path.join(REPO, "node_modules", ".bin", "tsc");
  execFileSync(tsc, ["-p", path.join(REPO, "tsconfig.build.json"), "--outDir", path.join(root, "build"), "--sourceMap", "false"], {
    cwd: REPO,
    stdio: "pipe",
  });
  execFileSync(process.execPath, [path.join(REPO, "scripts", "bundle.js"), root], { cwd: REPO, stdio: "pipe" });
  copyFileSync(path.join(REPO, "package.json"), path.join(root, "package.json"));
  mkdirSync(path.join(root, "bin"));
  copyFileSync(path.join(REPO, "bin", "agentwire.js"), path.join(root, "bin", "agentwire.js"));
  cpSync(path.join(REPO, "templates"), path.join(root, "templates"), { recursive: true });
  for (const shared of [CONFIG_FILE, "schemas", "generated"]) symlinkSync(path.join(REPO, shared), path.join(root, shared));
  return path.join(root, "bin", "agentwire.js");
}
