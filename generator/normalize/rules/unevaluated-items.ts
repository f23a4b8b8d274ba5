import type { JsonObject, JsonValue } from "../../json.js";
import { isJsonObject } from "../../json.js";
import type { ArrayShape, Shape } from "../../ir/model.js";
import { appendPointer, getAtPointer } from "../../schema/pointer.js";
import type { Context } from "../context.js";
import { REFUSAL } from "../context.js";
import { compact, intersect } from "../intersect.js";
import type { SchemaRule } from "../schema.js";
import { rule } from "./rule.js";

/**
 * `unevaluatedItems`, where which items are evaluated does not depend on the value: the
 * schema's own positions and those of its allOf members and refs (the most of them), all
 * items where one of them has `items` (or a nested `unevaluatedItems`), and, from 2020-12,
 * the items that a `contains` of theirs matches. So an item after the evaluated positions
 * is of some `contains` shape or of `unevaluatedItems`' shape. Which items an anyOf,
 * oneOf or if/then/else evaluates depends on the branch the value takes: refused where
 * such a branch evaluates items; a `not` evaluates none.
 */
export const UNEVALUATED_ITEMS: SchemaRule = rule(
  "unevaluated-items",
  "unevaluatedItems is the shape of items after every position a part evaluated, unless one evaluates all; an item a contains matches is evaluated",
  (draft, context) => {
    if (!("unevaluatedItems" in draft.schema)) return draft;
    if (context.dialect === "draft-07")
      return context.fail(
        appendPointer(draft.pointer, "unevaluatedItems"),
        'unsupported: "unevaluatedItems" is not a keyword of draft-07',
        "it is one from 2019-09 on",
      );
    const rest = context.shape(draft.schema["unevaluatedItems"]!, appendPointer(draft.pointer, "unevaluatedItems"));
    if (rest.kind === "unknown") return draft;
    const evaluated = evaluatedItems(draft.schema, draft.pointer, false, context, new Set());
    if (evaluated.all) return draft;
    const contained = evaluated.contains.map(({ schema, pointer }) => context.shape(schema, pointer));
    const members = [...contained, rest].filter((shape) => shape.kind !== "never");
    const unevaluated: Shape =
      members.length === 0 ? { kind: "never" } : members.length === 1 ? members[0]! : { kind: "union", members, exclusive: false };
    return { ...draft, shape: closeItems(draft.shape, evaluated.prefix, unevaluated, context) };
  },
);

/** What a schema evaluates of an array, whatever the array: all items, or its first positions and the items some shapes match. */
interface Evaluated {
  readonly all: boolean;
  readonly prefix: number;
  readonly contains: readonly { readonly schema: JsonValue; readonly pointer: string }[];
}

const NOTHING: Evaluated = { all: false, prefix: 0, contains: [] };

/** The keywords whose schemas apply to the value itself, or not, depending on the value. */
const BRANCHES = ["anyOf", "oneOf", "if", "then", "else"] as const;

/**
 * The items a schema evaluates, with its allOf members and ref targets; `nested` where
 * the schema is one of those, whose own `unevaluatedItems` evaluates the rest.
 */
function evaluatedItems(schema: JsonValue, pointer: string, nested: boolean, context: Context, seen: Set<string>): Evaluated {
  if (!isJsonObject(schema)) return NOTHING;
  const parts: Evaluated[] = [own(schema, pointer, nested, context)];
  const ref = schema["$ref"];
  if (typeof ref === "string" && ref.startsWith("#")) {
    const target = decodeURIComponent(ref.slice(1));
    if (!seen.has(target))
      parts.push(evaluatedItems(getAtPointer(context.document, target) as JsonValue, target, true, context, new Set([...seen, target])));
  }
  const allOf = Array.isArray(schema["allOf"]) ? schema["allOf"] : [];
  for (const [i, member] of allOf.entries()) parts.push(evaluatedItems(member, appendPointer(pointer, "allOf", i), true, context, seen));
  for (const keyword of BRANCHES) {
    const value = schema[keyword];
    const branches = Array.isArray(value) ? value : value === undefined ? [] : [value];
    if (branches.some((branch) => evaluatesAny(branch, context, new Set())))
      context.fail(
        appendPointer(pointer, keyword),
        `unsupported: unevaluatedItems beside ${keyword === "then" || keyword === "else" ? "if/then/else" : keyword} that evaluates items`,
        `${REFUSAL}: which items ${keyword} evaluates depends on the value`,
      );
  }
  return {
    all: parts.some((part) => part.all),
    prefix: Math.max(...parts.map((part) => part.prefix)),
    contains: parts.flatMap((part) => part.contains),
  };
}

/** What the schema's own keywords evaluate, as its dialect spells them. */
function own(schema: JsonObject, pointer: string, nested: boolean, context: Context): Evaluated {
  if (nested && "unevaluatedItems" in schema) return { all: true, prefix: 0, contains: [] };
  const items = schema["items"];
  let prefix = 0;
  if (context.dialect === "2020-12") {
    if (items !== undefined) return { all: true, prefix: 0, contains: [] };
    if (Array.isArray(schema["prefixItems"])) prefix = schema["prefixItems"].length;
  } else if (Array.isArray(items)) {
    if ("additionalItems" in schema) return { all: true, prefix: 0, contains: [] };
    prefix = items.length;
  } else if (items !== undefined) return { all: true, prefix: 0, contains: [] };
  // Before 2020-12, contains evaluates nothing.
  const contains =
    context.dialect === "2020-12" && "contains" in schema
      ? [{ schema: schema["contains"]!, pointer: appendPointer(pointer, "contains") }]
      : [];
  return { all: false, prefix, contains };
}

/** Whether a schema, its refs or its in-place parts have a keyword that evaluates items. */
function evaluatesAny(schema: JsonValue, context: Context, seen: Set<string>): boolean {
  if (!isJsonObject(schema)) return false;
  if (["prefixItems", "items", "additionalItems", "contains", "unevaluatedItems"].some((keyword) => keyword in schema)) return true;
  const ref = schema["$ref"];
  if (typeof ref === "string" && ref.startsWith("#") && !seen.has(ref)) {
    const target = getAtPointer(context.document, decodeURIComponent(ref.slice(1))) as JsonValue;
    if (evaluatesAny(target, context, new Set([...seen, ref]))) return true;
  }
  return ["allOf", ...BRANCHES].some((keyword) => {
    const value = schema[keyword];
    const members = Array.isArray(value) ? value : value === undefined ? [] : [value];
    return members.some((member) => evaluatesAny(member, context, seen));
  });
}

/** The shape with the items after the first `prefix` positions of `unevaluated`'s shape too, wherever it is an array. */
function closeItems(shape: Shape, prefix: number, unevaluated: Shape, context: Context): Shape {
  switch (shape.kind) {
    case "array":
      return closeArray(shape, prefix, unevaluated, context);
    case "ref":
      // Closing another type's array makes a new, unnamed one.
      return closeItems(context.shapeOf(shape.name), prefix, unevaluated, context);
    case "nullable":
    case "constrained":
      // A constraint's schemas evaluate no items the walk has not counted or refused.
      return { ...shape, shape: closeItems(shape.shape, prefix, unevaluated, context) };
    case "union": {
      const members = shape.members.map((member) => closeItems(member, prefix, unevaluated, context));
      return { ...shape, members };
    }
    case "unknown":
      return context.unsupported("unevaluatedItems on a schema of any type");
    default:
      // Not an array: the keyword does not apply.
      return shape;
  }
}

/**
 * An array whose items from `prefix` on are of `unevaluated`'s shape too. Positions a part
 * evaluated that this shape leaves to its rest keep the rest's shape.
 */
function closeArray(shape: ArrayShape, prefix: number, unevaluated: Shape, context: Context): Shape {
  const length = Math.max(prefix, shape.prefixItems?.length ?? 0);
  const prefixItems = Array.from({ length }, (_, i) => {
    const at = shape.prefixItems?.[i] ?? shape.items;
    return i < prefix ? at : intersect(at, unevaluated, context);
  });
  return compact({ ...shape, prefixItems: length === 0 ? undefined : prefixItems, items: intersect(shape.items, unevaluated, context) });
}
