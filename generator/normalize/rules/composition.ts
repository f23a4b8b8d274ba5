import type { JsonValue } from "../../json.js";
import type { Shape } from "../../ir/model.js";
import { appendPointer, getAtPointer, localRefPointer, unescapeToken } from "../../pointer.js";
import type { Context } from "../context.js";
import { intersect } from "../intersect.js";
import type { SchemaRule } from "./rule.js";
import { fieldPresence, presenceBranches } from "./presence.js";
import { schemasOf } from "./read.js";
import { classifyUnion } from "./unions.js";
import { rule } from "./rule.js";

/** What `$ref`, `allOf`, `anyOf` and `oneOf` each say, and how the parts of a schema meet. */

export const REF: SchemaRule = rule(
  "ref",
  "a $ref to a $defs entry is that named type; to any other schema in the document, that schema's shape",
  (draft, context) =>
    "$ref" in draft.schema
      ? { ...draft, parts: [...draft.parts, refShape(draft.schema["$ref"]!, appendPointer(draft.pointer, "$ref"), context)] }
      : draft,
);

/** A member that only requires a field under its names is left to `PRESENT_UNDER_ANY_NAME`. */
export const ALL_OF: SchemaRule = rule(
  "all-of",
  "each allOf member's shape is a part to meet (members that only require a field are left to present-under-any-name)",
  (draft, context) => {
    const members = schemasOf(draft.schema, "allOf", draft.pointer, context);
    const parts = members.flatMap((member, i) =>
      fieldPresence(member) !== undefined ? [] : [context.shape(member, appendPointer(draft.pointer, "allOf", i))],
    );
    return parts.length === 0 ? draft : { ...draft, parts: [...draft.parts, ...parts] };
  },
);

/**
 * The alternatives are classified by the union rules (`UNION_RULES`); alternatives that
 * only require properties are left to `PRESENT_UNDER_ANY_NAME` and `EXACTLY_ONE_IS_KEYED`.
 */
export const UNIONS: SchemaRule = rule(
  "unions",
  "anyOf and oneOf alternatives are each a part, classified by the union rules (alternatives that only require properties are left to the presence rules)",
  (draft, context) => {
    const parts: Shape[] = [];
    for (const keyword of ["anyOf", "oneOf"] as const) {
      const branches = schemasOf(draft.schema, keyword, draft.pointer, context);
      if (branches.length === 0 || presenceBranches(branches) !== undefined) continue;
      const members = branches.map((branch, i) => context.shape(branch, appendPointer(draft.pointer, keyword, i)));
      parts.push(classifyUnion(members, branches, keyword === "oneOf", context));
    }
    return parts.length === 0 ? draft : { ...draft, parts: [...draft.parts, ...parts] };
  },
);

/**
 * Own keywords, `$ref` and `allOf` members meet as `intersect` says. Parts that exclude
 * each other meet in `never`, as JSON Schema reads them: no value is valid, the type is
 * `never`, and a diff says so where a spec's next version does it.
 */
export const MEET: SchemaRule = rule(
  "meet",
  "the own shape and the parts meet (intersect.ts); parts that exclude each other meet in never",
  (draft, context) => {
    const parts = [draft.own, ...draft.parts];
    return { ...draft, shape: parts.reduce((met, part) => intersect(met, part, context), { kind: "unknown" }) };
  },
);

function refShape(ref: JsonValue, pointer: string, context: Context): Shape {
  const target = localRefPointer(ref);
  if (target === undefined) return context.fail(pointer, "$ref must be a string pointing into this document");
  const name = /^\/\$defs\/([^/]+)$/.exec(target)?.[1];
  if (name !== undefined && Object.hasOwn(context.definitions, unescapeToken(name))) return { kind: "ref", name: unescapeToken(name) };
  const schema = getAtPointer(context.document, target);
  if (schema === undefined) return context.fail(pointer, `$ref "${ref}" points to nothing`);
  if (context.following.includes(target))
    return context.fail(
      pointer,
      `$ref "${ref}" leads back to itself through schemas without a name`,
      "move the recursive schema into $defs",
    );
  return context.follow(target).shape(schema as JsonValue, target);
}
