import { spawn, spawnSync } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { FileSystem } from "../../generator/files/fs.js";
import { nodeFileSystem } from "../../generator/files/fs.js";
import { lockOutput } from "../../generator/files/lock.js";
import { withOutput, writeOutput } from "../../generator/files/output.js";
import { run, snapshot } from "../helpers/cli.js";
import { changeTo, killedAfter, scratchProject, stateOf, wholeState } from "../helpers/files.js";
import { inputError } from "../helpers/failure.js";
import { CONFIG_FILE, configFor, makeProject, REPO } from "../helpers/project.js";

/** One agentwire at a time in generated/: the next waits, a dead one's lock is taken over, and git never sees one. */

const BIN = path.join(REPO, "bin/agentwire.js");

/** A process that stays alive until killed, and its pid: the owner of a live lock. */
async function liveProcess(): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000); console.log('up')"], { stdio: ["ignore", "pipe", "ignore"] });
  await new Promise((resolve) => child.stdout!.once("data", resolve));
  return child;
}

/** The pid of a process that has ended, and been reaped. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
  await new Promise((resolve) => child.once("exit", resolve));
  return child.pid!;
}

/** A lock of `pid`'s, as agentwire makes one, in a project's generated/. */
function plantLock(output: string, pid: number): void {
  const lock = path.join(output, ".agentwire");
  mkdirSync(lock, { recursive: true });
  writeFileSync(path.join(lock, ".gitignore"), "*\n");
  writeFileSync(
    path.join(lock, "owner.json"),
    JSON.stringify({ pid, thread: 0, host: hostname(), token: "0123abcd", since: "2024-01-01T00:00:00.000Z" }),
  );
}

const demo = () =>
  makeProject({
    [CONFIG_FILE]: configFor([{ name: "demo", schema: "schemas/demo.schema.json" }]),
    "schemas/demo.schema.json": { type: "object", properties: { id: { type: "string" } } },
  });

describe("two runs at once", () => {
  it("two agentwire generate processes: each waits its turn, both succeed, and generated/ is whole", async () => {
    const root = demo();
    expect((await run(root, "generate")).code).toBe(0);
    writeFileSync(
      path.join(root, "schemas/demo.schema.json"),
      JSON.stringify({ type: "object", properties: { name: { type: "string" } } }),
    );
    // A third run holds the lock when both start, so that they meet whatever this machine's timing: both wait for
    // it; it dies; both find its lock stale at once, one takes it over, and the other waits for that one.
    const holder = await liveProcess();
    plantLock(path.join(root, "generated"), holder.pid!);
    const generates = [0, 1].map(() => {
      const child = spawn(process.execPath, [BIN, "generate"], { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
      let err = "";
      const waiting = new Promise<void>((resolve) =>
        child.stderr.on("data", (chunk: Buffer) => {
          err += chunk.toString();
          if (err.includes("waiting")) resolve();
        }),
      );
      const exited = new Promise<{ code: number | null; err: string }>((resolve) => child.once("exit", (code) => resolve({ code, err })));
      // One that never waits, exits: then the results say so.
      return { waiting: Promise.race([waiting, exited]), exited };
    });
    await Promise.all(generates.map(({ waiting }) => waiting));
    holder.kill("SIGKILL");
    const results = await Promise.all(generates.map(({ exited }) => exited));
    expect(results).toEqual([
      { code: 0, err: `agentwire: waiting for agentwire (pid ${holder.pid}) to finish writing generated/\n` },
      { code: 0, err: `agentwire: waiting for agentwire (pid ${holder.pid}) to finish writing generated/\n` },
    ]);
    expect(await run(root, "check")).toMatchObject({ code: 0 });
    expect(readdirSync(path.join(root, "generated")).sort()).toEqual(["README.md", "package.json", "sources.json", "src", "tsconfig.json"]);
  });

  it("a lock held by a live run: waits, says so once, then fails with exit 2 naming it", async () => {
    const { root, place } = scratchProject("old");
    const owner = await liveProcess();
    try {
      plantLock(place.output.path, owner.pid!);
      const waits: string[] = [];
      expect(
        await inputError(() => lockOutput(place, { mode: "write", waitMs: 300, onWait: (message) => waits.push(message) }, nodeFileSystem)),
      ).toBe(
        `generated/.agentwire/: another agentwire (pid ${owner.pid}) has been writing generated/ since 2024-01-01T00:00:00.000Z\n` +
          "  wait for it to finish and run this again; if no agentwire is running, remove generated/.agentwire/",
      );
      expect(waits).toEqual([`waiting for agentwire (pid ${owner.pid}) to finish writing generated/`]);
      expect(stateOf(root)).toEqual({
        ...wholeState("old"),
        "generated/.agentwire/.gitignore": "*\n",
        "generated/.agentwire/owner.json": expect.any(String),
      });
    } finally {
      owner.kill();
    }
  });

  it("a lock whose run has died is taken over: the command goes on, and nothing of it is left", async () => {
    const root = demo();
    expect((await run(root, "generate")).code).toBe(0);
    plantLock(path.join(root, "generated"), await deadPid());
    const before = snapshot(path.join(root, "generated"));
    expect(await run(root, "check")).toMatchObject({ code: 0, err: "" });
    expect(await run(root, "generate")).toMatchObject({ code: 0, err: "" });
    expect(readdirSync(path.join(root, "generated")).sort()).toEqual(["README.md", "package.json", "sources.json", "src", "tsconfig.json"]);
    expect(Object.keys(snapshot(path.join(root, "generated"))).filter((file) => !file.includes(".agentwire"))).toEqual(
      Object.keys(before).filter((file) => !file.includes(".agentwire")),
    );
  });
});

describe("what a run leaves", () => {
  it("removes the staging folders of earlier agentwire versions, which nothing removed", async () => {
    const root = demo();
    expect((await run(root, "generate")).code).toBe(0);
    mkdirSync(path.join(root, "generated/.staging-x1Yz9/.retired/src"), { recursive: true });
    writeFileSync(path.join(root, "generated/.staging-x1Yz9/.retired/src/old.ts"), "old");
    expect(await run(root, "check")).toMatchObject({ code: 0 });
    expect(readdirSync(path.join(root, "generated")).filter((name) => name.startsWith("."))).toEqual([]);
  });

  it("git sees none of what a kill leaves, after any step: every folder of a run holds a .gitignore of *", () => {
    const { root, place } = scratchProject("old");
    const git = (...args: string[]) => spawnSync("git", args, { cwd: root, encoding: "utf8" });
    git("init", "-q");
    git("add", "-A");
    const clean = git("status", "--porcelain", "--untracked-files=all").stdout;
    const steps = (() => {
      const counted = killedAfter(Infinity);
      const scratch = scratchProject("old");
      writeOutput(scratch.place, changeTo(scratch.root, "new"), {}, counted.fs);
      return counted.made();
    })();
    const seen: string[] = [];
    // Every fifth kill point (each phase has several); AGENTWIRE_EXHAUSTIVE=1, every one.
    const every = process.env["AGENTWIRE_EXHAUSTIVE"] === "1" ? 1 : 5;
    for (let k = 0; k < steps; k += every) {
      // The same project, back to the old version in git's eyes, killed after k steps.
      git("checkout", "-q", "--", ".");
      git("clean", "-q", "-fdx");
      try {
        writeOutput(place, changeTo(root, "new"), {}, killedAfter(k).fs);
      } catch {
        // killed
      }
      // What git would commit: the files the kill changed, never a file of the run's own.
      const status = git("status", "--porcelain", "--untracked-files=all").stdout;
      seen.push(...status.split("\n").filter((line) => line !== "" && !clean.includes(line)));
    }
    // A file of a run's own starts with ".agentwire" (the config, agentwire.config.json, is the user's, and changes).
    expect(seen.filter((line) => /\.agentwire|staging/.test(line))).toEqual([]);
    expect(seen.length).toBeGreaterThan(0);
  });
});

describe("a file system agentwire may not write to", () => {
  /** The file system of a read-only mount: every change fails with EROFS. */
  const readOnly: FileSystem = Object.fromEntries(
    Object.entries(nodeFileSystem).map(([name, call]) => [
      name,
      ["makeFolder", "create", "rename", "remove", "symlink"].includes(name)
        ? (file: string) => {
            throw Object.assign(new Error(`EROFS: ${name} '${file}'`), { code: "EROFS", syscall: name, path: file });
          }
        : call,
    ]),
  ) as unknown as FileSystem;

  it("is read without a lock, where nothing is left to recover", async () => {
    const { place } = scratchProject("old");
    expect(await withOutput(place, { mode: "read" }, async () => "read", readOnly)).toBe("read");
  });

  it("is refused, exit 2, where an interrupted write waits there and cannot be finished", async () => {
    const { root, place } = scratchProject("old");
    try {
      writeOutput(place, changeTo(root, "new"), {}, killedAfter(30).fs);
    } catch {
      // killed after its commit
    }
    expect(await inputError(() => withOutput(place, { mode: "read" }, async () => "read", readOnly))).toBe(
      "generated/: cannot lock it for writing: the file system is read-only (EROFS)\n  write to a file system mounted read-write; nothing was changed",
    );
  });
});

describe("in one process", () => {
  it("a second command on the same output in the same thread is a bug, said at once rather than waited on forever", async () => {
    const { root, place } = scratchProject("old");
    await withOutput(place, { mode: "write" }, async () => {
      expect(() => writeOutput(place, changeTo(root, "new"))).toThrow(/^this thread holds the lock of .* already/);
    });
    expect(stateOf(root)).toEqual(wholeState("old"));
  });
});
