import { readFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import type { ParseArgsConfig } from "node:util";
import { InputError, InputErrors } from "../errors.js";
import { errnoCode } from "../files/fs.js";
import { describeFileError } from "../files/problem.js";
import { TOOL_ROOT } from "../files/project.js";
import type { ProjectLookup } from "../api/project.js";
import { lookUpProject } from "../api/project.js";
import { terminalText } from "../format/escape.js";
import { count } from "../ir/describe.js";
import { CHECK_HELP, DIFF_HELP, GENERATE_HELP, INIT_HELP, UPDATE_HELP, USAGE, VERIFY_HELP } from "./help.js";
import type { Arguments, Io } from "./io.js";
import { UsageError } from "./io.js";
import { didYouMean } from "./suggest.js";

export type { Arguments, Io } from "./io.js";
export type { ProjectLookup } from "../api/project.js";

type Options = NonNullable<ParseArgsConfig["options"]>;

/** A command: its help and options, and what it does with the project it is given. */
interface Command {
  readonly help: string;
  readonly options: Options;
  run(args: Arguments, io: Io, project: ProjectLookup): Promise<number>;
}

// Each command is loaded when run, so that generating does not load what diffing and fetching need.
const COMMANDS: Readonly<Record<string, Command>> = {
  init: {
    help: INIT_HELP,
    options: { protocol: { type: "string", multiple: true }, output: { type: "string" }, force: { type: "boolean" } },
    run: async (args, io, project) => (await import("./init.js")).runInit(args, io, project),
  },
  generate: {
    help: GENERATE_HELP,
    options: { watch: { type: "boolean" } },
    run: async (args, io, project) => (await import("./generate.js")).runGenerate(noPositionals(args), io, project.open()),
  },
  check: {
    help: CHECK_HELP,
    options: { full: { type: "boolean" } },
    run: async (args, io, project) => (await import("./check.js")).runCheck(noPositionals(args), io, project.open()),
  },
  diff: {
    help: DIFF_HELP,
    options: {
      since: { type: "string" },
      protocol: { type: "string" },
      format: { type: "string" },
      json: { type: "boolean" },
      "fail-on": { type: "string" },
    },
    run: async (args, io, project) => (await import("./diff.js")).runDiff(args, io, project),
  },
  verify: {
    help: VERIFY_HELP,
    options: {
      framing: { type: "string" },
      mode: { type: "string" },
      json: { type: "boolean" },
      resumed: { type: "boolean" },
      input: { type: "string" },
      "idle-timeout": { type: "string" },
      "max-memory": { type: "string" },
    },
    run: async (args, io, project) => (await import("./verify.js")).runVerify(args, io, project),
  },
  update: {
    help: UPDATE_HELP,
    options: { check: { type: "boolean" } },
    run: async (args, io, project) => (await import("./update.js")).runUpdate(args, io, project.open()),
  },
};

function noPositionals(args: Arguments): Arguments {
  if (args.positionals.length > 0) throw new UsageError(`unexpected argument "${args.positionals[0]}"`);
  return args;
}

/** What may stand in the place of a command, besides the commands. */
const TOP_LEVEL_WORDS = ["help", "--help", "--version"];

/** Runs the command line; returns the exit code. What it prints shows no control as it is (`terminalText`). */
export async function main(argv: readonly string[], given: Io): Promise<number> {
  const io: Io = { ...given, out: (text) => given.out(terminalText(text)), err: (text) => given.err(terminalText(text)) };
  const [name, ...rest] = argv;
  if (name === "--version" || name === "-v") {
    io.out(`agentwire ${version()}`);
    return 0;
  }
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    io.out(USAGE);
    return name === undefined ? 2 : 0;
  }
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (command === undefined) {
    io.err(`agentwire: unknown command "${name}"${didYouMean(name, [...Object.keys(COMMANDS), ...TOP_LEVEL_WORDS])}\n\n${USAGE}`);
    return 2;
  }
  try {
    const args = parse(rest, command.options);
    if (args.values["help"] === true) {
      io.out(command.help);
      return 0;
    }
    return await command.run(args, io, lookUpProject(io.cwd, args.values["config"] as string | undefined));
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`agentwire ${name}: ${error.message}\n\n${command.help}`);
      return 2;
    }
    if (error instanceof InputErrors) {
      for (const report of error.reports) io.err(`agentwire ${name}: ${report}`);
      io.err(`agentwire ${name}: ${count(error.count, "error")}`);
      return 2;
    }
    if (error instanceof InputError) {
      io.err(`agentwire ${name}: ${error.message}`);
      return 2;
    }
    // A file the command reads or writes that the file system refuses, where no place more
    // particular said so: an answer naming the file, not a stack trace.
    if (errnoCode(error) !== undefined) {
      const { path: file, syscall } = error as NodeJS.ErrnoException;
      const where = file === undefined ? "" : `${path.relative(io.cwd, file) || "."}: `;
      io.err(`agentwire ${name}: ${where}${syscall === undefined ? "" : `cannot ${syscall}: `}${describeFileError(error)}`);
      return 2;
    }
    throw error;
  }
}

/** Reads the options with Node's parser and says what is wrong in the CLI's own words. */
function parse(args: readonly string[], options: Options): Arguments {
  try {
    return parseArgs({
      args: [...args],
      options: { ...options, config: { type: "string" }, help: { type: "boolean", short: "h" } },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    const { code, message } = error as { code?: string; message: string };
    const option = /'(-{1,2}[^' <]+)/.exec(message)?.[1] ?? "";
    if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") {
      const known = [...Object.keys(options), "help"].map((name) => `--${name}`);
      throw new UsageError(`unknown option "${option}"${didYouMean(option, known)}`);
    }
    if (code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE")
      throw new UsageError(/does not take an argument/.test(message) ? `${option} takes no value` : `${option} needs a value`);
    throw error;
  }
}

/** The version in agentwire's own package.json, two folders up from this module (source or build). */
function version(): string {
  const manifest = JSON.parse(readFileSync(path.join(TOOL_ROOT, "package.json"), "utf8")) as { version: string };
  return manifest.version;
}
