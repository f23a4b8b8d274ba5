import type { Doc, Field, Ir, KeyedUnionShape, NamedType, Shape } from "../ir/model.js";
import type { Code } from "./printer/code.js";
import { align, concat, group, hardline, ifBreak, indent, join, line, lines, softline, ts } from "./printer/code.js";
import { jsDoc, paragraphs } from "./printer/comments.js";
import { identifier, literal, propertyKey } from "./printer/escape.js";
import type { GeneratedFile } from "./printer/file.js";
import { valuesName } from "./names.js";

/**
 * `types.ts`: for every named type, an exported type of the same name, in IR order.
 * Objects are interfaces with their composition already flattened; enums are unions of
 * literals with a readonly array of their values; a keyed union is a union of objects in
 * which the other members are `?: never`, so that checking one member narrows.
 */
export function generateTypes(f: GeneratedFile, ir: Ir): void {
  for (const type of ir.types) generateType(f, type);
}

function generateType(f: GeneratedFile, type: NamedType): void {
  const name = identifier(type.name);
  const doc = jsDoc(docText(type.doc, type.shape));
  const shape = type.shape;
  if (shape.kind === "object") {
    f.declare(doc, interfaceDeclaration(name, members(shape.fields, shape.additional)));
    return;
  }
  f.declare(doc, typeAlias(name, typeOf(shape)));
  if (shape.kind === "enum")
    f.declare(
      jsDoc([`Every value of {@link ${type.name}}, in the schema's order.`]),
      ts`export const ${identifier(valuesName(type.name))} = ${arrayLiteral(shape.values.map(literal))} as const;`,
    );
}

/** A type as the printer lays it out: a union keeps its members apart, for each position to break them its own way. */
type TypeCode = { readonly union: false; readonly code: Code } | { readonly union: true; readonly members: readonly Code[] };

function single(code: Code): TypeCode {
  return { union: false, code };
}

function unionOf(members: readonly TypeCode[]): TypeCode {
  return { union: true, members: members.flatMap((member) => (member.union ? member.members : [member.code])) };
}

function typeOf(shape: Shape): TypeCode {
  switch (shape.kind) {
    case "ref":
      return single(identifier(shape.name));
    case "unknown":
    case "never":
    case "string":
    case "boolean":
    case "null":
      return single(ts`${keyword(shape.kind)}`);
    case "number":
      return single(ts`number`);
    case "literal":
      return single(literal(shape.value));
    case "enum":
      return unionOf(shape.values.map((value) => single(literal(value))));
    case "array":
      return single(arrayType(typeOf(shape.items)));
    case "object":
      return single(objectType(members(shape.fields, shape.additional)));
    case "map":
      return single(objectType([indexSignature(typeOf(shape.values))]));
    case "nullable":
      return unionOf([typeOf(shape.shape), single(ts`null`)]);
    case "union":
      return unionOf(shape.members.map(typeOf));
    case "tagged-union":
      return unionOf(shape.members.map((member) => typeOf(member.shape)));
    case "keyed-union":
      return unionOf(shape.members.map((member) => single(objectType(variant(shape, member)))));
  }
}

function keyword(kind: "unknown" | "never" | "string" | "boolean" | "null"): Code {
  const words = { unknown: ts`unknown`, never: ts`never`, string: ts`string`, boolean: ts`boolean`, null: ts`null` };
  return words[kind];
}

/** One member of a keyed union: it is present, the other members are absent, the shared fields as they are. */
function variant(shape: KeyedUnionShape, present: Field): Code[] {
  return [
    property({ ...present, required: true }),
    ...shape.members.filter((member) => member !== present).map((member) => ts`${propertyKey(member.name)}?: never`),
    ...members(shape.fields, shape.additional),
  ];
}

/**
 * An object's members: its fields, then, unless it is closed, an index signature, since
 * the schema accepts properties it does not name. (Their values are `unknown` because an
 * index signature's type must cover every named field's too.)
 */
function members(fields: readonly Field[], additional: Shape): Code[] {
  const named = fields.map(property);
  return additional.kind === "never" ? named : [...named, ts`[key: string]: unknown`];
}

// The layouts below are the ones prettier gives each position, so that the output is
// exactly what prettier would print (test/emit checks every generated file).

const unionBody = (members: readonly Code[]) =>
  concat(
    ifBreak(ts`| `),
    join(
      concat(line, ts`| `),
      members.map((member) => align(2, member)),
    ),
  );

function typeAlias(name: Code, type: TypeCode): Code {
  if (!type.union) return ts`export type ${name} = ${type.code};`;
  return group(ts`export type ${name} =`, indent(line, group(unionBody(type.members))), ts`;`);
}

function interfaceDeclaration(name: Code, members: readonly Code[]): Code {
  if (members.length === 0) return ts`export interface ${name} {}`;
  return concat(ts`export interface ${name} {`, indent(hardline, lines(members.map((member) => concat(member, ts`;`)))), hardline, ts`}`);
}

function property(field: Field): Code {
  const key = concat(propertyKey(field.name), field.required ? ts`:` : ts`?:`);
  const type = typeOf(field.shape);
  const value = type.union ? concat(ts` `, group(indent(softline, unionBody(type.members)))) : ts` ${type.code}`;
  const doc = jsDoc(docText(field.doc, field.shape, field.aliases));
  return doc === undefined ? concat(key, value) : concat(doc, hardline, key, value);
}

function indexSignature(type: TypeCode): Code {
  if (!type.union) return ts`[key: string]: ${type.code}`;
  return group(ts`[key: string]:`, indent(line, group(unionBody(type.members))));
}

function objectType(members: readonly Code[]): Code {
  if (members.length === 0) return ts`{}`;
  return group(ts`{`, indent(line, join(concat(ts`;`, line), members)), ifBreak(ts`;`), line, ts`}`);
}

function arrayType(items: TypeCode): Code {
  if (!items.union) return ts`${items.code}[]`;
  return group(ts`(`, indent(softline, group(unionBody(items.members))), softline, ts`)[]`);
}

function arrayLiteral(items: readonly Code[]): Code {
  return group(ts`[`, indent(softline, join(concat(ts`,`, line), items)), ifBreak(ts`,`), softline, ts`]`);
}

/**
 * JSDoc paragraphs: the description; what each enum value means and its number on the
 * wire; the other forms the wire accepts; then tags.
 */
function docText(doc: Doc, shape: Shape, aliases: readonly string[] = []): string[] {
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
  ];
  if (wire.length > 0) parts.push(`On the wire this may also arrive as ${wire.join(" or ")}.`);
  const tags = [...constraintTags(shape)];
  if (doc.default !== undefined) tags.push(`@default ${JSON.stringify(doc.default)}`);
  if (doc.deprecated) tags.push("@deprecated");
  if (tags.length > 0) parts.push(tags.join("\n"));
  return paragraphs(parts);
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
