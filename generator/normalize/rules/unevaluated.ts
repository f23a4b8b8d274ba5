import type { JsonValue } from "../../json.js";
import { isJsonObject } from "../../json.js";
import type { Evaluated, Shape } from "../../ir/model.js";
import { appendPointer, getAtPointer, localRefPointer } from "../../pointer.js";
import type { Context } from "../context.js";
import { constrain, intersect } from "../intersect.js";
import type { SchemaRule } from "./rule.js";
import { rule } from "./rule.js";

/**
 * `unevaluatedProperties` is the shape of the properties that nothing else in the schema
 * evaluated. Where that is the same set of names for every value (its own properties, its
 * allOf members', its refs'), it closes the object over them, which its type says too;
 * where it depends on the value (an anyOf branch, an if, a pattern), it is a constraint,
 * the evaluated names worked out as the value is checked.
 */
export const UNEVALUATED_CLOSES: SchemaRule = rule(
  "unevaluated-closes",
  "unevaluatedProperties closes an object over the names every value has evaluated, else is a constraint that works them out per value",
  (draft, context) => {
    if (!("unevaluatedProperties" in draft.schema)) return draft;
    const rest = context.shape(draft.schema["unevaluatedProperties"]!, appendPointer(draft.pointer, "unevaluatedProperties"));
    const evaluated = evaluatedBy(draft.schema, draft.pointer, false, context, new Set());
    if (rest.kind === "unknown" || evaluated.all) return draft;
    return {
      ...draft,
      shape: closed(draft.shape, evaluated, rest, context) ?? constrain(draft.shape, [{ kind: "unevaluated", evaluated, rest }]),
    };
  },
);

const NONE: Evaluated = { names: [], patterns: [], all: false, when: [] };

/** The object closed over the names evaluated, where they are its fields' names and the same for every value; else undefined. */
function closed(shape: Shape, evaluated: Evaluated, rest: Shape, context: Context): Shape | undefined {
  if (evaluated.when.length > 0 || evaluated.patterns.length > 0) return undefined;
  switch (shape.kind) {
    case "object":
    case "keyed-union": {
      const fields = [...shape.fields, ...(shape.kind === "keyed-union" ? shape.members : [])].map((field) => field.name);
      if (fields.length !== evaluated.names.length || !fields.every((name) => evaluated.names.includes(name))) return undefined;
      return { ...shape, additional: intersect(shape.additional, rest, context) };
    }
    case "map":
      return evaluated.names.length === 0 ? { ...shape, values: intersect(shape.values, rest, context) } : undefined;
    case "ref":
      // Closing another type's object makes a new, unnamed one.
      return closed(context.shapeOf(shape.name), evaluated, rest, context);
    case "constrained": {
      // What `not` evaluates is dropped with its annotations.
      if (shape.constraints.some((constraint) => constraint.kind !== "not")) return undefined;
      const inner = closed(shape.shape, evaluated, rest, context);
      return inner === undefined ? undefined : { ...shape, shape: inner };
    }
    case "string":
    case "number":
    case "boolean":
    case "null":
    case "array":
    case "literal":
    case "enum":
    case "never":
      // Not an object: the keyword does not apply.
      return shape;
    default:
      return undefined;
  }
}

/**
 * The names a schema evaluates, its own `unevaluatedProperties` among them where
 * `ownUnevaluated` (a nested one evaluates every name it sees; the one being read does not
 * count itself). `following` holds the `$ref` targets entered, so a ref cycle ends.
 */
function evaluatedBy(
  schema: JsonValue,
  pointer: string,
  ownUnevaluated: boolean,
  context: Context,
  following: ReadonlySet<string>,
): Evaluated {
  if (!isJsonObject(schema)) return NONE;
  const ref = schema["$ref"];
  const refTarget = localRefPointer(ref);
  const fromRef =
    refTarget === undefined || following.has(refTarget)
      ? NONE
      : evaluatedBy(getAtPointer(context.document, refTarget) as JsonValue, refTarget, true, context, new Set([...following, refTarget]));
  // Up to draft-07 a `$ref` replaces its schema.
  if (refTarget !== undefined && context.refReplacesSiblings) return fromRef;
  const read = (at: JsonValue, ptr: string) => evaluatedBy(at, ptr, true, context, following);
  const shapeAt = (value: JsonValue, ptr: string) => context.shape(value, ptr);
  const own: Evaluated = {
    names: isJsonObject(schema["properties"]) ? Object.keys(schema["properties"]) : [],
    patterns: isJsonObject(schema["patternProperties"]) ? Object.keys(schema["patternProperties"]) : [],
    all: "additionalProperties" in schema || (ownUnevaluated && "unevaluatedProperties" in schema),
    when: [],
  };
  const parts: Evaluated[] = [own, fromRef];
  for (const [i, member] of listOf(schema["allOf"]).entries()) parts.push(read(member, appendPointer(pointer, "allOf", i)));
  const when: Evaluated["when"][number][] = [];
  for (const keyword of ["anyOf", "oneOf"])
    for (const [i, branch] of listOf(schema[keyword]).entries()) {
      const at = appendPointer(pointer, keyword, i);
      when.push({ shape: shapeAt(branch, at), then: read(branch, at), else: NONE });
    }
  if ("if" in schema) {
    const at = (keyword: string) => appendPointer(pointer, keyword);
    const then = merge([read(schema["if"]!, at("if")), "then" in schema ? read(schema["then"]!, at("then")) : NONE]);
    const otherwise = "else" in schema ? read(schema["else"]!, at("else")) : NONE;
    when.push({ shape: shapeAt(schema["if"]!, at("if")), then, else: otherwise });
  }
  const dependents = isJsonObject(schema["dependentSchemas"]) ? schema["dependentSchemas"] : {};
  for (const [name, dependent] of Object.entries(dependents)) {
    const at = appendPointer(pointer, "dependentSchemas", name);
    when.push({ shape: shapeAt({ type: "object", required: [name] }, at), then: read(dependent, at), else: NONE });
  }
  parts.push({ ...NONE, when: when.filter((each) => !isNone(each.then) || !isNone(each.else)) });
  return merge(parts);
}

function listOf(value: JsonValue | undefined): readonly JsonValue[] {
  return Array.isArray(value) ? value : [];
}

function isNone(evaluated: Evaluated): boolean {
  return !evaluated.all && evaluated.names.length === 0 && evaluated.patterns.length === 0 && evaluated.when.length === 0;
}

/** What several schemas that all apply evaluate together. */
function merge(parts: readonly Evaluated[]): Evaluated {
  const all = parts.some((part) => part.all);
  if (all) return { ...NONE, all };
  return {
    names: [...new Set(parts.flatMap((part) => part.names))],
    patterns: [...new Set(parts.flatMap((part) => part.patterns))],
    all,
    when: parts.flatMap((part) => part.when),
  };
}
