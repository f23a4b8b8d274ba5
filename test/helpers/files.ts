import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { FileSystem } from "../../generator/files/fs.js";
import { nodeFileSystem } from "../../generator/files/fs.js";
import type { Change, Place } from "../../generator/files/output.js";
import { CONFIG_FILE } from "../../generator/files/project.js";
import { scratchFolder } from "./scratch.js";

/**
 * Scratch projects for the output's transaction and lock, without the pipeline: a config
 * at the root and a schema in schemas/, a generation in generated/ beside a dist/ that is
 * not agentwire's, and the change to a second generation with its pins.
 */

/**
 * Where they are made: in memory where the system has a tmpfs for it, since the crash tests
 * make thousands of changes to the disk and what they test is the order of the renames, the
 * same on any file system (seven times faster here than the disk); else in the temp folder.
 */
const SCRATCH = existsSync("/dev/shm") ? "/dev/shm" : tmpdir();

/** The files of one generation, `version` written into each, and `extra` more under src/ (for a longer write). */
export function generationOf(version: string, extra = 0): { path: string; content: string }[] {
  const files = [
    { path: "README.md", content: `# ${version}\n` },
    { path: "package.json", content: `{ "version": "${version}" }\n` },
    { path: "sources.json", content: `{ "sha256": "${version}" }\n` },
    { path: `src/${version}-only.ts`, content: `export const only = "${version}";\n` },
    { path: "src/demo/index.ts", content: `export const version = "${version}";\n` },
    { path: "src/demo/types.ts", content: `export type Version = "${version}";\n` },
    { path: "tsconfig.json", content: `{ "version": "${version}" }\n` },
  ];
  for (let i = 0; i < extra; i++)
    files.push({ path: `src/many/${String(i).padStart(4, "0")}.ts`, content: `export const v = "${version}";\n` });
  return files;
}

/** The config, agentwire.config.json, as a version pins it, and the schema of that version. */
export const configOf = (version: string) =>
  `{ "protocols": [{ "name": "demo", "schema": "schemas/demo.schema.json", "sha256": "${version}" }], "output": { "folder": "generated" } }\n`;
export const schemaOf = (version: string) => `{ "title": "${version}" }\n`;

/** A project at `version`: its generation in generated/, its config and schema, and generated/dist/; it writes in its whole folder. */
export function scratchProject(version: string, extra = 0): { root: string; place: Place } {
  const root = scratchFolder("agentwire-files-", SCRATCH);
  const write = (file: string, content: string) => {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), content);
  };
  for (const file of generationOf(version, extra)) write(`generated/${file.path}`, file.content);
  write("generated/dist/index.js", "built, not agentwire's\n");
  write(CONFIG_FILE, configOf(version));
  write("schemas/demo.schema.json", schemaOf(version));
  const place: Place = { output: { root, path: path.join(root, "generated") }, writable: [{ root, path: root }] };
  return { root, place };
}

/** The change from a project's version to `version`: the generation, the schema and the config's pins. */
export function changeTo(root: string, version: string, extra = 0): Change {
  return {
    files: generationOf(version, extra),
    replaced: [
      { path: path.join(root, "schemas/demo.schema.json"), content: schemaOf(version) },
      { path: path.join(root, CONFIG_FILE), content: configOf(version) },
    ],
  };
}

/** Every file of the project (a link by its text), to compare with a version's. */
export function stateOf(root: string): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else files[path.relative(root, full)] = entry.isFile() ? readFileSync(full, "utf8") : "<not a file>";
    }
  };
  walk(root);
  return files;
}

/** What a project at `version` holds, whole: a fresh one's state. */
export function wholeState(version: string, extra = 0): Record<string, string> {
  return stateOf(scratchProject(version, extra).root);
}

export class Killed extends Error {
  override readonly name = "Killed";
}

const MUTATING = new Set<keyof FileSystem>(["makeFolder", "create", "rename", "remove", "symlink"]);

/**
 * The file system of a process killed after `steps` changes to the disk: those are made,
 * and then every call throws, reads too, as a dead process makes none. `made` counts the
 * changes made so far (with `steps` Infinity, a whole run's).
 */
export function killedAfter(steps: number): { fs: FileSystem; made: () => number } {
  let count = 0;
  let dead = false;
  const fs = Object.fromEntries(
    (Object.keys(nodeFileSystem) as (keyof FileSystem)[]).map((name) => [
      name,
      (...args: unknown[]) => {
        if (dead) throw new Killed(`killed before ${name}`);
        if (MUTATING.has(name)) {
          if (count >= steps) {
            dead = true;
            throw new Killed(`killed before ${name}`);
          }
          count++;
        }
        return (nodeFileSystem[name] as (...args: unknown[]) => unknown)(...args);
      },
    ]),
  ) as unknown as FileSystem;
  return { fs, made: () => count };
}

/** A file system whose `step`-th change fails with `code` (ENOSPC, EACCES…), once; the others are made. */
export function failingAt(step: number, code: string): FileSystem {
  let count = 0;
  return Object.fromEntries(
    (Object.keys(nodeFileSystem) as (keyof FileSystem)[]).map((name) => [
      name,
      (...args: unknown[]) => {
        if (MUTATING.has(name) && count++ === step)
          throw Object.assign(new Error(`${code}: ${name} '${String(args[0])}'`), { code, syscall: name, path: String(args[0]) });
        return (nodeFileSystem[name] as (...args: unknown[]) => unknown)(...args);
      },
    ]),
  ) as unknown as FileSystem;
}
