import path from "node:path";
import { init } from "../api/init.js";
import { CONFIG_FILE } from "../files/project.js";
import { presets } from "../load/presets.js";
import type { Io } from "./io.js";
import { UsageError } from "./io.js";
import type { ProjectLookup } from "../api/project.js";
import type { Arguments } from "./io.js";

/**
 * `agentwire init [--protocol NAME]… [--output FOLDER] [--force]`: writes a starter config
 * where none is found, and vendors the named built-in protocols into the project.
 */
export async function runInit(args: Arguments, io: Io, project: ProjectLookup): Promise<number> {
  if (args.positionals.length > 0) throw new UsageError(`unexpected argument "${args.positionals[0]}"`);
  const protocols = (args.values["protocol"] as readonly string[] | undefined) ?? [];
  const output = args.values["output"] as string | undefined;
  const result = init({
    config: project.config ?? path.join(io.cwd, CONFIG_FILE),
    protocols,
    ...(output === undefined ? {} : { output }),
    force: args.values["force"] === true,
  });
  if (result.written.includes(result.config)) io.out(`wrote ${result.config}`);
  for (const { name, sha256, files } of result.added)
    io.out(`${name}: vendored ${files.join(", ")}; pinned at sha256 ${sha256.slice(0, 8)}…`);
  const listed = new Set([result.config, ...result.added.flatMap(({ files }) => files)]);
  for (const file of result.written.filter((file) => !listed.has(file))) io.out(`wrote ${file}`);
  if (result.written.length === 0)
    io.out(`${result.config} and the files of its protocols are as agentwire would write them: nothing to do`);
  else if (protocols.length === 0)
    io.out(`next: add a protocol with \`agentwire init --protocol ${[...presets().keys()].sort()[0]}\`, or list your own schema in it`);
  else io.out("next: npx agentwire generate");
  return 0;
}
