import type { JsonObject, JsonValue } from "../../json.js";
import { isJsonObject } from "../../json.js";
import { patternsMatching } from "../../ir/members.js";
import type { Field, ObjectShape, PatternProperty, Shape } from "../../ir/model.js";
import { exactName, wireAliases } from "../../schema/aliases.js";
import type { StampUnit } from "../../schema/vocabulary.js";
import { absentOrSchema } from "../../schema/nulls.js";
import { hasAssertions, NULL_IS_ABSENT_KEYWORD, STAMP_KEYWORD, STAMP_UNITS } from "../../schema/vocabulary.js";
import { appendPointer } from "../../pointer.js";
import { docOf } from "../docs.js";
import { compact, intersect } from "../intersect.js";
import type { SchemaRule } from "./rule.js";
import { checkPattern, numberKeyword } from "./read.js";
import type { Located, Refinement, Rule } from "./rule.js";
import { applyInOrder, rule } from "./rule.js";

/** What the keywords of an object type say: its fields and the rest of its properties. */

/** An object type as the object rules read it. */
export interface ObjectDraft extends Located {
  readonly properties: JsonObject;
  readonly required: readonly string[];
  /** Other wire names of declared properties, as [alias, property] pairs. */
  readonly aliases: readonly (readonly [string, string])[];
  /** The shapes of the properties whose names match a pattern, aliases aside. */
  readonly patterns: readonly PatternProperty[];
  /** The shape of the properties it does not declare and no pattern matches. */
  readonly additional: Shape;
  /** What the names must be, where they are constrained. */
  readonly names?: Shape | undefined;
  readonly fields: readonly Field[];
  readonly minProperties?: number | undefined;
  readonly maxProperties?: number | undefined;
}

/** A declared property as the field rules read it. */
export interface PropertyDraft {
  readonly property: JsonValue;
  readonly field: Field;
}

const UNKNOWN: Shape = { kind: "unknown" };
const STRING: Shape = { kind: "string" };

export const PATTERN_PROPERTY_IS_ALIAS: Refinement<ObjectDraft> = rule(
  "pattern-property-is-alias",
  'a pattern property naming a declared property in other words ("^(order_id)$" beside "orderId") is its wire alias; a value has one of a field\'s names at most, as the alias\'s dependent schema says (dependencies absorbs it)',
  (object) => ({ ...object, aliases: [...wireAliases(object.schema)] }),
);

export const PATTERN_PROPERTIES: Refinement<ObjectDraft> = rule(
  "pattern-properties",
  "every other pattern property (a u-flag RegExp, unanchored) is the shape of the properties whose names it matches, declared or not",
  (object, context) => {
    const schema = object.schema["patternProperties"];
    if (schema === undefined) return object;
    const at = appendPointer(object.pointer, "patternProperties");
    if (!isJsonObject(schema)) return context.fail(at, '"patternProperties" must be an object of schemas');
    const patterns = Object.keys(schema)
      .filter((pattern) => !object.aliases.some(([alias]) => alias === exactName(pattern)))
      .map((pattern): PatternProperty => {
        const pointer = appendPointer(at, pattern);
        checkPattern(pattern, pointer, context);
        return { pattern, shape: context.shape(schema[pattern]!, pointer) };
      });
    return { ...object, patterns };
  },
);

export const PROPERTY_NAMES: Refinement<ObjectDraft> = rule(
  "property-names",
  "propertyNames is the shape every name must be, as a string (names are strings); one that every string passes says nothing",
  (object, context) => {
    const schema = object.schema["propertyNames"];
    if (schema === undefined || constrainsNothing(schema)) return object;
    const names = intersect(context.shape(schema, appendPointer(object.pointer, "propertyNames")), STRING, context);
    return names.kind === "string" && Object.keys(names).length === 1 ? object : { ...object, names };
  },
);

export const ADDITIONAL_PROPERTIES: Refinement<ObjectDraft> = rule(
  "additional-properties",
  "additionalProperties is the shape of the properties not declared (unknown without it)",
  (object, context) =>
    "additionalProperties" in object.schema
      ? {
          ...object,
          additional: context.shape(object.schema["additionalProperties"]!, appendPointer(object.pointer, "additionalProperties")),
        }
      : object,
);

export const PROPERTIES_ARE_FIELDS: Refinement<ObjectDraft> = rule(
  "properties-are-fields",
  "each declared property is a field (shape, required, doc, wire aliases), refined by the field rules",
  (object, context) => ({
    ...object,
    fields: Object.keys(object.properties).map((name) => {
      const pointer = appendPointer(object.pointer, "properties", name);
      const property = object.properties[name]!;
      const aliases = [...object.aliases].filter(([, canonical]) => canonical === name).map(([alias]) => alias);
      const field: Field = {
        name,
        shape: context.shape(property, pointer),
        required: object.required.includes(name),
        doc: isJsonObject(property) ? docOf(property) : {},
        ...(aliases.length > 0 ? { aliases } : {}),
        pointer,
      };
      return applyInOrder(FIELD_RULES, { property, field }, context).field;
    }),
  }),
);

export const UNDECLARED_REQUIRED: Refinement<ObjectDraft> = rule(
  "undeclared-required",
  "a required property not declared is a required field of the additional shape (of any value where a pattern matches it, whose shape is checked); where that is never, no object is valid",
  (object) => {
    const fields = [...object.fields];
    for (const name of new Set(object.required)) {
      if (Object.hasOwn(object.properties, name)) continue;
      if (patternsMatching(object.patterns, name).length > 0) {
        fields.push({ name, shape: UNKNOWN, required: true, doc: {}, pointer: appendPointer(object.pointer, "required") });
        continue;
      }
      // Where additionalProperties forbids it, the field is never: no object is valid.
      fields.push({ name, shape: object.additional, required: true, doc: {}, pointer: appendPointer(object.pointer, "required") });
    }
    return { ...object, fields };
  },
);

export const PROPERTY_COUNT: Refinement<ObjectDraft> = rule(
  "property-count",
  "minProperties and maxProperties bound the number of properties",
  (object, context) => ({
    ...object,
    minProperties: numberKeyword(object.schema, "minProperties", object.pointer, context),
    maxProperties: numberKeyword(object.schema, "maxProperties", object.pointer, context),
  }),
);

/** The rules for an object type, in order. */
export const OBJECT_RULES: readonly Refinement<ObjectDraft>[] = [
  PATTERN_PROPERTY_IS_ALIAS,
  PATTERN_PROPERTIES,
  PROPERTY_NAMES,
  ADDITIONAL_PROPERTIES,
  PROPERTIES_ARE_FIELDS,
  UNDECLARED_REQUIRED,
  PROPERTY_COUNT,
];

export const STAMPED_FIELD: Refinement<PropertyDraft> = rule(
  "stamped-field",
  "a field stamped with the current time carries its unit, and must hold a number",
  (draft, context) => {
    const { property, field } = draft;
    if (!isJsonObject(property)) return draft;
    const unit = property[STAMP_KEYWORD];
    if (unit === undefined) return draft;
    const at = appendPointer(field.pointer, STAMP_KEYWORD);
    if (!STAMP_UNITS.includes(unit as StampUnit))
      return context.fail(at, `unknown stamp unit ${JSON.stringify(unit)}`, `use ${STAMP_UNITS.join(" or ")}`);
    const target = field.shape.kind === "ref" ? context.peek(field.shape.name) : field.shape;
    if (target?.kind !== "number") return context.fail(at, "a field stamped with the time in milliseconds must be a number");
    return { property, field: { ...field, stamp: unit as StampUnit } };
  },
);

export const NULL_IS_ABSENT: Refinement<PropertyDraft> = rule(
  "null-is-absent",
  `a property's anyOf of null and its schema, marked ${NULL_IS_ABSENT_KEYWORD}, is a field of that schema whose null on the wire is the field absent; the null is no value of it`,
  (draft, context) => {
    const { property, field } = draft;
    if (!isJsonObject(property) || property[NULL_IS_ABSENT_KEYWORD] === undefined) return draft;
    const schema = absentOrSchema(property);
    if (schema === undefined)
      return context.fail(
        appendPointer(field.pointer, NULL_IS_ABSENT_KEYWORD),
        `${NULL_IS_ABSENT_KEYWORD} is true, on an anyOf of { "type": "null" } and the property's schema`,
      );
    return { property, field: { ...field, shape: context.shape(schema, appendPointer(field.pointer, "anyOf", 1)), nullIsAbsent: true } };
  },
);

/** The rules for each declared property, once it is a field, in order. */
export const FIELD_RULES: readonly Refinement<PropertyDraft>[] = [NULL_IS_ABSENT, STAMPED_FIELD];

/** The shape of an object type, by the object rules; an object of other properties alone is a map. */
export const OBJECT: Rule<Located, Shape> = rule(
  "object",
  "an object has fields, the shape of its other properties and its property count, read by the object rules",
  ({ schema, pointer }, context) => {
    const properties = schema["properties"] ?? {};
    if (!isJsonObject(properties)) return context.fail(appendPointer(pointer, "properties"), '"properties" must be an object of schemas');
    const required = schema["required"] ?? [];
    if (!Array.isArray(required) || required.some((name) => typeof name !== "string"))
      return context.fail(appendPointer(pointer, "required"), '"required" must be an array of property names');
    const draft: ObjectDraft = {
      schema,
      pointer,
      properties,
      required: required as string[],
      aliases: [],
      patterns: [],
      additional: UNKNOWN,
      fields: [],
    };
    const object = applyInOrder(OBJECT_RULES, draft, context);
    return asMap(
      compact({
        kind: "object",
        fields: object.fields,
        patterns: object.patterns.length > 0 ? object.patterns : undefined,
        additional: object.additional,
        names: object.names,
        minProperties: object.minProperties,
        maxProperties: object.maxProperties,
      }) as ObjectShape,
    );
  },
);

/**
 * Applies to every object type as it is read, and to every schema's met shape: an object
 * type is a map when read alone (`{ "type": ["object", "null"], "additionalProperties": … }`),
 * and an object composed of parts is one when they meet.
 */
export const OBJECT_OF_OTHER_PROPERTIES_IS_MAP: SchemaRule = rule(
  "object-of-other-properties-is-map",
  "an object with no fields whose other properties may be present is a map",
  (draft) => ({
    ...draft,
    shape: asMap(draft.shape),
  }),
);

/** An object with no fields whose other properties may be present is a map. */
function asMap(shape: Shape): Shape {
  if (shape.kind !== "object" || shape.fields.length > 0 || shape.patterns !== undefined || shape.names !== undefined) return shape;
  if (shape.additional.kind === "never") return shape;
  return compact({ kind: "map", values: shape.additional, minProperties: shape.minProperties, maxProperties: shape.maxProperties });
}

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
