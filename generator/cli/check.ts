import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { createTwoFilesPatch } from "diff";
import type { OutputFile } from "../format/index.js";
import { generate } from "../pipeline.js";
import type { Io } from "./io.js";
import type { Arguments } from "./main.js";
import { CONFIG_PATH, describeStalePin, repin, stalePins } from "./pins.js";

/** How the files on disk differ from a fresh generation. */
export interface Drift {
  readonly changed: readonly string[];
  readonly missing: readonly string[];
  readonly stale: readonly string[];
  /** Unified diffs, per file, of what regenerating would change. */
  readonly patches: readonly string[];
}

/**
 * Compares a generation with `generated/` byte for byte: files that differ, files that
 * are missing, and files under `src/` that a generation would not write (stale).
 */
export function findDrift(generatedDir: string, files: readonly OutputFile[]): Drift {
  const expected = new Map(files.map((file) => [file.path, file.content]));
  const changed: string[] = [];
  const missing: string[] = [];
  const patches: string[] = [];
  for (const [file, content] of expected) {
    const onDisk = path.join(generatedDir, file);
    if (!existsSync(onDisk)) {
      missing.push(file);
      patches.push(unifiedDiff(`generated/${file}`, "", content));
      continue;
    }
    const actual = readFileSync(onDisk, "utf8");
    if (actual === content) continue;
    changed.push(file);
    patches.push(unifiedDiff(`generated/${file}`, actual, content));
  }
  const stale = listFiles(path.join(generatedDir, "src"), "src").filter((file) => !expected.has(file));
  for (const file of stale) patches.push(unifiedDiff(`generated/${file}`, readFileSync(path.join(generatedDir, file), "utf8"), ""));
  return { changed, missing, stale, patches };
}

/** A file's unified diff, as `git diff` heads it: `a/<file>`, `b/<file>`, three lines of context. */
function unifiedDiff(file: string, before: string, after: string): string {
  return createTwoFilesPatch(`a/${file}`, `b/${file}`, before, after, undefined, undefined, { context: 3 });
}

function listFiles(dir: string, relative: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .flatMap((entry) =>
      entry.isDirectory() ? listFiles(path.join(dir, entry.name), `${relative}/${entry.name}`) : [`${relative}/${entry.name}`],
    );
}

const MAX_DIFF_LINES = 400;

/**
 * `agentwire check`: exit 0 when generated/ is what a generation writes and every schema
 * is the one its pin records, else 1 with the diff of what `generate` would change.
 */
export async function runCheck(_args: Arguments, io: Io, root: string): Promise<number> {
  const generation = await generate(root);
  const drift = findDrift(path.join(root, "generated"), generation.files);
  const stale = stalePins(generation.pins);
  const count = drift.changed.length + drift.missing.length + drift.stale.length;
  if (count === 0 && stale.length === 0) {
    io.out(`generated/ is up to date (${generation.files.length} files)`);
    return 0;
  }
  const patches = [...drift.patches];
  if (stale.length > 0) {
    const config = readFileSync(path.join(root, CONFIG_PATH), "utf8");
    patches.unshift(unifiedDiff(CONFIG_PATH, config, repin(config, stale)));
  }
  const lines = patches.join("\n").split("\n");
  io.out(lines.slice(0, MAX_DIFF_LINES).join("\n"));
  if (lines.length > MAX_DIFF_LINES) io.out(`… ${lines.length - MAX_DIFF_LINES} more lines of diff not shown`);
  for (const pin of stale) io.err(describeStalePin(pin));
  const parts = [
    drift.changed.length > 0 ? `${drift.changed.length} changed` : "",
    drift.missing.length > 0 ? `${drift.missing.length} missing` : "",
    drift.stale.length > 0 ? `${drift.stale.length} stale` : "",
  ].filter((part) => part !== "");
  const what = count === 0 ? `${CONFIG_PATH} does not pin the schemas` : `generated/ is out of date: ${parts.join(", ")} (${count} files)`;
  io.err(`${what}. Run \`npm run generate\` and commit the result.`);
  return 1;
}
