import { pascalCase } from "../identifiers.js";
import type { JsonObject, JsonValue } from "../json.js";
import { isJsonObject } from "../json.js";
import type { SourceFile } from "../load/index.js";
import { appendPointer, getAtPointer, localRefPointer, parsePointer } from "../pointer.js";
import { REF_KEYWORDS } from "../schema/vocabulary.js";
import { subschemasOf } from "../schema/walk.js";
import type { Named, TypeNames } from "./naming.js";
import type { RefResolver } from "./ref-pointers.js";
import { pointerToFragment } from "./refs.js";
import type { Place, Resources } from "./resources.js";

/** The `$dynamicAnchor`s a dynamic scope binds, by name: the first resource entered that has one. */
export type Scope = ReadonlyMap<string, Place>;

/** A named type as it is in another dynamic scope than its own: one more type, named after what the scope binds. */
export interface Instance {
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
export function dynamicScopes(resources: Resources, names: TypeNames, resolveRef: RefResolver) {
  const named = names.named;
  const byName = new Map(named.map((entry) => [entry.name, entry]));
  const placeKey = (place: Place) => `${place.file.absolutePath}#${place.pointer}`;
  /** The named type a place is in, and the pointer within it. */
  const entryAt = (place: Place): { name: string; rest: string } | undefined => {
    const holder = names.holderOf(place.file, place.pointer);
    return holder === undefined ? undefined : { name: holder.effective.slice("/$defs/".length), rest: holder.rest };
  };
  /** Each schema of a type's own body: not those of another named type inside it. */
  const forEachSchema = (entry: Named, visit: (schema: JsonObject, pointer: string) => void): void => {
    const walk = (schema: JsonValue, pointer: string): void => {
      if (pointer !== entry.pointer && names.isNamed(entry.source, pointer)) return;
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

/** The dynamic scopes of a protocol's types, as `dynamicScopes` makes them. */
export type DynamicScopes = ReturnType<typeof dynamicScopes>;
