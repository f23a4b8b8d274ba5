import { createHash } from "node:crypto";
import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { InputError } from "../errors.js";
import type { JsonObject, JsonValue } from "../json.js";
import { isJsonObject, readJson } from "../json.js";
import { appendPointer } from "../schema/pointer.js";
import type { ProtocolConfig } from "./config.js";
import { readConfig } from "./config.js";

export type { ProtocolConfig } from "./config.js";

/** A JSON file as read: its path for messages and headers, and its parsed content. */
export interface SourceFile {
  /** Relative to the project root, with forward slashes: "schemas/acme.schema.json". */
  readonly file: string;
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
}

/** A base URL whose documents are vendored in a folder of `schemas/` (the config's `remotes`). */
export interface Remote {
  /** An absolute URL ending in "/": "http://localhost:1234/". */
  readonly base: string;
  /** The folder's absolute path. */
  readonly folder: string;
}

/** The protocols of a project, as its config lists them. */
export interface Schemas {
  /** The folder holding `schemas/`; generated paths and messages are relative to it. */
  readonly root: string;
  readonly schemasDir: string;
  readonly protocols: readonly LoadedProtocol[];
  /** Longest base first, so that the first whose base a URL starts with is the closest. */
  readonly remotes: readonly Remote[];
}

export interface Project extends Schemas {
  readonly templates: Templates;
}

export const CONFIG_FILE = "protocols.json";

/** Reads `schemas/protocols.json`, every schema and overlay it names, and `templates/`. */
export function load(root: string): Project {
  return { ...loadSchemas(root), templates: loadTemplates(root) };
}

/** Reads `schemas/protocols.json` and every schema and overlay it names. */
export function loadSchemas(root: string): Schemas {
  const schemasDir = path.join(root, "schemas");
  const configFile = readSource(root, path.join(schemasDir, CONFIG_FILE));
  const config = readConfig(configFile.document, configFile.file);
  const protocols = config.protocols.map((config): LoadedProtocol => {
    const at = config.pointer;
    const read = (relative: string, pointer: string) =>
      readSource(root, insideSchemas(schemasDir, relative, { file: configFile.file, pointer }), { file: configFile.file, pointer });
    const schema = read(config.schema, appendPointer(at, "schema"));
    const overlays = config.overlays.map((overlay, i) => read(overlay, appendPointer(at, "overlays", i)));
    return { config, schema, overlays };
  });
  const remotes = config.remotes.map(({ pointer, base, folder }): Remote => {
    const where = { file: configFile.file, pointer };
    const absolute = insideSchemas(schemasDir, folder, where);
    let isFolder: boolean | undefined;
    try {
      isFolder = statSync(absolute).isDirectory();
    } catch {
      isFolder = undefined;
    }
    if (isFolder !== true)
      throw new InputError(
        where,
        `the folder of "${base}", ${path.relative(root, absolute).split(path.sep).join("/")}/, ${isFolder === false ? "is a file" : "does not exist"}`,
        "vendor the documents of that base URL into a folder of schemas/, keeping their paths below the base",
      );
    return { base, folder: absolute };
  });
  return { root, schemasDir, protocols, remotes: remotes.sort((a, b) => b.base.length - a.base.length) };
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
  const json = (name: string): JsonObject => {
    const source = readSource(root, path.join(root, "templates", name));
    if (!isJsonObject(source.document)) throw new InputError({ file: source.file }, "expected a JSON object");
    return source.document;
  };
  const text = (name: string): string => {
    try {
      return readFileSync(path.join(root, "templates", name), "utf8");
    } catch {
      throw new InputError({ file: `templates/${name}` }, "cannot read this template");
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
  };
}

/** Resolves a config path, refusing one that leaves the schemas folder. */
function insideSchemas(schemasDir: string, relative: string, where: { file: string; pointer: string }): string {
  const absolute = path.resolve(schemasDir, relative);
  if (path.isAbsolute(relative) || !absolute.startsWith(schemasDir + path.sep))
    throw new InputError(
      where,
      `"${relative}" is outside the schemas folder`,
      "vendor the file into schemas/ and name it relative to that folder",
    );
  return absolute;
}

export function readSource(root: string, absolutePath: string, referrer?: { file: string; pointer: string }): SourceFile {
  const file = path.relative(root, absolutePath).split(path.sep).join("/");
  let bytes: Buffer;
  try {
    bytes = readFileSync(absolutePath);
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (error as Error).message;
    throw new InputError(referrer ?? { file }, `cannot read ${file}: ${reason}`, "vendor the file there, or correct the path");
  }
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  return { file, absolutePath, document: readJson(bytes, file), sha256 };
}
