import { describeWarning } from "../errors.js";
import { count } from "../ir/describe.js";
import { withOutput } from "../files/output.js";
import type { OpenProject } from "../load/index.js";
import { openProject } from "../load/index.js";
import { generate } from "../pipeline.js";
import type { Io } from "./io.js";
import type { Arguments } from "./main.js";
import { describeRepin, repin, stalePins } from "./pins.js";
import { changeOf, lockOptions, placeOf } from "./write.js";

/**
 * `agentwire generate`: writes the output folder and pins each schema that changed since
 * the last generation, in one step, so that editing a schema never needs a hand-edited
 * config and a kill never leaves new files beside old pins.
 */
export async function runGenerate(_args: Arguments, io: Io, opened: OpenProject): Promise<number> {
  const started = performance.now();
  return withOutput(placeOf(opened), { mode: "write", ...lockOptions(io.err) }, async (output) => {
    // Read again under the lock: another run may have pinned meanwhile.
    const project = openProject(opened.config.path);
    const generation = await generate(project);
    const stale = stalePins(generation.pins);
    const { config } = project;
    output.write(changeOf(project, generation.files, stale.length > 0 ? [{ path: config.path, content: repin(config.text, stale) }] : []));
    const width = Math.max(...generation.protocols.map((protocol) => protocol.name.length));
    for (const { name, types, unions, files } of generation.protocols)
      io.out(`${name.padEnd(width)}  ${count(types, "type")}, ${count(unions, "union")}, ${count(files, "file")}`);
    for (const pin of stale) io.out(describeRepin(pin));
    for (const warning of generation.warnings) io.err(describeWarning(warning));
    io.out(`generated ${count(generation.files.length, "file")} in ${Math.round(performance.now() - started)} ms`);
    return 0;
  });
}
