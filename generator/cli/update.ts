import { createHash } from "node:crypto";
import { diffProtocol, formatDiff } from "../diff/index.js";
import { describeWarning, InputError } from "../errors.js";
import { nodeFileSystem } from "../files/fs.js";
import type { Output } from "../files/output.js";
import { withOutput } from "../files/output.js";
import { count } from "../ir/describe.js";
import type { LoadedProtocol, OpenProject } from "../load/index.js";
import { loadSchemas, openProject } from "../load/index.js";
import { generate } from "../pipeline.js";
import { appendPointer } from "../pointer.js";
import { fetchUpstream, vendor } from "./fetch.js";
import type { Io } from "./io.js";
import { UsageError } from "./io.js";
import type { Arguments } from "./io.js";
import { repin, stalePins } from "../api/pins.js";
import { projectIrs } from "../api/versions.js";
import { changeOf, lockOptions, placeOf } from "../api/write.js";

interface Fetched {
  readonly protocol: LoadedProtocol;
  readonly bytes: Buffer;
  readonly sha256: string;
}

/**
 * `agentwire update`: re-vendors from upstream, shows what changed, and regenerates. Every
 * upstream is fetched before anything is written; when one fails, each failure is
 * reported and nothing changes. The new schemas, their pins and generated/ are written in
 * one step, each schema at its real path inside schemas/.
 */
export async function runUpdate(args: Arguments, io: Io, opened: OpenProject): Promise<number> {
  if (args.positionals.length > 1) throw new UsageError("name one protocol, or none for all of them");
  const check = args.values["check"] === true;
  return withOutput(placeOf(opened), { mode: check ? "read" : "write", ...lockOptions(io.err) }, (output) =>
    update(args, io, openProject(opened.config.path), output),
  );
}

async function update({ values, positionals }: Arguments, io: Io, project: OpenProject, output: Output): Promise<number> {
  const check = values["check"] === true;
  const schemas = loadSchemas(project);
  const configFile = project.config.file;
  const chosen = chooseProtocols(schemas.protocols, positionals[0], configFile);
  if (chosen.length === 0) {
    io.out(`no protocol in ${configFile} has an upstream URL`);
    return 0;
  }
  const fetched: Fetched[] = [];
  const failures: InputError[] = [];
  for (const protocol of chosen) {
    const where = { file: configFile, pointer: appendPointer(protocol.config.pointer, "upstream") };
    let vendored: ReturnType<typeof vendor>;
    try {
      vendored = vendor(await fetchUpstream(protocol.config.upstream!, schemas, where), protocol.config.upstream!);
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      failures.push(error);
      continue;
    }
    const { bytes, droppedLines } = vendored;
    if (droppedLines > 0) io.out(`${protocol.config.name}: removed ${count(droppedLines, "line")} of text before the JSON`);
    const sha256 = createHash("sha256").update(bytes).digest("hex");
    if (sha256 === protocol.schema.sha256) io.out(`${protocol.config.name}: up to date with ${protocol.config.upstream}`);
    else fetched.push({ protocol, bytes, sha256 });
  }
  if (failures.length > 0) {
    for (const failure of failures) io.err(`agentwire update: ${failure.message}`);
    io.err(`${failures.length} of ${count(chosen.length, "upstream")} failed; nothing was changed.`);
    return 2;
  }
  if (fetched.length === 0) return 0;

  // The project as it would be, with the new schemas read in their place, generated in
  // full before anything here is written. One schema file may be two protocols': it is written once.
  const vendored = new Map(fetched.map(({ protocol, bytes }) => [protocol.schema.absolutePath, bytes]));
  const read = (file: string) => vendored.get(file) ?? nodeFileSystem.read(file);
  const updated = loadSchemas(project, read);
  const before = projectIrs({ ...schemas, protocols: fetched.map(({ protocol }) => protocol) });
  const after = projectIrs({ ...updated, protocols: updated.protocols.filter((p) => before.has(p.config.name)) });
  io.out(formatDiff([...before.keys()].map((name) => diffProtocol(name, before.get(name), after.get(name)))));
  if (check) {
    io.err(
      `${fetched.length} vendored schema${fetched.length === 1 ? " differs" : "s differ"} from upstream. Run \`agentwire update\` to take ${fetched.length === 1 ? "it" : "them"}.`,
    );
    return 1;
  }
  const generation = await generate(project, read);
  const config = project.config;
  output.write(
    changeOf(project, generation.files, [
      ...[...vendored].map(([file, bytes]) => ({ path: file, content: bytes })),
      { path: config.path, content: repin(config.text, stalePins(generation.pins)) },
    ]),
  );
  for (const { protocol, sha256 } of fetched) io.out(`${protocol.config.name}: updated ${protocol.schema.file} to sha256 ${sha256}`);
  io.out(`regenerated ${generation.files.length} files`);
  for (const warning of generation.warnings) io.err(describeWarning(warning));
  return 0;
}

function chooseProtocols(protocols: readonly LoadedProtocol[], name: string | undefined, configFile: string): LoadedProtocol[] {
  if (name === undefined) return protocols.filter((protocol) => protocol.config.upstream !== undefined);
  const protocol = protocols.find((candidate) => candidate.config.name === name);
  if (protocol === undefined) throw new UsageError(`no protocol "${name}" in ${configFile}`);
  if (protocol.config.upstream === undefined) throw new UsageError(`protocol "${name}" has no upstream URL in ${configFile}`);
  return [protocol];
}
