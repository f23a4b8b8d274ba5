import { spawn } from "node:child_process";
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Place } from "../../generator/files/output.js";
import { withOutput } from "../../generator/files/output.js";
import { changeTo, scratchProject, stateOf, wholeState } from "../helpers/files.js";
import { scratchFolder } from "../helpers/scratch.js";

/**
 * The test: a real process writing generations in turn is killed (SIGKILL) at a
 * random moment; after each kill, the next run finds the whole of one generation, with its
 * schema and pins, and nothing else. Fifty kills take 8 to 15 s on this machine, shared: npm
 * test kills nine times, AGENTWIRE_EXHAUSTIVE=1 fifty, and prints where the kills fell.
 * `test/files/kill-generate.js` kills `agentwire generate` itself, slower still.
 */

const EXHAUSTIVE = process.env["AGENTWIRE_EXHAUSTIVE"] === "1";
const RUNS = EXHAUSTIVE ? 50 : 9;
/** Projects killed in at once, each the next kill's after its recovery. */
const LANES = 3;
/** Files under src/ beyond the seven of a generation: a write long enough for kills to fall inside it. */
const EXTRA = 20;

const CHILD = path.join(import.meta.dirname, "kill-writer.js");
const scratch = scratchFolder("agentwire-kill-");

const WHOLE = { a: wholeState("a", EXTRA), b: wholeState("b", EXTRA) };

/** Where the kill found the writer: what its lock folder held. */
type Moment = "between writes" | "locking" | "writing the new files" | "planned, not committed" | "committed";

/** A project and the job its writer is given: write "b", then "a", and again. */
function lane(index: number): { root: string; place: Place; job: string } {
  const { root, place } = scratchProject("a", EXTRA);
  const job = path.join(scratch, `job-${index}.json`);
  writeFileSync(job, JSON.stringify({ place, changes: [changeTo(root, "b", EXTRA), changeTo(root, "a", EXTRA)] }));
  return { root, place, job };
}

async function killOnce({ root, place, job }: ReturnType<typeof lane>, run: number): Promise<Moment> {
  const child = spawn(process.execPath, [CHILD, job], { stdio: ["ignore", "pipe", "inherit"] });
  await new Promise<void>((resolve, reject) => {
    child.stdout.once("data", () => resolve());
    child.once("exit", (code) => reject(new Error(`the writer exited (${code}) before it was ready`)));
  });
  await new Promise((resolve) => setTimeout(resolve, Math.random() * 100));
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGKILL");
  await exited; // reaped: its pid is dead, not a zombie that still answers kill(pid, 0)
  const moment = momentOf(place.output.path);
  await withOutput(place, { mode: "read" }, async () => undefined);
  expect([WHOLE.a, WHOLE.b], `run ${run}, killed ${moment}`).toContainEqual(stateOf(root));
  return moment;
}

function momentOf(output: string): Moment {
  const lock = path.join(output, ".agentwire");
  if (!existsSync(lock)) return readdirSync(output).some((name) => name.startsWith(".agentwire-")) ? "locking" : "between writes";
  if (existsSync(path.join(lock, "committed.json"))) return "committed";
  if (existsSync(path.join(lock, "plan.json"))) return "planned, not committed";
  return "writing the new files";
}

describe("a writer killed at random", () => {
  it(`leaves one generation whole, with its pins, ${RUNS} times out of ${RUNS}`, async () => {
    const lanes = Array.from({ length: LANES }, (_, i) => lane(i));
    const moments: Moment[] = [];
    for (let run = 0; run < RUNS; run += LANES)
      moments.push(...(await Promise.all(lanes.slice(0, RUNS - run).map((project, i) => killOnce(project, run + i)))));
    if (EXHAUSTIVE) {
      const counts = new Map<Moment, number>();
      for (const moment of moments) counts.set(moment, (counts.get(moment) ?? 0) + 1);
      console.info(`${RUNS} kills:`, Object.fromEntries(counts));
    }
    // The kills fell inside writes, not only between them: there was something to recover.
    expect(moments.filter((moment) => moment !== "between writes").length).toBeGreaterThan(RUNS / 2);
  });
});
