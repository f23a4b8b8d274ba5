import { existsSync } from "node:fs";
import path from "node:path";
import { InputError } from "../errors.js";
import { generate } from "../pipeline.js";
import { CHECK_HELP, DIFF_HELP, GENERATE_HELP, UPDATE_HELP, USAGE } from "./help.js";
import type { Io } from "./io.js";
import { UsageError } from "./io.js";
import { writeGeneration } from "./write.js";

export type { Io } from "./io.js";

/** A command; most need the project, the nearest folder with schemas/protocols.json. */
type Command =
  | { readonly help: string; readonly needsProject: true; run(args: readonly string[], io: Io, root: string): Promise<number> }
  | { readonly help: string; readonly needsProject: false; run(args: readonly string[], io: Io, root?: string): Promise<number> };

const COMMANDS: Readonly<Record<string, Command>> = {
  generate: {
    help: GENERATE_HELP,
    needsProject: true,
    run: async (args, io, root) => {
      noArguments(args);
      return runGenerate(root, io);
    },
  },
  check: {
    help: CHECK_HELP,
    needsProject: true,
    run: async (args, io, root) => {
      noArguments(args);
      return (await import("./check.js")).runCheck(root, io);
    },
  },
  // Loaded when run, so that generating does not load what diffing and fetching need.
  diff: { help: DIFF_HELP, needsProject: false, run: async (args, io, root) => (await import("./diff.js")).runDiff(args, io, root) },
  update: { help: UPDATE_HELP, needsProject: true, run: async (args, io, root) => (await import("./update.js")).runUpdate(args, io, root) },
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
