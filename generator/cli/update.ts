import { createHash } from "node:crypto";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { diffProtocol, formatDiff } from "../diff/index.js";
import { InputError } from "../errors.js";
import type { LoadedProtocol } from "../load/index.js";
import { loadSchemas } from "../load/index.js";
import { generate } from "../pipeline.js";
import { appendPointer } from "../schema/pointer.js";
import { fetchUpstream, vendor } from "./fetch.js";
import type { Io } from "./io.js";
import { UsageError } from "./io.js";
import { projectIrs } from "./versions.js";
import { writeGeneration } from "./write.js";

interface Fetched {
  readonly protocol: LoadedProtocol;
  readonly bytes: Buffer;
  readonly sha256: string;
}

/** `agentwire update`: re-vendors from upstream, shows what changed, and regenerates. */
export async function runUpdate(args: readonly string[], io: Io, root: string): Promise<number> {
  const check = args.includes("--check");
  const names = args.filter((arg) => arg !== "--check");
  const unknown = names.find((arg) => arg.startsWith("-"));
  if (unknown !== undefined) throw new UsageError(`unknown option "${unknown}"`);
  if (names.length > 1) throw new UsageError("name one protocol, or none for all of them");
  const schemas = loadSchemas(root);
  const chosen = chooseProtocols(schemas.protocols, names[0]);
  if (chosen.length === 0) {
    io.out("no protocol in schemas/protocols.json has an upstream URL");
    return 0;
  }
  const configFile = path.join(schemas.schemasDir, "protocols.json");
  const fetched: Fetched[] = [];
  for (const protocol of chosen) {
    const where = { file: "schemas/protocols.json", pointer: appendPointer(protocol.config.pointer, "upstream") };
    const body = await fetchUpstream(protocol.config.upstream!, schemas.schemasDir, where);
    const { bytes, droppedLines } = vendor(body, protocol.config.upstream!);
    if (droppedLines > 0)
      io.out(`${protocol.config.name}: removed ${droppedLines} line${droppedLines === 1 ? "" : "s"} of text before the JSON`);
    const sha256 = createHash("sha256").update(bytes).digest("hex");
    if (sha256 === protocol.schema.sha256) io.out(`${protocol.config.name}: up to date with ${protocol.config.upstream}`);
    else fetched.push({ protocol, bytes, sha256 });
  }
  if (fetched.length === 0) return 0;

  // The project as it would be: a scratch copy with the new schemas and their sha256,
  // generated in full before anything here is written.
  const scratch = mkdtempSync(path.join(tmpdir(), "agentwire-update-"));
  try {
    cpSync(path.join(root, "schemas"), path.join(scratch, "schemas"), { recursive: true });
    cpSync(path.join(root, "templates"), path.join(scratch, "templates"), { recursive: true });
    let config = readFileSync(configFile, "utf8");
    for (const { protocol, bytes, sha256 } of fetched) {
      writeFileSync(path.join(scratch, protocol.schema.file), bytes);
      config = recordSha256(config, protocol, sha256);
    }
    writeFileSync(path.join(scratch, "schemas", "protocols.json"), config);
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
    for (const { protocol, bytes } of fetched) writeFileSync(protocol.schema.absolutePath, bytes);
    writeFileSync(configFile, config);
    writeGeneration(path.join(root, "generated"), generation.files);
    for (const { protocol, sha256 } of fetched) io.out(`${protocol.config.name}: updated ${protocol.schema.file} to sha256 ${sha256}`);
    io.out(`regenerated ${generation.files.length} files`);
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

/**
 * The config text with the protocol's new sha256. The old value is replaced where it is,
 * so the file keeps its layout; an entry without one gets the key after its "schema".
 */
function recordSha256(config: string, protocol: LoadedProtocol, sha256: string): string {
  const old = protocol.config.sha256;
  if (old !== undefined && config.split(old).length === 2) return config.replace(old, sha256);
  const schemaKey = new RegExp(`("schema"\\s*:\\s*${escapeRegExp(JSON.stringify(protocol.config.schema))})`);
  const matches = config.match(new RegExp(schemaKey.source, "g")) ?? [];
  if (matches.length !== 1)
    throw new InputError(
      { file: "schemas/protocols.json", pointer: protocol.config.pointer },
      "cannot find where to record the new sha256 in this entry's text",
      `add "sha256": "${sha256}" to it by hand`,
    );
  return config.replace(schemaKey, `$1, "sha256": "${sha256}"`);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
