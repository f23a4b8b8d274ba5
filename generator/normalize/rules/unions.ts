import type { JsonPrimitive, JsonValue } from "../../json.js";
import { isJsonObject, isJsonPrimitive } from "../../json.js";
import type { NumberShape, ObjectShape, Shape, TaggedMember } from "../../ir/model.js";
import type { Context } from "../context.js";
import { compact } from "../intersect.js";
import type { Rule } from "./rule.js";
import { rule } from "./rule.js";

/** The alternatives of an `anyOf` (not exclusive) or a `oneOf` (exclusive): their shapes and their schemas. */
export interface Alternatives {
  readonly members: readonly Shape[];
  readonly branches: readonly JsonValue[];
  readonly exclusive: boolean;
}

/** A rule that may say what some alternatives are; the first that does decides. */
export type UnionRule = Rule<Alternatives, Shape | undefined>;

export const NULL_MAKES_NULLABLE: UnionRule = rule(
  "null-makes-nullable",
  "null alternatives make the union of the others nullable",
  (alternatives, context) => {
    const { members, branches, exclusive } = alternatives;
    const isNull = (shape: Shape) => shape.kind === "null" || (shape.kind === "literal" && shape.value === null);
    const others = members.filter((member) => !isNull(member));
    if (others.length === members.length) return undefined;
    if (others.length === 0) return { kind: "null" };
    const core = classifyUnion(
      others,
      branches.filter((_, i) => !isNull(members[i]!)),
      exclusive,
      context,
    );
    return { kind: "nullable", shape: core };
  },
);

export const ONE_ALTERNATIVE: UnionRule = rule("one-alternative", "a union of one alternative is that alternative", ({ members }) =>
  members.length === 1 ? members[0]! : undefined,
);

/** Proto3 JSON enums: the names, as constants or `^NAME$` patterns, or their number. */
export const PROTO_ENUM: UnionRule = rule(
  "proto-enum",
  "string constants (or ^NAME$ patterns) plus one plain integer are an enum whose wire form also takes integers (proto3 JSON)",
  ({ members }) => wireEnum(members),
);

/** Proto3 JSON int32: the integer, or its digits in a string. */
export const INT32: UnionRule = rule(
  "int32",
  "a plain integer plus a decimal-digits string is an integer whose wire form also takes the string (proto3 JSON int32)",
  ({ members }) => wireInteger(members),
);

export const TAGGED_UNION: UnionRule = rule(
  "tagged-union",
  "objects that each hold a distinct constant in one required property are a tagged union on it",
  ({ members }, context) => tagged(members, context),
);

export const CONSTANTS_ARE_ENUM: UnionRule = rule(
  "constants-are-enum",
  "constants are one enum, each described by its branch; under oneOf a value two branches accept is dropped",
  ({ members, branches, exclusive }) => constants(members, branches, exclusive),
);

export const PLAIN_UNION: UnionRule = rule(
  "plain-union",
  "any other alternatives are a plain union, exclusive under oneOf",
  ({ members, exclusive }) => ({
    kind: "union",
    members,
    exclusive,
  }),
);

/** The union rules, in order: the first that says what the alternatives are decides; `PLAIN_UNION` always decides. */
export const UNION_RULES: readonly UnionRule[] = [
  NULL_MAKES_NULLABLE,
  ONE_ALTERNATIVE,
  PROTO_ENUM,
  INT32,
  TAGGED_UNION,
  CONSTANTS_ARE_ENUM,
  PLAIN_UNION,
];

/** The shape of `anyOf`/`oneOf` alternatives, by the first union rule that fits. */
export function classifyUnion(members: readonly Shape[], branches: readonly JsonValue[], exclusive: boolean, context: Context): Shape {
  const alternatives: Alternatives = { members, branches, exclusive };
  for (const { apply } of UNION_RULES) {
    const shape = apply(alternatives, context);
    if (shape !== undefined) return shape;
  }
  throw new Error("the last union rule always decides");
}

function wireEnum(members: readonly Shape[]): Shape | undefined {
  const values: JsonPrimitive[] = [];
  let integer: NumberShape | undefined;
  for (const member of members) {
    if (member.kind === "literal" && typeof member.value === "string") values.push(member.value);
    else if (member.kind === "enum" && member.wire === undefined && member.values.every((value) => typeof value === "string"))
      values.push(...member.values);
    else if (member.kind === "string" && literalOfPattern(member) !== undefined) values.push(literalOfPattern(member)!);
    else if (member.kind === "number" && member.integer && integer === undefined && isPlainInteger(member)) integer = member;
    else return undefined;
  }
  if (integer === undefined || values.length === 0) return undefined;
  return { kind: "enum", values: [...new Set(values)], wire: compact({ minimum: integer.minimum, maximum: integer.maximum }) };
}

function wireInteger(members: readonly Shape[]): Shape | undefined {
  if (members.length !== 2) return undefined;
  const integer = members.find((member): member is NumberShape => member.kind === "number" && member.integer && isPlainInteger(member));
  const text = members.find((member) => member !== integer);
  if (integer === undefined || text?.kind !== "string" || Object.keys(text).length !== 2 || text.patterns?.length !== 1) return undefined;
  const pattern = text.patterns[0]!;
  if (!DECIMAL_PATTERNS.has(pattern)) return undefined;
  return { ...integer, wire: { numericString: pattern } };
}

/** Patterns that match exactly the decimal integers (or the non-negative ones). */
const DECIMAL_PATTERNS = new Set(["^-?[0-9]+$", "^-?\\d+$", "^[0-9]+$", "^\\d+$"]);

function isPlainInteger(shape: NumberShape): boolean {
  return Object.keys(shape).every((key) => ["kind", "integer", "minimum", "maximum", "format"].includes(key));
}

/** The one string a `{ "type": "string", "pattern": "^X$" }` accepts, if it accepts one. */
function literalOfPattern(shape: Shape & { kind: "string" }): string | undefined {
  if (Object.keys(shape).some((key) => key !== "kind" && key !== "patterns") || shape.patterns?.length !== 1) return undefined;
  const body = /^\^\(?((?:[^\\^$.|?*+()[\]{}]|\\[\\^$.|?*+()[\]{}/-])*)\)?\$$/.exec(shape.patterns[0]!)?.[1];
  return body?.replace(/\\(.)/g, "$1");
}

function tagged(members: readonly Shape[], context: Context): Shape | undefined {
  const objects = members.map((member): ObjectShape | undefined => {
    const shape = member.kind === "ref" ? context.peek(member.name) : member;
    return shape?.kind === "object" ? shape : undefined;
  });
  if (objects.some((object) => object === undefined)) return undefined;
  const constantOf = (object: ObjectShape, name: string) => {
    const field = object.fields.find((candidate) => candidate.name === name);
    return field?.required && field.shape.kind === "literal" && isJsonPrimitive(field.shape.value) ? field.shape.value : undefined;
  };
  for (const candidate of objects[0]!.fields) {
    const constants = objects.map((object) => constantOf(object!, candidate.name));
    if (constants.some((constant) => constant === undefined)) continue;
    const values = constants as JsonPrimitive[];
    if (new Set(values).size !== values.length) continue;
    return {
      kind: "tagged-union",
      tag: candidate.name,
      members: members.map((member, i): TaggedMember => ({ value: values[i]!, shape: member as TaggedMember["shape"] })),
    };
  }
  return undefined;
}

/** Constants, each perhaps described in its branch, as one enum. */
function constants(members: readonly Shape[], branches: readonly JsonValue[], exclusive: boolean): Shape | undefined {
  const isPrimitive = (member: Shape) =>
    (member.kind === "literal" && isJsonPrimitive(member.value)) || (member.kind === "enum" && member.wire === undefined);
  if (!members.every(isPrimitive)) return undefined;
  const entries = members.flatMap((member, i): { value: JsonPrimitive; description: string | null }[] => {
    const branch = branches[i];
    const description = isJsonObject(branch) && typeof branch["description"] === "string" ? branch["description"] : null;
    return member.kind === "literal"
      ? [{ value: member.value as JsonPrimitive, description }]
      : (member as Shape & { kind: "enum" }).values.map((value) => ({ value, description: null }));
  });
  // Under oneOf a value that two branches accept matches both, so it is not valid at all.
  const count = (value: JsonPrimitive) => entries.filter((entry) => entry.value === value).length;
  const kept = entries.filter(
    (entry, i) => entries.findIndex((other) => other.value === entry.value) === i && (!exclusive || count(entry.value) === 1),
  );
  if (kept.length === 0) return { kind: "never" };
  if (kept.length === 1) return { kind: "literal", value: kept[0]!.value };
  const described = kept.some((entry) => entry.description !== null);
  return compact({
    kind: "enum",
    values: kept.map((entry) => entry.value),
    descriptions: described ? kept.map((entry) => entry.description) : undefined,
  });
}
