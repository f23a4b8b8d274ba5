import { SCHEMA_RULES } from "../schema.js";
import { FIELD_RULES, OBJECT_RULES } from "./objects.js";
import type { Rule } from "./rule.js";
import { TRUE_AND_FALSE } from "./schemas.js";
import { TYPE_RULES } from "./types.js";
import { UNION_RULES } from "./unions.js";

/**
 * Every rule of normalization, by what it reads: a boolean schema; an object schema (the
 * schema rules, in order, driven by `readSchema`); the keywords of one type (which `type`
 * applies); an object type and each of its fields; the alternatives of a union (the
 * first rule that decides wins). Each name is unique, and names its fixture.
 */
export const RULES: readonly Rule<never, unknown>[] = [
  TRUE_AND_FALSE,
  ...SCHEMA_RULES,
  ...Object.values(TYPE_RULES),
  ...OBJECT_RULES,
  ...FIELD_RULES,
  ...UNION_RULES,
] as readonly Rule<never, unknown>[];
