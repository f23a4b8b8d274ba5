import type { JsonObject, JsonValue } from "../json.js";
import { isJsonObject } from "../json.js";
import { InputError } from "../errors.js";
import { appendPointer } from "../pointer.js";

/** One entry of `schemas/protocols.json`. Paths are relative to the schemas folder. */
export interface ProtocolConfig {
  /** Where the entry is in the config file, for messages. */
  readonly pointer: string;
  readonly name: string;
  readonly schema: string;
  readonly overlays: readonly string[];
  readonly upstream?: string;
  readonly sha256?: string;
}

/**
 * An entry of the config's `remotes`: a base URL whose documents are vendored in a folder
 * of `schemas/`, so that a `$ref` under that URL reads the vendored copy.
 */
export interface RemoteConfig {
  /** Where the entry is in the config file, for messages: "/remotes/http:~1~1localhost:1234~1". */
  readonly pointer: string;
  /** An absolute URL ending in "/", as `new URL` writes it. */
  readonly base: string;
  /** Relative to the schemas folder, as written. */
  readonly folder: string;
}

export interface Config {
  /** Sorted by name, so that output never depends on the order in which protocols are listed. */
  readonly protocols: readonly ProtocolConfig[];
  readonly remotes: readonly RemoteConfig[];
}

/** What a protocol may be called: lowercase words joined by "-", since it names a folder of the generated package. */
export const PROTOCOL_NAME = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;

const KEYS = ["name", "schema", "overlays", "upstream", "sha256"];
const CONFIG_KEYS = ["$schema", "protocols", "remotes"];

const HINTS: Readonly<Record<string, string>> = {
  name: 'each entry names its protocol, in lowercase words joined by "-": "name": "acme"',
  schema: 'each entry names its schema file, relative to schemas/: "schema": "acme.schema.json"',
};

/** Checks the config's shape and returns its protocols, sorted by name, and its remotes. */
export function readConfig(document: unknown, file: string): Config {
  const fail = (pointer: string, problem: string, hint?: string): never => {
    throw new InputError({ file, pointer }, problem, hint);
  };
  if (!isJsonObject(document) || !Array.isArray(document["protocols"]))
    fail("", 'expected an object with a "protocols" array', 'e.g. { "protocols": [{ "name": "acme", "schema": "acme.schema.json" }] }');
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
        "it names a folder and the subpath @agentwire/protocols/<name>",
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
    const overlays = entry["overlays"] ?? [];
    if (!Array.isArray(overlays) || overlays.some((path) => typeof path !== "string" || path === ""))
      fail(appendPointer(at, "overlays"), '"overlays" must be an array of paths relative to the schemas folder');
    return {
      pointer: at,
      name,
      schema,
      overlays: overlays as string[],
      ...(upstream === undefined ? {} : { upstream }),
      ...(sha256 === undefined ? {} : { sha256 }),
    };
  });
  return {
    protocols: protocols.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
    remotes: readRemotes((document as JsonObject)["remotes"], fail),
  };
}

const REMOTES_HINT =
  'e.g. "remotes": { "https://example.com/schemas/": "vendor/example/" }, a base URL ending in "/" to a folder of schemas/';

/** `remotes`: base URLs to the folders of schemas/ that hold their vendored documents. */
function readRemotes(value: JsonValue | undefined, fail: (pointer: string, problem: string, hint?: string) => never): RemoteConfig[] {
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
    if (typeof folder !== "string" || folder === "")
      fail(at, "the folder must be a non-empty path relative to the schemas folder", REMOTES_HINT);
    return { pointer: at, base, folder: folder as string };
  });
}
