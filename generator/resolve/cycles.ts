import type { JsonValue } from "../json.js";
import { isJsonObject } from "../json.js";
import type { SourceFile } from "../load/index.js";
import { getAtPointer, parsePointer } from "../pointer.js";
import { isPureRef } from "../schema/vocabulary.js";
import type { NamedSchemas } from "./named.js";
import { placeKey, withoutUseSiteAnnotations } from "./named.js";
import { forEachOwnSchema } from "./naming.js";

/**
 * Names the ref targets at keyword places of named schemas (`#/properties/overrides`) that
 * lie on a cycle of refs through schemas without a name: following the refs inside one,
 * and inside what they lead to, without entering a named schema, leads back to it. Such a
 * target would be followed inline for ever, so it becomes a type of its own, hoisted as a
 * titled schema is: its place keeps a ref to it and its use-site annotations. A target on
 * no such cycle stays inline. All are found before any is named, so the order of the refs
 * does not choose which; an outer target is named before one inside it, which its name
 * then qualifies.
 */
export function nameCycles(named: NamedSchemas): void {
  // Every ref target of a named schema's own body that is such a place.
  const candidates = new Map<string, Spot>();
  for (const entry of named.names.named)
    for (const target of targetsFrom(named, entry.source, entry.pointer))
      if (isUnnamedInside(named, target)) candidates.set(placeKey(target.file, target.pointer), target);
  const cyclic = [...candidates.values()].filter((place) => {
    const value = getAtPointer(place.file.document, place.pointer) as JsonValue;
    // A schema that is only a $ref is followed, not named; another place on its cycle is.
    return !(isJsonObject(value) && isPureRef(value)) && isOnCycle(named, place);
  });
  const depth = (pointer: string) => parsePointer(pointer).length;
  for (const place of cyclic.sort((a, b) => depth(a.pointer) - depth(b.pointer))) {
    const value = getAtPointer(place.file.document, place.pointer) as JsonValue;
    const body = isJsonObject(value) ? withoutUseSiteAnnotations(value) : value;
    named.add({ name: parsePointer(place.pointer).at(-1)!, source: place.file, pointer: place.pointer, body }, { hoisted: true });
  }
}

/** A place in one of the protocol's files. */
interface Spot {
  readonly file: SourceFile;
  readonly pointer: string;
}

/** The places the `$ref`s of a schema lead to, not entering a named schema below it. */
export function targetsFrom(named: NamedSchemas, file: SourceFile, start: string): Spot[] {
  const found: Spot[] = [];
  forEachOwnSchema(named.names, file, start, (schema, pointer) => {
    const ref = schema["$ref"];
    if (typeof ref !== "string") return;
    const target = named.resources.target(file, pointer, ref);
    const at = "place" in target ? named.resources.pointerOf(target.place, target.fragment) : undefined;
    if ("place" in target && at !== undefined) found.push({ file: target.place.file, pointer: at });
  });
  return found;
}

/** Whether a place is a keyword place of a named schema, and not named itself. */
function isUnnamedInside(named: NamedSchemas, { file, pointer }: Spot): boolean {
  if (named.names.isNamed(file, pointer)) return false;
  const holder = named.names.schemaHolderOf(file, pointer);
  return holder !== undefined && holder.rest !== "";
}

/** Whether following refs from a place, through such places only, leads back to it. */
function isOnCycle(named: NamedSchemas, start: Spot): boolean {
  const seen = new Set<string>();
  const pending = [start];
  while (pending.length > 0) {
    const place = pending.pop()!;
    for (const next of targetsFrom(named, place.file, place.pointer)) {
      const key = placeKey(next.file, next.pointer);
      if (next.file === start.file && next.pointer === start.pointer) return true;
      if (seen.has(key) || !isUnnamedInside(named, next)) continue;
      seen.add(key);
      pending.push(next);
    }
  }
  return false;
}
