import type { JsonValue } from "../../json.js";
import { isJsonObject } from "../../json.js";
import type { ObjectShape, Shape } from "../../ir/model.js";
import { appendPointer } from "../../schema/pointer.js";
import { presenceNames } from "../../schema/presence.js";
import type { Context } from "../context.js";
import { REFUSAL } from "../context.js";
import type { SchemaRule } from "../schema.js";
import { schemasOf } from "./read.js";
import { rule } from "./rule.js";

/**
 * What branches that only require properties say, read once the fields are known: the
 * form overlays write for "this property is present" (`schema/presence.ts`).
 */

/** Property names that a schema requires be present, any one of them: a field and its wire aliases. */
interface Presence {
  readonly names: readonly string[];
  /** Where the requirement is, for errors. */
  readonly pointer: string;
}

/**
 * An `anyOf` of `required`, one per name of a field (in an `allOf` member or the schema's
 * own `anyOf`), requires the field. At least one of several fields is refused.
 */
export const PRESENT_UNDER_ANY_NAME: SchemaRule = rule(
  "present-under-any-name",
  "an anyOf of required, one per name of one field (own or in an allOf member), makes the field required; of several fields, refused",
  (draft, context) => {
    const { schema, pointer } = draft;
    const present: Presence[] = [];
    for (const [i, member] of schemasOf(schema, "allOf", pointer, context).entries()) {
      const names = fieldPresence(member);
      if (names !== undefined) present.push({ names, pointer: appendPointer(pointer, "allOf", i) });
    }
    const anyOf = presenceBranches(schemasOf(schema, "anyOf", pointer, context));
    if (anyOf !== undefined) present.push({ names: anyOf.flat(), pointer: appendPointer(pointer, "anyOf") });
    return present.length === 0 ? draft : { ...draft, shape: requireFields(draft.shape, present, pointer, context) };
  },
);

/** An object in which exactly one of the properties the branches require is present. */
export const EXACTLY_ONE_IS_KEYED: SchemaRule = rule(
  "exactly-one-is-keyed",
  "a oneOf whose branches each only require one field is a keyed union of those fields",
  (draft, context) => {
    const branches = presenceBranches(schemasOf(draft.schema, "oneOf", draft.pointer, context));
    return branches === undefined ? draft : { ...draft, shape: keyed(draft.shape, branches, draft.pointer, context) };
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

function requireFields(shape: Shape, present: readonly Presence[], pointer: string, context: Context): Shape {
  if (shape.kind !== "object")
    return context.fail(pointer, "a property is required of a schema that is not an object", "require it where its object declares it");
  const required = present.map(({ names, pointer: at }) => {
    const fields = [...new Set(names.map((name) => fieldNamed(shape, name)))];
    if (fields.length !== 1 || fields[0] === undefined)
      context.fail(at, `unsupported: an anyOf of required properties, at least one of ${names.join(", ")} present`, REFUSAL);
    return fields[0]!;
  });
  return { ...shape, fields: shape.fields.map((field) => (required.includes(field.name) ? { ...field, required: true } : field)) };
}

function keyed(shape: Shape, branches: readonly string[][], pointer: string, context: Context): Shape {
  if (shape.kind !== "object")
    return context.fail(appendPointer(pointer, "oneOf"), "exactly one of some properties is required of a schema that is not an object");
  const memberNames = branches.map((names, i) => {
    const fields = [...new Set(names.map((name) => fieldNamed(shape, name)))];
    if (fields.length !== 1 || fields[0] === undefined)
      context.fail(appendPointer(pointer, "oneOf", i), `a member must be one declared property (or its aliases): ${names.join(", ")}`);
    return fields[0]!;
  });
  // A keyed union has no place for them, and they are not dropped.
  if (shape.patterns !== undefined || shape.names !== undefined)
    context.unsupported("exactly one of some properties beside patternProperties or propertyNames");
  for (const name of memberNames)
    if (shape.fields.find((field) => field.name === name)!.required)
      context.fail(pointer, `"${name}" is both required and one of several exclusive members`);
  return {
    kind: "keyed-union",
    members: memberNames.map((name) => shape.fields.find((field) => field.name === name)!),
    fields: shape.fields.filter((field) => !memberNames.includes(field.name)),
    additional: shape.additional,
  };
}

/** The field a property name belongs to: its own name or one of its wire aliases. */
function fieldNamed(shape: ObjectShape, name: string): string | undefined {
  return shape.fields.find((field) => field.name === name || field.aliases?.includes(name))?.name;
}
