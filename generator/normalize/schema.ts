import type { JsonValue } from "../json.js";
import { isJsonObject } from "../json.js";
import type { Context } from "./context.js";
import { ALL_OF, MEET, REF, UNIONS } from "./rules/composition.js";
import { CONST, ENUM, ENUM_ANNOTATIONS } from "./rules/constants.js";
import { OBJECT_OF_OTHER_PROPERTIES_IS_MAP } from "./rules/objects.js";
import { EXACTLY_ONE_IS_KEYED, PRESENT_UNDER_ANY_NAME } from "./rules/presence.js";
import type { Shape } from "../ir/model.js";
import type { Draft, SchemaRule } from "./rules/rule.js";
import { applyInOrder } from "./rules/rule.js";
import { KEYWORDS_OF_THE_DRAFT, REF_REPLACES_SIBLINGS, TRUE_AND_FALSE } from "./rules/schemas.js";
import { TYPE } from "./rules/types.js";
import { UNEVALUATED_CLOSES } from "./rules/unevaluated.js";
import { UNEVALUATED_ITEMS } from "./rules/unevaluated-items.js";
import { IF_THEN_ELSE, NOT } from "./rules/constraints.js";
import { DEPENDENCIES } from "./rules/dependencies.js";

/**
 * The rules for an object schema, in the order they apply: first the schema is prepared
 * and checked, then each keyword says what it requires, the parts meet, and what can only
 * be said of the met shape (which fields are present, which properties are evaluated,
 * what annotations add) refines it. A boolean schema is `TRUE_AND_FALSE`'s alone.
 */
export const SCHEMA_RULES: readonly SchemaRule[] = [
  KEYWORDS_OF_THE_DRAFT,
  REF_REPLACES_SIBLINGS,
  TYPE,
  CONST,
  ENUM,
  REF,
  ALL_OF,
  UNIONS,
  NOT,
  IF_THEN_ELSE,
  DEPENDENCIES,
  MEET,
  PRESENT_UNDER_ANY_NAME,
  EXACTLY_ONE_IS_KEYED,
  UNEVALUATED_CLOSES,
  UNEVALUATED_ITEMS,
  ENUM_ANNOTATIONS,
  OBJECT_OF_OTHER_PROPERTIES_IS_MAP,
];

const UNKNOWN: Shape = { kind: "unknown" };

/** The shape of one schema, by the schema rules. */
export function readSchema(schema: JsonValue, pointer: string, context: Context): Shape {
  if (typeof schema === "boolean") return TRUE_AND_FALSE.apply(schema, context);
  if (!isJsonObject(schema)) return context.fail(pointer, "a schema must be an object or a boolean");
  const draft: Draft = { schema, pointer, own: UNKNOWN, parts: [], shape: UNKNOWN };
  return applyInOrder(SCHEMA_RULES, draft, context.within(pointer)).shape;
}
