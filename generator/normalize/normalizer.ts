import { InputError } from "../errors.js";
import type { JsonObject, JsonPrimitive, JsonValue } from "../json.js";
import { isJsonObject, jsonEqual } from "../json.js";
import type { Field, ObjectShape, Shape } from "../ir/model.js";
import type { Provenance } from "../resolve/index.js";
import { wireAliases, exactName } from "../schema/aliases.js";
import type { StampUnit } from "../schema/keywords.js";
import {
  ENUM_DESCRIPTIONS_KEYWORD,
  ENUM_NUMBERS_KEYWORD,
  FALLBACK_KEYWORD,
  STAMP_KEYWORD,
  STAMP_UNITS,
  UNSUPPORTED,
  hasAssertions,
} from "../schema/keywords.js";
import { appendPointer, getAtPointer, unescapeToken } from "../schema/pointer.js";
import { presenceNames } from "../schema/presence.js";
import { docOf } from "./docs.js";
import type { ShapeLookup } from "./intersect.js";
import { compact, intersect } from "./intersect.js";
import { classifyUnion } from "./unions.js";

const UNKNOWN: Shape = { kind: "unknown" };

/**
 * Whether a schema for property names says nothing a name could fail: `true`, `{}`,
 * `{ "type": "string" }` (every name is one) and annotations such as `format`.
 */
function constrainsNothing(names: JsonValue): boolean {
  if (names === true) return true;
  if (!isJsonObject(names)) return false;
  const { type, ...rest } = names;
  return (type === undefined || type === "string") && !hasAssertions(rest);
}

/**
 * Draft-04's boolean `exclusiveMinimum`/`exclusiveMaximum`, read as the numbers later
 * drafts write: `{ minimum: 0, exclusiveMinimum: true }` is `{ exclusiveMinimum: 0 }`.
 * Undefined where the keyword is not a draft-04 form; else the number it stands for.
 */
function draft04Bound(schema: JsonObject, keyword: string): { readonly value: JsonValue | undefined } | undefined {
  const pairs: Readonly<Record<string, readonly [string, string]>> = {
    minimum: ["minimum", "exclusiveMinimum"],
    exclusiveMinimum: ["minimum", "exclusiveMinimum"],
    maximum: ["maximum", "exclusiveMaximum"],
    exclusiveMaximum: ["maximum", "exclusiveMaximum"],
  };
  const pair = pairs[keyword];
  if (pair === undefined || typeof schema[pair[1]] !== "boolean") return undefined;
  const [inclusive, exclusive] = pair;
  const isExclusive = schema[exclusive] === true;
  if (keyword === inclusive) return { value: isExclusive ? undefined : schema[inclusive] };
  return { value: isExclusive ? schema[inclusive] : undefined };
}

/** The hint of every refusal of what the IR does not model. */
const REFUSAL = "agentwire refuses a constraint it cannot check rather than dropping it";
const NEVER: Shape = { kind: "never" };
const JSON_TYPES = ["object", "array", "string", "number", "boolean", "null"] as const;
type JsonType = (typeof JSON_TYPES)[number];

/** The keywords that constrain only values of one JSON type. */
const TYPE_KEYWORDS: Readonly<Record<JsonType, readonly string[]>> = {
  object: ["properties", "required", "additionalProperties", "patternProperties", "propertyNames", "minProperties", "maxProperties"],
  array: ["items", "minItems", "maxItems", "uniqueItems"],
  string: ["minLength", "maxLength", "pattern"],
  number: ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"],
  boolean: [],
  null: [],
};

/**
 * Turns the effective schema's definitions into shapes. Named types are normalized once,
 * on demand, so a type may be used before its definition; a type that can only be
 * expanded forever is refused.
 */
export class Normalizer implements ShapeLookup {
  private readonly shapes = new Map<string, Shape>();
  /** Names being normalized, to refuse a type composed of itself. */
  private readonly expanding: string[] = [];
  /** Pointers of unnamed schemas being expanded through a $ref, for the same reason. */
  private readonly following: string[] = [];
  /** The pointer of the schema being normalized, for errors raised deep inside. */
  private at = "";
  /** Up to draft-07, a `$ref` replaces its schema: the keywords beside it are ignored. */
  private readonly refReplacesSiblings: boolean;

  constructor(
    private readonly document: JsonObject,
    private readonly provenance: Provenance,
  ) {
    const dialect = document["$schema"];
    this.refReplacesSiblings = typeof dialect === "string" && /json-schema\.org\/draft-0[3-7]\/schema/.test(dialect);
  }

  get definitions(): JsonObject {
    return isJsonObject(this.document["$defs"]) ? this.document["$defs"] : {};
  }

  shapeOf(name: string): Shape {
    const known = this.shapes.get(name);
    if (known !== undefined) return known;
    const pointer = appendPointer("/$defs", name);
    if (this.expanding.includes(name))
      this.fail(
        pointer,
        `"${name}" is composed of itself (${[...this.expanding.slice(this.expanding.indexOf(name)), name].join(" → ")})`,
        "a type may contain itself in a property or an array, not in allOf",
      );
    this.expanding.push(name);
    try {
      const shape = this.shape(this.definitions[name]!, pointer);
      this.shapes.set(name, shape);
      return shape;
    } finally {
      this.expanding.pop();
    }
  }

  /** The shape behind a name, or undefined while that name is still being normalized. */
  peek(name: string): Shape | undefined {
    return this.expanding.includes(name) ? undefined : this.shapeOf(name);
  }

  unsupported(problem: string): never {
    return this.fail(this.at, `unsupported: ${problem}`, REFUSAL);
  }

  fail(pointer: string, problem: string, hint?: string): never {
    throw new InputError(this.provenance.locate(pointer), problem, hint);
  }

  /** The shape of one schema: its own keywords, its ref and its allOf met, then its unions. */
  shape(schema: JsonValue, pointer: string): Shape {
    if (schema === true) return UNKNOWN;
    if (schema === false) return NEVER;
    if (!isJsonObject(schema)) return this.fail(pointer, "a schema must be an object or a boolean");
    if (this.refReplacesSiblings && "$ref" in schema) return this.refShape(schema["$ref"]!, appendPointer(pointer, "$ref"));
    for (const keyword of Object.keys(schema))
      if (UNSUPPORTED.has(keyword)) this.fail(appendPointer(pointer, keyword), `unsupported keyword "${keyword}"`, REFUSAL);
    const outer = this.at;
    this.at = pointer;
    try {
      const parts: Shape[] = [this.ownShape(schema, pointer)];
      if ("$ref" in schema) parts.push(this.refShape(schema["$ref"]!, appendPointer(pointer, "$ref")));
      // Requirements that name a property under any of several names are read once the fields are known.
      const required: Presence[] = [];
      for (const [i, member] of this.list(schema, "allOf", pointer).entries()) {
        const names = isJsonObject(member) && "anyOf" in member ? presenceNames(member) : undefined;
        if (names !== undefined) required.push({ names, pointer: appendPointer(pointer, "allOf", i) });
        else parts.push(this.shape(member, appendPointer(pointer, "allOf", i)));
      }
      let exclusive: string[][] | undefined;
      for (const keyword of ["anyOf", "oneOf"] as const) {
        const branches = this.list(schema, keyword, pointer);
        if (branches.length === 0) continue;
        const names = branches.map(presenceNames);
        if (names.every((branch) => branch !== undefined)) {
          if (keyword === "anyOf") required.push({ names: (names as string[][]).flat(), pointer: appendPointer(pointer, keyword) });
          else exclusive = names as string[][];
          continue;
        }
        const members = branches.map((branch, i) => this.shape(branch, appendPointer(pointer, keyword, i)));
        parts.push(classifyUnion(members, branches, keyword === "oneOf", this));
      }
      let shape = parts.reduce((met, part) => intersect(met, part, this), UNKNOWN);
      if (shape.kind === "never" && !parts.some((part) => part.kind === "never"))
        this.fail(
          pointer,
          "no value satisfies this schema: its parts contradict each other",
          "check the allOf members and $ref for types or constants that exclude each other",
        );
      if (required.length > 0) shape = this.requireFields(shape, required, pointer);
      if (exclusive !== undefined) shape = this.keyed(shape, exclusive, pointer);
      if ("unevaluatedProperties" in schema) shape = this.closeUnevaluated(shape, schema, pointer);
      return asMap(this.annotateEnum(shape, schema, pointer));
    } finally {
      this.at = outer;
    }
  }

  private list(schema: JsonObject, keyword: string, pointer: string): readonly JsonValue[] {
    const value = schema[keyword];
    if (value === undefined) return [];
    if (!Array.isArray(value) || value.length === 0)
      return this.fail(
        appendPointer(pointer, keyword),
        `"${keyword}" must be a non-empty array of schemas`,
        !Array.isArray(value)
          ? undefined
          : keyword === "allOf"
            ? "with no schemas it says nothing: remove it"
            : "with no schemas it would accept no value: list the alternatives, or remove it",
      );
    return value;
  }

  private refShape(ref: JsonValue, pointer: string): Shape {
    if (typeof ref !== "string" || !ref.startsWith("#")) return this.fail(pointer, "$ref must be a string pointing into this document");
    const target = decodeURIComponent(ref.slice(1));
    const name = /^\/\$defs\/([^/]+)$/.exec(target)?.[1];
    if (name !== undefined && Object.hasOwn(this.definitions, unescapeToken(name))) return { kind: "ref", name: unescapeToken(name) };
    const schema = getAtPointer(this.document, target);
    if (schema === undefined) return this.fail(pointer, `$ref "${ref}" points to nothing`);
    if (this.following.includes(target))
      return this.fail(
        pointer,
        `$ref "${ref}" leads back to itself through schemas without a name`,
        "move the recursive schema into $defs",
      );
    this.following.push(target);
    try {
      return this.shape(schema as JsonValue, target);
    } finally {
      this.following.pop();
    }
  }

  /** What `type`, `const`, `enum` and the type-specific keywords say. */
  private ownShape(schema: JsonObject, pointer: string): Shape {
    const declared = this.types(schema, pointer);
    const constrained = JSON_TYPES.filter((type) => TYPE_KEYWORDS[type].some((keyword) => keyword in schema));
    let shape: Shape = UNKNOWN;
    // Without `type`, type-specific keywords constrain only values of their type; the others pass.
    if (declared !== undefined || constrained.length > 0) {
      const types: readonly (JsonType | "integer")[] = declared ?? JSON_TYPES;
      const members = types.map((type) => this.typedShape(type, schema, pointer));
      shape = unionOf(members);
    }
    if ("const" in schema)
      shape = intersect({ kind: "literal", value: this.primitive(schema["const"]!, appendPointer(pointer, "const")) }, shape, this);
    if ("enum" in schema) {
      const values = schema["enum"];
      if (!Array.isArray(values) || values.length === 0)
        return this.fail(appendPointer(pointer, "enum"), '"enum" must be a non-empty array');
      const primitives = [...new Set(values.map((value, i) => this.primitive(value, appendPointer(pointer, "enum", i))))];
      const enumeration: Shape =
        primitives.length === 1 ? { kind: "literal", value: primitives[0]! } : { kind: "enum", values: primitives };
      shape = intersect(enumeration, shape, this);
    }
    return shape;
  }

  private types(schema: JsonObject, pointer: string): (JsonType | "integer")[] | undefined {
    const type = schema["type"];
    if (type === undefined) return undefined;
    const types = Array.isArray(type) ? type : [type];
    for (const [i, name] of types.entries())
      if (typeof name !== "string" || !(JSON_TYPES.includes(name as JsonType) || name === "integer"))
        this.fail(
          Array.isArray(type) ? appendPointer(pointer, "type", i) : appendPointer(pointer, "type"),
          `unknown type ${JSON.stringify(name)}`,
        );
    return [...new Set(types as (JsonType | "integer")[])];
  }

  private typedShape(type: JsonType | "integer", schema: JsonObject, pointer: string): Shape {
    const number = (keyword: string): number | undefined => {
      const draft04 = draft04Bound(schema, keyword);
      const value = draft04 === undefined ? schema[keyword] : draft04.value;
      if (value === undefined) return undefined;
      if (typeof value !== "number") return this.fail(appendPointer(pointer, keyword), `"${keyword}" must be a number`);
      return value;
    };
    const format = typeof schema["format"] === "string" ? schema["format"] : undefined;
    switch (type) {
      case "string": {
        const pattern = schema["pattern"];
        if (pattern !== undefined) this.checkPattern(pattern, appendPointer(pointer, "pattern"));
        return compact({
          kind: "string",
          minLength: number("minLength"),
          maxLength: number("maxLength"),
          patterns: pattern === undefined ? undefined : [pattern as string],
          format,
        });
      }
      case "number":
      case "integer":
        return compact({
          kind: "number",
          integer: type === "integer",
          minimum: number("minimum"),
          maximum: number("maximum"),
          exclusiveMinimum: number("exclusiveMinimum"),
          exclusiveMaximum: number("exclusiveMaximum"),
          multipleOf: number("multipleOf"),
          format,
        });
      case "boolean":
        return { kind: "boolean" };
      case "null":
        return { kind: "null" };
      case "array": {
        const items = schema["items"];
        if (Array.isArray(items))
          return this.fail(appendPointer(pointer, "items"), 'unsupported: "items" as an array of schemas (a tuple)', REFUSAL);
        return compact({
          kind: "array",
          items: items === undefined ? UNKNOWN : this.shape(items, appendPointer(pointer, "items")),
          minItems: number("minItems"),
          maxItems: number("maxItems"),
          uniqueItems: schema["uniqueItems"] === true ? (true as const) : undefined,
        });
      }
      case "object":
        return asMap(this.objectShape(schema, pointer, number));
    }
  }

  private objectShape(schema: JsonObject, pointer: string, number: (keyword: string) => number | undefined): Shape {
    const properties = schema["properties"] ?? {};
    if (!isJsonObject(properties)) return this.fail(appendPointer(pointer, "properties"), '"properties" must be an object of schemas');
    const required = schema["required"] ?? [];
    if (!Array.isArray(required) || required.some((name) => typeof name !== "string"))
      return this.fail(appendPointer(pointer, "required"), '"required" must be an array of property names');
    const aliases = wireAliases(schema);
    const patterns = isJsonObject(schema["patternProperties"]) ? Object.keys(schema["patternProperties"]) : [];
    for (const pattern of patterns)
      if (!aliases.has(exactName(pattern) ?? ""))
        this.fail(
          appendPointer(pointer, "patternProperties", pattern),
          `unsupported: the pattern property ${JSON.stringify(pattern)}`,
          'agentwire models a pattern property only as another name of a declared property ("^(order_id)$" beside "orderId")',
        );
    const names = schema["propertyNames"];
    if (names !== undefined && !constrainsNothing(names))
      this.fail(appendPointer(pointer, "propertyNames"), "unsupported: propertyNames that constrain the names", REFUSAL);
    const additional =
      "additionalProperties" in schema
        ? this.shape(schema["additionalProperties"]!, appendPointer(pointer, "additionalProperties"))
        : UNKNOWN;
    const fields: Field[] = Object.keys(properties).map((name) => {
      const at = appendPointer(pointer, "properties", name);
      const property = properties[name]!;
      const names = [...aliases].filter(([, canonical]) => canonical === name).map(([alias]) => alias);
      const shape = this.shape(property, at);
      const stamp = isJsonObject(property) ? this.stamp(property, shape, at) : undefined;
      return {
        name,
        shape,
        required: (required as string[]).includes(name),
        doc: isJsonObject(property) ? docOf(property) : {},
        ...(names.length > 0 ? { aliases: names } : {}),
        pointer: at,
        ...(stamp !== undefined ? { stamp } : {}),
      };
    });
    for (const name of new Set(required as string[])) {
      if (Object.hasOwn(properties, name)) continue;
      if (additional.kind === "never")
        this.fail(
          appendPointer(pointer, "required"),
          `"${name}" is required but additionalProperties forbids it`,
          "declare it under properties",
        );
      fields.push({ name, shape: additional, required: true, doc: {}, pointer: appendPointer(pointer, "required") });
    }
    return compact({
      kind: "object",
      fields,
      additional,
      minProperties: number("minProperties"),
      maxProperties: number("maxProperties"),
    }) as ObjectShape;
  }

  /** The unit of a field stamped with the current time, checked against what the field holds. */
  private stamp(property: JsonObject, shape: Shape, pointer: string): StampUnit | undefined {
    const unit = property[STAMP_KEYWORD];
    if (unit === undefined) return undefined;
    const at = appendPointer(pointer, STAMP_KEYWORD);
    if (!STAMP_UNITS.includes(unit as StampUnit))
      return this.fail(at, `unknown stamp unit ${JSON.stringify(unit)}`, `use ${STAMP_UNITS.join(" or ")}`);
    const target = shape.kind === "ref" ? this.peek(shape.name) : shape;
    if (target?.kind !== "number") return this.fail(at, "a field stamped with the time in milliseconds must be a number");
    return unit as StampUnit;
  }

  private checkPattern(pattern: JsonValue, pointer: string): void {
    if (typeof pattern !== "string") this.fail(pointer, '"pattern" must be a string');
    try {
      new RegExp(pattern as string, "u");
    } catch (error) {
      this.fail(
        pointer,
        `invalid pattern ${JSON.stringify(pattern)}: ${(error as Error).message}`,
        "patterns are ECMAScript regular expressions with the u flag (draft 2020-12)",
      );
    }
  }

  private primitive(value: JsonValue, pointer: string): JsonPrimitive {
    if (typeof value === "object" && value !== null)
      return this.fail(
        pointer,
        `unsupported: a constant that is an ${Array.isArray(value) ? "array" : "object"}`,
        "agentwire models constants that are strings, numbers, booleans or null",
      );
    return value;
  }

  /**
   * An object whose field must be present under one of its names (its own or a wire
   * alias): the field is required. At least one of several fields is not modelled.
   */
  private requireFields(shape: Shape, present: readonly Presence[], pointer: string): Shape {
    if (shape.kind !== "object")
      return this.fail(pointer, "a property is required of a schema that is not an object", "require it where its object declares it");
    const required = present.map(({ names, pointer: at }) => {
      const fields = [...new Set(names.map((name) => fieldNamed(shape, name)))];
      if (fields.length !== 1 || fields[0] === undefined)
        this.fail(at, `unsupported: an anyOf of required properties, at least one of ${names.join(", ")} present`, REFUSAL);
      return fields[0]!;
    });
    return { ...shape, fields: shape.fields.map((field) => (required.includes(field.name) ? { ...field, required: true } : field)) };
  }

  /** An object in which exactly one of the properties the branches require is present. */
  private keyed(shape: Shape, branches: readonly string[][], pointer: string): Shape {
    if (shape.kind !== "object")
      return this.fail(appendPointer(pointer, "oneOf"), "exactly one of some properties is required of a schema that is not an object");
    const memberNames = branches.map((names, i) => {
      const fields = [...new Set(names.map((name) => fieldNamed(shape, name)))];
      if (fields.length !== 1 || fields[0] === undefined)
        this.fail(appendPointer(pointer, "oneOf", i), `a member must be one declared property (or its aliases): ${names.join(", ")}`);
      return fields[0]!;
    });
    for (const name of memberNames)
      if (shape.fields.find((field) => field.name === name)!.required)
        this.fail(pointer, `"${name}" is both required and one of several exclusive members`);
    return {
      kind: "keyed-union",
      members: memberNames.map((name) => shape.fields.find((field) => field.name === name)!),
      fields: shape.fields.filter((field) => !memberNames.includes(field.name)),
      additional: shape.additional,
    };
  }

  /**
   * `unevaluatedProperties` closes an object over every property its parts (own
   * properties, allOf members, refs) declared, unless one of them already accepts all.
   */
  private closeUnevaluated(shape: Shape, schema: JsonObject, pointer: string): Shape {
    const rest = this.shape(schema["unevaluatedProperties"]!, appendPointer(pointer, "unevaluatedProperties"));
    if (rest.kind === "unknown" || this.evaluatesAll(schema, false)) return shape;
    switch (shape.kind) {
      case "object":
      case "keyed-union":
        return { ...shape, additional: intersect(shape.additional, rest, this) };
      case "map":
        return { ...shape, values: intersect(shape.values, rest, this) };
      case "ref":
        // Closing another type's object makes a new, unnamed one.
        return this.closeUnevaluated(this.shapeOf(shape.name), schema, pointer);
      case "union":
      case "tagged-union":
      case "nullable":
        return this.unsupported("unevaluatedProperties on a union");
      default:
        return shape;
    }
  }

  private evaluatesAll(schema: JsonValue, ownKeywords: boolean): boolean {
    if (!isJsonObject(schema)) return false;
    if ("additionalProperties" in schema || (ownKeywords && "unevaluatedProperties" in schema)) return true;
    const ref = schema["$ref"];
    if (
      typeof ref === "string" &&
      ref.startsWith("#") &&
      this.evaluatesAll(getAtPointer(this.document, decodeURIComponent(ref.slice(1))) as JsonValue, true)
    )
      return true;
    const allOf = Array.isArray(schema["allOf"]) ? schema["allOf"] : [];
    return allOf.some((member) => this.evaluatesAll(member, true));
  }

  /** Adds to an enum what annotations say about its values. */
  private annotateEnum(shape: Shape, schema: JsonObject, pointer: string): Shape {
    const fallback = schema[FALLBACK_KEYWORD];
    const numbers = schema[ENUM_NUMBERS_KEYWORD];
    const descriptions = schema[ENUM_DESCRIPTIONS_KEYWORD];
    if (fallback === undefined && numbers === undefined && descriptions === undefined) return shape;
    if (shape.kind !== "enum")
      return this.fail(
        pointer,
        `${FALLBACK_KEYWORD}, ${ENUM_NUMBERS_KEYWORD} and ${ENUM_DESCRIPTIONS_KEYWORD} apply to an enum, and this is a ${shape.kind}`,
      );
    let annotated = shape;
    if (fallback !== undefined) {
      if (!shape.values.includes(fallback as JsonPrimitive))
        this.fail(appendPointer(pointer, FALLBACK_KEYWORD), `the fallback ${JSON.stringify(fallback)} is not one of the enum's values`);
      annotated = { ...annotated, fallback: fallback as JsonPrimitive };
    }
    if (numbers !== undefined) {
      const at = appendPointer(pointer, ENUM_NUMBERS_KEYWORD);
      if (shape.wire === undefined) this.fail(at, "enum numbers apply to an enum whose wire form also accepts integers");
      if (!isJsonObject(numbers) || !jsonEqual(Object.keys(numbers).sort() as never, shape.values.map(String).sort() as never))
        this.fail(at, `enum numbers must name each value exactly once: ${shape.values.join(", ")}`);
      const values = Object.values(numbers as JsonObject) as number[];
      if (new Set(values).size !== values.length) this.fail(at, "two values have the same number");
      annotated = { ...annotated, wire: { ...shape.wire, numbers: numbers as Record<string, number> } };
    }
    if (descriptions !== undefined) {
      if (!isJsonObject(descriptions))
        return this.fail(appendPointer(pointer, ENUM_DESCRIPTIONS_KEYWORD), "expected an object from value to description");
      annotated = {
        ...annotated,
        descriptions: shape.values.map((value) => {
          const text = descriptions[String(value)];
          return typeof text === "string" ? text : null;
        }),
      };
    }
    return annotated;
  }
}

/** Property names that a schema requires be present, any one of them: a field and its wire aliases. */
interface Presence {
  readonly names: readonly string[];
  /** Where the requirement is, for errors. */
  readonly pointer: string;
}

/** The field a property name belongs to: its own name or one of its wire aliases. */
function fieldNamed(shape: ObjectShape, name: string): string | undefined {
  return shape.fields.find((field) => field.name === name || field.aliases?.includes(name))?.name;
}

/** One shape for several alternatives: itself, `T | null`, or a union. */
function unionOf(members: readonly Shape[]): Shape {
  if (members.length === 1) return members[0]!;
  const others = members.filter((member) => member.kind !== "null");
  if (others.length === 1 && members.length === 2) return { kind: "nullable", shape: others[0]! };
  return { kind: "union", members, exclusive: false };
}

/** An object with no fields whose other properties may be present is a map. */
function asMap(shape: Shape): Shape {
  if (shape.kind !== "object" || shape.fields.length > 0 || shape.additional.kind === "never") return shape;
  return compact({ kind: "map", values: shape.additional, minProperties: shape.minProperties, maxProperties: shape.maxProperties });
}
