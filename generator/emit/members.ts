import type { Type } from "../code/tree.js";
import { indexedAccess, keywordType, literalType, typeReference } from "../code/build.js";
import type { Field } from "../ir/model.js";
import { UNIONS } from "./templates.js";
import type { GeneratedFile } from "./file.js";
import { TYPES } from "./names.js";

/** How builders and matches refer to a keyed union's variants and their values' types. */

/** The variant of a keyed union in which `member` is set: `Member<PaymentMethod, "card">`. */
export function variantType(f: GeneratedFile, union: string, member: Field): Type {
  return typeReference(f.import("Member", UNIONS, { typeOnly: true }), [
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
