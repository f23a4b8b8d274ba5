import type { LockOptions } from "../files/lock.js";
import { withOutput } from "../files/output.js";
import type { OpenProject, Pin } from "../load/index.js";
import { openProject } from "../load/index.js";
import type { Generation } from "../pipeline.js";
import { generate } from "../pipeline.js";
import { repin, stalePins } from "./pins.js";
import { changeOf, placeOf } from "./write.js";

/** What `generate` wrote: the generation, and the pins it recorded in the config. */
export interface GenerateReport {
  readonly generation: Generation;
  /** The pins that changed, as they were before: each schema edited since the last generation. */
  readonly repinned: readonly Pin[];
}

/**
 * Writes the output folder and pins each schema that changed since the last generation,
 * in one step, under the output's lock, so that editing a schema never needs a
 * hand-edited config and a kill never leaves new files beside old pins.
 */
export async function generateProject(opened: OpenProject, lock: Omit<LockOptions, "mode"> = {}): Promise<GenerateReport> {
  return withOutput(placeOf(opened), { mode: "write", ...lock }, async (output) => {
    // Read again under the lock: another run may have pinned meanwhile.
    const project = openProject(opened.config.path);
    const generation = await generate(project);
    const stale = stalePins(generation.pins);
    const { config } = project;
    output.write(changeOf(project, generation.files, stale.length > 0 ? [{ path: config.path, content: repin(config.text, stale) }] : []));
    return { generation, repinned: stale };
  });
}
