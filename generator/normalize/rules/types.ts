import type { JsonObject } from "../../json.js";
import type { Contains, Shape } from "../../ir/model.js";
import { appendPointer } from "../../pointer.js";
import type { Context } from "../context.js";
import { compact } from "../intersect.js";
import type { SchemaRule } from "./rule.js";
import { OBJECT } from "./objects.js";
import { checkPattern, numberKeyword } from "./read.js";
import type { Located, Rule } from "./rule.js";
import { rule } from "./rule.js";

/** What `type` says, and the keywords that constrain values of one type. */

const JSON_TYPES = ["object", "array", "string", "number", "boolean", "null"] as const;
type JsonType = (typeof JSON_TYPES)[number];

/** The keywords that constrain only values of one JSON type. */
const TYPE_KEYWORDS: Readonly<Record<JsonType, readonly string[]>> = {
  object: ["properties", "required", "additionalProperties", "patternProperties", "propertyNames", "minProperties", "maxProperties"],
  array: ["items", "prefixItems", "additionalItems", "contains", "minItems", "maxItems", "uniqueItems", "unevaluatedItems"],
  string: ["minLength", "maxLength", "pattern"],
  number: ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"],
  boolean: [],
  null: [],
};

/** A rule that reads the keywords of one JSON type into a shape of that type. */
export type TypeRule = Rule<Located, Shape>;

/**
 * One type is its shape, a type and null a nullable one, more a union. Without `type`,
 * the keywords of a type constrain only values of that type; the others pass.
 */
export const TYPE: SchemaRule = rule(
  "type",
  "type (or, without it, the type-specific keywords) gives the own shape: one type, a type or null, or a union",
  (draft, context) => {
    const declared = declaredTypes(draft, context);
    const constrained = JSON_TYPES.filter(
      (type) =>
        TYPE_KEYWORDS[type].some((keyword) => keyword in draft.schema) ||
        (type === "string" && context.assertsFormat(formatOf(draft.schema))),
    );
    if (declared === undefined && constrained.length === 0) return draft;
    const types: readonly (JsonType | "integer")[] = declared ?? JSON_TYPES;
    return { ...draft, own: unionOf(types.map((type) => typedShape(type, draft, context))) };
  },
);

export const STRING: TypeRule = rule(
  "string",
  "a string has its lengths, its pattern (a valid u-flag RegExp) and its format, asserted where the protocol asserts formats and agentwire knows it",
  ({ schema, pointer }, context) => {
    const format = formatOf(schema);
    const pattern = schema["pattern"];
    if (pattern !== undefined) checkPattern(pattern, appendPointer(pointer, "pattern"), context);
    return compact({
      kind: "string",
      minLength: numberKeyword(schema, "minLength", pointer, context),
      maxLength: numberKeyword(schema, "maxLength", pointer, context),
      patterns: pattern === undefined ? undefined : [pattern as string],
      format,
      assertedFormats: context.assertsFormat(format) ? [format] : undefined,
    });
  },
);

export const NUMBER: TypeRule = rule(
  "number",
  "a number has its bounds (draft-04's boolean exclusive bounds read as numbers), multipleOf and format",
  (located, context) => numberShape(located, false, context),
);

export const INTEGER: TypeRule = rule("integer", "an integer is a number that is whole, with the same keywords", (located, context) =>
  numberShape(located, true, context),
);

export const ARRAY: TypeRule = rule(
  "array",
  "an array has its items' shapes (a tuple's by position, then the rest's, as the dialect spells them), its lengths, uniqueItems and contains",
  ({ schema, pointer }, context) => {
    const { prefixItems, items } = tupleOf(schema, pointer, context);
    return compact({
      kind: "array",
      prefixItems,
      items,
      minItems: numberKeyword(schema, "minItems", pointer, context),
      maxItems: numberKeyword(schema, "maxItems", pointer, context),
      uniqueItems: schema["uniqueItems"] === true ? (true as const) : undefined,
      contains: containsOf(schema, pointer, context),
    });
  },
);

/**
 * The shapes of the first items and of the rest. 2020-12 says them in `prefixItems` and
 * `items`; the drafts before it in `items` as an array and `additionalItems`, which means
 * nothing when `items` is one schema. A keyword of the other spelling is refused, not
 * ignored: whoever wrote it meant a tuple.
 */
function tupleOf(schema: JsonObject, pointer: string, context: Context): { prefixItems?: readonly Shape[]; items: Shape } {
  const read = (keyword: string): Shape =>
    keyword in schema ? context.shape(schema[keyword]!, appendPointer(pointer, keyword)) : { kind: "unknown" };
  const prefix = (keyword: string): readonly Shape[] | undefined => {
    const schemas = schema[keyword];
    if (!Array.isArray(schemas)) return context.fail(appendPointer(pointer, keyword), `"${keyword}" must be an array of schemas`);
    const shapes = schemas.map((each, i) => context.shape(each, appendPointer(pointer, keyword, i)));
    return shapes.length === 0 ? undefined : shapes;
  };
  if (context.dialect === "draft2020-12") {
    // What keywords-of-the-draft cannot drop: items in the older spelling, which 2020-12's metaschema does not allow.
    if (Array.isArray(schema["items"]))
      return context.fail(
        appendPointer(pointer, "items"),
        'unsupported: "items" as an array of schemas is the tuple of drafts before 2020-12',
        'in 2020-12, a tuple is "prefixItems", and "items" the schema of the items after it',
      );
    return compact({ prefixItems: "prefixItems" in schema ? prefix("prefixItems") : undefined, items: read("items") });
  }
  if (!Array.isArray(schema["items"])) return { items: read("items") };
  return compact({ prefixItems: prefix("items"), items: read("additionalItems") });
}

/** `contains` and, from 2019-09, `minContains` and `maxContains` (keywords-of-the-draft drops them before); without `contains` those say nothing. */
function containsOf(schema: JsonObject, pointer: string, context: Context): readonly Contains[] | undefined {
  if (!("contains" in schema)) return undefined;
  const shape = context.shape(schema["contains"]!, appendPointer(pointer, "contains"));
  const min = numberKeyword(schema, "minContains", pointer, context) ?? 1;
  const max = numberKeyword(schema, "maxContains", pointer, context);
  // At least none and at most any: every array passes.
  if (min === 0 && max === undefined) return undefined;
  return [compact({ shape, min, max })];
}

/** The rules for the values of each type; `boolean` and `null` have no keywords, and no rule. */
export const TYPE_RULES: Readonly<Record<"string" | "number" | "integer" | "array" | "object", TypeRule>> = {
  string: STRING,
  number: NUMBER,
  integer: INTEGER,
  array: ARRAY,
  object: OBJECT,
};

function typedShape(type: JsonType | "integer", located: Located, context: Context): Shape {
  switch (type) {
    case "boolean":
      return { kind: "boolean" };
    case "null":
      return { kind: "null" };
    default:
      return TYPE_RULES[type].apply(located, context);
  }
}

function numberShape({ schema, pointer }: Located, integer: boolean, context: Context): Shape {
  return compact({
    kind: "number",
    integer,
    minimum: numberKeyword(schema, "minimum", pointer, context),
    maximum: numberKeyword(schema, "maximum", pointer, context),
    exclusiveMinimum: numberKeyword(schema, "exclusiveMinimum", pointer, context),
    exclusiveMaximum: numberKeyword(schema, "exclusiveMaximum", pointer, context),
    multipleOf: numberKeyword(schema, "multipleOf", pointer, context),
    format: formatOf(schema),
  });
}

function declaredTypes({ schema, pointer }: Located, context: Context): (JsonType | "integer")[] | undefined {
  const type = schema["type"];
  if (type === undefined) return undefined;
  const types = Array.isArray(type) ? type : [type];
  for (const [i, name] of types.entries())
    if (typeof name !== "string" || !(JSON_TYPES.includes(name as JsonType) || name === "integer"))
      context.fail(
        Array.isArray(type) ? appendPointer(pointer, "type", i) : appendPointer(pointer, "type"),
        `unknown type ${JSON.stringify(name)}`,
      );
  return [...new Set(types as (JsonType | "integer")[])];
}

function formatOf(schema: JsonObject): string | undefined {
  return typeof schema["format"] === "string" ? schema["format"] : undefined;
}

/** One shape for several alternatives: itself, `T | null`, or a union. */
function unionOf(members: readonly Shape[]): Shape {
  if (members.length === 1) return members[0]!;
  const others = members.filter((member) => member.kind !== "null");
  if (others.length === 1 && members.length === 2) return { kind: "nullable", shape: others[0]! };
  return { kind: "union", members, exclusive: false };
}
