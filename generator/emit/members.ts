import type { Type } from "../code/tree.js";
import { indexedAccess, keywordType, literalType, typeReference } from "../code/build.js";
import type { Field, KeyedUnionShape, ObjectShape, Shape, TaggedUnionShape } from "../ir/model.js";
import type { JsonPrimitive } from "../json.js";
import { RUNTIME } from "./access.js";
import type { GeneratedFile } from "./file.js";
import { TYPES } from "./names.js";

/**
 * How builders and matches refer to the members of unions: an object's tags, and a keyed
 * union's variants and their values' types.
 */

/** A required field that can hold one value only. */
export interface Tag {
  readonly name: string;
  readonly value: JsonPrimitive;
}

/** Whether a shape is an object with tags, which gets a builder. */
export function hasTags(shape: Shape): shape is ObjectShape {
  return shape.kind === "object" && tags(shape).length > 0;
}

/** Whether a shape is a union that gets match helpers: tagged, or keyed by which member is present. */
export function isMatchable(shape: Shape): shape is TaggedUnionShape | KeyedUnionShape {
  return shape.kind === "tagged-union" || shape.kind === "keyed-union";
}

/** An object's tags, which its builder fills in. */
export function tags(shape: ObjectShape): Tag[] {
  return shape.fields.flatMap((field) =>
    field.required && field.shape.kind === "literal" ? [{ name: field.name, value: field.shape.value }] : [],
  );
}

/** The variant of a keyed union in which `member` is set: `Member<PaymentMethod, "card">`. */
export function variantType(f: GeneratedFile, union: string, member: Field): Type {
  return typeReference(f.import("Member", RUNTIME, { typeOnly: true }), [
    typeReference(f.import(union, TYPES, { typeOnly: true })),
    literalType(member.name),
  ]);
}

/** The type of a keyed union member's value: its name or keyword when it has one, else the variant's property. */
export function memberValueType(f: GeneratedFile, union: string, member: Field): Type {
  const shape = member.shape;
  switch (shape.kind) {
    case "ref":
      return typeReference(f.import(shape.name, TYPES, { typeOnly: true }));
    case "string":
    case "number":
    case "boolean":
    case "unknown":
      return keywordType(shape.kind);
    default:
      return indexedAccess(variantType(f, union, member), literalType(member.name));
  }
}
