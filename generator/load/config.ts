import type { JsonObject } from "../json.js";
import { isJsonObject } from "../json.js";
import { InputError } from "../errors.js";
import { appendPointer } from "../schema/pointer.js";

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

const KEYS = ["name", "schema", "overlays", "upstream", "sha256"];

const HINTS: Readonly<Record<string, string>> = {
  name: 'each entry names its protocol, in lowercase words joined by "-": "name": "acme"',
  schema: 'each entry names its schema file, relative to schemas/: "schema": "acme.schema.json"',
};

/**
 * Checks the config's shape and returns its entries sorted by name, so that output
 * never depends on the order in which protocols are listed.
 */
export function readConfig(document: unknown, file: string): ProtocolConfig[] {
  const fail = (pointer: string, problem: string, hint?: string): never => {
    throw new InputError({ file, pointer }, problem, hint);
  };
  if (!isJsonObject(document) || !Array.isArray(document["protocols"]))
    fail("", 'expected an object with a "protocols" array', 'e.g. { "protocols": [{ "name": "acme", "schema": "acme.schema.json" }] }');
  for (const key of Object.keys(document as JsonObject))
    if (key !== "$schema" && key !== "protocols") fail(appendPointer("", key), `unknown key "${key}"`, 'the config has "protocols" only');
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
    if (!/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/.test(name))
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
  return protocols.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
