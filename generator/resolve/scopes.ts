import { pascalCase } from "../identifiers.js";
import type { SourceFile } from "../load/index.js";
import { appendPointer, localRefPointer, parsePointer } from "../pointer.js";
import { REF_KEYWORDS } from "../schema/vocabulary.js";
import { placeKey } from "./named.js";
import type { Named, TypeNames } from "./naming.js";
import { forEachOwnSchema } from "./naming.js";
import type { RefResolver } from "./ref-pointers.js";
import { pointerToFragment } from "./refs.js";
import type { Place, Resources } from "./resources.js";

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
export class DynamicScopes {
  /** The types generated in another scope than their own, in the order refs asked for them. */
  readonly instances: Instance[] = [];
  private readonly byName: ReadonlyMap<string, Named>;
  /** The path-dependent `$dynamicRef`s, by place: the anchor name each looks up. */
  private readonly dependent = new Map<string, string>();
  /** Per type, the anchor names that matter to it: of its path-dependent refs, and of those of the types it reaches. */
  private readonly relevant: ReadonlyMap<string, ReadonlySet<string>>;
  private readonly byKey = new Map<string, string>();
  private done = 0;

  constructor(
    private readonly resources: Resources,
    private readonly names: TypeNames,
    private readonly resolveRef: RefResolver,
  ) {
    this.byName = new Map(names.named.map((entry) => [entry.name, entry]));
    // What each type's path-dependent refs look up, and which types its refs reach.
    const direct = new Map<string, Set<string>>();
    const edges = new Map<string, Set<string>>();
    // Only a document with a $dynamicAnchor can have a $dynamicRef whose target depends on the path.
    for (const entry of resources.hasDynamicAnchors() ? names.named : []) {
      const anchors = new Set<string>();
      const targets = new Set<string>();
      forEachOwnSchema(names, entry.source, entry.pointer, (schema, pointer) => {
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
            anchors.add(anchor);
            this.dependent.set(placeKey(entry.source, pointer), anchor);
          }
          for (const place of places) {
            const target = this.entryAt(place);
            if (target !== undefined) targets.add(target.name);
          }
        }
      });
      direct.set(entry.name, anchors);
      edges.set(entry.name, targets);
    }
    const relevant = new Map([...direct].map(([name, anchors]) => [name, new Set(anchors)]));
    for (let changed = this.dependent.size > 0; changed;) {
      changed = false;
      for (const [name, targets] of edges)
        for (const target of targets)
          for (const anchor of relevant.get(target) ?? [])
            if (!relevant.get(name)!.has(anchor)) {
              relevant.get(name)!.add(anchor);
              changed = true;
            }
    }
    this.relevant = relevant;
  }

  /** A scope as entering a resource makes it: what the resource's anchors bind and the scope does not yet. */
  of(resource: string, scope: Scope = new Map()): Scope {
    let extended: Map<string, Place> | undefined;
    for (const [name, place] of this.resources.dynamicAnchorsIn(resource))
      if (!scope.has(name)) (extended ??= new Map(scope)).set(name, place);
    return extended ?? scope;
  }

  /** A type's own scope: the resource it is in, as a check of that type alone begins. */
  standalone(entry: Named): Scope {
    return this.of(this.resources.baseOf(entry.source, entry.pointer));
  }

  /** The scope at a schema of a type: the type's, and each resource entered on the way down. */
  at(entry: Named, pointer: string, scope: Scope): Scope {
    if (this.dependent.size === 0) return scope;
    const tokens = parsePointer(pointer);
    let here = scope;
    for (let length = parsePointer(entry.pointer).length + 1; length <= tokens.length; length++) {
      const place = { file: entry.source, pointer: appendPointer("", ...tokens.slice(0, length)) };
      if (this.resources.isResourceRoot(place)) here = this.of(this.resources.baseOf(place.file, place.pointer), here);
    }
    return here;
  }

  /** Where a path-dependent `$dynamicRef` leads in this scope, as a pointer into the effective schema; undefined for any other. */
  bound(file: SourceFile, pointer: string, ref: string, scope: Scope): string | undefined {
    const anchor = this.dependent.get(placeKey(file, pointer));
    if (anchor === undefined) return undefined;
    const place = scope.get(anchor);
    const target = place === undefined ? undefined : this.entryAt(place);
    return target === undefined ? this.resolveRef(file, pointer, ref) : pointerToFragment(`/$defs/${target.name}${target.rest}`);
  }

  /** A ref into the effective schema, to the type as it is in the scope entering it makes. */
  retarget(ref: string, scope: Scope): string {
    if (this.dependent.size === 0) return ref;
    const [defs, name, ...rest] = parsePointer(localRefPointer(ref)!);
    const entry = defs === "$defs" && name !== undefined ? this.byName.get(name) : undefined;
    if (entry === undefined) return ref;
    const instance = this.instanceOf(name!, this.of(this.resources.baseOf(entry.source, entry.pointer), scope));
    return instance === name ? ref : pointerToFragment(appendPointer("/$defs", instance, ...rest));
  }

  /** The next type to generate in another scope, once refs have asked for it. */
  next(): Instance | undefined {
    return this.instances[this.done++];
  }

  /** The type a type is in a scope: itself where the scope binds what matters to it as its own does, else an instance, named after what the scope binds. */
  private instanceOf(name: string, scope: Scope): string {
    const entry = this.byName.get(name);
    const relevant = this.relevant.get(name);
    if (entry === undefined || relevant === undefined || relevant.size === 0) return name;
    const key = this.keyOf(name, scope);
    if (key === this.keyOf(name, this.standalone(entry))) return name;
    const known = this.byKey.get(`${name}|${key}`);
    if (known !== undefined) return known;
    const binders = [...relevant].sort().flatMap((anchor) => {
      const place = scope.get(anchor);
      return place === undefined ? [] : [this.entryAt(place)?.name ?? anchor];
    });
    const base = `${name}With${binders.map(pascalCase).join("And")}`;
    let instance = base;
    for (let i = 2; this.byName.has(instance) || this.instances.some((each) => each.name === instance); i++) instance = `${base}${i}`;
    this.byKey.set(`${name}|${key}`, instance);
    this.instances.push({ name: instance, entry, scope });
    return instance;
  }

  /** What a scope binds of the anchor names that matter to a type, as one string. */
  private keyOf(name: string, scope: Scope): string {
    return [...this.relevant.get(name)!]
      .sort()
      .map((anchor) => {
        const place = scope.get(anchor);
        return `${anchor}=${place === undefined ? "" : placeKey(place.file, place.pointer)}`;
      })
      .join(",");
  }

  /** The named type a place is in, and the pointer within it. */
  private entryAt(place: Place): { name: string; rest: string } | undefined {
    const holder = this.names.holderOf(place.file, place.pointer);
    return holder === undefined ? undefined : { name: holder.effective.slice("/$defs/".length), rest: holder.rest };
  }
}

/** The `$dynamicAnchor`s a dynamic scope binds, by name: the first resource entered that has one. */
export type Scope = ReadonlyMap<string, Place>;

/** A named type as it is in another dynamic scope than its own: one more type, named after what the scope binds. */
export interface Instance {
  readonly name: string;
  readonly entry: Named;
  readonly scope: Scope;
}
