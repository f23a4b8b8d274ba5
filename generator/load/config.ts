import { InputError } from "../errors.js";
import type { Config as ConfigFile } from "../formats/config/types.js";
import { decodeConfig } from "../formats/config/validate.js";
import { isJsonObject } from "../json.js";
import type { FormatOption } from "../keywords/format.js";
import { FORMAT_OPTIONS } from "../keywords/format.js";
import { appendPointer } from "../pointer.js";
import type { Refused, Words } from "../refusal.js";
import { refusalError } from "../refusal.js";
import type { CompatibleWith } from "../schema/dialect.js";
import { COMPATIBLE_WITH } from "../schema/dialect.js";

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

type Entry = ConfigFile["protocols"][number];
type Manifest = NonNullable<ConfigFile["output"]["package"]>;

/** The keys of an object of the format, for hints: every one, since the record must name each. */
const keysOf = <T>(keys: Record<keyof T & string, true>): string => Object.keys(keys).join(", ");

const KEYS = keysOf<Entry>({
  name: true,
  schema: true,
  overlays: true,
  externalSchemas: true,
  upstream: true,
  sha256: true,
  compatibleWith: true,
  formats: true,
});
const CONFIG_KEYS = keysOf<ConfigFile>({ $schema: true, protocols: true, remotes: true, output: true });
const OUTPUT_KEYS = keysOf<ConfigFile["output"]>({ folder: true, package: true });
const PACKAGE_KEYS = keysOf<Manifest>({ name: true, version: true, description: true, license: true });

const HINTS: Readonly<Record<string, string>> = {
  name: 'each entry names its protocol, in lowercase words joined by "-": "name": "acme"',
  schema: 'each entry names its schema file, relative to the config: "schema": "schemas/acme.schema.json"',
};

const OUTPUT_HINT =
  'e.g. "output": { "folder": "src/protocols" } for plain sources, or "output": { "folder": "generated", "package": { "name": "@acme/protocols", "version": "0.1.0" } }';

const REMOTES_HINT =
  'e.g. "remotes": { "https://example.com/schemas/": "schemas/vendor/example/" }, a base URL ending in "/" to a folder of the project';

const unknownKey =
  (keys: string) =>
  ({ key }: Refused) => ({ problem: `unknown key "${key}"`, hint: `known keys: ${keys}` });
const option =
  (values: readonly string[], hint: string) =>
  ({ key, value }: Refused) => ({
    problem: `"${key}" is ${values.map((each) => JSON.stringify(each)).join(" or ")}, not ${JSON.stringify(value)}`,
    hint,
  });
const paths = (pointer: string, key: string) => ({ pointer, problem: `"${key}" must be an array of paths relative to the config` });
const nonEmpty = ({ key }: Refused) => ({ problem: `"${key}" must be a non-empty string` });

/** The config's words for what its schema refuses, where the validator's would say less. */
const WORDS: readonly Words[] = [
  { at: "/*", keyword: "additionalProperties", say: unknownKey(CONFIG_KEYS) },
  { at: "/protocols/*/*", keyword: "additionalProperties", say: unknownKey(KEYS) },
  {
    at: "/protocols/*/*",
    keyword: "required",
    say: ({ key, parent }) => ({ pointer: parent, problem: `missing "${key}"`, ...(HINTS[key] === undefined ? {} : { hint: HINTS[key] }) }),
  },
  {
    at: "/protocols/*/name",
    keyword: "pattern",
    say: ({ value }) => ({
      problem: `protocol name "${String(value)}" must be lowercase words joined by "-"`,
      hint: "it names a folder of the output and, in a package, its subpath export",
    }),
  },
  { at: "/protocols/*/sha256", keyword: "pattern", say: () => ({ problem: "sha256 must be 64 lowercase hex digits" }) },
  {
    at: "/protocols/*/compatibleWith",
    say: option(COMPATIBLE_WITH, '"ajv" reads the schema as ajv 8 does where its draft says otherwise'),
  },
  {
    at: "/protocols/*/formats",
    say: option(FORMAT_OPTIONS, '"assert" checks the formats agentwire knows; "annotate", the default, checks none'),
  },
  ...["overlays", "externalSchemas"].flatMap((key): Words[] => [
    { at: `/protocols/*/${key}`, say: ({ pointer }) => paths(pointer, key) },
    { at: `/protocols/*/${key}/*`, say: ({ parent }) => paths(parent, key) },
  ]),
  ...["type", "minLength"].map((keyword) => ({ at: "/protocols/*/*", keyword, say: nonEmpty })),
  { at: "/remotes", say: () => ({ problem: '"remotes" must be an object mapping base URLs to folders', hint: REMOTES_HINT }) },
  { at: "/remotes/*", keyword: "pattern", say: ({ key }) => notBaseUrl(key) },
  { at: "/remotes/*", say: () => ({ problem: "the folder must be a non-empty path relative to the config", hint: REMOTES_HINT }) },
  {
    at: "/output",
    keyword: "required",
    say: () => ({ pointer: "", problem: 'missing "output", where the bindings go', hint: OUTPUT_HINT }),
  },
  { at: "/output", say: () => ({ problem: '"output" must be an object', hint: OUTPUT_HINT }) },
  { at: "/output/*", keyword: "additionalProperties", say: unknownKey(OUTPUT_KEYS) },
  { at: "/output/folder", say: () => ({ problem: '"folder" must be a non-empty path relative to the config', hint: OUTPUT_HINT }) },
  { at: "/output/package", say: () => ({ problem: '"package" must be an object: { "name": …, "version": … }', hint: OUTPUT_HINT }) },
  { at: "/output/package/*", keyword: "additionalProperties", say: unknownKey(PACKAGE_KEYS) },
  {
    at: "/output/package/name",
    say: () => ({ problem: "the package name must be a lowercase npm package name, optionally scoped", hint: 'e.g. "@acme/protocols"' }),
  },
  { at: "/output/package/version", say: () => ({ problem: "the package version must be a semantic version", hint: 'e.g. "0.1.0"' }) },
  ...["type", "minLength"].map((keyword) => ({ at: "/output/package/*", keyword, say: nonEmpty })),
];

/**
 * Reads the config: its schema's decoder (`formats/config/`) checks its shape; then what
 * no schema says: two protocols of one name, two remotes of one base URL. Returns its
 * protocols, sorted by name, its remotes and its output, with their defaults.
 */
export function readConfig(document: unknown, file: string): Config {
  // Before the schema's words: a file that is no config at all gets the command that writes one.
  if (!isJsonObject(document) || !Array.isArray(document["protocols"]))
    throw new InputError({ file, pointer: "" }, 'expected an object with a "protocols" array', "`agentwire init` writes a starter config");
  const decoded = decodeConfig(document, { mode: "strict", maxErrors: 1 });
  if (!decoded.ok) throw refusalError(file, "", document, decoded.errors, WORDS);
  const config = decoded.value;
  const seen = new Map<string, string>();
  const protocols = config.protocols.map((entry, index): ProtocolConfig => {
    const at = appendPointer("/protocols", index);
    const earlier = seen.get(entry.name);
    if (earlier !== undefined)
      throw new InputError(
        { file, pointer: appendPointer(at, "name") },
        `duplicate protocol name "${entry.name}", also at ${earlier}`,
        "each protocol needs its own name: it names a folder of the generated package",
      );
    seen.set(entry.name, at);
    const { name, schema, overlays = [], externalSchemas = [], upstream, sha256, compatibleWith, formats } = entry;
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
  const { folder, package: manifest } = config.output;
  return {
    protocols: protocols.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
    remotes: readRemotes(config.remotes ?? {}, file),
    output: manifest === undefined ? { folder } : { folder, package: manifest },
  };
}

/** `remotes`, whose shape the schema checked: each key a base URL as `new URL` reads it, no two the same. */
function readRemotes(remotes: NonNullable<ConfigFile["remotes"]>, file: string): RemoteConfig[] {
  const seen = new Map<string, string>();
  return Object.entries(remotes).map(([key, folder]): RemoteConfig => {
    const at = appendPointer("/remotes", key);
    const url = URL.canParse(key) ? new URL(key) : undefined;
    if (url === undefined || url.protocol === "file:" || url.search !== "" || key.includes("#") || !url.pathname.endsWith("/")) {
      const { problem, hint } = notBaseUrl(key);
      throw new InputError({ file, pointer: at }, problem, hint);
    }
    const earlier = seen.get(url.href);
    if (earlier !== undefined) throw new InputError({ file, pointer: at }, `the base URL "${key}" is also mapped at ${earlier}`);
    seen.set(url.href, at);
    // The schema's folders are non-empty strings; the generated type of a map whose names have a pattern is unknown.
    return { pointer: at, base: url.href, folder: String(folder) };
  });
}

function notBaseUrl(key: string): { problem: string; hint: string } {
  return {
    problem: `"${key}" is not a base URL: an absolute URL (not file:) ending in "/", without query or fragment`,
    hint: REMOTES_HINT,
  };
}
