import { InputError } from "../errors.js";
import { NESTING_LIMIT } from "../limits.js";
import type { JsonObject, JsonValue } from "../json.js";
import { isJsonObject } from "../json.js";
import type { Shape } from "../ir/model.js";
import type { Provenance } from "../resolve/index.js";
import type { CompatibleWith, Dialect } from "../schema/dialect.js";
import { dialectOf, isInVocabularies, isKeywordOf, readAs, refReplacesSiblings } from "../schema/dialect.js";
import type { FormatOption } from "../keywords/format.js";
import { isAssertedFormat } from "../keywords/format.js";
import { VOCABULARIES_KEYWORD } from "../schema/vocabulary.js";
import { appendPointer } from "../pointer.js";
import type { ShapeLookup } from "./intersect.js";

/** The hint of every refusal of what the IR does not model. */
const REFUSAL = "agentwire refuses a constraint it cannot check rather than dropping it";

/** How a schema is read into a shape: the schema rules, which the context calls without depending on them. */
export type ReadSchema = (schema: JsonValue, pointer: string, context: Context) => Shape;

/** What every context of one document shares. */
interface Document {
  readonly document: JsonObject;
  readonly definitions: JsonObject;
  readonly provenance: Provenance;
  readonly dialect: Dialect;
  /** The validator whose reading the protocol asks for, where the draft says otherwise. */
  readonly compatibleWith: CompatibleWith | undefined;
  /** Whether the protocol asserts the formats agentwire knows (the config's `formats`). */
  readonly formats: FormatOption | undefined;
  /** Where a custom metaschema leaves vocabularies out, those it uses (`resolve/metaschema.ts`). */
  readonly vocabularies: readonly string[] | undefined;
  readonly read: ReadSchema;
  /**
   * The shapes of named types, each normalized once, when first needed, so a type may be
   * used before its definition. The one mutable part of normalization: a cache, filled in
   * the order the rules first ask for the names.
   */
  readonly named: Map<string, Shape>;
}

/**
 * What a rule may know beyond the schema it reads: the document (its `$defs`, its dialect),
 * where the schema is (for refusals raised deep inside, as `intersect` raises them), and
 * what is being expanded (to refuse a type composed of itself). A context does not change:
 * reading a schema, a named type or the target of a `$ref` derives a new one.
 */
export class Context implements ShapeLookup {
  private constructor(
    private readonly shared: Document,
    /** The pointer of the schema being read. */
    readonly at: string,
    /** Names being normalized, outermost first. */
    readonly expanding: readonly string[],
    /** Pointers of unnamed schemas entered through a `$ref`, outermost first. */
    readonly following: readonly string[],
    /** How many schemas are being read inside each other, this one among them, across definitions and `$ref`s. */
    private readonly depth: number,
  ) {}

  static of(
    document: JsonObject,
    provenance: Provenance,
    read: ReadSchema,
    compatibleWith?: CompatibleWith,
    formats?: FormatOption,
  ): Context {
    const dialect = dialectOf(document["$schema"]);
    if (dialect === undefined)
      throw new InputError(
        provenance.locate("/$schema"),
        `unknown dialect ${JSON.stringify(document["$schema"])}`,
        "agentwire reads JSON Schema drafts 4, 6, 7, 2019-09 and 2020-12 (the default); a custom metaschema's vocabularies are not read, so name the draft it extends",
      );
    return new Context(
      {
        document,
        definitions: isJsonObject(document["$defs"]) ? document["$defs"] : {},
        provenance,
        dialect,
        compatibleWith,
        formats,
        vocabularies: Array.isArray(document[VOCABULARIES_KEYWORD])
          ? document[VOCABULARIES_KEYWORD].filter((each) => typeof each === "string")
          : undefined,
        read,
        named: new Map(),
      },
      "",
      [],
      [],
      0,
    );
  }

  get document(): JsonObject {
    return this.shared.document;
  }

  get definitions(): JsonObject {
    return this.shared.definitions;
  }

  /** The draft the document is written in. */
  get dialect(): Dialect {
    return this.shared.dialect;
  }

  /**
   * Whether the document's dialect has a keyword: its draft has it, and where a custom
   * metaschema names vocabularies, one of them does. A keyword no draft knows is its own.
   */
  hasKeyword(keyword: string): boolean {
    const { dialect, vocabularies, compatibleWith } = this.shared;
    return isKeywordOf(keyword, readAs(dialect, compatibleWith)) && (vocabularies === undefined || isInVocabularies(keyword, vocabularies));
  }

  /** Whether a string's `format` is checked: the protocol asserts formats, and agentwire knows this one. */
  assertsFormat(format: string | undefined): format is string {
    return this.shared.formats === "assert" && isAssertedFormat(format);
  }

  /** Up to draft 7 a `$ref` replaces its schema, but where the protocol is read as ajv 8 reads it. */
  get refReplacesSiblings(): boolean {
    return this.shared.compatibleWith !== "ajv" && refReplacesSiblings(this.shared.dialect);
  }

  /** The shape of a schema found at `pointer`, read by the schema rules. */
  shape(schema: JsonValue, pointer: string): Shape {
    return this.shared.read(schema, pointer, this);
  }

  /** The shape of a named type; a type composed of itself is refused. */
  shapeOf(name: string): Shape {
    const known = this.shared.named.get(name);
    if (known !== undefined) return known;
    const pointer = appendPointer("/$defs", name);
    if (this.expanding.includes(name))
      this.fail(
        pointer,
        `"${name}" is composed of itself (${[...this.expanding.slice(this.expanding.indexOf(name)), name].join(" → ")})`,
        "a type may contain itself in a property or an array, not in allOf",
      );
    const shape = new Context(this.shared, this.at, [...this.expanding, name], this.following, this.depth).shape(
      this.definitions[name]!,
      pointer,
    );
    this.shared.named.set(name, shape);
    return shape;
  }

  isExpanding(name: string): boolean {
    return this.expanding.includes(name);
  }

  /** The shape behind a name, or undefined while that name is still being normalized. */
  peek(name: string): Shape | undefined {
    return this.expanding.includes(name) ? undefined : this.shapeOf(name);
  }

  /**
   * This context, for the schema at `pointer`, read inside the one being read. Reading
   * recurses, so schemas nested more than `NESTING_LIMIT` deep, counting those of the
   * definitions composed into them, are refused.
   */
  within(pointer: string): Context {
    if (pointer === this.at) return this;
    if (this.depth === NESTING_LIMIT)
      this.fail(
        pointer,
        `nested more than ${NESTING_LIMIT} schemas deep` +
          (this.expanding.length > 1 ? `, counting the definitions composed into each other (${chainText(this.expanding)})` : ""),
        this.expanding.length > 1
          ? "agentwire reads schemas nested at most that deep: compose fewer definitions into each other with allOf"
          : "agentwire reads schemas nested at most that deep: move nested schemas into $defs and $ref them",
      );
    return new Context(this.shared, pointer, this.expanding, this.following, this.depth + 1);
  }

  /** This context, having entered the unnamed schema at `target` through a `$ref`. */
  follow(target: string): Context {
    return new Context(this.shared, this.at, this.expanding, [...this.following, target], this.depth);
  }

  unsupported(problem: string): never {
    return this.fail(this.at, `unsupported: ${problem}`, REFUSAL);
  }

  fail(pointer: string, problem: string, hint?: string): never {
    throw new InputError(this.shared.provenance.locate(pointer), problem, hint);
  }
}

/** A chain of names as a message shows it: "A → B → C", or the first and last few of a long one. */
export function chainText(names: readonly string[]): string {
  if (names.length <= 6) return names.join(" → ");
  return `${names.slice(0, 3).join(" → ")} → … → ${names.slice(-2).join(" → ")}, ${names.length} definitions`;
}
