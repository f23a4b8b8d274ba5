import { existsSync } from "node:fs";
import path from "node:path";
import { InputError } from "../errors.js";
import { generate } from "../pipeline.js";
import { findDrift } from "./check.js";
import { DIFF_HELP, runDiff } from "./diff.js";
import type { Io } from "./io.js";
import { UsageError } from "./io.js";
import { runUpdate, UPDATE_HELP } from "./update.js";
import { writeGeneration } from "./write.js";

export type { Io } from "./io.js";

const USAGE = `Usage: agentwire <command> [--help]

Commands:
  generate   regenerate generated/ from schemas/
  check      exit 1 if generated/ differs from a fresh generation
  diff       classify the changes between two versions of a schema
  update     re-vendor schemas from their upstream URLs and regenerate

Exit codes: 0 success, 1 drift or changes (check, diff, update --check),
2 error (bad input; nothing written).`;

/** A command; most need the project, the nearest folder with schemas/protocols.json. */
type Command =
  | { readonly help: string; readonly needsProject: true; run(args: readonly string[], io: Io, root: string): Promise<number> }
  | { readonly help: string; readonly needsProject: false; run(args: readonly string[], io: Io, root?: string): Promise<number> };

const COMMANDS: Readonly<Record<string, Command>> = {
  generate: {
    help: `Usage: agentwire generate

Reads schemas/protocols.json and the schemas and overlays it lists, and rewrites
generated/ (src/, package.json, tsconfig.json, README.md) from them. Prints one line
per protocol and the time taken. On bad input it prints the file and JSON Pointer
of the problem, exits with 2 and writes nothing; the previous generated/ stays.`,
    needsProject: true,
    run: async (args, io, root) => {
      noArguments(args);
      return runGenerate(root, io);
    },
  },
  check: {
    help: `Usage: agentwire check

Generates in memory and compares the result with generated/, byte for byte,
including files that would be missing or that a generation would not write.
Never writes. Exit 0 when they match, 1 with a unified diff when they do not,
2 on bad input.`,
    needsProject: true,
    run: async (args, io, root) => {
      noArguments(args);
      return runCheck(root, io);
    },
  },
  diff: { help: DIFF_HELP, needsProject: false, run: runDiff },
  update: { help: UPDATE_HELP, needsProject: true, run: runUpdate },
};

function noArguments(args: readonly string[]): void {
  if (args.length > 0) throw new UsageError(`unexpected argument "${args[0]}"`);
}

/** Runs the command line; returns the exit code. */
export async function main(argv: readonly string[], io: Io): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    io.out(USAGE);
    return name === undefined ? 2 : 0;
  }
  const command = COMMANDS[name];
  if (command === undefined || !Object.hasOwn(COMMANDS, name)) {
    io.err(`agentwire: unknown command "${name}"\n\n${USAGE}`);
    return 2;
  }
  if (rest.includes("--help") || rest.includes("-h")) {
    io.out(command.help);
    return 0;
  }
  const root = findRoot(io.cwd);
  try {
    if (!command.needsProject) return await command.run(rest, io, root);
    if (root === undefined) {
      io.err(`agentwire: no schemas/protocols.json in ${io.cwd} or any folder above it`);
      return 2;
    }
    return await command.run(rest, io, root);
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`agentwire ${name}: ${error.message}\n\n${command.help}`);
      return 2;
    }
    if (error instanceof InputError) {
      io.err(`agentwire ${name}: ${error.message}`);
      return 2;
    }
    throw error;
  }
}

async function runGenerate(root: string, io: Io): Promise<number> {
  const started = performance.now();
  const generation = await generate(root);
  writeGeneration(path.join(root, "generated"), generation.files);
  const width = Math.max(...generation.protocols.map((protocol) => protocol.name.length));
  for (const { name, types, unions, files } of generation.protocols)
    io.out(`${name.padEnd(width)}  ${count(types, "type")}, ${count(unions, "union")}, ${count(files, "file")}`);
  io.out(`generated ${count(generation.files.length, "file")} in ${Math.round(performance.now() - started)} ms`);
  return 0;
}

const MAX_DIFF_LINES = 400;

async function runCheck(root: string, io: Io): Promise<number> {
  const generation = await generate(root);
  const drift = findDrift(path.join(root, "generated"), generation.files);
  const count = drift.changed.length + drift.missing.length + drift.stale.length;
  if (count === 0) {
    io.out(`generated/ is up to date (${generation.files.length} files)`);
    return 0;
  }
  const lines = drift.patches.join("\n").split("\n");
  io.out(lines.slice(0, MAX_DIFF_LINES).join("\n"));
  if (lines.length > MAX_DIFF_LINES) io.out(`… ${lines.length - MAX_DIFF_LINES} more lines of diff not shown`);
  const parts = [
    drift.changed.length > 0 ? `${drift.changed.length} changed` : "",
    drift.missing.length > 0 ? `${drift.missing.length} missing` : "",
    drift.stale.length > 0 ? `${drift.stale.length} stale` : "",
  ].filter((part) => part !== "");
  io.err(`generated/ is out of date: ${parts.join(", ")} (${count} files). Run \`npm run generate\` and commit the result.`);
  return 1;
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}

/** The nearest folder, from `start` upwards, that holds `schemas/protocols.json`. */
function findRoot(start: string): string | undefined {
  for (let dir = path.resolve(start); ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, "schemas", "protocols.json"))) return dir;
    if (path.dirname(dir) === dir) return undefined;
  }
}
