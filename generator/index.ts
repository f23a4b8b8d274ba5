/**
 * agentwire's programmatic API: what the commands do, as functions that return what they
 * found instead of printing it or exiting. Bad input is a result with `ok: false` and
 * its diagnostics, each naming the file and JSON Pointer; nothing is written then. Any
 * other exception is a bug of agentwire's.
 *
 *   import { generate } from "agentwire";
 *   const result = await generate({ cwd: "path/to/repo" });
 *   if (!result.ok) for (const error of result.errors) console.error(error.message);
 */
import { createReadStream } from "node:fs";
import path from "node:path";
import { checkProject } from "./api/check.js";
import { generateProject } from "./api/generate.js";
import type { InitResult } from "./api/init.js";
import { init as initProject } from "./api/init.js";
import { lookUpProject } from "./api/project.js";
import type { Framing, VerifyReport } from "./api/verify.js";
import { verifyRecording } from "./api/verify.js";
import { diffFiles, diffSince } from "./api/diff.js";
import type { ProtocolDiff } from "./diff/index.js";
import { diffJson, diffMarkdown, formatDiff, severity } from "./diff/index.js";
import type { InputWarning, SourceLocation } from "./errors.js";
import { InputError, InputErrors } from "./errors.js";
import { CONFIG_FILE } from "./files/project.js";
import type { OpenProject, Pin } from "./load/index.js";
import type { ProtocolSummary } from "./pipeline.js";

export type { InitResult } from "./api/init.js";
export type { Finding, Framing, Mode, Note, VerifyReport } from "./api/verify.js";
export type { Audience, Category, Change, ChangeKind, ProtocolDiff, Severity } from "./diff/index.js";
export type { Config, OutputConfig, PackageConfig, Pin, ProtocolConfig } from "./load/index.js";
export type { ProtocolSummary } from "./pipeline.js";

/** A problem in the input, where it is: the file relative to the project, and a JSON Pointer or a line in it. */
export interface Diagnostic extends SourceLocation {
  readonly problem: string;
  readonly hint?: string;
  /** As the CLI prints it: `agentwire.config.json#/protocols/0/schema: …`. */
  readonly message: string;
}

/** A command's result: what it found, with its warnings; or, on bad input, the errors and nothing written. */
export type Result<T> =
  ({ readonly ok: true; readonly warnings: readonly Diagnostic[] } & T) | { readonly ok: false; readonly errors: readonly Diagnostic[] };

/** Where the project is: the config named, else the nearest `agentwire.config.json` from `cwd` (the process's unless given) up. */
export interface ProjectOptions {
  readonly cwd?: string;
  readonly config?: string;
}

export interface GenerateResult {
  /** The output folder, relative to the project: "src/protocols/". */
  readonly output: string;
  /** Every file written, relative to the output folder, with its content. */
  readonly files: readonly { readonly path: string; readonly content: string }[];
  readonly protocols: readonly ProtocolSummary[];
  /** The pins recorded because their schema changed, with the sha256 each had before. */
  readonly repinned: readonly Pin[];
}

/** Generates the project's bindings into its output folder, and pins the schemas that changed. */
export async function generate(options: ProjectOptions = {}): Promise<Result<GenerateResult>> {
  return run(async () => {
    const project = open(options);
    const { generation, repinned } = await generateProject(project);
    return {
      ok: true,
      warnings: generation.warnings.map(diagnosticOf),
      output: outputName(project),
      files: generation.files.map(({ path: file, content }) => ({ path: file, content })),
      protocols: generation.protocols,
      repinned,
    };
  });
}

export interface CheckResult {
  /** Whether the output folder and every pin are what `generate` would write. */
  readonly upToDate: boolean;
  readonly output: string;
  /** Files of the output, relative to it, that differ, that are missing, and that a generation would not write. */
  readonly changed: readonly string[];
  readonly missing: readonly string[];
  readonly stale: readonly string[];
  /** Schemas changed since their pin, or never pinned. */
  readonly unpinned: readonly Pin[];
  /** Unified diffs of what `generate` would change, the config's pins first. */
  readonly patches: readonly string[];
}

/** Compares the output folder and the pins with a fresh generation, in memory. Never writes. */
export async function check(options: ProjectOptions = {}): Promise<Result<CheckResult>> {
  return run(async () => {
    const report = await checkProject(open(options));
    const { changed, missing, stale } = report.drift;
    return {
      ok: true,
      warnings: report.generation.warnings.map(diagnosticOf),
      upToDate: report.upToDate,
      output: report.output,
      changed,
      missing,
      stale,
      unpinned: report.stalePins,
      patches: report.patches,
    };
  });
}

/** Two schema files of one protocol, or the project's protocols against a git revision of them. */
export type DiffOptions = ProjectOptions &
  ({ readonly before: string; readonly after: string; readonly protocol?: string } | { readonly since: string });

export interface DiffResult {
  readonly protocols: readonly ProtocolDiff[];
  /** Whether a change breaks the wire or the source for anyone. */
  readonly breaking: boolean;
  /** The changes as `agentwire diff` prints them, for a terminal, a pull request or a machine. */
  readonly text: string;
  readonly markdown: string;
  readonly json: object;
}

/** Classifies the changes between two versions of a protocol's schema, through its IR. */
export async function diff(options: DiffOptions): Promise<Result<DiffResult>> {
  return run(async () => {
    const cwd = path.resolve(options.cwd ?? process.cwd());
    let protocols: ProtocolDiff[];
    if ("since" in options) protocols = diffSince(open(options), options.since);
    else {
      const lookup = lookUpProject(cwd, options.config);
      const project = lookup.config === undefined ? undefined : lookup.open();
      protocols = [diffFiles(cwd, [options.before, options.after], project, options.protocol)];
    }
    const breaking = protocols.some((protocol) => protocol.changes.some((change) => severity(change) === "breaking"));
    return {
      ok: true,
      warnings: [],
      protocols,
      breaking,
      text: formatDiff(protocols),
      markdown: diffMarkdown(protocols),
      json: diffJson(protocols),
    };
  });
}

export type VerifyOptions = ProjectOptions & {
  /** The protocol: one the config names, else one built into agentwire. */
  readonly protocol: string;
  /** The recording: a file's path (relative to `cwd`), its bytes, or a stream of them. */
  readonly input: string | Uint8Array | AsyncIterable<Uint8Array | string>;
  readonly framing?: Framing;
  readonly mode?: "strict" | "tolerant";
  readonly resumed?: boolean;
  readonly idleTimeout?: number;
  readonly maxMemory?: number;
};

export type VerifyResult = VerifyReport;

/** Verifies a recorded stream: every event decoded, the protocol's ordering rules checked, what it builds assembled. */
export async function verify(options: VerifyOptions): Promise<Result<VerifyResult>> {
  return run(async () => {
    const cwd = path.resolve(options.cwd ?? process.cwd());
    const { input } = options;
    const open = () =>
      typeof input === "string"
        ? createReadStream(path.resolve(cwd, input))
        : input instanceof Uint8Array
          ? (async function* () {
              yield input;
            })()
          : input;
    const report = await verifyRecording(lookUpProject(cwd, options.config), options.protocol, open, {
      where: typeof input === "string" ? input : "<input>",
      ...(options.framing === undefined ? {} : { framing: options.framing }),
      ...(options.mode === undefined ? {} : { mode: options.mode }),
      ...(options.resumed === undefined ? {} : { resumed: options.resumed }),
      ...(options.idleTimeout === undefined ? {} : { idleTimeout: options.idleTimeout }),
      ...(options.maxMemory === undefined ? {} : { maxMemory: options.maxMemory }),
    });
    return { ok: true, warnings: [], ...report };
  });
}

export interface InitOptions {
  readonly cwd?: string;
  /** The config to write or add to: the nearest `agentwire.config.json`, else one in `cwd`. */
  readonly config?: string;
  /** Built-in protocols to vendor, by the names agentwire's own config gives them. */
  readonly protocols?: readonly string[];
  /** Where a new config's plain sources go: "src/protocols" unless given. */
  readonly output?: string;
  readonly force?: boolean;
}

/** Writes a starter config where there is none, and vendors built-in protocols into the project, pinned. */
export async function init(options: InitOptions = {}): Promise<Result<InitResult>> {
  return run(async () => {
    const cwd = path.resolve(options.cwd ?? process.cwd());
    const config = lookUpProject(cwd, options.config).config ?? path.join(cwd, CONFIG_FILE);
    const result = initProject({
      config,
      ...(options.protocols === undefined ? {} : { protocols: options.protocols }),
      ...(options.output === undefined ? {} : { output: options.output }),
      ...(options.force === undefined ? {} : { force: options.force }),
    });
    return { ok: true, warnings: [], ...result };
  });
}

function open(options: ProjectOptions): OpenProject {
  return lookUpProject(path.resolve(options.cwd ?? process.cwd()), options.config).open();
}

function outputName(project: OpenProject): string {
  return `${path.relative(project.folder.root, project.output.path).split(path.sep).join("/")}/`;
}

function diagnosticOf(problem: InputError | InputWarning): Diagnostic {
  const { location, problem: text, hint } = problem;
  const message = problem instanceof InputError ? problem.message : `${location.file}: ${text}`;
  return { ...location, problem: text, ...(hint === undefined ? {} : { hint }), message };
}

/** Runs a command, its bad input a result: every other exception is thrown on. */
async function run<T>(command: () => Promise<Result<T>>): Promise<Result<T>> {
  try {
    return await command();
  } catch (error) {
    if (error instanceof InputErrors) return { ok: false, errors: error.errors.map(diagnosticOf) };
    if (error instanceof InputError) return { ok: false, errors: [diagnosticOf(error)] };
    throw error;
  }
}
