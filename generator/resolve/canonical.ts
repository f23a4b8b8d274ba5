import path from "node:path";
import { InputError } from "../errors.js";
import type { JsonObject, JsonValue } from "../json.js";
import { isJsonObject } from "../json.js";
import type { SourceFile } from "../load/index.js";
import {
  DYNAMIC_REF_KEYWORDS,
  hasAssertions,
  isPureRef,
  REF_KEYWORDS,
  USE_SITE_ANNOTATIONS,
  VOCABULARIES_KEYWORD,
} from "../schema/vocabulary.js";
import { isNameLike, pascalCase, typeNameFor } from "../schema/names.js";
import { appendPointer, getAtPointer, localRefPointer, parsePointer } from "../pointer.js";
import { dialectOf, hasDefsKeyword } from "../schema/dialect.js";
import { isSubschemaPlace, mapSchemas, subschemasOf, walkSchemas } from "../schema/walk.js";
import type { CustomDialect } from "./metaschema.js";
import { Provenance } from "./provenance.js";
import { isRefused, pointerToFragment } from "./refs.js";
import type { Named } from "./naming.js";
import { CONTAINERS, TypeNames } from "./naming.js";
import type { Place, Resources } from "./resources.js";

type RefKeyword = (typeof REF_KEYWORDS)[number];
const DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema";

/**
 * Turns the protocol's files into one self-contained schema in which every named type
 * is an entry of the root `$defs`, under its generated name:
 *
 * - each definition (`$defs` or `definitions`, in any file) is named by its key;
 * - a file whose root constrains values is a type named by its title, where the title
 *   reads as a name (`isNameLike`), else by its file;
 * - an inline schema with a title that reads as a name is hoisted into `$defs` and named
 *   by its title;
 *   identical titled schemas share one entry, and the annotations of each use
 *   (description, default…) stay where it is used;
 * - a schema a ref leads to that no named schema holds as a subschema (outside any
 *   `$defs`, or under a key that is no keyword: `#/definitions/group/x`) is named by its
 *   key, and resolved as any other;
 * - a ref's target at a keyword place of a named schema that lies on a cycle of refs
 *   through schemas without a name (ESLint's `#/properties/overrides`) is named by its
 *   key and hoisted, as a titled schema is; a target on no such cycle stays inline;
 * - every `$ref` is rewritten to a pointer into this document.
 *
 * An embedded schema resource (a schema with its own `$id`) stays where it is: its `$id`
 * only changes what the refs in it resolve against.
 */
export function canonicalize(
  resources: Resources,
  protocol: string,
  dialect?: CustomDialect,
): { schema: JsonObject; provenance: Provenance } {
  const files = resources.files;
  const root = files[0]!;
  const names = new TypeNames(files);
  const { named, relocated } = names;
  const add = (entry: Named, location: string, sharable: boolean): void => void names.add(entry, location, sharable);
  // A key or title with nothing to make a name of ("", "???") is Unnamed, qualified as any name is.
  const nameFor = (text: string): string => typeNameFor(text) || "Unnamed";

  // A file's root that constrains values is a type in its own right.
  for (const file of files) {
    const document = file.document;
    if (!isJsonObject(document) || !hasAssertions(document) || isPureRef(document)) continue;
    const title = typeof document["title"] === "string" && isNameLike(document["title"]) ? document["title"] : undefined;
    const fallback = file === root ? pascalCase(protocol) : pascalCase(path.basename(file.absolutePath).replace(/(\.schema)?\.json$/, ""));
    const body = Object.fromEntries(Object.entries(document).filter(([key]) => !["$schema", "$id", ...CONTAINERS].includes(key)));
    add({ name: nameFor(title ?? fallback), source: file, pointer: "", body }, "", false);
  }
  const draftOf = (file: SourceFile) => dialectOf(schemaKeywordOf(file.document) ?? schemaKeywordOf(root.document)) ?? "draft2020-12";
  // Definitions, wherever a schema holds them.
  const nameDefinitionsIn = (file: SourceFile, schema: JsonValue, at: string): void =>
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
            if (container === "$defs" && !hasDefsKeyword(draftOf(file))) continue;
            throw new InputError({ file: file.file, pointer: place }, "a definition must be a schema (an object or a boolean)");
          }
          add({ name: nameFor(key), source: file, pointer: place, body }, place, false);
        }
      }
    });
  for (const file of files) nameDefinitionsIn(file, file.document, "");
  // Titled inline schemas, found inside every named schema, including hoisted ones.
  const hoisted = new Set<string>();
  const isHoisted = (file: SourceFile, pointer: string) => hoisted.has(`${file.absolutePath}#${pointer}`);
  const isDefinition = (file: SourceFile, pointer: string) => relocated.get(file)!.has(pointer) && !isHoisted(file, pointer);
  const hoistWithin = (file: SourceFile, schema: JsonValue, pointer: string): void => {
    for (const child of subschemasOf(schema, pointer)) {
      if (isDefinition(file, child.pointer)) continue;
      const title = isJsonObject(child.schema) ? child.schema["title"] : undefined;
      if (typeof title === "string" && isNameLike(title) && isJsonObject(child.schema) && !isPureRef(child.schema)) {
        const body = Object.fromEntries(Object.entries(child.schema).filter(([key]) => !USE_SITE_ANNOTATIONS.has(key)));
        add({ name: nameFor(title), source: file, pointer: child.pointer, body }, child.pointer, true);
        hoisted.add(`${file.absolutePath}#${child.pointer}`);
      }
      hoistWithin(file, child.schema, child.pointer);
    }
  };
  for (const entry of [...named]) hoistWithin(entry.source, getAtPointer(entry.source.document, entry.pointer) as JsonValue, entry.pointer);
  // Schemas a ref leads to that no named schema holds as a subschema (a remote's `#/integer`,
  // outside any $defs; `#/definitions/group/x`, under a key of a definition that is no
  // keyword) are named by their key, as definitions are, or as the root is for the root's
  // ref; their definitions, and what they ref, are looked at in turn.
  const looked = new Set<string>();
  // Whether a named schema holds the place: the place or one around it is named.
  const within = (file: SourceFile, pointer: string) => holderOf(relocated, file, pointer) !== undefined;
  const nameTarget = (file: SourceFile, pointer: string, ref: string, fromRoot = false): void => {
    const target = resources.target(file, pointer, ref);
    if (!("place" in target)) return;
    const { place } = target;
    const found = resources.pointerOf(place, target.fragment);
    const key = `${place.file.absolutePath}#${found}`;
    if (found === undefined || found === "" || schemaHolderOf(relocated, place.file, found) !== undefined || looked.has(key)) return;
    looked.add(key);
    const value = getAtPointer(place.file.document, found) as JsonValue | undefined;
    if (value === undefined) return;
    // A schema that is only a $ref is followed, not named, as refResolver follows it.
    if (typeof value === "boolean" || (isJsonObject(value) && !isPureRef(value)))
      add(
        {
          name: nameFor(fromRoot && within(place.file, found) ? pascalCase(protocol) : parsePointer(found).at(-1)!),
          source: place.file,
          pointer: found,
          body: value,
        },
        found,
        false,
      );
    nameDefinitionsIn(place.file, value, found);
    nameTargetsIn(place.file, value, found);
  };
  const nameTargetsIn = (file: SourceFile, schema: JsonValue, at: string): void =>
    walkSchemas(schema, at, (each, pointer) => {
      if (!isJsonObject(each)) return;
      for (const keyword of REF_KEYWORDS) {
        const ref = each[keyword];
        if (typeof ref === "string") nameTarget(file, pointer, ref);
      }
    });
  for (const entry of [...named])
    nameTargetsIn(entry.source, getAtPointer(entry.source.document, entry.pointer) as JsonValue, entry.pointer);
  const rootRef = isJsonObject(root.document) && !within(root, "") ? root.document["$ref"] : undefined;
  if (typeof rootRef === "string") {
    nameTarget(root, "", rootRef, true);
    // A root that refs into a named schema rather than to one: what it refs is a type, named as a root is.
    const target = resources.target(root, "", rootRef);
    const found = "place" in target ? resources.pointerOf(target.place, target.fragment) : undefined;
    const body = found === undefined || !("place" in target) ? undefined : (getAtPointer(target.place.file.document, found) as JsonValue);
    const inside =
      "place" in target && found !== undefined && within(target.place.file, found) && !relocated.get(target.place.file)!.has(found);
    if (inside && body !== undefined && !(isJsonObject(body) && isPureRef(body))) {
      add({ name: nameFor(pascalCase(protocol)), source: target.place.file, pointer: found!, body }, found!, false);
      hoisted.add(`${target.place.file.absolutePath}#${found}`);
    }
  }

  nameCycles(resources, named, relocated, (file, pointer, body) => {
    add({ name: nameFor(parsePointer(pointer).at(-1)!), source: file, pointer, body }, pointer, false);
    hoisted.add(`${file.absolutePath}#${pointer}`);
  });

  const resolveRef = refResolver(resources, relocated);
  const scopes = dynamicScopes(resources, named, relocated, resolveRef);
  const rewrite = (entry: Named, scope: Scope): JsonValue =>
    mapSchemas(entry.body, entry.pointer, (schema, pointer) => {
      const here = scopes.at(entry, pointer, scope);
      if (pointer !== entry.pointer && isHoisted(entry.source, pointer)) {
        const annotations = Object.keys(schema).filter((key) => USE_SITE_ANNOTATIONS.has(key));
        return {
          $ref: pointerToFragment(relocated.get(entry.source)!.get(pointer)!),
          ...Object.fromEntries(annotations.map((key) => [key, schema[key]!])),
        };
      }
      // What identifies a schema has done its work once its refs are pointers into this document.
      const identifier = resources.identifierAt(entry.source, pointer);
      const kept = Object.keys(schema).filter(
        (key) =>
          !["$schema", "$id", identifier, "$anchor", "$dynamicAnchor", "$recursiveAnchor", ...DYNAMIC_REF_KEYWORDS, ...CONTAINERS].includes(
            key,
          ),
      );
      const rewritten: Record<string, JsonValue> = Object.fromEntries(
        kept.map((key) => [
          key,
          key === "$ref" && typeof schema[key] === "string"
            ? scopes.retarget(resolveRef(entry.source, pointer, schema[key]), here)
            : schema[key]!,
        ]),
      );
      // Resolved, a $dynamicRef or $recursiveRef is a $ref; beside a $ref of its own, an allOf member.
      const dynamic = DYNAMIC_REF_KEYWORDS.flatMap((keyword) => {
        const ref = schema[keyword];
        if (typeof ref !== "string") return [];
        const bound = scopes.bound(entry.source, pointer, ref, here);
        return [{ $ref: scopes.retarget(bound ?? resolveRef(entry.source, pointer, ref, keyword), here) }];
      });
      if (dynamic.length === 0) return rewritten;
      if (!("$ref" in rewritten) && dynamic.length === 1) return { ...rewritten, ...dynamic[0]! };
      return { ...rewritten, allOf: [...(Array.isArray(rewritten["allOf"]) ? rewritten["allOf"] : []), ...dynamic] };
    });

  const document = root.document;
  // A custom metaschema's dialect is the draft it extends, less the vocabularies it leaves out.
  const effective: Record<string, JsonValue> =
    dialect !== undefined
      ? { $schema: dialect.draft, [VOCABULARIES_KEYWORD]: [...dialect.vocabularies] }
      : { $schema: isJsonObject(document) && typeof document["$schema"] === "string" ? document["$schema"] : DRAFT_2020_12 };
  if (isJsonObject(document)) {
    if (relocated.get(root)!.get("") !== undefined) effective["$ref"] = pointerToFragment(relocated.get(root)!.get("")!);
    else {
      for (const key of ["title", "description"]) if (document[key] !== undefined) effective[key] = document[key]!;
      if (typeof document["$ref"] === "string")
        effective["$ref"] = scopes.retarget(resolveRef(root, "", document["$ref"]), scopes.of(resources.baseOf(root, "")));
    }
  }
  const definitions = named.map((entry): [string, JsonValue] => [entry.name, rewrite(entry, scopes.standalone(entry))]);
  // Types seen in another dynamic scope than their own, as refs above found them, in turn.
  for (let instance = scopes.next(); instance !== undefined; instance = scopes.next())
    definitions.push([instance.name, rewrite(instance.entry, instance.scope)]);
  effective["$defs"] = Object.fromEntries(definitions);
  const relocations = [
    ...[...relocated].flatMap(([file, places]) =>
      [...places].map(([pointer, effectivePointer]) => ({ effective: effectivePointer, file: file.file, pointer })),
    ),
    ...scopes.instances.map(({ name, entry }) => ({ effective: `/$defs/${name}`, file: entry.source.file, pointer: entry.pointer })),
  ];
  return { schema: effective, provenance: new Provenance(root.file, relocations) };
}

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
function nameCycles(
  resources: Resources,
  named: readonly Named[],
  relocated: Map<SourceFile, Map<string, string>>,
  name: (file: SourceFile, pointer: string, body: JsonValue) => void,
): void {
  const keyOf = (file: SourceFile, pointer: string) => `${file.absolutePath}#${pointer}`;
  /** The places the `$ref`s of a schema lead to, not entering a named schema below it. */
  const targetsFrom = (file: SourceFile, start: string): { file: SourceFile; pointer: string }[] => {
    const found: { file: SourceFile; pointer: string }[] = [];
    const walk = (schema: JsonValue, pointer: string): void => {
      if (pointer !== start && relocated.get(file)!.has(pointer)) return;
      if (!isJsonObject(schema)) return;
      const ref = schema["$ref"];
      if (typeof ref === "string") {
        const target = resources.target(file, pointer, ref);
        const at = "place" in target ? resources.pointerOf(target.place, target.fragment) : undefined;
        if ("place" in target && at !== undefined) found.push({ file: target.place.file, pointer: at });
      }
      for (const child of subschemasOf(schema, pointer)) walk(child.schema, child.pointer);
    };
    walk(getAtPointer(file.document, start) as JsonValue, start);
    return found;
  };
  /** Whether a place is a keyword place of a named schema, and not named itself. */
  const unnamedInside = (file: SourceFile, pointer: string): boolean => {
    if (relocated.get(file)!.has(pointer)) return false;
    const holder = schemaHolderOf(relocated, file, pointer);
    return holder !== undefined && holder.rest !== "";
  };
  // Every ref target of a named schema's own body that is such a place.
  const candidates = new Map<string, { file: SourceFile; pointer: string }>();
  for (const entry of named)
    for (const target of targetsFrom(entry.source, entry.pointer))
      if (unnamedInside(target.file, target.pointer)) candidates.set(keyOf(target.file, target.pointer), target);
  const onCycle = (start: { file: SourceFile; pointer: string }): boolean => {
    const seen = new Set<string>();
    const pending = [start];
    while (pending.length > 0) {
      const place = pending.pop()!;
      for (const next of targetsFrom(place.file, place.pointer)) {
        const key = keyOf(next.file, next.pointer);
        if (next.file === start.file && next.pointer === start.pointer) return true;
        if (seen.has(key) || !unnamedInside(next.file, next.pointer)) continue;
        seen.add(key);
        pending.push(next);
      }
    }
    return false;
  };
  const cyclic = [...candidates.values()].filter((place) => {
    const value = getAtPointer(place.file.document, place.pointer) as JsonValue;
    // A schema that is only a $ref is followed, not named; another place on its cycle is.
    return !(isJsonObject(value) && isPureRef(value)) && onCycle(place);
  });
  const depth = (pointer: string) => parsePointer(pointer).length;
  for (const place of cyclic.sort((a, b) => depth(a.pointer) - depth(b.pointer))) {
    const value = getAtPointer(place.file.document, place.pointer) as JsonValue;
    const body = isJsonObject(value) ? Object.fromEntries(Object.entries(value).filter(([key]) => !USE_SITE_ANNOTATIONS.has(key))) : value;
    name(place.file, place.pointer, body);
  }
}

/**
 * The named schema that holds a place, the place itself or the nearest around it: its
 * pointer in the effective schema, and the rest of the place's pointer below it.
 */
function holderOf(
  relocated: Map<SourceFile, Map<string, string>>,
  file: SourceFile,
  pointer: string,
): { effective: string; rest: string } | undefined {
  const places = relocated.get(file)!;
  for (let at = pointer; ; at = at.slice(0, at.lastIndexOf("/"))) {
    const effective = places.get(at);
    if (effective !== undefined) return { effective, rest: pointer.slice(at.length) };
    if (at === "") return undefined;
  }
}

/**
 * The named schema that holds a place as one of its subschemas, as `holderOf`; undefined
 * where the way there passes a key that is no keyword, which a named schema's rewriting
 * does not enter (a schema there is named as a ref's target).
 */
function schemaHolderOf(
  relocated: Map<SourceFile, Map<string, string>>,
  file: SourceFile,
  pointer: string,
): { effective: string; rest: string } | undefined {
  const holder = holderOf(relocated, file, pointer);
  if (holder === undefined || holder.rest === "") return holder;
  const at = pointer.slice(0, pointer.length - holder.rest.length);
  return isSubschemaPlace(getAtPointer(file.document, at) as JsonValue, at, pointer) ? holder : undefined;
}

/** The `$dynamicAnchor`s a dynamic scope binds, by name: the first resource entered that has one. */
type Scope = ReadonlyMap<string, Place>;

/** A named type as it is in another dynamic scope than its own: one more type, named after what the scope binds. */
interface Instance {
  readonly name: string;
  readonly entry: Named;
  readonly scope: Scope;
}

/**
 * Dynamic scopes, for the `$dynamicRef`s whose target depends on the path a value is
 * checked through (`Resources.isPathDependent`): neither the root has their anchor nor one
 * schema alone. A type that such a ref can be reached from is generated once per scope it
 * is reached in: its own (the resource it is in, as a check of that type alone begins), and
 * each other one a ref leads to it in, as a type of its own (`GenericListWithNumberList`).
 * A scope binds each anchor name to the first resource on the path that has it; entering a
 * resource (a `$ref` to it, or a subschema with an `$id`) binds what it has and the scope
 * has not. Where no `$dynamicRef` depends on the path, nothing here changes anything.
 */
function dynamicScopes(
  resources: Resources,
  named: readonly Named[],
  relocated: Map<SourceFile, Map<string, string>>,
  resolveRef: ReturnType<typeof refResolver>,
) {
  const byName = new Map(named.map((entry) => [entry.name, entry]));
  const placeKey = (place: Place) => `${place.file.absolutePath}#${place.pointer}`;
  /** The named type a place is in, and the pointer within it. */
  const entryAt = (place: Place): { name: string; rest: string } | undefined => {
    const holder = holderOf(relocated, place.file, place.pointer);
    return holder === undefined ? undefined : { name: holder.effective.slice("/$defs/".length), rest: holder.rest };
  };
  /** Each schema of a type's own body: not those of another named type inside it. */
  const forEachSchema = (entry: Named, visit: (schema: JsonObject, pointer: string) => void): void => {
    const walk = (schema: JsonValue, pointer: string): void => {
      if (pointer !== entry.pointer && relocated.get(entry.source)!.has(pointer)) return;
      if (!isJsonObject(schema)) return;
      visit(schema, pointer);
      for (const child of subschemasOf(schema, pointer)) walk(child.schema, child.pointer);
    };
    walk(getAtPointer(entry.source.document, entry.pointer) as JsonValue, entry.pointer);
  };

  // The path-dependent $dynamicRefs, by place, and what each type refs.
  const dependent = new Map<string, string>();
  const direct = new Map<string, Set<string>>();
  const edges = new Map<string, Set<string>>();
  // Only a document with a $dynamicAnchor can have a $dynamicRef whose target depends on the path.
  for (const entry of resources.hasDynamicAnchors() ? named : []) {
    const names = new Set<string>();
    const targets = new Set<string>();
    forEachSchema(entry, (schema, pointer) => {
      for (const keyword of REF_KEYWORDS) {
        const ref = schema[keyword];
        if (typeof ref !== "string") continue;
        const initial = resources.target(entry.source, pointer, ref);
        const anchor =
          keyword === "$dynamicRef"
            ? resources.dynamicAnchorOf(initial)
            : keyword === "$recursiveRef"
              ? resources.recursiveAnchorOf(initial)
              : undefined;
        const places =
          anchor !== undefined && resources.isPathDependent(anchor)
            ? resources.dynamicAnchorsNamed(anchor)
            : "place" in initial
              ? [{ file: initial.place.file, pointer: resources.pointerOf(initial.place, initial.fragment) ?? initial.place.pointer }]
              : [];
        if (anchor !== undefined && resources.isPathDependent(anchor)) {
          names.add(anchor);
          dependent.set(placeKey({ file: entry.source, pointer }), anchor);
        }
        for (const place of places) {
          const target = entryAt(place);
          if (target !== undefined) targets.add(target.name);
        }
      }
    });
    direct.set(entry.name, names);
    edges.set(entry.name, targets);
  }
  // The anchor names that matter to a type: of its path-dependent refs, and of those it reaches.
  const relevant = new Map([...direct].map(([name, names]) => [name, new Set(names)]));
  for (let changed = dependent.size > 0; changed;) {
    changed = false;
    for (const [name, targets] of edges)
      for (const target of targets)
        for (const anchor of relevant.get(target) ?? [])
          if (!relevant.get(name)!.has(anchor)) {
            relevant.get(name)!.add(anchor);
            changed = true;
          }
  }

  const of = (resource: string, scope: Scope = new Map()): Scope => {
    let extended: Map<string, Place> | undefined;
    for (const [name, place] of resources.dynamicAnchorsIn(resource)) if (!scope.has(name)) (extended ??= new Map(scope)).set(name, place);
    return extended ?? scope;
  };
  const standalone = (entry: Named): Scope => of(resources.baseOf(entry.source, entry.pointer));
  const keyOf = (name: string, scope: Scope) =>
    [...relevant.get(name)!]
      .sort()
      .map((anchor) => `${anchor}=${scope.has(anchor) ? placeKey(scope.get(anchor)!) : ""}`)
      .join(",");
  const instances: Instance[] = [];
  const byKey = new Map<string, string>();
  let done = 0;
  const instanceOf = (name: string, scope: Scope): string => {
    const entry = byName.get(name);
    if (entry === undefined || (relevant.get(name)?.size ?? 0) === 0) return name;
    const key = keyOf(name, scope);
    if (key === keyOf(name, standalone(entry))) return name;
    const known = byKey.get(`${name}|${key}`);
    if (known !== undefined) return known;
    const binders = [...relevant.get(name)!].sort().flatMap((anchor) => {
      const place = scope.get(anchor);
      return place === undefined ? [] : [entryAt(place)?.name ?? anchor];
    });
    const base = `${name}With${binders.map(pascalCase).join("And")}`;
    let instance = base;
    for (let i = 2; byName.has(instance) || instances.some((each) => each.name === instance); i++) instance = `${base}${i}`;
    byKey.set(`${name}|${key}`, instance);
    instances.push({ name: instance, entry, scope });
    return instance;
  };

  return {
    instances,
    of,
    standalone,
    /** The scope at a schema of a type: the type's, and each resource entered on the way down. */
    at(entry: Named, pointer: string, scope: Scope): Scope {
      if (dependent.size === 0) return scope;
      const tokens = parsePointer(pointer);
      let here = scope;
      for (let length = parsePointer(entry.pointer).length + 1; length <= tokens.length; length++) {
        const place = { file: entry.source, pointer: appendPointer("", ...tokens.slice(0, length)) };
        if (resources.isResourceRoot(place)) here = of(resources.baseOf(place.file, place.pointer), here);
      }
      return here;
    },
    /** Where a path-dependent `$dynamicRef` leads in this scope, as a pointer into the effective schema; undefined for any other. */
    bound(file: SourceFile, pointer: string, ref: string, scope: Scope): string | undefined {
      const anchor = dependent.get(placeKey({ file, pointer }));
      if (anchor === undefined) return undefined;
      const place = scope.get(anchor);
      const target = place === undefined ? undefined : entryAt(place);
      return target === undefined ? resolveRef(file, pointer, ref) : pointerToFragment(`/$defs/${target.name}${target.rest}`);
    },
    /** A ref into the effective schema, to the type as it is in the scope entering it makes. */
    retarget(ref: string, scope: Scope): string {
      if (dependent.size === 0) return ref;
      const [defs, name, ...rest] = parsePointer(localRefPointer(ref)!);
      const entry = defs === "$defs" && name !== undefined ? byName.get(name) : undefined;
      if (entry === undefined) return ref;
      const instance = instanceOf(name!, of(resources.baseOf(entry.source, entry.pointer), scope));
      return instance === name ? ref : pointerToFragment(appendPointer("/$defs", instance, ...rest));
    },
    /** The next type to generate in another scope, once refs have asked for it. */
    next(): Instance | undefined {
      return instances[done++];
    },
  };
}

/**
 * Resolves `$ref`s to pointers into the effective schema. A ref to a file that does not
 * exist may name a bundled definition: proto-derived bundles ref each definition by the
 * file it would have on its own (`acme.v1.ShippingAddress.jsonschema.json` for the definition
 * titled "Shipping Address"), so a missing file whose last name segment is a definition's key,
 * or its title without spaces, of the referring file means that definition.
 */
function refResolver(resources: Resources, relocated: Map<SourceFile, Map<string, string>>) {
  const resolve = (from: SourceFile, at: string, ref: string, seen: ReadonlySet<string>, keyword: RefKeyword): string => {
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
        : bundledDefinition(target.path, target.fragment, from);
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
    const holder = schemaHolderOf(relocated, located.file, located.pointer);
    if (holder !== undefined) return pointerToFragment(holder.effective + holder.rest);
    // A schema that is only a $ref, outside any named type (a file's root, say): follow it.
    if (isJsonObject(value) && typeof value["$ref"] === "string" && isPureRef(value)) {
      const key = `${located.file.absolutePath}#${located.pointer}`;
      if (seen.has(key)) return fail(`${keyword} "${ref}" is part of a cycle of refs that never reaches a schema`);
      return resolve(located.file, located.pointer, value["$ref"], new Set([...seen, key]), "$ref");
    }
    return fail(
      `${keyword} "${ref}" points into ${located.file.file} outside any schema that agentwire can name`,
      "ref a definition under $defs instead",
    );
  };

  const bundledDefinition = (
    missing: string,
    fragment: string,
    from: SourceFile,
  ): { file: SourceFile; pointer: string | undefined } | undefined => {
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
  };

  return (from: SourceFile, at: string, ref: string, keyword: RefKeyword = "$ref") => resolve(from, at, ref, new Set(), keyword);
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

/** A document's `$schema`, where it names one. */
function schemaKeywordOf(document: JsonValue): string | undefined {
  return isJsonObject(document) && typeof document["$schema"] === "string" ? document["$schema"] : undefined;
}
