import type { JsonObject, JsonValue } from "../json.js";
import { isJsonObject } from "../json.js";
import type { Evaluated, Shape } from "../ir/model.js";
import { appendPointer, getAtPointer, localRefPointer } from "../pointer.js";
import type { Context } from "./context.js";
import { intersect } from "./intersect.js";

/**
 * What a schema evaluates of an object's properties or an array's items, the one walk both
 * unevaluated keywords read (as ajv tracks `props` and `items` by one mechanism): its own
 * keywords, its `$ref` targets and allOf members, which apply to every value, and, per
 * anyOf or oneOf branch, if and dependent schema, what it adds when the value passes it,
 * each a `when` of its own. Each subschema is read once, so this is as large as the schema,
 * however many branches there are to choose among.
 */
export function evaluatedBy(schema: JsonValue, pointer: string, of: "properties" | "items", context: Context): Evaluated {
  return walk(schema, pointer, of, false, context, new Set());
}

const NOTHING_EVALUATED: Evaluated = { all: false, names: [], patterns: [], prefix: 0, contains: [], when: [] };
const ALL_EVALUATED: Evaluated = { ...NOTHING_EVALUATED, all: true };
const ARRAYS: Shape = { kind: "array", items: { kind: "unknown" } };
const OBJECTS: Shape = { kind: "map", values: { kind: "unknown" } };

/**
 * `nested` where the schema is a part of the one being read, whose own unevaluated keyword
 * evaluates everything it sees (the one being read does not count itself). `following`
 * holds the `$ref` targets entered, so that a ref cycle ends.
 */
function walk(
  schema: JsonValue,
  pointer: string,
  of: "properties" | "items",
  nested: boolean,
  context: Context,
  following: ReadonlySet<string>,
): Evaluated {
  if (!isJsonObject(schema)) return NOTHING_EVALUATED;
  const refTarget = localRefPointer(schema["$ref"]);
  const fromRef =
    refTarget === undefined || following.has(refTarget)
      ? NOTHING_EVALUATED
      : walk(getAtPointer(context.document, refTarget) as JsonValue, refTarget, of, true, context, new Set([...following, refTarget]));
  // Up to draft-07 a `$ref` replaces its schema.
  if (refTarget !== undefined && context.refReplacesSiblings) return fromRef;
  const read = (at: JsonValue, ptr: string) => walk(at, ptr, of, true, context, following);
  // A branch need only tell objects, or arrays, apart: its checks of other types are not
  // generated. A named type stays its name, whose check is shared.
  const shapeAt = (at: JsonValue, ptr: string): Shape => {
    const shape = context.shape(at, ptr);
    return shape.kind === "ref" ? shape : intersect(shape, of === "items" ? ARRAYS : OBJECTS, context);
  };
  const own = of === "properties" ? ownProperties(schema, nested) : ownItems(schema, pointer, nested, context);
  const parts: Evaluated[] = [own, fromRef];
  for (const [i, member] of listOf(schema["allOf"]).entries()) parts.push(read(member, appendPointer(pointer, "allOf", i)));
  const when: Evaluated["when"][number][] = [];
  // A subschema whose passing decides nothing is left out, its shape not read.
  const choice = (shape: () => Shape, then: Evaluated, otherwise: Evaluated) => {
    if (!isNothing(then) || !isNothing(otherwise)) when.push({ shape: shape(), then, else: otherwise });
  };
  for (const keyword of ["anyOf", "oneOf"])
    for (const [i, branch] of listOf(schema[keyword]).entries()) {
      const at = appendPointer(pointer, keyword, i);
      choice(() => shapeAt(branch, at), read(branch, at), NOTHING_EVALUATED);
    }
  if ("if" in schema) {
    const at = (keyword: string) => appendPointer(pointer, keyword);
    const then = merge([read(schema["if"]!, at("if")), "then" in schema ? read(schema["then"]!, at("then")) : NOTHING_EVALUATED]);
    const otherwise = "else" in schema ? read(schema["else"]!, at("else")) : NOTHING_EVALUATED;
    choice(() => shapeAt(schema["if"]!, at("if")), then, otherwise);
  }
  // dependentSchemas apply to objects alone.
  const dependents = of === "properties" && isJsonObject(schema["dependentSchemas"]) ? schema["dependentSchemas"] : {};
  for (const [name, dependent] of Object.entries(dependents)) {
    const at = appendPointer(pointer, "dependentSchemas", name);
    choice(() => context.shape({ type: "object", required: [name] }, at), read(dependent, at), NOTHING_EVALUATED);
  }
  parts.push({ ...NOTHING_EVALUATED, when });
  return merge(parts);
}

/** What a schema's own keywords evaluate of an object. */
function ownProperties(schema: JsonObject, nested: boolean): Evaluated {
  return {
    ...NOTHING_EVALUATED,
    names: isJsonObject(schema["properties"]) ? Object.keys(schema["properties"]) : [],
    patterns: isJsonObject(schema["patternProperties"]) ? Object.keys(schema["patternProperties"]) : [],
    all: "additionalProperties" in schema || (nested && "unevaluatedProperties" in schema),
  };
}

/** What a schema's own keywords evaluate of an array, as its dialect spells them; before 2020-12, contains evaluates nothing. */
function ownItems(schema: JsonObject, pointer: string, nested: boolean, context: Context): Evaluated {
  if (nested && "unevaluatedItems" in schema) return ALL_EVALUATED;
  const items = schema["items"];
  let prefix = 0;
  if (context.dialect === "draft2020-12") {
    if (items !== undefined) return ALL_EVALUATED;
    if (Array.isArray(schema["prefixItems"])) prefix = schema["prefixItems"].length;
  } else if (Array.isArray(items)) {
    if ("additionalItems" in schema) return ALL_EVALUATED;
    prefix = items.length;
  } else if (items !== undefined) return ALL_EVALUATED;
  const contains =
    context.dialect === "draft2020-12" && "contains" in schema
      ? [context.shape(schema["contains"]!, appendPointer(pointer, "contains"))]
      : [];
  return { ...NOTHING_EVALUATED, prefix, contains };
}

function listOf(value: JsonValue | undefined): readonly JsonValue[] {
  return Array.isArray(value) ? value : [];
}

function isNothing(evaluated: Evaluated): boolean {
  return (
    !evaluated.all &&
    evaluated.names.length === 0 &&
    evaluated.patterns.length === 0 &&
    evaluated.prefix === 0 &&
    evaluated.contains.length === 0 &&
    evaluated.when.length === 0
  );
}

/** What several schemas that all apply evaluate together. */
function merge(parts: readonly Evaluated[]): Evaluated {
  if (parts.some((part) => part.all)) return ALL_EVALUATED;
  return {
    all: false,
    names: [...new Set(parts.flatMap((part) => part.names))],
    patterns: [...new Set(parts.flatMap((part) => part.patterns))],
    prefix: Math.max(0, ...parts.map((part) => part.prefix)),
    contains: parts.flatMap((part) => part.contains),
    when: parts.flatMap((part) => part.when),
  };
}
