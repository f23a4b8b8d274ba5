import { createHash } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { diffProtocol, formatDiff } from "../diff/index.js";
import { describeWarning, InputError } from "../errors.js";
import { copyFolder } from "../files/copy.js";
import type { Output } from "../files/output.js";
import { withOutput } from "../files/output.js";
import { fileError } from "../files/problem.js";
import type { ProjectFiles } from "../files/project.js";
import { projectFiles } from "../files/project.js";
import { count } from "../ir/describe.js";
import type { LoadedProtocol } from "../load/index.js";
import { loadSchemas } from "../load/index.js";
import { generate } from "../pipeline.js";
import { appendPointer } from "../pointer.js";
import { fetchUpstream, vendor } from "./fetch.js";
import type { Io } from "./io.js";
import { UsageError } from "./io.js";
import type { Arguments } from "./main.js";
import { CONFIG_PATH, readConfigText, repin, stalePins } from "./pins.js";
import { projectIrs } from "./versions.js";
import { lockOptions, placeOf } from "./write.js";

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
export async function runUpdate(args: Arguments, io: Io, root: string): Promise<number> {
  if (args.positionals.length > 1) throw new UsageError("name one protocol, or none for all of them");
  const check = args.values["check"] === true;
  const project = projectFiles(root);
  return withOutput(placeOf(project), { mode: check ? "read" : "write", ...lockOptions(io.err) }, (output) =>
    update(args, io, project, output),
  );
}

async function update({ values, positionals }: Arguments, io: Io, project: ProjectFiles, output: Output): Promise<number> {
  const check = values["check"] === true;
  const root = project.root;
  const schemas = loadSchemas(root);
  const chosen = chooseProtocols(schemas.protocols, positionals[0]);
  if (chosen.length === 0) {
    io.out("no protocol in schemas/protocols.json has an upstream URL");
    return 0;
  }
  const fetched: Fetched[] = [];
  const failures: InputError[] = [];
  for (const protocol of chosen) {
    const where = { file: CONFIG_PATH, pointer: appendPointer(protocol.config.pointer, "upstream") };
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

  // The project as it would be: a scratch copy with the new schemas and their pins,
  // generated in full before anything here is written.
  const scratch = mkdtempSync(path.join(tmpdir(), "agentwire-update-"));
  try {
    for (const [name, folder] of [
      ["schemas", project.schemas],
      ["templates", project.templates],
    ] as const)
      try {
        copyFolder(folder, path.join(scratch, name));
      } catch (error) {
        throw fileError(error, { file: `${name}/` }, "cannot copy it to a scratch project", "nothing was changed");
      }
    for (const { protocol, bytes } of fetched) writeFileSync(path.join(scratch, protocol.schema.file), bytes);
    const updated = loadSchemas(scratch);
    const before = await projectIrs({ ...schemas, protocols: fetched.map(({ protocol }) => protocol) });
    const after = await projectIrs({ ...updated, protocols: updated.protocols.filter((p) => before.has(p.config.name)) });
    io.out(formatDiff([...before.keys()].map((name) => diffProtocol(name, before.get(name), after.get(name)))));
    if (check) {
      io.err(
        `${fetched.length} vendored schema${fetched.length === 1 ? " differs" : "s differ"} from upstream. Run \`agentwire update\` to take ${fetched.length === 1 ? "it" : "them"}.`,
      );
      return 1;
    }
    const generation = await generate(scratch);
    const config = readConfigText(project.schemas);
    // One schema file may be two protocols': it is written once.
    const vendored = new Map(fetched.map(({ protocol, bytes }) => [protocol.schema.absolutePath, bytes]));
    output.write({
      files: generation.files,
      replaced: [
        ...[...vendored].map(([file, bytes]) => ({ path: file, content: bytes })),
        { path: config.path, content: repin(config.text, stalePins(generation.pins)) },
      ],
    });
    for (const { protocol, sha256 } of fetched) io.out(`${protocol.config.name}: updated ${protocol.schema.file} to sha256 ${sha256}`);
    io.out(`regenerated ${generation.files.length} files`);
    for (const warning of generation.warnings) io.err(describeWarning(warning));
    return 0;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

function chooseProtocols(protocols: readonly LoadedProtocol[], name: string | undefined): LoadedProtocol[] {
  if (name === undefined) return protocols.filter((protocol) => protocol.config.upstream !== undefined);
  const protocol = protocols.find((candidate) => candidate.config.name === name);
  if (protocol === undefined) throw new UsageError(`no protocol "${name}" in schemas/protocols.json`);
  if (protocol.config.upstream === undefined) throw new UsageError(`protocol "${name}" has no upstream URL in schemas/protocols.json`);
  return [protocol];
}
