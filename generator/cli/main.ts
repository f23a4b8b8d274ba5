import { existsSync } from "node:fs";
import path from "node:path";
import { InputError } from "../errors.js";
import { generate } from "../pipeline.js";
import { findDrift } from "./check.js";
import { writeGeneration } from "./write.js";

export interface Io {
  readonly cwd: string;
  out(text: string): void;
  err(text: string): void;
}

const USAGE = `Usage: agentwire <command> [--help]

Commands:
  generate   regenerate generated/ from schemas/
  check      exit 1 if generated/ differs from a fresh generation

Exit codes: 0 success, 1 drift (check), 2 error (bad input; nothing written).`;

const HELP: Readonly<Record<string, string>> = {
  generate: `Usage: agentwire generate

Reads schemas/protocols.json and the schemas and overlays it lists, and rewrites
generated/ (src/, package.json, tsconfig.json, README.md) from them. Prints one line
per protocol and the time taken. On bad input it prints the file and JSON Pointer
of the problem, exits with 2 and writes nothing; the previous generated/ stays.`,
  check: `Usage: agentwire check

Generates in memory and compares the result with generated/, byte for byte,
including files that would be missing or that a generation would not write.
Never writes. Exit 0 when they match, 1 with a unified diff when they do not,
2 on bad input.`,
};

/** Runs the command line; returns the exit code. */
export async function main(argv: readonly string[], io: Io): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === "--help" || command === "-h" || command === "help") {
    io.out(USAGE);
    return command === undefined ? 2 : 0;
  }
  if (!(command in HELP)) {
    io.err(`agentwire: unknown command "${command}"\n\n${USAGE}`);
    return 2;
  }
  if (rest.includes("--help") || rest.includes("-h")) {
    io.out(HELP[command]!);
    return 0;
  }
  if (rest.length > 0) {
    io.err(`agentwire ${command}: unexpected argument "${rest[0]}"\n\n${HELP[command]}`);
    return 2;
  }
  const root = findRoot(io.cwd);
  if (root === undefined) {
    io.err(`agentwire: no schemas/protocols.json in ${io.cwd} or any folder above it`);
    return 2;
  }
  try {
    return command === "generate" ? await runGenerate(root, io) : await runCheck(root, io);
  } catch (error) {
    if (error instanceof InputError) {
      io.err(`agentwire ${command}: ${error.message}`);
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
