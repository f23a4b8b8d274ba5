import { generateProject } from "../api/generate.js";
import { describeRepin } from "../api/pins.js";
import { lockOptions } from "../api/write.js";
import { describeWarning } from "../errors.js";
import { count } from "../ir/describe.js";
import type { OpenProject } from "../load/index.js";
import type { Io } from "./io.js";
import type { Arguments } from "./main.js";

/** `agentwire generate`: writes the output and the pins, and prints a line per protocol, per pin and per warning. */
export async function runGenerate(_args: Arguments, io: Io, project: OpenProject): Promise<number> {
  const started = performance.now();
  const { generation, repinned } = await generateProject(project, lockOptions(io.err));
  const width = Math.max(...generation.protocols.map((protocol) => protocol.name.length));
  for (const { name, types, unions, files } of generation.protocols)
    io.out(`${name.padEnd(width)}  ${count(types, "type")}, ${count(unions, "union")}, ${count(files, "file")}`);
  for (const pin of repinned) io.out(describeRepin(pin));
  for (const warning of generation.warnings) io.err(describeWarning(warning));
  io.out(`generated ${count(generation.files.length, "file")} in ${Math.round(performance.now() - started)} ms`);
  return 0;
}
