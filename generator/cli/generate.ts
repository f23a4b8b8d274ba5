import { readFileSync } from "node:fs";
import path from "node:path";
import { describeWarning } from "../errors.js";
import { count } from "../ir/describe.js";
import { generate } from "../pipeline.js";
import type { Io } from "./io.js";
import type { Arguments } from "./main.js";
import { CONFIG_PATH, describeRepin, stalePins, writePins } from "./pins.js";
import { writeGeneration } from "./write.js";

/**
 * `agentwire generate`: writes generated/, then pins each schema that changed since the
 * last generation, so that editing a schema never needs a hand-edited config.
 */
export async function runGenerate(_args: Arguments, io: Io, root: string): Promise<number> {
  const started = performance.now();
  const config = readFileSync(path.join(root, CONFIG_PATH), "utf8");
  const generation = await generate(root);
  writeGeneration(path.join(root, "generated"), generation.files);
  const stale = stalePins(generation.pins);
  if (stale.length > 0) writePins(root, config, stale);
  const width = Math.max(...generation.protocols.map((protocol) => protocol.name.length));
  for (const { name, types, unions, files } of generation.protocols)
    io.out(`${name.padEnd(width)}  ${count(types, "type")}, ${count(unions, "union")}, ${count(files, "file")}`);
  for (const pin of stale) io.out(describeRepin(pin));
  for (const warning of generation.warnings) io.err(describeWarning(warning));
  io.out(`generated ${count(generation.files.length, "file")} in ${Math.round(performance.now() - started)} ms`);
  return 0;
}
