import path from "node:path";
import type { FailOn, ProtocolDiff } from "../diff/index.js";
import { diffJson, diffProtocol, fails, formatDiff } from "../diff/index.js";
import type { LoadedProtocol } from "../load/index.js";
import { loadSchemas } from "../load/index.js";
import type { Io } from "./io.js";
import { UsageError } from "./io.js";
import { fileIr, irsAtRevision, projectIrs } from "./versions.js";

interface DiffArguments {
  readonly files: readonly string[];
  readonly since?: string;
  readonly protocol?: string;
  readonly json: boolean;
  readonly failOn: FailOn;
}

function parseArguments(args: readonly string[]): DiffArguments {
  const files: string[] = [];
  let since: string | undefined;
  let protocol: string | undefined;
  let json = false;
  let failOn: FailOn = "breaking";
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const value = () => {
      const next = args[++i];
      if (next === undefined || next.startsWith("--")) throw new UsageError(`${arg} needs a value`);
      return next;
    };
    if (arg === "--json") json = true;
    else if (arg === "--since") since = value();
    else if (arg === "--protocol") protocol = value();
    else if (arg === "--fail-on") {
      const level = value();
      if (level !== "breaking" && level !== "any" && level !== "none")
        throw new UsageError(`--fail-on is breaking, any or none, not "${level}"`);
      failOn = level;
    } else if (arg.startsWith("-")) throw new UsageError(`unknown option "${arg}"`);
    else files.push(arg);
  }
  if (since !== undefined && files.length > 0) throw new UsageError("give either OLD NEW or --since, not both");
  if (since === undefined && files.length !== 2) throw new UsageError("give two schema files, OLD and NEW, or --since REVISION");
  if (since !== undefined && protocol !== undefined) throw new UsageError("--protocol applies to OLD NEW only");
  return { files, ...(since === undefined ? {} : { since }), ...(protocol === undefined ? {} : { protocol }), json, failOn };
}

/** `agentwire diff`: prints the changes and returns the exit code `--fail-on` asks for. */
export async function runDiff(args: readonly string[], io: Io, root?: string): Promise<number> {
  const options = parseArguments(args);
  const diffs = options.since === undefined ? [await diffFiles(options, io, root)] : await diffSince(options.since, root);
  io.out(options.json ? JSON.stringify(diffJson(diffs), null, 2) : formatDiff(diffs));
  return fails(diffs, options.failOn) ? 1 : 0;
}

async function diffFiles(options: DiffArguments, io: Io, root: string | undefined): Promise<ProtocolDiff> {
  const [before, after] = options.files as [string, string];
  const like = root === undefined ? undefined : vendoredAs(root, io.cwd, options.protocol, [after, before]);
  if (options.protocol !== undefined && like === undefined)
    throw new UsageError(
      root === undefined ? "--protocol needs a project: no schemas/protocols.json here or above" : `no protocol "${options.protocol}"`,
    );
  const name = like?.config.name ?? path.basename(after).replace(/(\.schema)?\.json$/, "");
  return diffProtocol(name, await fileIr(io.cwd, before, like), await fileIr(io.cwd, after, like));
}

/** The protocol the files stand for: the one named, or the one whose vendored schema is one of the files. */
function vendoredAs(root: string, cwd: string, name: string | undefined, files: readonly string[]): LoadedProtocol | undefined {
  const schemas = loadSchemas(root);
  if (name !== undefined) return schemas.protocols.find((protocol) => protocol.config.name === name);
  for (const file of files) {
    const absolute = path.resolve(cwd, file);
    const protocol = schemas.protocols.find((candidate) => candidate.schema.absolutePath === absolute);
    if (protocol !== undefined) return protocol;
  }
  return undefined;
}

async function diffSince(revision: string, root: string | undefined): Promise<ProtocolDiff[]> {
  if (root === undefined) throw new UsageError("--since needs a project: no schemas/protocols.json here or above");
  const before = await irsAtRevision(root, revision);
  const after = await projectIrs(loadSchemas(root));
  const names = [...new Set([...before.keys(), ...after.keys()])].sort();
  return names.map((name) => diffProtocol(name, before.get(name), after.get(name)));
}
