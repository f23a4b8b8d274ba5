import { DEPENDENT_KEYWORDS } from "../../schema/vocabulary.js";
import type { JsonObject, JsonValue } from "../../json.js";
import { isJsonObject, jsonEqual } from "../../json.js";
import type { Constraint, Field, Shape } from "../../ir/model.js";
import { appendPointer } from "../../pointer.js";
import { isAliasExclusion } from "../../schema/aliases.js";
import type { Context } from "../context.js";
import { constrain, intersect } from "../intersect.js";
import type { SchemaRule } from "./rule.js";
import { rule } from "./rule.js";

/**
 * What an object with a property must also be: `dependentRequired` (the other properties
 * it requires), `dependentSchemas` (a schema it is of) and draft 7's `dependencies`
 * (either, by the form of each entry). Each entry is an `if` constraint: an object that
 * has the property is of the dependent shape; anything else passes. An alias's dependent
 * schema that excludes its field (`schema/aliases.ts`) is no constraint but what the alias
 * is: the field's aliases in the IR are names it arrives under one at most.
 */

const UNKNOWN: Shape = { kind: "unknown" };
/** Any object: what a dependent shape need only tell apart, since only objects have properties. */
const ANY_OBJECT: Shape = { kind: "map", values: UNKNOWN };

export const DEPENDENCIES: SchemaRule = rule(
  "dependencies",
  "each entry of dependentRequired, dependentSchemas and dependencies is an if constraint: an object with the property must have the others, or be of the schema",
  (draft, context) => {
    const constraints = DEPENDENT_KEYWORDS.flatMap((keyword) =>
      keyword in draft.schema ? dependents(keyword, draft.schema, draft.pointer, context) : [],
    );
    return constraints.length === 0 ? draft : { ...draft, parts: [...draft.parts, constrain(UNKNOWN, constraints)] };
  },
);

function dependents(keyword: string, schema: JsonObject, pointer: string, context: Context): Constraint[] {
  const at = appendPointer(pointer, keyword);
  const value = schema[keyword];
  if (!isJsonObject(value)) return context.fail(at, `"${keyword}" must be an object`);
  return Object.entries(value).flatMap(([name, dependent]): Constraint[] => {
    if (keyword !== "dependentRequired" && isAliasExclusion(schema, name, dependent)) return [];
    const where = appendPointer(at, name);
    const dependentShape =
      keyword === "dependentRequired" || (keyword === "dependencies" && Array.isArray(dependent))
        ? requiring(names(dependent, where, context), where)
        : context.shape(dependent, where);
    // Named shapes stay names, whose checks are shared.
    const then = dependentShape.kind === "ref" ? dependentShape : intersect(dependentShape, ANY_OBJECT, context);
    if (then.kind === "unknown" || jsonEqual(then as never, ANY_OBJECT as never)) return [];
    return [{ kind: "if", if: requiring([name], where), then, else: UNKNOWN }];
  });
}

/** The property names an entry of dependentRequired lists. */
function names(value: JsonValue, pointer: string, context: Context): string[] {
  if (!Array.isArray(value) || value.some((name) => typeof name !== "string"))
    return context.fail(pointer, "a dependent property list must be an array of property names");
  return [...new Set(value as string[])];
}

/** An object that has these properties, of any value; any object when there are none. */
function requiring(required: readonly string[], pointer: string): Shape {
  if (required.length === 0) return UNKNOWN;
  const fields = required.map((name): Field => ({ name, shape: UNKNOWN, required: true, doc: {}, pointer }));
  return { kind: "object", fields, additional: UNKNOWN };
}
