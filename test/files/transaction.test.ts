import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import path from "node:path";
import { threadId } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import { InputError } from "../../generator/errors.js";
import type { FileSystem } from "../../generator/files/fs.js";
import { nodeFileSystem } from "../../generator/files/fs.js";
import type { Place } from "../../generator/files/output.js";
import { withOutput, writeOutput } from "../../generator/files/output.js";
import { inputError } from "../helpers/failure.js";
import { changeTo, failingAt, Killed, killedAfter, scratchProject, stateOf, wholeState } from "../helpers/files.js";

/**
 * The output and its pins are replaced in one step: a run killed after any number of
 * changes to the disk leaves, once the next run has recovered, the whole old project or
 * the whole new one, and nothing else (no staging, no copies beside the config).
 */

const EXHAUSTIVE = process.env["AGENTWIRE_EXHAUSTIVE"] === "1";
const OLD = wholeState("old");
const NEW = wholeState("new");

/** What the next command does first, whatever it is: takes the lock, and recovers. `check` takes it so. */
const nextRun = (place: Place, fs: FileSystem = nodeFileSystem) => withOutput(place, { mode: "read" }, async () => undefined, fs);

/** How many changes to the disk a whole run makes, and after which of them it has committed. */
function measure(): { steps: number; commit: number } {
  const { root, place } = scratchProject("old");
  const counted = killedAfter(Infinity);
  let commit = -1;
  const fs: FileSystem = {
    ...counted.fs,
    rename(from, to) {
      counted.fs.rename(from, to);
      if (path.basename(to) === "committed.json") commit = counted.made();
    },
  };
  writeOutput(place, changeTo(root, "new"), {}, fs);
  return { steps: counted.made(), commit };
}

describe("a run killed after any step of writing the output", () => {
  const { steps, commit } = measure();

  it("is measured: the steps of a run, and the one that commits", () => {
    // The lock (4: its folder, .gitignore, owner, renamed into place), the new files (7, in 3 folders), the plan
    // (2), the copies of the schema and the config each in a folder beside it (schemas/ and the root: 2 × 2 + 4),
    // the old tops retired (1 + 5), the commit (the 31st), the new tops moved in (5), the copies renamed over (2)
    // and their folders removed (2), the plan removed, the garbage (2), the lock let go (2).
    expect({ steps, commit }).toEqual({ steps: 45, commit: 31 });
  });

  it.each(Array.from({ length: steps + 1 }, (_, k) => k))("after %i steps leaves the old or the new project whole", async (k) => {
    const { root, place } = scratchProject("old");
    const killed = killedAfter(k);
    let threw: unknown;
    try {
      writeOutput(place, changeTo(root, "new"), {}, killed.fs);
    } catch (error) {
      threw = error;
    }
    if (k < steps) expect(threw).toBeInstanceOf(Killed);
    await nextRun(place);
    expect(stateOf(root)).toEqual(k < commit ? OLD : NEW);
  });

  // Every pair of kill points is 45 × ~15 runs (20 s here): AGENTWIRE_EXHAUSTIVE=1 runs them all; npm test, a
  // kill point where recovery undoes (the copies written), at the commit, and where it finishes (the renames).
  const phases = EXHAUSTIVE ? Array.from({ length: steps }, (_, k) => k) : [20, 31, 37];
  it.each(phases)("after %i steps, and then its recovery killed after every step, recovers to the same project", async (k) => {
    const expected = k < commit ? OLD : NEW;
    for (let j = 0; ; j++) {
      const { root, place } = scratchProject("old");
      try {
        writeOutput(place, changeTo(root, "new"), {}, killedAfter(k).fs);
      } catch (error) {
        if (!(error instanceof Killed)) throw error;
      }
      const recovery = killedAfter(j);
      let finished = true;
      try {
        await nextRun(place, recovery.fs);
      } catch (error) {
        if (!(error instanceof Killed)) throw error;
        finished = false;
      }
      await nextRun(place);
      expect(stateOf(root), `recovery killed after ${j} steps`).toEqual(expected);
      if (finished) break;
    }
  });
});

describe("a step that fails, the run going on", () => {
  const { steps, commit } = measure();

  // Every step with AGENTWIRE_EXHAUSTIVE=1; npm test, every third.
  it.each(Array.from({ length: steps }, (_, k) => k).filter((k) => EXHAUSTIVE || k % 3 === 0))(
    "at step %i: exit 2 naming the file, and the old project or the new one whole",
    async (k) => {
      const { root, place } = scratchProject("old");
      let message: string | undefined;
      try {
        writeOutput(place, changeTo(root, "new"), {}, failingAt(k, "ENOSPC"));
      } catch (error) {
        if (!(error instanceof InputError)) throw error;
        message = error.message;
      }
      if (k < commit) {
        // Every byte is written before the commit: a full disk fails there, and nothing has changed, now.
        expect(message).toMatch(
          /^[^:]+: cannot (write|move|lock it for writing|make the folder): no space left on the device \(ENOSPC\)\n  free some space on the device; nothing was changed$/,
        );
        expect(stateOf(root)).toEqual(OLD);
      } else {
        // Only renames, and removing what is done with: a failure there is finished by the next run.
        if (message !== undefined) expect(message).toContain("the next agentwire command finishes it");
        await nextRun(place);
        expect(stateOf(root)).toEqual(NEW);
      }
    },
  );

  it("names the file of the output the failing write was for, not the transaction's copy", () => {
    const { root, place } = scratchProject("old");
    const fs: FileSystem = {
      ...nodeFileSystem,
      create(file, content) {
        if (file.endsWith(path.join("src", "demo", "types.ts")))
          throw Object.assign(new Error("EACCES"), { code: "EACCES", syscall: "open", path: file });
        nodeFileSystem.create(file, content);
      },
    };
    expect(() => writeOutput(place, changeTo(root, "new"), {}, fs)).toThrow(
      "generated/src/demo/types.ts: cannot write: permission denied (EACCES)\n  check the permissions and the owner of the folder; nothing was changed",
    );
    expect(stateOf(root)).toEqual(OLD);
  });
});

describe("what a repository may have committed in generated/", () => {
  /** A lock left by a dead run (this thread's, with a token no lock of it holds), with a committed plan. */
  function planted(root: string, plan: object): void {
    const lock = path.join(root, "generated/.agentwire");
    mkdirSync(path.join(lock, "new"), { recursive: true });
    writeFileSync(
      path.join(lock, "owner.json"),
      JSON.stringify({ pid: process.pid, thread: threadId, host: hostname(), token: "dead", since: "then" }),
    );
    writeFileSync(path.join(lock, "committed.json"), JSON.stringify(plan));
  }

  it.each([
    [{ tops: ["../../escape"], replaced: [] }, '"../../escape" is not a name of a file in generated/'],
    [{ tops: [], replaced: ["../outside.json"] }, '"../outside.json" is not a file of the folders agentwire writes'],
    [{ tops: [], replaced: ["generated/src/x.ts"] }, '"generated/src/x.ts" is not a file of the folders agentwire writes'],
    [{ tops: "src" }, 'it needs "tops" and "replaced", arrays of strings'],
  ])("refuses a plan that would reach out of its place: %j", async (plan, why) => {
    const { root, place } = scratchProject("old");
    planted(root, plan);
    expect(await inputError(() => nextRun(place))).toBe(
      `generated/.agentwire-${process.pid}-${threadId}-${"x".repeat(16)}/committed.json: not a plan agentwire wrote: ${why}\n  remove generated/.agentwire-${process.pid}-${threadId}-${"x".repeat(16)}/ and run agentwire generate`.replace(
        /x{16}/g,
        (await leftoverToken(root)) ?? "",
      ),
    );
  });
});

async function leftoverToken(root: string): Promise<string | undefined> {
  return readdirSync(path.join(root, "generated"))
    .map((name) => /^\.agentwire-\d+-\d+-([0-9a-f]+)$/.exec(name)?.[1])
    .find((token) => token !== undefined);
}
