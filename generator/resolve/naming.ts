import path from "node:path";
import type * as Decode from "../../templates/decode.js";
import type * as Runtime from "../../templates/runtime.js";
import type * as Unions from "../../templates/unions.js";
import { isIdentifier, pascalCase } from "../identifiers.js";
import type { JsonObject, JsonValue } from "../json.js";
import { isJsonObject, jsonEqual } from "../json.js";
import type { SourceFile } from "../load/index.js";
import { appendPointer, getAtPointer, parsePointer } from "../pointer.js";
import { isSubschemaPlace, subschemasOf } from "../schema/walk.js";

/**
 * The project's type-naming rule: the named types of a protocol's files, in the order they
 * were named, and per file the places that became them. `named.ts` decides which schemas
 * are named and by what text they would like to be called; this decides the names.
 */
export class TypeNames {
  readonly named: Named[] = [];
  /** Per file, the places that become named types: pointer → effective pointer. */
  readonly relocated: Map<SourceFile, Map<string, string>>;
  private readonly byName = new Map<string, Named>();
  /** The same, by the name as the names made from it spell it (`pascalCase`: `isSnakeCase` is `snake_case`'s guard). */
  private readonly byFolded = new Map<string, Named>();

  constructor(files: readonly SourceFile[]) {
    this.relocated = new Map(files.map((file) => [file, new Map()]));
  }

  /**
   * Names a schema by the text it would like to be called by, made a name (`typeNameFor`:
   * "Shipping Address" is ShippingAddress). A name another schema already has is qualified by the names of the
   * named schemas that enclose this one, nearest first (`itemType` in `numberList` is
   * `numberListItemType`), then by its place (`/then/$defs/thingy` is `ThenThingy`), then,
   * in another file than the schema that has the name, by that file's name
   * (`ContainerReferenceConfigModel` of `bitrise-step.json` is
   * `BitriseStepContainerReferenceConfigModel`), and last by its rank among the schemas
   * that want the name (`Item2`), so that the first schema to take a name keeps it
   * and a later one gets the same qualified name in every version of the spec. A name is
   * had also where the names made from it would be another's (`deployment` and
   * `Deployment` would both have the guard `isDeployment`, `snake_case` and `snakeCase`
   * `isSnakeCase`) or is one the runtime exports.
   * A `sharable` schema (a titled one) shares the entry of an identical one of its name and file.
   */
  add(wanted: Named, sharable: boolean): string {
    // A key or title with nothing to make a name of ("", "???") is Unnamed, qualified as any name is.
    const entry = { ...wanted, name: typeNameFor(wanted.name) || "Unnamed" };
    const candidates = [entry.name];
    const qualified = pascalCase(entry.name);
    for (const enclosing of this.enclosingNames(entry.source, entry.pointer))
      candidates.push(`${enclosing}${pascalCase(candidates.at(-1)!)}`);
    // Then the place itself: `/then/$defs/thingy` is ThenThingy.
    const place = parsePointer(entry.pointer).filter((token) => !CONTAINERS.includes(token));
    candidates.push(pascalCase(place.slice(0, -1).join(" ")) + qualified);
    const holder = this.byFolded.get(qualified);
    if (holder !== undefined && holder.source !== entry.source) candidates.push(`${fileName(entry.source)}${qualified}`);
    const taken = (name: string) => {
      if (RUNTIME_NAMES.has(name)) return true;
      const existing = this.byFolded.get(pascalCase(name));
      if (existing === undefined) return false;
      return !(sharable && existing.name === name && existing.source === entry.source && jsonEqual(existing.body, entry.body));
    };
    let name = candidates.find((candidate) => !taken(candidate));
    for (let rank = 2; name === undefined; rank++) if (!taken(`${entry.name}${rank}`)) name = `${entry.name}${rank}`;
    if (!this.byName.has(name)) {
      const placed = { ...entry, name };
      this.named.push(placed);
      this.byName.set(name, placed);
      this.byFolded.set(pascalCase(name), placed);
    }
    this.relocated.get(entry.source)!.set(entry.pointer, `/$defs/${name}`);
    return name;
  }

  /** Whether the place itself became a named type. */
  isNamed(file: SourceFile, pointer: string): boolean {
    return this.relocated.get(file)!.has(pointer);
  }

  /** The named schema that holds a place, the place itself or the nearest around it. */
  holderOf(file: SourceFile, pointer: string): Holder | undefined {
    const places = this.relocated.get(file)!;
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
  schemaHolderOf(file: SourceFile, pointer: string): Holder | undefined {
    const holder = this.holderOf(file, pointer);
    if (holder === undefined || holder.rest === "") return holder;
    const at = pointer.slice(0, pointer.length - holder.rest.length);
    return isSubschemaPlace(getAtPointer(file.document, at) as JsonValue, at, pointer) ? holder : undefined;
  }

  /** The names of the named schemas that hold the one at `pointer` in `file`, nearest first. */
  private enclosingNames(file: SourceFile, pointer: string): string[] {
    const places = this.relocated.get(file)!;
    const tokens = parsePointer(pointer);
    const names: string[] = [];
    for (let length = tokens.length - 1; length >= 0; length--) {
      const target = places.get(appendPointer("", ...tokens.slice(0, length)));
      if (target !== undefined) names.push(target.slice("/$defs/".length));
    }
    return names;
  }
}

/** One named type of the effective schema, and where its schema came from. */
export interface Named {
  readonly name: string;
  readonly source: SourceFile;
  readonly pointer: string;
  readonly body: JsonValue;
}

/** The keywords that hold definitions, which a place's name leaves out. */
export const CONTAINERS = ["$defs", "definitions"];

/**
 * What every protocol's index re-exports from the modules the protocols share
 * (`templates/runtime.ts`, `decode.ts`, `unions.ts`), values and types: names no definition may take.
 * Values are the templates' own (`keyof typeof`), so a misspelt one does not compile; types
 * TypeScript cannot list, and `test/emit/templates.test.ts` finds each in its template.
 */
export const SHARED_EXPORTS = {
  runtime: {
    values: ["useRegExp"] as const satisfies readonly (keyof typeof Runtime)[],
    types: ["RegExpEngine", "RegExpLike", "ValidateOptions", "ValidationError", "ValidationResult"],
  },
  decode: { values: [] as const satisfies readonly (keyof typeof Decode)[], types: ["DecodeOptions", "DecodeResult"] },
  unions: {
    values: ["assertNever", "UnmatchedError"] as const satisfies readonly (keyof typeof Unions)[],
    types: ["BuildOptions", "Fields", "Member"],
  },
} as const;
export const RUNTIME_VALUES: readonly string[] = Object.values(SHARED_EXPORTS).flatMap(({ values }) => values);
const RUNTIME_TYPES: readonly string[] = Object.values(SHARED_EXPORTS).flatMap(({ types }) => types);
/** The names the runtime exports, which every protocol's index re-exports: no type has them. */
export const RUNTIME_NAMES: ReadonlySet<string> = new Set([...RUNTIME_VALUES, ...RUNTIME_TYPES]);

/**
 * The text a schema would like to be called by as a type's name. A definition is named by
 * its key, a titled schema by its title, with whitespace removed ("Shipping Address" →
 * ShippingAddress). When that is still no identifier, the text's words are joined in
 * PascalCase ("Core schema meta-schema" → CoreSchemaMetaSchema), `[]` being the word
 * "Array" (`Def<number[]>` → DefNumberArray).
 */
export function typeNameFor(text: string): string {
  const compact = text.replace(/\s+/g, "");
  const name = isIdentifier(compact) ? compact : pascalCase(text.replaceAll("[]", " array "));
  if (name === "") return name;
  return /^[0-9]/.test(name) ? `_${name}` : name;
}

/**
 * Whether a `title` reads as a name, which a type may take: at most five words and no
 * sentence in it ("Time Series", "ABCSupplyPlan JSON Schema"). Many titles are
 * descriptions ("Location in the inventory management system", "JSON schema for the
 * TSLint configuration files"), which would make names of a line or more; the schema is
 * named by its key or its place then, as one without a title is.
 */
export function isNameLike(title: string): boolean {
  const words = title.trim().split(/\s+/);
  return words.length <= 5 && !/[.!?;:,](\s|$)/.test(title.trim());
}

/** Where a place is in the effective schema: the named type that holds it (its pointer there), and the rest of its pointer below. */
export interface Holder {
  readonly effective: string;
  readonly rest: string;
}

/** A file's name as a word of a type's name: "bitrise-step.json" → "BitriseStep". */
export function fileName(file: SourceFile): string {
  const word = pascalCase(path.basename(file.absolutePath).replace(/(\.schema)?\.json$/, ""));
  return /^[0-9]/.test(word) ? `_${word}` : word;
}

/**
 * Each schema at `start` in a file and below it, parents first, but for those of another
 * named type inside it: what a named type's own body holds.
 */
export function forEachOwnSchema(
  names: TypeNames,
  file: SourceFile,
  start: string,
  visit: (schema: JsonObject, pointer: string) => void,
): void {
  const walk = (schema: JsonValue, pointer: string): void => {
    if (pointer !== start && names.isNamed(file, pointer)) return;
    if (!isJsonObject(schema)) return;
    visit(schema, pointer);
    for (const child of subschemasOf(schema, pointer)) walk(child.schema, child.pointer);
  };
  walk(getAtPointer(file.document, start) as JsonValue, start);
}
