import { InputError, InputErrorList } from "../errors.js";
import type { JsonValue } from "../json.js";
import { isJsonObject } from "../json.js";
import type { SourceFile } from "../load/index.js";
import type { Dialect } from "../schema/dialect.js";
import { dialectOf, refReplacesSiblings } from "../schema/dialect.js";
import { appendPointer, getAtPointer } from "../pointer.js";
import { subschemasOf } from "../schema/walk.js";
import { malformedKeywords, notASchema } from "../schema/wellformed.js";
import type { Addressing, RefusedRef } from "./refs.js";
import { fileOfUri, malformed, uriOfFile } from "./refs.js";

/** A schema in one of the protocol's files. */
export interface Place {
  readonly file: SourceFile;
  readonly pointer: string;
}

/**
 * Where a `$ref` leads: a place in a file already read, or a file not read yet (which may
 * not exist), and the fragment, a JSON Pointer or an anchor name, still to look up.
 */
export type Target = { readonly place: Place; readonly fragment: string } | { readonly path: string; readonly fragment: string };

/** The name `"$recursiveAnchor": true` is kept under among the dynamic anchors: no `$dynamicAnchor` is named so. */
export const RECURSIVE_ANCHOR = "";

/** How a draft identifies schemas. */
interface Identification {
  /** The keyword that gives a schema its URI: `id` up to draft 4, `$id` since. */
  readonly id: "id" | "$id";
  /** Up to draft 7 a schema with `$ref` is the `$ref` alone: its `$id` changes nothing. */
  readonly refIgnoresSiblings: boolean;
  /** Up to draft 7 an anchor is written as an `$id` fragment (`"$id": "#foo"`); since, as `$anchor`. */
  readonly idFragmentIsAnchor: boolean;
}

function identification(dialect: Dialect): Identification {
  const upToDraft7 = refReplacesSiblings(dialect);
  return { id: dialect === "draft4" ? "id" : "$id", refIgnoresSiblings: upToDraft7, idFragmentIsAnchor: upToDraft7 };
}

function decoded(fragment: string): string {
  try {
    return decodeURIComponent(fragment);
  } catch {
    return fragment;
  }
}

/** The dialect a schema's own `$schema` names, if it has one agentwire knows. */
function ownDialect(schema: JsonValue): Dialect | undefined {
  return isJsonObject(schema) && typeof schema["$schema"] === "string" ? dialectOf(schema["$schema"]) : undefined;
}

/**
 * The URIs of a protocol's files, as RFC 3986 and JSON Schema give them: each file has the
 * URI it was read by (`uriOfFile`), each schema resource (a file's root, or a schema with
 * an `$id`, or `id` in draft 4) the URI its identifier resolves to against the enclosing
 * one, and each anchor (`$anchor`, `$dynamicAnchor`, or up to draft 7 an `$id` fragment) a
 * plain-name fragment of its resource. A `$ref` resolves against the URI of the resource
 * that holds it. A file without `$schema` is read in the dialect of the protocol's schema.
 */
export class Resources {
  private readonly loaded: SourceFile[] = [];
  private readonly byPath = new Map<string, SourceFile>();
  /** Resource URIs (without fragment) → the resource's root. */
  private readonly resources = new Map<string, Place>();
  /** "<resource URI>#<anchor>" → the schema that declares it. */
  private readonly anchors = new Map<string, Place>();
  /** The `$dynamicAnchor`s among them. */
  private readonly dynamicAnchors = new Map<string, Place>();
  /** Per file, per schema pointer, the base URI its `$ref`s resolve against. */
  private readonly bases = new Map<SourceFile, Map<string, string>>();
  /** Per file, the schemas read in draft 4, whose identifier is `id`. */
  private readonly draft4 = new Map<SourceFile, Set<string>>();
  private readonly dialect: Dialect;

  constructor(
    root: SourceFile,
    private readonly addressing: Addressing,
  ) {
    this.dialect = ownDialect(root.document) ?? "draft2020-12";
    const notSchema = notASchema(root.document, "");
    if (notSchema !== undefined) throw new InputError({ file: root.file }, `the root of the file is not a schema: ${notSchema.problem}`);
    this.add(root);
  }

  /** The files read, the protocol's schema first. */
  get files(): readonly SourceFile[] {
    return this.loaded;
  }

  add(file: SourceFile): void {
    this.loaded.push(file);
    this.byPath.set(file.absolutePath, file);
    this.bases.set(file, new Map());
    this.draft4.set(file, new Set());
    const retrieval = uriOfFile(file.absolutePath, this.addressing);
    this.register(this.resources, retrieval, { file, pointer: "" }, "");
    this.identify(file, file.document, "", retrieval, this.dialect);
  }

  /**
   * Reads a schema that a ref leads to where keywords do not lead from its file's root
   * (`#/definitions/group/x`), as the file's own schemas are read: its identifiers and
   * anchors, in the resource around it, and its malformed keywords.
   */
  addTarget(place: Place): void {
    if (this.bases.get(place.file)!.has(place.pointer)) return;
    const schema = getAtPointer(place.file.document, place.pointer) as JsonValue | undefined;
    if (schema === undefined) return;
    const base = this.baseOf(place.file, place.pointer);
    this.identify(place.file, schema, place.pointer, base, ownDialect(place.file.document) ?? this.dialect);
  }

  /** Registers the identifiers and anchors of a schema and those beneath it, and reports their malformed keywords. */
  private identify(file: SourceFile, schema: JsonValue, at: string, base: string, inheritedDialect: Dialect): void {
    const bases = this.bases.get(file)!;
    const draft4 = this.draft4.get(file)!;
    // A document in a custom metaschema's dialect may leave vocabularies out (resolve/metaschema.ts): its keywords are read, not checked.
    const rootDialect = isJsonObject(file.document) ? file.document["$schema"] : undefined;
    const checked = rootDialect === undefined || dialectOf(rootDialect) !== undefined;
    // Every malformed keyword of the file is reported, not the first: none depends on another.
    const problems = new InputErrorList();
    const visit = (schema: JsonValue, pointer: string, base: string, inherited: Dialect): void => {
      if (!isJsonObject(schema)) {
        bases.set(pointer, base);
        return;
      }
      const dialect = ownDialect(schema) ?? inherited;
      if (checked)
        for (const found of malformedKeywords(schema, pointer, dialect))
          problems.add(new InputError({ file: file.file, pointer: found.pointer }, found.problem, found.hint));
      if (dialect === "draft4") draft4.add(pointer);
      const { id: idKeyword, refIgnoresSiblings, idFragmentIsAnchor } = identification(dialect);
      const place = { file, pointer };
      const id = schema[idKeyword];
      if (typeof id === "string" && !(refIgnoresSiblings && typeof schema["$ref"] === "string")) {
        let resolved: URL;
        try {
          resolved = new URL(id, base);
        } catch {
          throw new InputError(
            { file: file.file, pointer: appendPointer(pointer, idKeyword) },
            `${idKeyword} "${id}" is not a URI reference`,
          );
        }
        const fragment = resolved.hash.slice(1);
        resolved.hash = "";
        // "#foo" keeps the base; "other.json#foo" moves it. A fragment is an anchor up to draft 7.
        if (!(id.startsWith("#") && fragment !== "")) {
          base = resolved.href;
          this.register(this.resources, base, place, appendPointer(pointer, idKeyword));
        }
        if (fragment !== "" && idFragmentIsAnchor)
          this.register(this.anchors, `${base}#${decoded(fragment)}`, place, appendPointer(pointer, idKeyword));
      }
      if (!idFragmentIsAnchor)
        for (const keyword of ["$anchor", "$dynamicAnchor"]) {
          const anchor = schema[keyword];
          if (typeof anchor !== "string") continue;
          this.register(this.anchors, `${base}#${anchor}`, place, appendPointer(pointer, keyword));
          if (keyword === "$dynamicAnchor") this.dynamicAnchors.set(`${base}#${anchor}`, place);
        }
      // 2019-09's `"$recursiveAnchor": true` is a dynamic anchor without a name.
      if (schema["$recursiveAnchor"] === true) this.dynamicAnchors.set(`${base}#${RECURSIVE_ANCHOR}`, place);
      bases.set(pointer, base);
      for (const child of subschemasOf(schema, pointer)) visit(child.schema, child.pointer, base, dialect);
    };
    try {
      visit(schema, at, base, inheritedDialect);
    } catch (error) {
      // An identifier that stops the walk: reported after the malformed keywords found before it.
      if (error instanceof InputError) problems.add(error);
      else throw error;
    }
    problems.throwIfAny();
  }

  private register(map: Map<string, Place>, uri: string, place: Place, at: string): void {
    const existing = map.get(uri);
    if (existing === undefined) map.set(uri, place);
    else if (existing.file !== place.file || existing.pointer !== place.pointer)
      throw new InputError(
        { file: place.file.file, pointer: at },
        `${uri} names two schemas, this one and ${existing.file.file}#${existing.pointer}`,
        "give each schema its own $id or anchor",
      );
  }

  /** Where a `$ref` of the schema at `pointer` in `from` leads. */
  target(from: SourceFile, pointer: string, ref: string): Target | RefusedRef {
    const base = this.baseOf(from, pointer);
    const resolved = this.address(ref, base);
    if ("refused" in resolved) return resolved;
    const { address, fragment } = resolved;
    const place = this.resources.get(address);
    if (place !== undefined) return { place, fragment };
    let target = fileOfUri(address, ref, this.addressing);
    // A vendored copy keeps the $id of where it was published: a relative ref that leads
    // there, to a URL no remote maps, means the copy's neighbour in schemas/.
    const retrieval = uriOfFile(from.absolutePath, this.addressing);
    if (typeof target !== "string" && !/^[a-z][a-z0-9+.-]*:/i.test(ref) && base !== retrieval) {
      const beside = this.address(ref, retrieval);
      if (!("refused" in beside)) {
        const fallback = fileOfUri(beside.address, ref, this.addressing);
        if (typeof fallback === "string") target = fallback;
      }
    }
    if (typeof target !== "string") return target;
    const file = this.byPath.get(target);
    return file === undefined ? { path: target, fragment } : { place: { file, pointer: "" }, fragment };
  }

  /**
   * Where a `$dynamicRef` leads. As a `$ref`, but where it names a `$dynamicAnchor`: then
   * the target is the anchor of that name in the outermost schema resource of the dynamic
   * scope that has one (see `outermost`).
   */
  dynamicTarget(from: SourceFile, pointer: string, ref: string): Target | RefusedRef {
    const initial = this.target(from, pointer, ref);
    const name = this.dynamicAnchorOf(initial);
    if (name === undefined || !("place" in initial)) return initial;
    return this.outermost(initial, name, `$dynamicRef "${ref}"`, `$dynamicAnchor "${name}"`);
  }

  /** The name of the `$dynamicAnchor` a `$dynamicRef`'s initial target is, if it is one. */
  dynamicAnchorOf(initial: Target | RefusedRef): string | undefined {
    if (!("place" in initial) || initial.fragment === RECURSIVE_ANCHOR || initial.fragment.startsWith("/")) return undefined;
    const { place, fragment } = initial;
    return this.dynamicAnchors.has(`${this.baseOf(place.file, place.pointer)}#${fragment}`) ? fragment : undefined;
  }

  /**
   * Whether the anchor a `$dynamicRef` leads to depends on the path (`outermost` refuses it):
   * neither the root's resource has it nor one schema alone.
   */
  isPathDependent(name: string): boolean {
    if (this.dynamicAnchors.has(`${this.baseOf(this.loaded[0]!, "")}#${name}`)) return false;
    return this.dynamicAnchorsNamed(name).length > 1;
  }

  hasDynamicAnchors(): boolean {
    return this.dynamicAnchors.size > 0;
  }

  /** The schemas with a `$dynamicAnchor` of this name. */
  dynamicAnchorsNamed(name: string): Place[] {
    return [...this.dynamicAnchors].filter(([uri]) => uri.endsWith(`#${name}`)).map(([, place]) => place);
  }

  /** The `$dynamicAnchor`s of a resource, by name. */
  dynamicAnchorsIn(resource: string): [string, Place][] {
    return [...this.dynamicAnchors]
      .filter(([uri]) => uri.startsWith(`${resource}#`))
      .map(([uri, place]): [string, Place] => [uri.slice(resource.length + 1), place]);
  }

  /** Whether a schema starts a resource of its own: a file's root, or a schema with an `$id`. */
  isResourceRoot(place: Place): boolean {
    const base = this.baseOf(place.file, place.pointer);
    const root = this.resources.get(base);
    return root !== undefined && root.file === place.file && root.pointer === place.pointer;
  }

  /**
   * Where a `$recursiveRef` (2019-09) leads. As a `$ref`, but where the resource it leads
   * to has `"$recursiveAnchor": true`: then the outermost resource of the dynamic scope
   * that has one (see `outermost`).
   */
  recursiveTarget(from: SourceFile, pointer: string, ref: string): Target | RefusedRef {
    const initial = this.target(from, pointer, ref);
    if (this.recursiveAnchorOf(initial) === undefined || !("place" in initial)) return initial;
    return this.outermost(initial, RECURSIVE_ANCHOR, `$recursiveRef "${ref}"`, '"$recursiveAnchor": true');
  }

  /** The nameless anchor of 2019-09, where a `$recursiveRef`'s initial target has `"$recursiveAnchor": true`. */
  recursiveAnchorOf(initial: Target | RefusedRef): string | undefined {
    if (!("place" in initial) || initial.fragment !== "") return undefined;
    const { place } = initial;
    return this.dynamicAnchors.has(`${this.baseOf(place.file, place.pointer)}#${RECURSIVE_ANCHOR}`) ? RECURSIVE_ANCHOR : undefined;
  }

  /**
   * The anchor named `name` (a dynamic one, as the initial target is) of the outermost
   * resource of the dynamic scope that has it. The protocol's root resource is the
   * outermost of every scope, so where it has the anchor, that is the target; where only
   * one schema has it, it is. Anywhere else the target depends on the path a value is
   * checked through: resolve/scopes.ts follows each path for a ref it finds in a type
   * (`DynamicScopes`); anything else is refused.
   */
  private outermost(initial: Target & { readonly place: Place }, name: string, ref: string, anchor: string): Target | RefusedRef {
    const outermost = this.dynamicAnchors.get(`${this.baseOf(this.loaded[0]!, "")}#${name}`);
    if (outermost !== undefined) return { place: outermost, fragment: "" };
    if (!this.isPathDependent(name)) return initial;
    return {
      refused: `${ref} leads to one of ${this.dynamicAnchorsNamed(name).length} schemas with ${anchor}, by the path a value is checked through`,
      hint: "agentwire follows such a ref on every path from within a definition: move it into $defs",
    };
  }

  /** The keyword that identifies the schema at `pointer`: `id` in draft 4, `$id` since. */
  identifierAt(file: SourceFile, pointer: string): "id" | "$id" {
    return this.draft4.get(file)?.has(pointer) === true ? "id" : "$id";
  }

  /** A fragment as a JSON Pointer into the file of `place`, or undefined for an anchor no schema declares. */
  pointerOf(place: Place, fragment: string): string | undefined {
    if (fragment === "" || fragment.startsWith("/")) return place.pointer + fragment;
    return this.anchors.get(`${this.baseOf(place.file, place.pointer)}#${fragment}`)?.pointer;
  }

  private address(ref: string, base: string): { address: string; fragment: string } | RefusedRef {
    let url: URL;
    try {
      url = new URL(ref, base);
    } catch {
      return {
        refused: `$ref "${ref}" cannot be resolved against the base URI ${base}`,
        hint: "a URN or other URI without a path takes only a fragment (#…) relative to it",
      };
    }
    let fragment: string;
    try {
      fragment = decodeURIComponent(url.hash.slice(1));
    } catch {
      return malformed(ref);
    }
    url.hash = "";
    return { address: url.href, fragment };
  }

  /** The base URI of the schema at `pointer`, or of the nearest schema around it: the URI of the resource it is in. */
  baseOf(file: SourceFile, pointer: string): string {
    const bases = this.bases.get(file)!;
    for (let at = pointer; ; at = at.slice(0, at.lastIndexOf("/"))) {
      const base = bases.get(at);
      if (base !== undefined) return base;
      if (at === "") return uriOfFile(file.absolutePath, this.addressing);
    }
  }
}
