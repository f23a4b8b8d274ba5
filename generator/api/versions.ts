import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { InputError } from "../errors.js";
import type { Ir } from "../ir/model.js";
import { readJson } from "../json.js";
import { readConfig } from "../load/config.js";
import type { LoadedProtocol, OpenProject, Schemas } from "../load/index.js";
import { loadSchemas, openProject, readSource } from "../load/index.js";
import { intermediate } from "../pipeline.js";

/**
 * The versions of a protocol that `diff` and `update` compare, as IRs: a project's
 * schemas as they are, as they were at a git revision, or one schema file on its own.
 */

/** Every protocol of a project, by name, as IR. */
export function projectIrs(schemas: Schemas): Map<string, Ir> {
  const irs = new Map<string, Ir>();
  for (const protocol of schemas.protocols) irs.set(protocol.config.name, intermediate(schemas, protocol));
  return irs;
}

/**
 * One schema file as the IR of protocol `name`. With `like`, the file stands in for that
 * protocol's schema, with its overlays. Its URL refs read the project's `remotes`, where there is a project. Messages
 * name the file relative to `cwd`. The file is the user's to name, wherever it is: its
 * real path is read, and its refs stay in its folder.
 */
export function fileIr(cwd: string, file: string, name: string, like?: LoadedProtocol, remotes: Schemas["remotes"] = []): Ir {
  const root = realPathOf(cwd);
  const absolute = realPathOf(path.resolve(root, file));
  const protocol: LoadedProtocol = {
    config: {
      pointer: "",
      name,
      schema: path.basename(absolute),
      overlays: like?.config.overlays ?? [],
      externalSchemas: like?.config.externalSchemas ?? [],
    },
    schema: readSource(root, absolute),
    overlays: like?.overlays ?? [],
    externalSchemas: like?.externalSchemas ?? [],
  };
  return intermediate({ root, inputsDir: path.dirname(absolute), protocols: [protocol], remotes }, protocol);
}

/** A path with its links resolved; as it is where it does not exist, for the read to say so. */
function realPathOf(at: string): string {
  try {
    return realpathSync(at);
  } catch {
    return at;
  }
}

/**
 * The project's schemas as they were at a git revision: the config at that revision, and
 * the folders of the files it names, are read from git into a scratch folder, loaded from
 * there, and removed. Problems in that version name the revision:
 * `origin/main:schemas/acme.schema.json#/…`.
 */
export function irsAtRevision(project: OpenProject, revision: string): Map<string, Ir> {
  const root = project.folder.root;
  const configFile = project.config.file;
  const show = (file: string) => git(root, revision, ["show", `${revision}:./${file}`]);
  git(root, revision, ["rev-parse", "--verify", "--quiet", `${revision}^{commit}`]);
  const scratch = mkdtempSync(path.join(tmpdir(), "agentwire-revision-"));
  try {
    const config = gitConfig(root, revision, configFile);
    const files = [configFile, ...gitFiles(root, revision, config)];
    for (const file of files) {
      mkdirSync(path.dirname(path.join(scratch, file)), { recursive: true });
      writeFileSync(path.join(scratch, file), file === configFile ? config.bytes : show(file));
    }
    return projectIrs(loadSchemas(openProject(path.join(scratch, configFile))));
  } catch (error) {
    if (error instanceof InputError) throw error.relocated((location) => ({ ...location, file: `${revision}:${location.file}` }));
    throw error;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** The config at the revision, read and checked. */
function gitConfig(root: string, revision: string, file: string): { readonly bytes: Buffer; readonly folders: readonly string[] } {
  const listed = git(root, revision, ["ls-tree", "--name-only", "-z", revision, "--", file]).toString("utf8");
  if (listed === "") throw new InputError({ file }, "no such file at that revision");
  const bytes = git(root, revision, ["show", `${revision}:./${file}`]);
  const config = readConfig(readJson(bytes, file), file);
  // The folder of each file the config names, where the files its refs read lie too.
  const folders = [
    ...config.protocols.flatMap((protocol) => [protocol.schema, ...protocol.overlays].map((name) => path.posix.dirname(name))),
    ...config.remotes.map((remote) => remote.folder),
  ];
  return { bytes, folders: [...new Set(folders)].sort() };
}

/** The files at the revision in the folders the config names, relative to the project root. */
function gitFiles(root: string, revision: string, config: { readonly folders: readonly string[] }): string[] {
  const listed = git(root, revision, ["ls-tree", "-r", "-z", "--name-only", "--full-name", revision, "--", ...config.folders]).toString(
    "utf8",
  );
  const prefix = git(root, revision, ["rev-parse", "--show-prefix"]).toString("utf8").trim();
  return listed
    .split("\0")
    .filter((file) => file !== "" && file.startsWith(prefix))
    .map((file) => file.slice(prefix.length));
}

function git(cwd: string, revision: string, args: readonly string[]): Buffer {
  try {
    return execFileSync("git", args, { cwd, stdio: ["ignore", "pipe", "pipe"], maxBuffer: 64 * 1024 * 1024 });
  } catch (error) {
    const stderr = (error as { stderr?: Buffer }).stderr?.toString("utf8").trim();
    const problem =
      (error as NodeJS.ErrnoException).code === "ENOENT" ? "git is not installed" : stderr || "not a commit of this repository";
    throw new InputError({ file: revision }, `cannot read this revision: ${problem}`, "name a commit, branch or tag of the repository");
  }
}
