import { createHash } from "node:crypto";
import { realpathSync } from "node:fs";
import path from "node:path";
import { InputError, InputErrorList } from "../errors.js";
import type { SourceLocation } from "../errors.js";
import type { Folder } from "../files/folder.js";
import { locateIn, locateInside, nameOf, whyOutside } from "../files/folder.js";
import { nodeFileSystem } from "../files/fs.js";
import { describeFileError } from "../files/problem.js";
import { CONFIG_FILE, projectFolder } from "../files/project.js";
import type { JsonObject, JsonValue } from "../json.js";
import { isJsonObject, readJson } from "../json.js";
import { appendPointer } from "../pointer.js";
import type { ProtocolConfig } from "./config.js";
import { readConfig } from "./config.js";

export type { ProtocolConfig } from "./config.js";

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
}

/** The generated package's own files, from `templates/`. */
export interface Templates {
  readonly manifest: JsonObject;
  readonly tsconfig: JsonObject;
  readonly readme: string;
  /** The helpers every protocol's generated code shares, as TypeScript source. */
  readonly runtime: string;
  /** The reader and verifier the protocols' stream modules share, as TypeScript source. */
  readonly stream: string;
  /** The assembler the protocols' stream modules share, as TypeScript source. */
  readonly assemble: string;
  /** The JSON Patch applier the assembler patches with, as TypeScript source. */
  readonly patch: string;
}

/** A base URL whose documents are vendored in a folder of `schemas/` (the config's `remotes`). */
export interface Remote {
  /** An absolute URL ending in "/": "http://localhost:1234/". */
  readonly base: string;
  /** The folder's real path. */
  readonly folder: string;
}

/** The protocols of a project, as its config lists them. */
export interface Schemas {
  /** The folder holding `schemas/`, by its real path; generated paths and messages are relative to it. */
  readonly root: string;
  /** The real path of `schemas/`: what is read is inside it, links followed only where they stay inside. */
  readonly schemasDir: string;
  readonly protocols: readonly LoadedProtocol[];
  /** Longest base first, so that the first whose base a URL starts with is the closest. */
  readonly remotes: readonly Remote[];
}

export interface Project extends Schemas {
  readonly templates: Templates;
}

export { CONFIG_FILE } from "../files/project.js";

/** Reads `schemas/protocols.json`, every schema and overlay it names, and `templates/`. */
export function load(root: string): Project {
  const schemas = loadSchemas(root);
  return { ...schemas, templates: loadTemplates(schemas.root) };
}

/** Reads `schemas/protocols.json` and every schema and overlay it names. */
export function loadSchemas(root: string): Schemas {
  const project = realpathSync(root);
  const schemas = projectFolder(project, "schemas");
  const configFile = readSource(project, insideSchemas(schemas, CONFIG_FILE, { file: `schemas/${CONFIG_FILE}` }));
  const config = readConfig(configFile.document, configFile.file);
  // A file of one protocol that cannot be read does not hide another protocol's.
  const unread = new InputErrorList();
  const protocols = config.protocols.flatMap((config): LoadedProtocol[] => {
    const at = config.pointer;
    const read = (relative: string, pointer: string) =>
      readSource(project, insideSchemas(schemas, relative, { file: configFile.file, pointer }), { file: configFile.file, pointer });
    try {
      const schema = read(config.schema, appendPointer(at, "schema"));
      const overlays = config.overlays.map((overlay, i) => read(overlay, appendPointer(at, "overlays", i)));
      return [{ config, schema, overlays }];
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      unread.add(error);
      return [];
    }
  });
  unread.throwIfAny();
  const remotes = config.remotes.map(({ pointer, base, folder }): Remote => {
    const where = { file: configFile.file, pointer };
    const absolute = insideSchemas(schemas, folder, where);
    let isFolder: boolean | undefined;
    try {
      isFolder = nodeFileSystem.lstat(absolute).isDirectory();
    } catch {
      isFolder = undefined;
    }
    if (isFolder !== true)
      throw new InputError(
        where,
        `the folder of "${base}", ${nameOf(project, absolute)}/, ${isFolder === false ? "is a file" : "does not exist"}`,
        "vendor the documents of that base URL into a folder of schemas/, keeping their paths below the base",
      );
    return { base, folder: absolute };
  });
  return { root: project, schemasDir: schemas.path, protocols, remotes: remotes.sort((a, b) => b.base.length - a.base.length) };
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

function loadTemplates(root: string): Templates {
  const templates = projectFolder(root, "templates");
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
  return {
    manifest: json("package.json"),
    tsconfig: json("tsconfig.json"),
    readme,
    runtime: text("runtime.ts"),
    stream: text("stream.ts"),
    assemble: text("assemble.ts"),
    patch: text("patch.ts"),
  };
}

/** A config path's real path, refusing one that leaves the schemas folder, by its text or through a link. */
export function insideSchemas(schemas: Folder, relative: string, where: SourceLocation): string {
  const location = path.isAbsolute(relative) ? undefined : locateIn(schemas, relative, where);
  if (location === undefined || !location.inside || location.path === schemas.path) {
    const why = location === undefined || location.inside ? "" : whyOutside(schemas.root, location);
    throw new InputError(
      where,
      why === "" ? `"${relative}" is outside the schemas folder` : `"${relative}" leads outside the schemas folder: ${why}`,
      "vendor the file into schemas/ and name it relative to that folder",
    );
  }
  return location.path;
}

/**
 * Reads a JSON file at its real path (a caller found it, and confined it where it must be):
 * a link there now, a folder, a pipe or a device is refused, never followed or waited on.
 */
export function readSource(root: string, absolutePath: string, referrer?: { file: string; pointer: string }): SourceFile {
  const file = path.relative(root, absolutePath).split(path.sep).join("/");
  let bytes: Buffer;
  try {
    bytes = nodeFileSystem.read(absolutePath);
  } catch (error) {
    const reason = describeFileError(error);
    throw new InputError(referrer ?? { file }, `cannot read ${file}: ${reason}`, "vendor the file there, or correct the path");
  }
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  return { file, absolutePath, document: readJson(bytes, file), sha256 };
}
