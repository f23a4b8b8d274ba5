import type { JsonObject, JsonValue } from "../../json.js";
import { isJsonObject, jsonEqual } from "../../json.js";
import type { Shape } from "../../ir/model.js";
import { appendPointer, getAtPointer, localRefPointer } from "../../pointer.js";
import type { Context } from "../context.js";
import { compact, constrain, intersect } from "../intersect.js";
import type { SchemaRule } from "./rule.js";
import { rule } from "./rule.js";

/**
 * `unevaluatedItems`: the items no part evaluated are of its shape. The parts that always
 * apply are the schema's own keywords, its allOf members and refs: they evaluate their
 * positions (the most of them), all items where one has `items` (or a nested
 * `unevaluatedItems`), and, from 2020-12, the items a `contains` of theirs matches; so an
 * item after the evaluated positions is of a `contains` shape or of `unevaluatedItems`'.
 * What an anyOf, oneOf or if/then/else evaluates depends on the branch the value takes:
 * such a choice becomes an `if` constraint per branch, each closing the array after what
 * that branch adds (and, in turn, after what a choice within it or beside it adds); a
 * `not` evaluates nothing. Where an anyOf's branches contain or choose, the items of every
 * branch that matches add up: each branch is then a choice of its own, taken or not.
 */
export const UNEVALUATED_ITEMS: SchemaRule = rule(
  "unevaluated-items",
  "unevaluatedItems is the shape of items after every position a part evaluated, unless one evaluates all; an item a contains matches is evaluated; a choice of branches that evaluate items is an if per branch",
  (draft, context) => {
    if (!("unevaluatedItems" in draft.schema)) return draft;
    const rest = context.shape(draft.schema["unevaluatedItems"]!, appendPointer(draft.pointer, "unevaluatedItems"));
    if (rest.kind === "unknown") return draft;
    const evaluated = evaluatedItems(draft.schema, draft.pointer, false, context, new Set());
    if (evaluated.all) return draft;
    // What every array of the schema must also be.
    return { ...draft, shape: closeItems(draft.shape, closing(evaluated, rest, context), context) };
  },
);

/** What a schema evaluates of an array, whatever the array: all items, or its first positions and the items some shapes match. */
interface Evaluated {
  readonly all: boolean;
  readonly prefix: number;
  readonly contains: readonly Located[];
  /** Branches of which the value takes some, each evaluating items of its own. */
  readonly choices: readonly Choice[];
}

interface Located {
  readonly schema: JsonValue;
  readonly pointer: string;
}

/** `anyOf` or `oneOf` (the branches that match), or `if` (`then` when it matches, else `else`). */
type Choice =
  | {
      readonly kind: "anyOf" | "oneOf";
      readonly pointer: string;
      readonly branches: readonly (Located & { readonly evaluated: Evaluated })[];
    }
  | {
      readonly kind: "if";
      readonly pointer: string;
      readonly if: Located & { readonly evaluated: Evaluated };
      readonly then: Evaluated;
      readonly else: Evaluated;
    };

const NOTHING: Evaluated = { all: false, prefix: 0, contains: [], choices: [] };
const ALL: Evaluated = { all: true, prefix: 0, contains: [], choices: [] };

/**
 * The items a schema evaluates, with its allOf members and ref targets; `nested` where
 * the schema is one of those, whose own `unevaluatedItems` evaluates the rest.
 */
function evaluatedItems(schema: JsonValue, pointer: string, nested: boolean, context: Context, seen: Set<string>): Evaluated {
  if (!isJsonObject(schema)) return NOTHING;
  const parts: Evaluated[] = [own(schema, pointer, nested, context)];
  const ref = schema["$ref"];
  const target = localRefPointer(ref);
  if (target !== undefined) {
    if (!seen.has(target))
      parts.push(evaluatedItems(getAtPointer(context.document, target) as JsonValue, target, true, context, new Set([...seen, target])));
  }
  const allOf = Array.isArray(schema["allOf"]) ? schema["allOf"] : [];
  for (const [i, member] of allOf.entries()) parts.push(evaluatedItems(member, appendPointer(pointer, "allOf", i), true, context, seen));
  const choices: Choice[] = [];
  const branch = (value: JsonValue | undefined, at: string) => ({
    schema: value ?? true,
    pointer: at,
    evaluated: value === undefined ? NOTHING : evaluatedItems(value, at, true, context, seen),
  });
  for (const keyword of ["anyOf", "oneOf"] as const) {
    const value = schema[keyword];
    if (!Array.isArray(value) || !value.some((each) => evaluatesAny(each, context, new Set()))) continue;
    const at = appendPointer(pointer, keyword);
    const branches = value.map((each, i) => branch(each, appendPointer(at, i)));
    // The items of every anyOf branch that matches add up: where they are not just the
    // longest prefix, each branch is a choice of its own, taken or not.
    if (keyword === "anyOf" && branches.some((each) => each.evaluated.contains.length > 0 || each.evaluated.choices.length > 0))
      choices.push(...branches.map((each): Choice => ({ kind: "if", pointer: each.pointer, if: each, then: NOTHING, else: NOTHING })));
    else choices.push({ kind: keyword, pointer: at, branches });
  }
  if ("if" in schema && ["if", "then", "else"].some((keyword) => evaluatesAny(schema[keyword] ?? true, context, new Set())))
    choices.push({
      kind: "if",
      pointer: appendPointer(pointer, "if"),
      if: branch(schema["if"], appendPointer(pointer, "if")),
      then: branch(schema["then"], appendPointer(pointer, "then")).evaluated,
      else: branch(schema["else"], appendPointer(pointer, "else")).evaluated,
    });
  return join([...parts, { ...NOTHING, choices }]);
}

/** What several parts evaluate together. */
function join(parts: readonly Evaluated[]): Evaluated {
  return {
    all: parts.some((part) => part.all),
    prefix: Math.max(0, ...parts.map((part) => part.prefix)),
    contains: parts.flatMap((part) => part.contains),
    choices: parts.flatMap((part) => part.choices),
  };
}

/**
 * The arrays closed after what is evaluated: by what always applies, then by the choices
 * of branches, one after the other (each branch of the first closes after what it, what
 * always applies and the rest of the choices evaluate).
 */
function closing(evaluated: Evaluated, rest: Shape, context: Context): Shape {
  if (evaluated.all) return { kind: "unknown" };
  const [choice, ...others] = evaluated.choices;
  return choice === undefined ? closedArray(evaluated, rest, context) : chosen(choice, { ...evaluated, choices: others }, rest, context);
}

/**
 * A choice as an `if` constraint per branch, in turn: a value of the branch is closed
 * after what it and the parts that always apply evaluate. An anyOf's branches are taken
 * longest first, since of those that match the longest decides; a oneOf matches one. A
 * branch that closes the array as the ones after it do needs no test.
 */
function chosen(choice: Choice, always: Evaluated, rest: Shape, context: Context): Shape {
  const read = (located: Located) => intersect(context.shape(located.schema, located.pointer), ARRAYS, context);
  const branch = (test: Located, then: Shape, otherwise: Shape): Shape =>
    jsonEqual(then as never, otherwise as never)
      ? otherwise
      : { kind: "constrained", shape: { kind: "unknown" }, constraints: [{ kind: "if", if: read(test), then, else: otherwise }] };
  if (choice.kind === "if")
    return branch(
      choice.if,
      closing(join([always, choice.if.evaluated, choice.then]), rest, context),
      closing(join([always, choice.else]), rest, context),
    );
  const length = (evaluated: Evaluated) => (evaluated.all ? Infinity : evaluated.prefix);
  const branches =
    choice.kind === "anyOf"
      ? [...choice.branches].sort((a, b) => Math.sign(length(b.evaluated) - length(a.evaluated)) || 0)
      : choice.branches;
  let otherwise = closing(always, rest, context);
  for (const each of [...branches].reverse()) otherwise = branch(each, closing(join([always, each.evaluated]), rest, context), otherwise);
  return otherwise;
}

const ARRAYS: Shape = { kind: "array", items: { kind: "unknown" } };

/** The arrays whose items after what is evaluated are of `rest`'s shape or some `contains` one; any array where all are evaluated. */
function closedArray(evaluated: Evaluated, rest: Shape, context: Context): Shape {
  if (evaluated.all) return { kind: "unknown" };
  const prefixItems = Array.from({ length: evaluated.prefix }, (): Shape => ({ kind: "unknown" }));
  return compact({
    kind: "array" as const,
    prefixItems: prefixItems.length === 0 ? undefined : prefixItems,
    items: unevaluatedShape(evaluated, rest, context),
  });
}

/** The shape of an item past the evaluated positions: of some `contains` shape, or of `rest`'s. */
function unevaluatedShape(evaluated: Evaluated, rest: Shape, context: Context): Shape {
  const contained = evaluated.contains.map(({ schema, pointer }) => context.shape(schema, pointer));
  const members = [...contained, rest].filter((shape) => shape.kind !== "never");
  return members.length === 0 ? { kind: "never" } : members.length === 1 ? members[0]! : { kind: "union", members, exclusive: false };
}

/** What the schema's own keywords evaluate, as its dialect spells them. */
function own(schema: JsonObject, pointer: string, nested: boolean, context: Context): Evaluated {
  if (nested && "unevaluatedItems" in schema) return ALL;
  const items = schema["items"];
  let prefix = 0;
  if (context.dialect === "draft2020-12") {
    if (items !== undefined) return ALL;
    if (Array.isArray(schema["prefixItems"])) prefix = schema["prefixItems"].length;
  } else if (Array.isArray(items)) {
    if ("additionalItems" in schema) return ALL;
    prefix = items.length;
  } else if (items !== undefined) return ALL;
  // Before 2020-12, contains evaluates nothing.
  const contains =
    context.dialect === "draft2020-12" && "contains" in schema
      ? [{ schema: schema["contains"]!, pointer: appendPointer(pointer, "contains") }]
      : [];
  return { ...NOTHING, prefix, contains };
}

/** Whether a schema, its refs or its in-place parts have a keyword that evaluates items. */
function evaluatesAny(schema: JsonValue, context: Context, seen: Set<string>): boolean {
  if (!isJsonObject(schema)) return false;
  if (["prefixItems", "items", "additionalItems", "contains", "unevaluatedItems"].some((keyword) => keyword in schema)) return true;
  const ref = schema["$ref"];
  const target = localRefPointer(ref);
  if (
    target !== undefined &&
    !seen.has(target) &&
    evaluatesAny(getAtPointer(context.document, target) as JsonValue, context, new Set([...seen, target]))
  )
    return true;
  return ["allOf", "anyOf", "oneOf", "if", "then", "else"].some((keyword) => {
    const value = schema[keyword];
    const members = Array.isArray(value) ? value : value === undefined ? [] : [value];
    return members.some((member) => evaluatesAny(member, context, seen));
  });
}

/** The shape, wherever it is an array, of `closing`'s shape too. */
function closeItems(shape: Shape, closing: Shape, context: Context): Shape {
  switch (shape.kind) {
    case "array":
      return intersect(shape, closing, context);
    case "ref":
      // Closing another type's array makes a new, unnamed one.
      return closeItems(context.shapeOf(shape.name), closing, context);
    case "nullable":
      return { ...shape, shape: closeItems(shape.shape, closing, context) };
    case "constrained":
      // A constraint's schemas evaluate no items the walk has not counted or refused.
      return constrain(closeItems(shape.shape, closing, context), shape.constraints);
    case "union":
      return { ...shape, members: shape.members.map((member) => closeItems(member, closing, context)) };
    case "unknown":
      // Any value: the arrays among them are closed.
      return constrain(shape, [{ kind: "if", if: ARRAYS, then: closing, else: { kind: "unknown" } }]);
    default:
      // Not an array: the keyword does not apply.
      return shape;
  }
}
