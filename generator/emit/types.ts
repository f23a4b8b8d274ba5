import type { Type, TypeMember } from "../code/tree.js";
import {
  arrayLiteral,
  arrayType,
  asConst,
  constant,
  documentation,
  identifier,
  indexSignature,
  interfaceDeclaration,
  keywordType,
  literal,
  literalType,
  objectType,
  propertySignature,
  tupleType,
  typeAlias,
  typeReference,
  unionType,
} from "../code/build.js";
import type { ArrayShape, Doc, Field, KeyedUnionShape, NamedType, ObjectShape, Shape } from "../ir/model.js";
import type { DeclaredNames, NamedIr } from "../name/index.js";
import { namesOf } from "../name/index.js";
import type { JsonObject, JsonValue } from "../json.js";
import type { GeneratedFile } from "./file.js";

/**
 * `types.ts`: for every named type, an exported type of the same name, in IR order.
 * Objects are interfaces with their composition already flattened; enums are unions of
 * literals with a readonly array of their values; a keyed union is a union of objects in
 * which the other members are `?: never`, so that checking one member narrows.
 */
export function generateTypes(f: GeneratedFile, ir: NamedIr): void {
  for (const type of ir.types) generateType(f, type, namesOf(ir, type.name));
}

function generateType(f: GeneratedFile, type: NamedType, names: DeclaredNames): void {
  const name = identifier(type.name);
  const doc = documentation(docText(type.doc, type.shape));
  const shape = type.shape;
  if (shape.kind === "object") {
    f.declare(interfaceDeclaration(name, members(shape.fields, shape.additional, shape.patterns), doc));
    return;
  }
  f.declare(typeAlias(name, typeOf(shape), doc));
  if (shape.kind === "enum")
    f.declare(
      constant(identifier(names.values!), asConst(arrayLiteral(shape.values.map(literal))), {
        exported: true,
        doc: documentation([`Every value of {@link ${type.name}}, in the schema's order.`]),
      }),
    );
}

function typeOf(shape: Shape): Type {
  switch (shape.kind) {
    case "ref":
      return typeReference(identifier(shape.name));
    case "unknown":
    case "never":
    case "string":
    case "boolean":
    case "null":
    case "number":
      return keywordType(shape.kind);
    case "literal":
      return valueType(shape.value);
    case "enum":
      return unionType(shape.values.map(literalType));
    case "array":
      return shape.prefixItems === undefined ? arrayType(typeOf(shape.items)) : tupleOf(shape.prefixItems, shape);
    case "object":
      return objectType(members(shape.fields, shape.additional, shape.patterns));
    case "map":
      return objectType([indexSignature(typeOf(shape.values))]);
    case "nullable":
      return unionType([typeOf(shape.shape), keywordType("null")]);
    case "constrained":
      // The shape's type: constraints narrow the values, which a type need not follow.
      return typeOf(shape.shape);
    case "union":
      return unionType(shape.members.map(typeOf));
    case "tagged-union":
      return unionType(shape.members.map((member) => typeOf(member.shape)));
    case "keyed-union":
      return unionType(shape.members.map((member) => objectType(variant(shape, member))));
  }
}

/**
 * A tuple: its positions, optional from the first that `minItems` does not require, then
 * the rest unless closed. Never narrower than the check: a rest of `never` ends the tuple,
 * whatever the check allows of its length.
 */
function tupleOf(prefixItems: readonly Shape[], shape: ArrayShape): Type {
  const required = shape.minItems ?? 0;
  const elements = prefixItems.map((each, i) => ({ type: typeOf(each), optional: i >= required }));
  return tupleType(elements, shape.items.kind === "never" ? undefined : typeOf(shape.items));
}

/**
 * The type of exactly one JSON value: a literal type, or, of an object or an array, an
 * object type of its properties or a tuple of its items, each of which is again one value.
 */
function valueType(value: JsonValue): Type {
  if (typeof value !== "object" || value === null) return literalType(value);
  if (Array.isArray(value)) return tupleType((value as readonly JsonValue[]).map((item) => ({ type: valueType(item), optional: false })));
  return objectType(Object.entries(value as JsonObject).map(([key, item]) => propertySignature(key, valueType(item))));
}

/** One member of a keyed union: it is present, the other members are absent, the shared fields as they are. */
function variant(shape: KeyedUnionShape, present: Field): TypeMember[] {
  return [
    property({ ...present, required: true }),
    ...shape.members
      .filter((member) => member !== present)
      .map((member) => propertySignature(member.name, keywordType("never"), { optional: true })),
    ...members(shape.fields, shape.additional),
  ];
}

/**
 * An object's members: its fields, then, unless it is closed, an index signature, since
 * the schema accepts properties it does not name. (Their values are `unknown` because an
 * index signature's type must cover every named field's too.) Pattern properties whose
 * pattern is a plain prefix that no field's name has are of their shape's type under a
 * template literal key; any other pattern needs the index signature of any key.
 */
function members(fields: readonly Field[], additional: Shape, patterns: ObjectShape["patterns"] = []): TypeMember[] {
  const named = fields.map(property);
  const prefixes = patterns.map(({ pattern, shape }) => {
    const prefix = plainPrefix(pattern);
    return prefix === undefined || fields.some((field) => field.name.startsWith(prefix)) ? undefined : { prefix, shape };
  });
  const anyKey = additional.kind !== "never" || prefixes.includes(undefined);
  return [
    ...named,
    ...(anyKey ? [indexSignature(keywordType("unknown"))] : []),
    ...prefixes.filter((each) => each !== undefined).map(({ prefix, shape }) => indexSignature(typeOf(shape), prefix)),
  ];
}

/** The text a pattern such as `^x-` says a name starts with, when it says nothing else. */
function plainPrefix(pattern: string): string | undefined {
  return /^\^([A-Za-z0-9_\-:@/~]+)$/.exec(pattern)?.[1];
}

function property(field: Field): TypeMember {
  return propertySignature(field.name, typeOf(field.shape), {
    optional: !field.required,
    doc: documentation(docText(field.doc, field.shape, field.aliases, field.nullIsAbsent)),
  });
}

/**
 * JSDoc paragraphs: the description; what each enum value means and its number on the
 * wire; the other forms the wire accepts; then tags.
 */
function docText(doc: Doc, shape: Shape, aliases: readonly string[] = [], nullIsAbsent = false): string[] {
  const parts: string[] = [];
  if (doc.description !== undefined) parts.push(doc.description);
  if (shape.kind === "enum" && (shape.descriptions !== undefined || shape.wire?.numbers !== undefined))
    parts.push(
      shape.values
        .map((value, i) => {
          const number = shape.wire?.numbers?.[String(value)];
          const description = shape.descriptions?.[i] ?? null;
          const name = `\`${typeof value === "string" ? value : JSON.stringify(value)}\`${number === undefined ? "" : ` (${number})`}`;
          return number === undefined && description === null ? undefined : `- ${name}${description === null ? "" : `: ${description}`}`;
        })
        .filter((line) => line !== undefined)
        .join("\n"),
    );
  const wire = [
    ...aliases.map((alias) => `\`${alias}\``),
    ...(shape.kind === "number" && shape.wire !== undefined ? ["a string of decimal digits"] : []),
    ...(shape.kind === "enum" && shape.wire !== undefined ? ["the value's number"] : []),
    ...(nullIsAbsent ? ["null (absent)"] : []),
  ];
  if (wire.length > 0) parts.push(`On the wire this may also arrive as ${wire.join(" or ")}.`);
  const tags = [...constraintTags(shape)];
  if (doc.default !== undefined) tags.push(`@default ${JSON.stringify(doc.default)}`);
  if (doc.deprecated) tags.push("@deprecated");
  if (tags.length > 0) parts.push(tags.join("\n"));
  return parts;
}

/**
 * Constraints the TypeScript type cannot carry, as the tags that ts-json-schema-generator
 * reads back into a schema.
 */
function constraintTags(shape: Shape): string[] {
  const tag = (name: string, value: number | string | undefined) => (value === undefined ? [] : [`@${name} ${value}`]);
  switch (shape.kind) {
    case "nullable":
      return constraintTags(shape.shape);
    case "string":
      return [
        ...tag("minLength", shape.minLength),
        ...tag("maxLength", shape.maxLength),
        ...(shape.patterns ?? []).map((pattern) => `@pattern ${pattern}`),
        ...tag("format", shape.format),
      ];
    case "number":
      return [
        ...tag("minimum", shape.minimum),
        ...tag("maximum", shape.maximum),
        ...tag("exclusiveMinimum", shape.exclusiveMinimum),
        ...tag("exclusiveMaximum", shape.exclusiveMaximum),
        ...tag("multipleOf", shape.multipleOf),
        ...tag("format", shape.format),
      ];
    case "array":
      return [...tag("minItems", shape.minItems), ...tag("maxItems", shape.maxItems), ...(shape.uniqueItems ? ["@uniqueItems true"] : [])];
    default:
      return [];
  }
}
