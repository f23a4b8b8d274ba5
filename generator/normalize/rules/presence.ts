import type { JsonValue } from "../../json.js";
import { isJsonObject } from "../../json.js";
import type { Field, ObjectShape, Shape } from "../../ir/model.js";
import { appendPointer } from "../../pointer.js";
import { presenceNames } from "../../schema/presence.js";
import type { Context } from "../context.js";
import { constrain, intersect } from "../intersect.js";
import type { SchemaRule } from "./rule.js";
import { schemasOf } from "./read.js";
import { rule } from "./rule.js";

/**
 * What branches that only require properties say, read once the fields are known: the
 * form overlays write for "this property is present" (`schema/presence.ts`).
 */

/** Property names that a schema requires be present, any one of them: a field and its wire aliases. */
interface Presence {
  readonly names: readonly string[];
  /** Where the requirement's branches are. */
  readonly pointer: string;
  /** The branches, each requiring names: what the requirement is where no one field is. */
  readonly branches: readonly JsonValue[];
}

/**
 * An `anyOf` of `required`, one per name of a field (in an `allOf` member or the schema's
 * own `anyOf`), requires the field. At least one of several fields is a constraint.
 */
export const PRESENT_UNDER_ANY_NAME: SchemaRule = rule(
  "present-under-any-name",
  "an anyOf of required, one per name of one field (own or in an allOf member), makes the field required; of several fields, it is a constraint beside the object",
  (draft, context) => {
    const { schema, pointer } = draft;
    const present: Presence[] = [];
    for (const [i, member] of schemasOf(schema, "allOf", pointer, context).entries()) {
      const names = fieldPresence(member);
      if (names !== undefined && isJsonObject(member))
        present.push({ names, pointer: appendPointer(pointer, "allOf", i, "anyOf"), branches: member["anyOf"] as JsonValue[] });
    }
    const branches = schemasOf(schema, "anyOf", pointer, context);
    const anyOf = presenceBranches(branches);
    if (anyOf !== undefined) present.push({ names: anyOf.flat(), pointer: appendPointer(pointer, "anyOf"), branches });
    return present.length === 0 ? draft : { ...draft, shape: requireFields(draft.shape, present, context) };
  },
);

/** An object in which exactly one of the properties the branches require is present. */
export const EXACTLY_ONE_IS_KEYED: SchemaRule = rule(
  "exactly-one-is-keyed",
  "a oneOf whose branches each only require one field is a keyed union of those fields",
  (draft, context) => {
    const branches = schemasOf(draft.schema, "oneOf", draft.pointer, context);
    const names = presenceBranches(branches);
    return names === undefined ? draft : { ...draft, shape: keyed(draft.shape, names, branches, draft.pointer, context) };
  },
);

/** The names of the field an `allOf` member requires, when that is all it does. */
export function fieldPresence(member: JsonValue): string[] | undefined {
  return isJsonObject(member) && "anyOf" in member ? presenceNames(member) : undefined;
}

/** Per branch, the names it requires, when every branch only requires names; undefined for no branches. */
export function presenceBranches(branches: readonly JsonValue[]): string[][] | undefined {
  if (branches.length === 0) return undefined;
  const names = branches.map(presenceNames);
  return names.every((branch) => branch !== undefined) ? (names as string[][]) : undefined;
}

/**
 * The object with each field whose names are present required. A requirement that is not
 * one field's (at least one of several fields), or of a schema that is not an object, is
 * what its branches say, as a constraint beside the shape.
 */
function requireFields(shape: Shape, present: readonly Presence[], context: Context): Shape {
  const others: Presence[] = [];
  const required = present.flatMap((presence) => {
    const fields = shape.kind === "object" ? [...new Set(presence.names.map((name) => fieldNamed(shape, name)))] : [];
    if (fields.length === 1 && fields[0] !== undefined) return [fields[0]];
    others.push(presence);
    return [];
  });
  const fielded =
    shape.kind === "object" && required.length > 0
      ? { ...shape, fields: shape.fields.map((field) => (required.includes(field.name) ? { ...field, required: true } : field)) }
      : shape;
  return beside(
    fielded,
    others.map(({ branches, pointer }) => branchesShape(branches, pointer, false, context)),
    context,
  );
}

/** A shape and others it must also be of, each narrowed to the shape's type (`intersect` narrows constraints). */
function beside(shape: Shape, others: readonly Shape[], context: Context): Shape {
  if (others.length === 0) return shape;
  return intersect(
    shape,
    constrain(
      { kind: "unknown" },
      others.map((other) => ({ kind: "also", shape: other })),
    ),
    context,
  );
}

/** What branches say together, as any schema's anyOf (or, `exclusive`, oneOf) would. */
function branchesShape(branches: readonly JsonValue[], pointer: string, exclusive: boolean, context: Context): Shape {
  return { kind: "union", members: branches.map((branch, i) => context.shape(branch, appendPointer(pointer, i))), exclusive };
}

/**
 * An object in which exactly one of the branches' fields is present, as a keyed union.
 * Where the branches are not each one declared, optional field of an object, they are
 * what they say, an exclusive union beside the shape; beside patterns or names, which a
 * keyed union has no place for, the keyed union is that constraint.
 */
function keyed(shape: Shape, names: readonly string[][], branches: readonly JsonValue[], pointer: string, context: Context): Shape {
  const object = shape.kind === "object" ? shape : undefined;
  // Per branch, the one field its names are, if they are one.
  const memberNames = names.map((each) => {
    const fields = [...new Set(each.map((name) => (object === undefined ? undefined : fieldNamed(object, name))))];
    return fields.length === 1 ? fields[0] : undefined;
  });
  const members = memberNames.map((name) => object?.fields.find((field) => field.name === name));
  if (
    object === undefined ||
    new Set(memberNames).size !== names.length ||
    members.some((member) => member === undefined || member.required)
  )
    return beside(shape, [branchesShape(branches, appendPointer(pointer, "oneOf"), true, context)], context);
  const keyedMembers = members as Field[];
  if (object.patterns !== undefined || object.names !== undefined)
    return constrain(object, [
      { kind: "also", shape: { kind: "keyed-union", members: keyedMembers, fields: [], additional: { kind: "unknown" } } },
    ]);
  return {
    kind: "keyed-union",
    members: keyedMembers,
    fields: object.fields.filter((field) => !memberNames.includes(field.name)),
    additional: object.additional,
  };
}

/** The field a property name belongs to: its own name or one of its wire aliases. */
function fieldNamed(shape: ObjectShape, name: string): string | undefined {
  return shape.fields.find((field) => field.name === name || field.aliases?.includes(name))?.name;
}
