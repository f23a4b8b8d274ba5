import { checkProject } from "../api/check.js";
import type { OpenProject } from "../load/index.js";
import type { Io } from "./io.js";
import type { Arguments } from "./io.js";
import { describeStalePin } from "../api/pins.js";
import { lockOptions } from "../api/write.js";

/** The lines of diff `check` prints unless given --full: a screenful or so, which says what drifted. */
const MAX_DIFF_LINES = 400;

/**
 * `agentwire check`: exit 0 when the output folder is what a generation writes and every
 * schema is the one its pin records, else 1 with the diff of what `generate` would change.
 */
export async function runCheck(args: Arguments, io: Io, project: OpenProject): Promise<number> {
  const full = args.values["full"] === true;
  const { output, generation, drift, stalePins: stale, patches, upToDate } = await checkProject(project, lockOptions(io.err));
  if (upToDate) {
    io.out(`${output} is up to date (${generation.files.length} files)`);
    return 0;
  }
  const count = drift.changed.length + drift.missing.length + drift.stale.length;
  const config = project.config;
  printDiff(io, patches.join("\n"), full);
  for (const pin of stale) io.err(describeStalePin(pin));
  const parts = [
    drift.changed.length > 0 ? `${drift.changed.length} changed` : "",
    drift.missing.length > 0 ? `${drift.missing.length} missing` : "",
    drift.stale.length > 0 ? `${drift.stale.length} stale` : "",
  ].filter((part) => part !== "");
  const what = count === 0 ? `${config.file} does not pin the schemas` : `${output} is out of date: ${parts.join(", ")} (${count} files)`;
  io.err(`${what}. Run \`agentwire generate\` and commit the result.`);
  return 1;
}

/** A diff, cut at MAX_DIFF_LINES unless the whole of it is asked for. */
function printDiff(io: Io, diff: string, full: boolean): void {
  const lines = diff.split("\n");
  if (full || lines.length <= MAX_DIFF_LINES) {
    io.out(diff);
    return;
  }
  io.out(lines.slice(0, MAX_DIFF_LINES).join("\n"));
  io.out(`… ${lines.length - MAX_DIFF_LINES} more lines of diff not shown (--full shows them)`);
}
