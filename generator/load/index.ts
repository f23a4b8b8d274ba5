import { createHash } from "node:crypto";
import { realpathSync } from "node:fs";
import path from "node:path";
import { InputError, InputErrorList } from "../errors.js";
import type { SourceLocation } from "../errors.js";
import type { Folder } from "../files/folder.js";
import { isWithin, locateIn, locateInside, nameOf, whyOutside } from "../files/folder.js";
import { nodeFileSystem } from "../files/fs.js";
import { describeFileError } from "../files/problem.js";
import { CONFIG_FILE, projectFolder, projectOf, TOOL_ROOT } from "../files/project.js";
import type { JsonObject, JsonValue } from "../json.js";
import { isJsonObject, readJson } from "../json.js";
import { appendPointer } from "../pointer.js";
import type { Config, OutputConfig, ProtocolConfig } from "./config.js";
import { readConfig } from "./config.js";

export type { Config, OutputConfig, PackageConfig, ProtocolConfig } from "./config.js";

/** A JSON file as read: its path for messages and headers, and its parsed content. */
export interface SourceFile {
  /** Relative to the project root, with forward slashes: "schemas/acme.schema.json". */
  readonly file: string;
  /** The real path it was read from: no symbolic link on the way. */
  readonly absolutePath: string;
  readonly document: JsonValue;
  readonly sha256: string;
}

export interface LoadedProtocol {
  readonly config: ProtocolConfig;
  readonly schema: SourceFile;
  readonly overlays: readonly SourceFile[];
  /** The schemas its refs may name by `$id` (the config's `externalSchemas`). */
  readonly externalSchemas: readonly SourceFile[];
}

/** The generated code's own files, from agentwire's `templates/`. */
export interface Templates {
  readonly manifest: JsonObject;
  readonly tsconfig: JsonObject;
  readonly readme: string;
  /**
   * The modules the protocols' generated code shares, as TypeScript source, by their path
   * under `templates/` (`runtime.ts`, `stream/read.ts`), in the order of their paths.
   */
  readonly modules: ReadonlyMap<string, string>;
}

/** A base URL whose documents are vendored in a folder of the project (the config's `remotes`). */
export interface Remote {
  /** An absolute URL ending in "/": "http://localhost:1234/". */
  readonly base: string;
  /** The folder's real path. */
  readonly folder: string;
}

/** The protocols of a project, as its config lists them. */
export interface Schemas {
  /** The project's real path, the config's folder: generated paths and messages are relative to it. */
  readonly root: string;
  /** The folder every file read is inside: the project (a link is followed only where it stays inside). */
  readonly inputsDir: string;
  readonly protocols: readonly LoadedProtocol[];
  /** Longest base first, so that the first whose base a URL starts with is the closest. */
  readonly remotes: readonly Remote[];
  /** The output folder's real path, in a project's schemas: no file read is in it, since agentwire replaces it. */
  readonly outputDir?: string;
}

/** Everything a generation reads: the schemas, where the output goes, and agentwire's templates. */
export interface Project extends Schemas {
  readonly output: OutputConfig;
  readonly templates: Templates;
}

/** A project's config, read and checked: no schema has been read yet. */
export interface OpenProject {
  /** The config's folder, by real path. */
  readonly folder: Folder;
  readonly config: {
    /** The config's real path. */
    readonly path: string;
    /** As messages name it, relative to the project: "agentwire.config.json". */
    readonly file: string;
    readonly text: string;
    readonly value: Config;
  };
  /** The folder the bindings are written to; it may not exist yet. */
  readonly output: Folder;
}

/** A project opened, or the folder whose `agentwire.config.json` opens it. */
export type ProjectSource = OpenProject | string;

/** The project a folder's `agentwire.config.json` opens, or the one given. */
function opened(project: ProjectSource): OpenProject {
  return typeof project === "string" ? openProject(path.join(project, CONFIG_FILE)) : project;
}

/** Reads and checks a config (`agentwire.config.json`, or the file `--config` names): the project it opens. */
export function openProject(configPath: string): OpenProject {
  const folder = projectOf(configPath);
  const name = path.basename(configPath);
  const location = locateInside(folder, name, { file: name }, "the project");
  let bytes: Buffer | undefined;
  const source = readSource(folder.root, location.path, undefined, (file) => (bytes = nodeFileSystem.read(file)));
  const value = readConfig(source.document, source.file);
  const output = projectFolder(folder, value.output.folder, { file: source.file, pointer: "/output/folder" });
  return { folder, config: { path: location.path, file: source.file, text: bytes!.toString("utf8"), value }, output };
}

/** Reads a project: its schemas and overlays, and agentwire's templates. */
export function load(source: ProjectSource, read?: ReadFile): Project {
  const project = opened(source);
  return { ...loadSchemas(project, read), output: project.config.value.output, templates: loadTemplates() };
}

/** How a file's bytes are read: from the disk, or, for `update`, a new version in memory first. */
export type ReadFile = (absolutePath: string) => Buffer;

/** Reads every schema and overlay the config names, and checks its remotes' folders. */
export function loadSchemas(source: ProjectSource, read: ReadFile = (file) => nodeFileSystem.read(file)): Schemas {
  const { folder, config, output } = opened(source);
  const root = folder.root;
  const input = (relative: string, where: SourceLocation): string => {
    const absolute = insideProject(folder, relative, where);
    if (isWithin(output.path, absolute))
      throw new InputError(
        where,
        `"${relative}" is inside the output folder ${nameOf(root, output.path)}/, which agentwire replaces`,
        "keep schemas and overlays out of the output folder",
      );
    return absolute;
  };
  // A file of one protocol that cannot be read does not hide another protocol's.
  const unread = new InputErrorList();
  const protocols = config.value.protocols.flatMap((entry): LoadedProtocol[] => {
    const at = entry.pointer;
    const readAt = (relative: string, pointer: string) => {
      const where = { file: config.file, pointer };
      return readSource(root, input(relative, where), where, read);
    };
    try {
      const schema = readAt(entry.schema, appendPointer(at, "schema"));
      const overlays = entry.overlays.map((overlay, i) => readAt(overlay, appendPointer(at, "overlays", i)));
      const externalSchemas = entry.externalSchemas.map((external, i) => readAt(external, appendPointer(at, "externalSchemas", i)));
      return [{ config: entry, schema, overlays, externalSchemas }];
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      unread.add(error);
      return [];
    }
  });
  unread.throwIfAny();
  const remotes = config.value.remotes.map(({ pointer, base, folder: relative }): Remote => {
    const where = { file: config.file, pointer };
    const absolute = input(relative, where);
    let isFolder: boolean | undefined;
    try {
      isFolder = nodeFileSystem.lstat(absolute).isDirectory();
    } catch {
      isFolder = undefined;
    }
    if (isFolder !== true)
      throw new InputError(
        where,
        `the folder of "${base}", ${nameOf(root, absolute)}/, ${isFolder === false ? "is a file" : "does not exist"}`,
        "vendor the documents of that base URL into a folder of the project, keeping their paths below the base",
      );
    return { base, folder: absolute };
  });
  return { root, inputsDir: root, protocols, remotes: remotes.sort((a, b) => b.base.length - a.base.length), outputDir: output.path };
}

/**
 * A protocol's pin: the sha256 its config entry records for its vendored schema, and the
 * one the schema has now. The config is a lockfile: `generate` records a changed schema's
 * sha256, `check` reports it as drift, and nothing else reads the pin.
 */
export interface Pin {
  readonly protocol: string;
  /** The protocol's entry in the config, a JSON Pointer: "/protocols/0". */
  readonly entry: string;
  /** The vendored schema, relative to the project root. */
  readonly file: string;
  readonly sha256: string;
  readonly pinned: string | undefined;
}

export function pinsOf(schemas: Schemas): Pin[] {
  return schemas.protocols.map(({ config, schema }) => ({
    protocol: config.name,
    entry: config.pointer,
    file: schema.file,
    sha256: schema.sha256,
    pinned: config.sha256,
  }));
}

const PROTOCOLS_PLACEHOLDER = "{{protocols}}";

/** agentwire's own templates, from the tool's folder: never the user's. */
function loadTemplates(): Templates {
  const root = realpathSync(TOOL_ROOT);
  const templates: Folder = { root, path: path.join(root, "templates") };
  const located = (name: string): string => locateInside(templates, name, { file: `templates/${name}` }, "the templates folder").path;
  const json = (name: string): JsonObject => {
    const source = readSource(root, located(name));
    if (!isJsonObject(source.document)) throw new InputError({ file: source.file }, "expected a JSON object");
    return source.document;
  };
  const text = (name: string): string => {
    const file = located(name);
    try {
      return nodeFileSystem.read(file).toString("utf8");
    } catch (error) {
      throw new InputError({ file: `templates/${name}` }, `cannot read this template: ${describeFileError(error)}`);
    }
  };
  const readme = text("README.md");
  if (!readme.includes(PROTOCOLS_PLACEHOLDER))
    throw new InputError(
      { file: "templates/README.md" },
      `the template must contain ${PROTOCOLS_PLACEHOLDER}, where the table of protocols goes`,
    );
  return { manifest: json("package.json"), tsconfig: json("tsconfig.json"), readme, modules: readModules(templates, text) };
}

/** The TypeScript modules of the templates folder and of its folders, one level down (`stream/`), by their paths. */
function readModules(templates: Folder, text: (name: string) => string): Map<string, string> {
  const names: string[] = [];
  const list = (folder: string): void => {
    for (const entry of nodeFileSystem.list(path.join(templates.path, folder))) {
      const name = folder === "" ? entry.name : `${folder}/${entry.name}`;
      if (entry.isFile() && name.endsWith(".ts")) names.push(name);
      else if (entry.isDirectory() && folder === "") list(name);
    }
  };
  list("");
  return new Map(names.sort().map((name) => [name, text(name)]));
}

/** A config path's real path, refusing one that leaves the project, by its text or through a link. */
export function insideProject(project: Folder, relative: string, where: SourceLocation): string {
  const location = path.isAbsolute(relative) ? undefined : locateIn(project, relative, where);
  if (location === undefined || !location.inside || location.path === project.path) {
    const why = location === undefined || location.inside ? "" : whyOutside(project.root, location);
    throw new InputError(
      where,
      why === "" ? `"${relative}" is outside the project` : `"${relative}" leads outside the project: ${why}`,
      "vendor the file into the project, the config's folder, and name it relative to the config",
    );
  }
  return location.path;
}

/**
 * Reads a JSON file at its real path (a caller found it, and confined it where it must be):
 * a link there now, a folder, a pipe or a device is refused, never followed or waited on.
 */
export function readSource(
  root: string,
  absolutePath: string,
  referrer?: { file: string; pointer: string },
  read: ReadFile = (file) => nodeFileSystem.read(file),
): SourceFile {
  const file = path.relative(root, absolutePath).split(path.sep).join("/");
  let bytes: Buffer;
  try {
    bytes = read(absolutePath);
  } catch (error) {
    const reason = describeFileError(error);
    throw new InputError(referrer ?? { file }, `cannot read ${file}: ${reason}`, "vendor the file there, or correct the path");
  }
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  return { file, absolutePath, document: readJson(bytes, file), sha256 };
}
