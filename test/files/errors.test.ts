import { spawnSync } from "node:child_process";
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { nodeFileSystem } from "../../generator/files/fs.js";
import { run, snapshot } from "../helpers/cli.js";
import { CONFIG_FILE, configFor, makeProject } from "../helpers/project.js";

/**
 * The file system refusing a read or a write is an answer: exit 2, the file named, what
 * happened in words, and nothing half-written. The tests run as root, whom permissions do
 * not stop, so most failures come through the file-system seam (`files/fs.ts`); an
 * immutable folder (`chattr +i`, which stops root too) and files of the wrong kind are real.
 */

afterEach(() => {
  vi.restoreAllMocks();
});

function errnoError(code: string, syscall: string, file: string): Error {
  return Object.assign(new Error(`${code}: ${syscall} '${file}'`), { code, syscall, path: file });
}

/** A generated demo project, and what its folders hold. */
async function generated(): Promise<{ root: string; before: Record<string, string> }> {
  const root = makeProject({
    [CONFIG_FILE]: configFor([{ name: "demo", schema: "schemas/demo.schema.json" }]),
    "schemas/demo.schema.json": { type: "object", properties: { id: { type: "string" } } },
  });
  expect((await run(root, "generate")).code).toBe(0);
  // An edit, so that generate has something to write and to pin.
  writeFileSync(path.join(root, "schemas/demo.schema.json"), JSON.stringify({ type: "object", properties: { name: { type: "string" } } }));
  return { root, before: snapshot(root) };
}

const HINTS: Readonly<Record<string, string>> = {
  EACCES: "check the permissions and the owner of the folder; ",
  EPERM: "check the permissions and the owner of the folder, and that nothing holds the file; ",
  ENOSPC: "free some space on the device; ",
  EDQUOT: "free some space, or raise the quota; ",
  EROFS: "write to a file system mounted read-write; ",
  EIO: "",
};

describe("writing generated/", () => {
  it.each([
    ["EACCES", "permission denied"],
    ["EPERM", "the operation is not permitted"],
    ["ENOSPC", "no space left on the device"],
    ["EDQUOT", "the disk quota is used up"],
    ["EROFS", "the file system is read-only"],
    ["EIO", "the device reported an input/output error"],
  ])("%s: exit 2, the file and what happened, and nothing changed", async (code, words) => {
    const { root, before } = await generated();
    const create = nodeFileSystem.create;
    vi.spyOn(nodeFileSystem, "create").mockImplementation((file, content) => {
      if (file.endsWith(path.join("new", "src", "demo", "types.ts"))) throw errnoError(code, "open", file);
      create(file, content);
    });
    const result = await run(root, "generate");
    expect(result).toEqual({
      code: 2,
      out: "",
      err: `agentwire generate: generated/src/demo/types.ts: cannot write: ${words} (${code})\n  ${HINTS[code]}nothing was changed\n`,
    });
    expect(snapshot(root)).toEqual(before);
  });

  it("ENOSPC on the pins: the config named, generated/ and the config as they were", async () => {
    const { root, before } = await generated();
    const create = nodeFileSystem.create;
    vi.spyOn(nodeFileSystem, "create").mockImplementation((file, content) => {
      if (file.endsWith(path.join(".agentwire-new", CONFIG_FILE))) throw errnoError("ENOSPC", "write", file);
      create(file, content);
    });
    expect((await run(root, "generate")).err).toBe(
      "agentwire generate: agentwire.config.json: cannot write: no space left on the device (ENOSPC)\n  free some space on the device; nothing was changed\n",
    );
    expect(snapshot(root)).toEqual(before);
  });

  it("a file where generated/ goes (ENOTDIR): exit 2, the file left as it is", async () => {
    const root = makeProject({
      [CONFIG_FILE]: configFor([{ name: "demo", schema: "schemas/demo.schema.json" }]),
      "schemas/demo.schema.json": { type: "string" },
      generated: "not a folder",
    });
    expect(await run(root, "generate")).toEqual({
      code: 2,
      out: "",
      err: "agentwire generate: generated/: it is a file, not a folder\n  move it away: agentwire writes generated/ as a folder\n",
    });
    expect(snapshot(root)["generated"]).toBe("not a folder");
  });

  it("a folder where a generated file goes (EISDIR): replaced, as the file would be", async () => {
    const { root } = await generated();
    rmSync(path.join(root, "generated/package.json"));
    mkdirSync(path.join(root, "generated/package.json/inside"), { recursive: true });
    expect((await run(root, "generate")).code).toBe(0);
    expect(await run(root, "check")).toMatchObject({ code: 0 });
  });

  describe("an immutable folder (chattr +i), which root may not change either", () => {
    const chattr = (flag: string, target: string) => spawnSync("chattr", [flag, target]).status === 0;

    it.each([
      ["generated", "generated/: cannot lock it for writing"],
      ["generated/src", "generated/src: cannot move"],
    ])("%s: exit 2 with EPERM, and nothing half-written", async (folder, where) => {
      const { root, before } = await generated();
      if (!chattr("+i", path.join(root, folder))) return; // no chattr here, or a file system without the flag
      try {
        const result = await run(root, "generate");
        expect(result).toEqual({
          code: 2,
          out: "",
          err: `agentwire generate: ${where}: the operation is not permitted (EPERM)\n  ${HINTS["EPERM"]}nothing was changed\n`,
        });
        expect(snapshot(root)).toEqual(before);
        expect(readdirSync(path.join(root, "generated")).filter((name) => name.startsWith("."))).toEqual([]);
      } finally {
        chattr("-i", path.join(root, folder));
      }
    });
  });
});

describe("reading", () => {
  const project = (schema: string | object) =>
    makeProject({
      [CONFIG_FILE]: configFor([{ name: "demo", schema: "schemas/demo.schema.json" }]),
      "schemas/demo.schema.json": schema,
    });
  const refused = (problem: string) =>
    `agentwire generate: agentwire.config.json#/protocols/0/schema: cannot read schemas/demo.schema.json: ${problem}\n  vendor the file there, or correct the path\n`;

  it("a schema that is a folder", async () => {
    const root = project({});
    rmSync(path.join(root, "schemas/demo.schema.json"));
    mkdirSync(path.join(root, "schemas/demo.schema.json"));
    expect(await run(root, "generate")).toEqual({ code: 2, out: "", err: refused("it is a folder, not a file (EISDIR)") });
  });

  it("a schema that is a named pipe: refused at once, never waited on", async () => {
    const root = project({});
    rmSync(path.join(root, "schemas/demo.schema.json"));
    execFileSync("mkfifo", [path.join(root, "schemas/demo.schema.json")]);
    expect(await run(root, "generate")).toEqual({
      code: 2,
      out: "",
      err: refused("it is not a regular file (a pipe, a device or a socket)"),
    });
  });

  it.each([
    ["EACCES", "permission denied (EACCES)"],
    ["EIO", "the device reported an input/output error (EIO)"],
  ])("a schema that cannot be read: %s", async (code, problem) => {
    const root = project({ type: "string" });
    const read = nodeFileSystem.read;
    vi.spyOn(nodeFileSystem, "read").mockImplementation((file) => {
      if (file.endsWith("demo.schema.json")) throw errnoError(code, "open", file);
      return read(file);
    });
    expect(await run(root, "generate")).toEqual({ code: 2, out: "", err: refused(problem) });
  });

  it("a folder of the project that may not be looked into", async () => {
    const root = makeProject({
      [CONFIG_FILE]: configFor([{ name: "demo", schema: "schemas/vendor/demo.schema.json" }]),
      "schemas/vendor/demo.schema.json": { type: "string" },
    });
    const lstat = nodeFileSystem.lstat;
    vi.spyOn(nodeFileSystem, "lstat").mockImplementation((file) => {
      if (file.endsWith(path.join("vendor", "demo.schema.json"))) throw errnoError("EACCES", "lstat", file);
      return lstat(file);
    });
    expect((await run(root, "generate")).err).toBe(
      "agentwire generate: agentwire.config.json#/protocols/0/schema: cannot follow schemas/vendor/demo.schema.json: permission denied (EACCES)\n",
    );
  });

  it("a generated file check cannot read", async () => {
    const { root } = await generated();
    const read = nodeFileSystem.read;
    vi.spyOn(nodeFileSystem, "read").mockImplementation((file) => {
      if (file.endsWith(path.join("generated", "src", "demo", "types.ts"))) throw errnoError("EACCES", "open", file);
      return read(file);
    });
    expect(await run(root, "check")).toEqual({
      code: 2,
      out: "",
      err: "agentwire check: generated/src/demo/types.ts: cannot read it: permission denied (EACCES)\n",
    });
  });

  it("any other file-system error is an answer too, naming the file, not a stack trace", async () => {
    const { root } = await generated();
    const list = nodeFileSystem.list;
    vi.spyOn(nodeFileSystem, "list").mockImplementation((folder) => {
      if (folder.endsWith(path.join("generated", "src"))) throw errnoError("EACCES", "scandir", folder);
      return list(folder);
    });
    expect(await run(root, "check")).toEqual({
      code: 2,
      out: "",
      err: "agentwire check: generated/src: cannot scandir: permission denied (EACCES)\n",
    });
  });
});
