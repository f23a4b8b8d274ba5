import { InputError } from "../errors.js";
import { pascalCase } from "../identifiers.js";
import type { JsonObject, JsonValue } from "../json.js";
import { isJsonObject } from "../json.js";
import type { SourceFile } from "../load/index.js";
import { appendPointer, getAtPointer, parsePointer } from "../pointer.js";
import { dialectOf, hasDefsKeyword } from "../schema/dialect.js";
import { hasAssertions, isPureRef, REF_KEYWORDS, USE_SITE_ANNOTATIONS } from "../schema/vocabulary.js";
import { subschemasOf, walkSchemas } from "../schema/walk.js";
import type { Named } from "./naming.js";
import { CONTAINERS, fileName, isNameLike, TypeNames } from "./naming.js";
import type { Resources } from "./resources.js";

/**
 * Which schemas of a protocol's files become named types, and by what text each would
 * like to be called; `TypeNames` settles the names. Each kind of schema that is named has
 * its job below, which `canonicalize` runs in turn: a job finds schemas inside those the
 * jobs before it named.
 */
export class NamedSchemas {
  readonly names: TypeNames;
  /** The places named that were inline schemas: each is replaced where it is by a ref to its type. */
  private readonly hoisted = new Set<string>();
  /** The ref targets looked at, named or not, so that each is looked at once. */
  private readonly looked = new Set<string>();

  constructor(
    readonly resources: Resources,
    /** The protocol's name, which names its main file's root. */
    readonly protocol: string,
  ) {
    this.names = new TypeNames(resources.files);
  }

  /** The protocol's main file. */
  get root(): SourceFile {
    return this.resources.files[0]!;
  }

  /** Names a schema; a `hoisted` one is replaced where it is by a ref to its type, and a `sharable` one shares an identical one's type. */
  add(wanted: Named, { sharable = false, hoisted = false } = {}): void {
    this.names.add(wanted, sharable);
    if (hoisted) this.hoisted.add(placeKey(wanted.source, wanted.pointer));
  }

  isHoisted(file: SourceFile, pointer: string): boolean {
    return this.hoisted.has(placeKey(file, pointer));
  }

  /** Whether a place became a named type where it is, as a definition or a root does. */
  isDefinition(file: SourceFile, pointer: string): boolean {
    return this.names.isNamed(file, pointer) && !this.isHoisted(file, pointer);
  }

  /** Whether a named schema holds the place: the place or one around it is named. */
  isWithinNamed(file: SourceFile, pointer: string): boolean {
    return this.names.holderOf(file, pointer) !== undefined;
  }

  /** True the first time a place is asked about. */
  firstLookAt(file: SourceFile, pointer: string): boolean {
    const key = placeKey(file, pointer);
    if (this.looked.has(key)) return false;
    this.looked.add(key);
    return true;
  }
}

/** A place of a file as one string, for sets of places. */
export function placeKey(file: SourceFile, pointer: string): string {
  return `${file.absolutePath}#${pointer}`;
}

/** The schema at a named type's place in its file. */
export function bodyAt(entry: Named): JsonValue {
  return getAtPointer(entry.source.document, entry.pointer) as JsonValue;
}

/**
 * A file's root that constrains values is a type in its own right, named by its title
 * where the title reads as a name (`isNameLike`), else the main file's by the protocol and
 * another by its file's name. Its definitions are named apart, so its body leaves them out.
 */
export function nameRoots(named: NamedSchemas): void {
  for (const file of named.resources.files) {
    const document = file.document;
    if (!isJsonObject(document) || !hasAssertions(document) || isPureRef(document)) continue;
    const title = typeof document["title"] === "string" && isNameLike(document["title"]) ? document["title"] : undefined;
    const fallback = file === named.root ? pascalCase(named.protocol) : fileName(file);
    const body = Object.fromEntries(Object.entries(document).filter(([key]) => !["$schema", "$id", ...CONTAINERS].includes(key)));
    named.add({ name: title ?? fallback, source: file, pointer: "", body });
  }
}

/**
 * Every definition (`$defs`, `definitions`) a schema holds, at any depth, is named by its
 * key: definitions are what a spec's authors named themselves.
 */
export function nameDefinitions(named: NamedSchemas, file: SourceFile, schema: JsonValue, at: string): void {
  walkSchemas(schema, at, (each, pointer) => {
    if (!isJsonObject(each)) return;
    for (const container of CONTAINERS) {
      const definitions = each[container];
      if (!isJsonObject(definitions)) continue;
      for (const key of Object.keys(definitions)) {
        const place = appendPointer(pointer, container, key);
        const body = definitions[key]!;
        if (!isJsonObject(body) && typeof body !== "boolean") {
          // Up to draft 7, `$defs` is no keyword: what it holds is data, as an unknown keyword's value is.
          if (container === "$defs" && !hasDefsKeyword(draftOf(file, named.root))) continue;
          throw new InputError({ file: file.file, pointer: place }, "a definition must be a schema (an object or a boolean)");
        }
        named.add({ name: key, source: file, pointer: place, body });
      }
    }
  });
}

/**
 * An inline schema with a title that reads as a name, inside any named schema (a hoisted
 * one included), is hoisted into a type named by its title: a title is a name the authors
 * gave, and the same titled schema used in many places is then one type. Identical titled
 * schemas of a file share one type, and the annotations of each use (description,
 * default…) stay where it is used.
 */
export function hoistTitled(named: NamedSchemas): void {
  for (const entry of [...named.names.named]) hoistWithin(named, entry.source, bodyAt(entry), entry.pointer);
}

function hoistWithin(named: NamedSchemas, file: SourceFile, schema: JsonValue, pointer: string): void {
  for (const child of subschemasOf(schema, pointer)) {
    if (named.isDefinition(file, child.pointer)) continue;
    const title = isJsonObject(child.schema) ? child.schema["title"] : undefined;
    if (typeof title === "string" && isNameLike(title) && isJsonObject(child.schema) && !isPureRef(child.schema)) {
      const body = withoutUseSiteAnnotations(child.schema);
      named.add({ name: title, source: file, pointer: child.pointer, body }, { sharable: true, hoisted: true });
    }
    hoistWithin(named, file, child.schema, child.pointer);
  }
}

/** A hoisted schema's type leaves out what only its use says: each use keeps its own. */
export function withoutUseSiteAnnotations(schema: JsonObject): JsonObject {
  return Object.fromEntries(Object.entries(schema).filter(([key]) => !USE_SITE_ANNOTATIONS.has(key)));
}

/**
 * A schema a ref of a named schema leads to that no named schema holds as a subschema (a
 * remote's `#/integer`, outside any `$defs`; `#/definitions/group/x`, under a key of a
 * definition that is no keyword) is named by its key, as a definition is: no type would
 * hold it otherwise. Its definitions, and what its refs lead to, are looked at in turn.
 */
export function nameRefTargets(named: NamedSchemas): void {
  for (const entry of [...named.names.named]) nameTargetsIn(named, entry.source, bodyAt(entry), entry.pointer);
}

function nameTargetsIn(named: NamedSchemas, file: SourceFile, schema: JsonValue, at: string): void {
  walkSchemas(schema, at, (each, pointer) => {
    if (!isJsonObject(each)) return;
    for (const keyword of REF_KEYWORDS) {
      const ref = each[keyword];
      if (typeof ref === "string") nameTarget(named, file, pointer, ref);
    }
  });
}

/** Names the target of one ref, where no named schema holds it; the root's ref names it as the root is named. */
function nameTarget(named: NamedSchemas, file: SourceFile, pointer: string, ref: string, fromRoot = false): void {
  const { resources, names } = named;
  const target = resources.target(file, pointer, ref);
  if (!("place" in target)) return;
  const { place } = target;
  const found = resources.pointerOf(place, target.fragment);
  if (found === undefined || found === "" || names.schemaHolderOf(place.file, found) !== undefined) return;
  if (!named.firstLookAt(place.file, found)) return;
  const value = getAtPointer(place.file.document, found) as JsonValue | undefined;
  if (value === undefined) return;
  // A schema that is only a $ref is followed, not named, as refResolver follows it.
  if (typeof value === "boolean" || (isJsonObject(value) && !isPureRef(value))) {
    const name = fromRoot && named.isWithinNamed(place.file, found) ? pascalCase(named.protocol) : parsePointer(found).at(-1)!;
    named.add({ name, source: place.file, pointer: found, body: value });
  }
  nameDefinitions(named, place.file, value, found);
  nameTargetsIn(named, place.file, value, found);
}

/**
 * A main file whose root is a ref, and not a type itself: what it refs is the protocol's
 * root type. A target no named schema holds is named as the root is; one inside a named
 * schema (`#/$defs/Config/properties/settings`) is hoisted out of it under the protocol's
 * name, for the root to ref a type.
 */
export function nameRootRef(named: NamedSchemas): void {
  const { resources, root } = named;
  const rootRef = isJsonObject(root.document) && !named.isWithinNamed(root, "") ? root.document["$ref"] : undefined;
  if (typeof rootRef !== "string") return;
  nameTarget(named, root, "", rootRef, true);
  const target = resources.target(root, "", rootRef);
  if (!("place" in target)) return;
  const { file } = target.place;
  const found = resources.pointerOf(target.place, target.fragment);
  if (found === undefined || !named.isWithinNamed(file, found) || named.names.isNamed(file, found)) return;
  const body = getAtPointer(file.document, found) as JsonValue | undefined;
  if (body !== undefined && !(isJsonObject(body) && isPureRef(body)))
    named.add({ name: pascalCase(named.protocol), source: file, pointer: found, body }, { hoisted: true });
}

/** The draft a file is read in: its `$schema`'s, else the main file's, else 2020-12. */
function draftOf(file: SourceFile, root: SourceFile) {
  return dialectOf(schemaKeywordOf(file.document) ?? schemaKeywordOf(root.document)) ?? "draft2020-12";
}

/** A document's `$schema`, where it names one. */
function schemaKeywordOf(document: JsonValue): string | undefined {
  return isJsonObject(document) && typeof document["$schema"] === "string" ? document["$schema"] : undefined;
}
