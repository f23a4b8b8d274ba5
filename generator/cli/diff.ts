import path from "node:path";
import type { FailOn, ProtocolDiff } from "../diff/index.js";
import { DEFAULT_FAIL_ON, diffJson, diffMarkdown, diffProtocol, fails, formatDiff, readFailOn } from "../diff/index.js";
import { CONFIG_FILE } from "../files/project.js";
import type { LoadedProtocol, OpenProject, Schemas } from "../load/index.js";
import { loadSchemas } from "../load/index.js";
import type { Io } from "./io.js";
import { UsageError } from "./io.js";
import type { Arguments, ProjectLookup } from "./main.js";
import { fileIr, irsAtRevision, projectIrs } from "./versions.js";

/** How the changes are printed: for a terminal, for a pull request, or for machines. */
export type DiffFormat = "text" | "markdown" | "json";

interface DiffArguments {
  readonly files: readonly string[];
  readonly since?: string;
  readonly protocol?: string;
  readonly format: DiffFormat;
  readonly failOn: FailOn;
}

function readArguments({ values, positionals: files }: Arguments): DiffArguments {
  const since = values["since"] as string | undefined;
  const protocol = values["protocol"] as string | undefined;
  const failOn = readFailOn((values["fail-on"] ?? DEFAULT_FAIL_ON) as string);
  if (typeof failOn === "object" && "error" in failOn) throw new UsageError(failOn.error);
  const format = (values["format"] ?? (values["json"] === true ? "json" : "text")) as string;
  if (format !== "text" && format !== "markdown" && format !== "json")
    throw new UsageError(`--format is text, markdown or json, not "${format}"`);
  if (values["json"] === true && format !== "json") throw new UsageError(`--json is --format json, not ${format}`);
  if (since !== undefined && files.length > 0) throw new UsageError("give either OLD NEW or --since, not both");
  if (since === undefined && files.length !== 2) throw new UsageError("give two schema files, OLD and NEW, or --since REVISION");
  if (since !== undefined && protocol !== undefined) throw new UsageError("--protocol applies to OLD NEW only");
  return { files, ...(since === undefined ? {} : { since }), ...(protocol === undefined ? {} : { protocol }), format, failOn };
}

const PRINTERS: Readonly<Record<DiffFormat, (diffs: readonly ProtocolDiff[]) => string>> = {
  text: formatDiff,
  markdown: diffMarkdown,
  json: (diffs) => JSON.stringify(diffJson(diffs), null, 2),
};

/** `agentwire diff`: prints the changes and returns the exit code `--fail-on` asks for. */
export async function runDiff(args: Arguments, io: Io, project: ProjectLookup): Promise<number> {
  const options = readArguments(args);
  const diffs = options.since === undefined ? [await diffFiles(options, io, project)] : await diffSince(options.since, project.open());
  io.out(PRINTERS[options.format](diffs));
  return fails(diffs, options.failOn) ? 1 : 0;
}

async function diffFiles(options: DiffArguments, io: Io, project: ProjectLookup): Promise<ProtocolDiff> {
  const [before, after] = options.files as [string, string];
  const schemas = project.config === undefined ? undefined : loadSchemas(project.open());
  const like = schemas === undefined ? undefined : vendoredAs(schemas, io.cwd, options.protocol, [after, before]);
  if (options.protocol !== undefined && like === undefined)
    throw new UsageError(
      schemas === undefined ? `--protocol needs a project: no ${CONFIG_FILE} here or above` : `no protocol "${options.protocol}"`,
    );
  const name = like?.config.name ?? path.basename(after).replace(/(\.schema)?\.json$/, "");
  const remotes = schemas?.remotes ?? [];
  // One name for both sides: a root without a title is named after the protocol, and so pairs with itself.
  return diffProtocol(name, await fileIr(io.cwd, before, name, like, remotes), await fileIr(io.cwd, after, name, like, remotes));
}

/** The protocol the files stand for: the one named, or the one whose vendored schema is one of the files. */
function vendoredAs(schemas: Schemas, cwd: string, name: string | undefined, files: readonly string[]): LoadedProtocol | undefined {
  if (name !== undefined) return schemas.protocols.find((protocol) => protocol.config.name === name);
  for (const file of files) {
    const absolute = path.resolve(cwd, file);
    const protocol = schemas.protocols.find((candidate) => candidate.schema.absolutePath === absolute);
    if (protocol !== undefined) return protocol;
  }
  return undefined;
}

async function diffSince(revision: string, project: OpenProject): Promise<ProtocolDiff[]> {
  const before = await irsAtRevision(project, revision);
  const after = await projectIrs(loadSchemas(project));
  const names = [...new Set([...before.keys(), ...after.keys()])].sort();
  return names.map((name) => diffProtocol(name, before.get(name), after.get(name)));
}
