import { placeKey } from "./named.js";
import path from "node:path";
import { InputError } from "../errors.js";
import type { JsonObject, JsonValue } from "../json.js";
import { isJsonObject } from "../json.js";
import type { SourceFile } from "../load/index.js";
import { appendPointer, getAtPointer, parsePointer } from "../pointer.js";
import { isPureRef, REF_KEYWORDS } from "../schema/vocabulary.js";
import type { TypeNames } from "./naming.js";
import { CONTAINERS } from "./naming.js";
import { isRefused, pointerToFragment } from "./refs.js";
import type { Resources } from "./resources.js";

export type RefKeyword = (typeof REF_KEYWORDS)[number];

/** A ref's target as a pointer into the effective schema, as a fragment (`#/$defs/Address`). */
export type RefResolver = (from: SourceFile, at: string, ref: string, keyword?: RefKeyword) => string;

/**
 * Resolves `$ref`s to pointers into the effective schema. A ref to a file that does not
 * exist may name a bundled definition: proto-derived bundles ref each definition by the
 * file it would have on its own (`acme.v1.ShippingAddress.jsonschema.json` for the definition
 * titled "Shipping Address"), so a missing file whose last name segment is a definition's key,
 * or its title without spaces, of the referring file means that definition.
 */
export function refResolver(resources: Resources, names: TypeNames): RefResolver {
  return (from, at, ref, keyword = "$ref") => resolveRef(resources, names, { from, at, ref, keyword }, new Set());
}

/** One ref: where it stands, and its keyword. */
interface RefAt {
  readonly from: SourceFile;
  readonly at: string;
  readonly ref: string;
  readonly keyword: RefKeyword;
}

/** A ref as a pointer into the effective schema; `seen`, the pure refs followed to it, for a cycle of them. */
function resolveRef(resources: Resources, names: TypeNames, { from, at, ref, keyword }: RefAt, seen: ReadonlySet<string>): string {
  const fail = (problem: string, hint?: string): never => {
    throw new InputError({ file: from.file, pointer: `${at}/${keyword}` }, problem, hint);
  };
  const target =
    keyword === "$ref"
      ? resources.target(from, at, ref)
      : keyword === "$dynamicRef"
        ? resources.dynamicTarget(from, at, ref)
        : resources.recursiveTarget(from, at, ref);
  if (isRefused(target)) return fail(target.refused, target.hint);
  const located =
    "place" in target
      ? { file: target.place.file, pointer: resources.pointerOf(target.place, target.fragment) }
      : bundledDefinition(resources, target.path, target.fragment, from);
  if (located === undefined)
    return fail(
      `${keyword} "${ref}" points to a file that does not exist, and no definition of ${from.file} is named ${JSON.stringify(nameSegment("path" in target ? target.path : ""))}`,
      "vendor that file into schemas/, or ref a definition by its key or title",
    );
  if (located.pointer === undefined)
    return fail(
      `${keyword} "${ref}" names the anchor "${target.fragment}", which no $anchor defines`,
      "ref the definition by its JSON Pointer, #/$defs/<Name>",
    );
  const value = getAtPointer(located.file.document, located.pointer);
  if (value === undefined) return fail(`${keyword} "${ref}" points to nothing`, nearMiss(located.file.document, located.pointer));
  if (!isJsonObject(value) && typeof value !== "boolean")
    return fail(`${keyword} "${ref}" points to a value that is not a schema`, "a $ref points at a schema: an object, true or false");
  const holder = names.schemaHolderOf(located.file, located.pointer);
  if (holder !== undefined) return pointerToFragment(holder.effective + holder.rest);
  // A schema that is only a $ref, outside any named type (a file's root, say): follow it.
  if (isJsonObject(value) && typeof value["$ref"] === "string" && isPureRef(value)) {
    const key = placeKey(located.file, located.pointer);
    if (seen.has(key)) return fail(`${keyword} "${ref}" is part of a cycle of refs that never reaches a schema`);
    const next = { from: located.file, at: located.pointer, ref: value["$ref"], keyword: "$ref" } as const;
    return resolveRef(resources, names, next, new Set([...seen, key]));
  }
  return fail(
    `${keyword} "${ref}" points into ${located.file.file} outside any schema that agentwire can name`,
    "ref a definition under $defs instead",
  );
}

/** The definition of the referring file that a ref to a missing file names by its last name segment, as `refResolver` says. */
function bundledDefinition(
  resources: Resources,
  missing: string,
  fragment: string,
  from: SourceFile,
): { file: SourceFile; pointer: string | undefined } | undefined {
  const segment = nameSegment(missing);
  const matches: string[] = [];
  const document = from.document;
  if (isJsonObject(document))
    for (const container of CONTAINERS) {
      const definitions = document[container];
      if (!isJsonObject(definitions)) continue;
      for (const key of Object.keys(definitions)) {
        const title = isJsonObject(definitions[key]) ? (definitions[key] as JsonObject)["title"] : undefined;
        if (key === segment || (typeof title === "string" && title.replace(/\s+/g, "") === segment))
          matches.push(appendPointer("", container, key));
      }
    }
  if (matches.length > 1)
    throw new InputError(
      { file: from.file },
      `the bundled-definition name ${JSON.stringify(segment)} matches ${matches.length} definitions: ${matches.join(", ")}`,
    );
  if (matches.length === 0) return undefined;
  const pointer =
    fragment === "" || fragment.startsWith("/") ? matches[0]! + fragment : resources.pointerOf({ file: from, pointer: "" }, fragment);
  return { file: from, pointer };
}

/** "acme.v1.ShippingAddress.jsonschema.json" → "ShippingAddress". */
function nameSegment(filePath: string): string {
  const base = path
    .basename(filePath)
    .replace(/\.json$/, "")
    .replace(/\.(jsonschema|schema)$/, "");
  return base.slice(base.lastIndexOf(".") + 1);
}

/** A hint naming the closest existing key where a pointer stops resolving. */
function nearMiss(document: JsonValue, pointer: string): string | undefined {
  const tokens = parsePointer(pointer);
  let node: unknown = document;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (!isJsonObject(node) || !Object.hasOwn(node, token)) {
      if (!isJsonObject(node)) return undefined;
      const keys = Object.keys(node);
      const close = keys.filter((key) => distance(key.toLowerCase(), token.toLowerCase()) <= Math.max(1, Math.floor(token.length / 4)));
      return close.length > 0
        ? `did you mean ${close.map((key) => JSON.stringify(key)).join(" or ")}?`
        : `"${token}" is not among the keys there`;
    }
    node = node[token];
  }
  return undefined;
}

function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++)
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[b.length]!;
}
