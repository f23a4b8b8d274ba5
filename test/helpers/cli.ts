import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { Io } from "../../generator/cli/main.js";
import { main } from "../../generator/cli/main.js";

/** Runs the agentwire command line in a folder, in process; its exit code and what it printed. */
export async function run(cwd: string, ...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  return runWithInput(cwd, undefined, ...argv);
}

/** Runs the command line with a standard input: the strings given, one chunk each. */
export async function runWithInput(
  cwd: string,
  stdin: readonly string[] | undefined,
  ...argv: string[]
): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const io: Io = {
    cwd,
    out: (text) => void (out += `${text}\n`),
    err: (text) => void (err += `${text}\n`),
    ...(stdin === undefined
      ? {}
      : {
          stdin: (async function* () {
            yield* stdin;
          })(),
        }),
  };
  const code = await main(argv, io);
  return { code, out, err };
}

/** Every file under a folder with its content, to compare a tree before and after. */
export function snapshot(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const full = path.join(at, entry.name);
      if (entry.isDirectory()) walk(full);
      else files[path.relative(dir, full)] = readFileSync(full, "utf8");
    }
  };
  walk(dir);
  return files;
}
