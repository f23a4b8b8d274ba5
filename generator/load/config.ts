import type { JsonObject, JsonValue } from "../json.js";
import { isJsonObject } from "../json.js";
import { InputError } from "../errors.js";
import { appendPointer } from "../pointer.js";
import type { CompatibleWith } from "../schema/dialect.js";
import { COMPATIBLE_WITH } from "../schema/dialect.js";
import type { FormatOption } from "../keywords/format.js";
import { FORMAT_OPTIONS } from "../keywords/format.js";

/** One entry of the config's `protocols`. Paths are relative to the config's folder, the project. */
export interface ProtocolConfig {
  /** Where the entry is in the config file, for messages. */
  readonly pointer: string;
  readonly name: string;
  readonly schema: string;
  readonly overlays: readonly string[];
  /**
   * Schemas the schema's `$ref`s name by their `$id` (ajv's `addSchema`, SchemaStore's
   * `externalSchema`), where no remote maps the URL to the file: read first, as files it refs.
   */
  readonly externalSchemas: readonly string[];
  readonly upstream?: string;
  readonly sha256?: string;
  /**
   * Read the schema as another validator does where its draft says otherwise: `"ajv"`,
   * as ajv 8 reads it (keywords beside a `$ref` applied up to draft 7, and `const`,
   * `contains`, `propertyNames`, `if`/`then`/`else` in drafts 4 and 6).
   */
  readonly compatibleWith?: CompatibleWith;
  /**
   * What `format` is: `"annotate"`, the default, an annotation only (2019-09 and later);
   * `"assert"`, a check of a string with a format agentwire knows (`keywords/format.ts`),
   * as 2020-12's format-assertion vocabulary reads it.
   */
  readonly formats?: FormatOption;
}

/**
 * An entry of the config's `remotes`: a base URL whose documents are vendored in a folder
 * of the project, so that a `$ref` under that URL reads the vendored copy.
 */
export interface RemoteConfig {
  /** Where the entry is in the config file, for messages: "/remotes/http:~1~1localhost:1234~1". */
  readonly pointer: string;
  /** An absolute URL ending in "/", as `new URL` writes it. */
  readonly base: string;
  /** Relative to the project, as written. */
  readonly folder: string;
}

/** The npm package the output folder is, where the config asks for one. */
export interface PackageConfig {
  readonly name: string;
  readonly version: string;
  /** The manifest's description; one naming the protocols where not given. */
  readonly description?: string;
  /** The manifest's license, an SPDX expression; none where not given. */
  readonly license?: string;
}

/**
 * Where the bindings go: a folder of plain TypeScript sources, imported by relative path,
 * or, with `package`, a folder that is an npm package with a subpath export per protocol.
 */
export interface OutputConfig {
  /** Relative to the project, as written. */
  readonly folder: string;
  readonly package?: PackageConfig;
}

export interface Config {
  /** Sorted by name, so that output never depends on the order in which protocols are listed. */
  readonly protocols: readonly ProtocolConfig[];
  readonly remotes: readonly RemoteConfig[];
  readonly output: OutputConfig;
}

/** What a protocol may be called: lowercase words joined by "-", since it names a folder of the generated package. */
export const PROTOCOL_NAME = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;

/** What an npm package may be called, as npm's validate-npm-package-name allows a new one: lowercase, optionally scoped. */
const PACKAGE_NAME = /^(@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*$/;
/** A semantic version, as npm writes one. */
const VERSION = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?(\+[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?$/;

const KEYS = ["name", "schema", "overlays", "externalSchemas", "upstream", "sha256", "compatibleWith", "formats"];
const CONFIG_KEYS = ["$schema", "protocols", "remotes", "output"];
const OUTPUT_KEYS = ["folder", "package"];
const PACKAGE_KEYS = ["name", "version", "description", "license"];

const HINTS: Readonly<Record<string, string>> = {
  name: 'each entry names its protocol, in lowercase words joined by "-": "name": "acme"',
  schema: 'each entry names its schema file, relative to the config: "schema": "schemas/acme.schema.json"',
};

const OUTPUT_HINT =
  'e.g. "output": { "folder": "src/protocols" } for plain sources, or "output": { "folder": "generated", "package": { "name": "@acme/protocols", "version": "0.1.0" } }';

/** Checks the config's shape and returns its protocols, sorted by name, and its remotes. */
export function readConfig(document: unknown, file: string): Config {
  const fail = (pointer: string, problem: string, hint?: string): never => {
    throw new InputError({ file, pointer }, problem, hint);
  };
  if (!isJsonObject(document) || !Array.isArray(document["protocols"]))
    fail("", 'expected an object with a "protocols" array', "`agentwire init` writes a starter config");
  for (const key of Object.keys(document as JsonObject))
    if (!CONFIG_KEYS.includes(key)) fail(appendPointer("", key), `unknown key "${key}"`, `known keys: ${CONFIG_KEYS.join(", ")}`);
  const entries = (document as JsonObject)["protocols"] as readonly unknown[];
  const seen = new Map<string, string>();
  const protocols = entries.map((entry, index): ProtocolConfig => {
    const at = appendPointer("/protocols", index);
    if (!isJsonObject(entry)) return fail(at, "expected an object");
    for (const key of Object.keys(entry))
      if (!KEYS.includes(key)) fail(appendPointer(at, key), `unknown key "${key}"`, `known keys: ${KEYS.join(", ")}`);
    const text = (key: string, required: boolean): string | undefined => {
      const value = entry[key];
      if (value === undefined) return required ? fail(at, `missing "${key}"`, HINTS[key]) : undefined;
      if (typeof value !== "string" || value === "") return fail(appendPointer(at, key), `"${key}" must be a non-empty string`);
      return value;
    };
    const name = text("name", true)!;
    if (!PROTOCOL_NAME.test(name))
      fail(
        appendPointer(at, "name"),
        `protocol name "${name}" must be lowercase words joined by "-"`,
        "it names a folder of the output and, in a package, its subpath export",
      );
    const earlier = seen.get(name);
    if (earlier !== undefined)
      fail(
        appendPointer(at, "name"),
        `duplicate protocol name "${name}", also at ${earlier}`,
        "each protocol needs its own name: it names a folder of the generated package",
      );
    seen.set(name, at);
    const schema = text("schema", true)!;
    const upstream = text("upstream", false);
    const sha256 = text("sha256", false);
    if (sha256 !== undefined && !/^[0-9a-f]{64}$/.test(sha256)) fail(appendPointer(at, "sha256"), "sha256 must be 64 lowercase hex digits");
    const option = <T extends string>(key: string, values: readonly T[], hint: string): T | undefined => {
      const value = entry[key];
      if (value !== undefined && !values.includes(value as T))
        fail(
          appendPointer(at, key),
          `"${key}" is ${values.map((each) => JSON.stringify(each)).join(" or ")}, not ${JSON.stringify(value)}`,
          hint,
        );
      return value as T | undefined;
    };
    const compatibleWith = option("compatibleWith", COMPATIBLE_WITH, '"ajv" reads the schema as ajv 8 does where its draft says otherwise');
    const formats = option("formats", FORMAT_OPTIONS, '"assert" checks the formats agentwire knows; "annotate", the default, checks none');
    const paths = (key: string): string[] => {
      const value = entry[key] ?? [];
      if (!Array.isArray(value) || value.some((path) => typeof path !== "string" || path === ""))
        fail(appendPointer(at, key), `"${key}" must be an array of paths relative to the config`);
      return value as string[];
    };
    const overlays = paths("overlays");
    const externalSchemas = paths("externalSchemas");
    return {
      pointer: at,
      name,
      schema,
      overlays,
      externalSchemas,
      ...(upstream === undefined ? {} : { upstream }),
      ...(sha256 === undefined ? {} : { sha256 }),
      ...(compatibleWith === undefined ? {} : { compatibleWith }),
      ...(formats === undefined ? {} : { formats }),
    };
  });
  return {
    protocols: protocols.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
    remotes: readRemotes((document as JsonObject)["remotes"], fail),
    output: readOutput((document as JsonObject)["output"], fail),
  };
}

type Fail = (pointer: string, problem: string, hint?: string) => never;

/** `output`: the folder, and the package it is where `package` is given. */
function readOutput(value: JsonValue | undefined, fail: Fail): OutputConfig {
  if (value === undefined) return fail("", 'missing "output", where the bindings go', OUTPUT_HINT);
  if (!isJsonObject(value)) return fail("/output", '"output" must be an object', OUTPUT_HINT);
  for (const key of Object.keys(value))
    if (!OUTPUT_KEYS.includes(key)) fail(appendPointer("/output", key), `unknown key "${key}"`, `known keys: ${OUTPUT_KEYS.join(", ")}`);
  const folder = value["folder"];
  if (typeof folder !== "string" || folder === "")
    fail("/output/folder", '"folder" must be a non-empty path relative to the config', OUTPUT_HINT);
  const manifest = value["package"];
  if (manifest === undefined) return { folder: folder as string };
  if (!isJsonObject(manifest)) return fail("/output/package", '"package" must be an object: { "name": …, "version": … }', OUTPUT_HINT);
  for (const key of Object.keys(manifest))
    if (!PACKAGE_KEYS.includes(key))
      fail(appendPointer("/output/package", key), `unknown key "${key}"`, `known keys: ${PACKAGE_KEYS.join(", ")}`);
  const { name, version, description, license } = manifest;
  if (typeof name !== "string" || !PACKAGE_NAME.test(name) || name.length > 214)
    fail("/output/package/name", "the package name must be a lowercase npm package name, optionally scoped", 'e.g. "@acme/protocols"');
  if (typeof version !== "string" || !VERSION.test(version))
    fail("/output/package/version", "the package version must be a semantic version", 'e.g. "0.1.0"');
  for (const [key, value] of Object.entries({ description, license }))
    if (value !== undefined && (typeof value !== "string" || value === ""))
      fail(`/output/package/${key}`, `"${key}" must be a non-empty string`);
  return {
    folder: folder as string,
    package: {
      name: name as string,
      version: version as string,
      ...(description === undefined ? {} : { description: description as string }),
      ...(license === undefined ? {} : { license: license as string }),
    },
  };
}

const REMOTES_HINT =
  'e.g. "remotes": { "https://example.com/schemas/": "schemas/vendor/example/" }, a base URL ending in "/" to a folder of the project';

/** `remotes`: base URLs to the folders of the project that hold their vendored documents. */
function readRemotes(value: JsonValue | undefined, fail: Fail): RemoteConfig[] {
  if (value === undefined) return [];
  if (!isJsonObject(value)) return fail("/remotes", '"remotes" must be an object mapping base URLs to folders', REMOTES_HINT);
  const seen = new Map<string, string>();
  return Object.keys(value).map((key): RemoteConfig => {
    const at = appendPointer("/remotes", key);
    let url: URL | undefined;
    try {
      url = new URL(key);
    } catch {
      url = undefined;
    }
    if (url === undefined || url.protocol === "file:" || url.search !== "" || key.includes("#") || !url.pathname.endsWith("/"))
      fail(at, `"${key}" is not a base URL: an absolute URL (not file:) ending in "/", without query or fragment`, REMOTES_HINT);
    const base = url!.href;
    const earlier = seen.get(base);
    if (earlier !== undefined) fail(at, `the base URL "${key}" is also mapped at ${earlier}`);
    seen.set(base, at);
    const folder = value[key];
    if (typeof folder !== "string" || folder === "") fail(at, "the folder must be a non-empty path relative to the config", REMOTES_HINT);
    return { pointer: at, base, folder: folder as string };
  });
}
