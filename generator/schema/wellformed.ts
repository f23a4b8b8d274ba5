import type { JsonValue } from "../json.js";
import { isJsonObject } from "../json.js";
import type { Dialect } from "./dialect.js";
import { isKeywordOf } from "./dialect.js";
import { appendPointer } from "../pointer.js";
import { SUBSCHEMA_KEYWORDS } from "./walk.js";

/**
 * What the metaschema of a schema's draft says the values of its keywords are, checked
 * where that is cheap: a schema where a schema goes, arrays and objects of them, counts
 * that are non-negative integers, numbers, patterns that compile, type names, strings.
 * JSON Schema leaves what a malformed schema means undefined; a validator such as ajv
 * refuses it (it validates every schema against its metaschema), and so does agentwire,
 * rather than generating from what it would have to guess. A keyword the draft does not
 * have is unknown, which JSON Schema ignores, and is not checked.
 */

/** A keyword's malformed value: where (a pointer below the schema's), what is wrong, and what to do. */
export interface Malformed {
  readonly pointer: string;
  readonly problem: string;
  readonly hint?: string;
}

/** The first malformed keyword value of one schema object (its subschemas are checked as schemas of their own). */
export function malformedKeyword(schema: Readonly<Record<string, JsonValue>>, pointer: string, dialect: Dialect): Malformed | undefined {
  for (const keyword of Object.keys(schema)) {
    if (!isKeywordOf(keyword, dialect) || !hasAnnotation(keyword, dialect) || !Object.hasOwn(CHECKS, keyword)) continue;
    const found = CHECKS[keyword]!(schema[keyword]!, appendPointer(pointer, keyword), { keyword, dialect });
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The message for a value that is not a schema, at the place of a subschema or a document's root. */
export function notASchema(value: JsonValue, pointer: string): Malformed | undefined {
  if (typeof value === "boolean" || isJsonObject(value)) return undefined;
  return { pointer, problem: `a schema must be an object or a boolean, not ${describe(value)}` };
}

/** What is wrong with a pattern: not a string, or not a RegExp with the u flag, as 2020-12 reads them. */
export function malformedPattern(pattern: JsonValue, pointer: string): Malformed | undefined {
  if (typeof pattern !== "string") return { pointer, problem: '"pattern" must be a string' };
  try {
    new RegExp(pattern, "u");
    return undefined;
  } catch (error) {
    return {
      pointer,
      problem: `invalid pattern ${JSON.stringify(pattern)}: ${(error as Error).message}`,
      hint: "patterns are ECMAScript regular expressions with the u flag (draft 2020-12)",
    };
  }
}

/** The refusal of `allOf`, `anyOf`, `oneOf` that is not a list of schemas, or is empty. */
export function notSchemaList(keyword: string, value: JsonValue, pointer: string): Malformed | undefined {
  if (Array.isArray(value) && value.length > 0) return undefined;
  return {
    pointer,
    problem: `"${keyword}" must be a non-empty array of schemas`,
    ...(!Array.isArray(value)
      ? {}
      : {
          hint:
            keyword === "allOf"
              ? "with no schemas it says nothing: remove it"
              : "with no schemas it would accept no value: list the alternatives, or remove it",
        }),
  };
}

/** Identifiers and annotations that not every draft has (`isKeywordOf` knows the assertions'): the drafts that do. */
const ANNOTATION_DRAFTS: Readonly<Record<string, readonly Dialect[]>> = {
  id: ["draft4"],
  $id: ["draft6", "draft7", "draft2019-09", "draft2020-12"],
  examples: ["draft6", "draft7", "draft2019-09", "draft2020-12"],
  $comment: ["draft7", "draft2019-09", "draft2020-12"],
  readOnly: ["draft7", "draft2019-09", "draft2020-12"],
  writeOnly: ["draft7", "draft2019-09", "draft2020-12"],
  contentEncoding: ["draft7", "draft2019-09", "draft2020-12"],
  contentMediaType: ["draft7", "draft2019-09", "draft2020-12"],
  $defs: ["draft2019-09", "draft2020-12"],
  $anchor: ["draft2019-09", "draft2020-12"],
  deprecated: ["draft2019-09", "draft2020-12"],
  contentSchema: ["draft2019-09", "draft2020-12"],
  $recursiveAnchor: ["draft2019-09"],
  $dynamicAnchor: ["draft2020-12"],
};

function hasAnnotation(keyword: string, dialect: Dialect): boolean {
  return !Object.hasOwn(ANNOTATION_DRAFTS, keyword) || ANNOTATION_DRAFTS[keyword]!.includes(dialect);
}

type Check = (value: JsonValue, pointer: string, keyword: { readonly keyword: string; readonly dialect: Dialect }) => Malformed | undefined;

const TYPE_NAMES = ["string", "number", "integer", "boolean", "null", "array", "object"];

function describe(value: JsonValue): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  return `${typeof value === "string" ? "a string" : typeof value === "number" ? "a number" : "a boolean"} (${JSON.stringify(value)})`;
}

const schema: Check = (value, pointer) => notASchema(value, pointer);

/** A schema, or in drafts before 2020-12 (`items`) an array of schemas. 2020-12's array `items` is normalization's to refuse, with its hint. */
const schemaOrTuple: Check = (value, pointer) => (Array.isArray(value) ? each(value, pointer, schema) : notASchema(value, pointer));

const schemaList: Check = (value, pointer, { keyword }) =>
  notSchemaList(keyword, value, pointer) ?? each(value as JsonValue[], pointer, schema);

const schemaMap: Check = (value, pointer, { keyword }) => {
  if (!isJsonObject(value)) return { pointer, problem: `"${keyword}" must be an object of schemas` };
  for (const name of Object.keys(value)) {
    const found = notASchema(value[name]!, appendPointer(pointer, name));
    if (found !== undefined) return found;
  }
  return undefined;
};

const patternMap: Check = (value, pointer, context) => {
  const found = schemaMap(value, pointer, context);
  if (found !== undefined) return found;
  for (const pattern of Object.keys(value as object)) {
    const malformed = malformedPattern(pattern, appendPointer(pointer, pattern));
    if (malformed !== undefined) return malformed;
  }
  return undefined;
};

function each(values: readonly JsonValue[], pointer: string, check: Check): Malformed | undefined {
  for (const [i, value] of values.entries()) {
    const found = check(value, appendPointer(pointer, i), { keyword: "", dialect: "draft2020-12" });
    if (found !== undefined) return found;
  }
  return undefined;
}

const names = (value: JsonValue): boolean => Array.isArray(value) && value.every((name) => typeof name === "string");

const dependentNames: Check = (value, pointer, { keyword }) => {
  if (!isJsonObject(value)) return { pointer, problem: `"${keyword}" must be an object` };
  for (const name of Object.keys(value)) {
    const dependent = value[name]!;
    const at = appendPointer(pointer, name);
    // `dependencies` (up to draft 7, read in every draft) takes a schema or a list of names.
    if (keyword === "dependencies" && !Array.isArray(dependent)) {
      const found = notASchema(dependent, at);
      if (found !== undefined) return found;
    } else if (!names(dependent)) return { pointer: at, problem: "a dependent property list must be an array of property names" };
  }
  return undefined;
};

const count: Check = (value, pointer, { keyword }) =>
  typeof value === "number" && Number.isInteger(value) && value >= 0
    ? undefined
    : { pointer, problem: `"${keyword}" must be a non-negative integer, not ${describe(value)}` };

const number: Check = (value, pointer, { keyword }) =>
  typeof value === "number" ? undefined : { pointer, problem: `"${keyword}" must be a number` };

/** `exclusiveMinimum` and `exclusiveMaximum`: booleans beside `minimum` in draft 4, numbers since. */
const exclusiveBound: Check = (value, pointer, context) =>
  context.dialect === "draft4"
    ? typeof value === "boolean"
      ? undefined
      : { pointer, problem: `"${context.keyword}" must be a boolean in draft 4` }
    : number(value, pointer, context);

const multipleOf: Check = (value, pointer) =>
  typeof value === "number" && value > 0
    ? undefined
    : { pointer, problem: `"multipleOf" must be a number greater than 0, not ${describe(value)}` };

const type: Check = (value, pointer) => {
  const types = Array.isArray(value) ? value : [value];
  if (Array.isArray(value) && value.length === 0) return { pointer, problem: '"type" must be a type name or a non-empty array of them' };
  for (const [i, name] of types.entries()) {
    const at = Array.isArray(value) ? appendPointer(pointer, i) : pointer;
    if (typeof name !== "string" || !TYPE_NAMES.includes(name)) return { pointer: at, problem: `unknown type ${JSON.stringify(name)}` };
    if (types.indexOf(name) !== i) return { pointer: at, problem: `"type" lists ${JSON.stringify(name)} twice` };
  }
  return undefined;
};

const array: Check = (value, pointer, { keyword }) =>
  Array.isArray(value) ? undefined : { pointer, problem: `"${keyword}" must be an array` };

const required: Check = (value, pointer) =>
  names(value) ? undefined : { pointer, problem: '"required" must be an array of property names' };

const string: Check = (value, pointer, { keyword }) =>
  typeof value === "string" ? undefined : { pointer, problem: `"${keyword}" must be a string, not ${describe(value)}` };

const boolean: Check = (value, pointer, { keyword }) =>
  typeof value === "boolean" ? undefined : { pointer, problem: `"${keyword}" must be a boolean, not ${describe(value)}` };

const anchor: Check = (value, pointer, context) =>
  string(value, pointer, context) ??
  (/^[A-Za-z_][-A-Za-z0-9._]*$/.test(value as string)
    ? undefined
    : {
        pointer,
        problem: `"${context.keyword}" ${JSON.stringify(value)} is not a name: a letter or "_", then letters, digits, "-", "_" and "."`,
      });

/** The same check for each of some keywords. */
const allChecked = (keywords: readonly string[], check: Check) => Object.fromEntries(keywords.map((keyword) => [keyword, check]));

/** By keyword, the check of its value; the keywords of subschemas are those the walks know (`walk.ts`). */
const CHECKS: Readonly<Record<string, Check>> = {
  ...allChecked(SUBSCHEMA_KEYWORDS.single, schema),
  ...allChecked(SUBSCHEMA_KEYWORDS.list, schemaList),
  ...allChecked(SUBSCHEMA_KEYWORDS.map, schemaMap),
  // Where a subschema keyword says more than its form.
  items: schemaOrTuple,
  prefixItems: (value, pointer) =>
    Array.isArray(value) && value.length > 0
      ? each(value, pointer, schema)
      : { pointer, problem: '"prefixItems" must be a non-empty array of schemas' },
  patternProperties: patternMap,
  dependentRequired: dependentNames,
  dependencies: dependentNames,
  maxLength: count,
  minLength: count,
  maxItems: count,
  minItems: count,
  maxProperties: count,
  minProperties: count,
  maxContains: count,
  minContains: count,
  minimum: number,
  maximum: number,
  exclusiveMinimum: exclusiveBound,
  exclusiveMaximum: exclusiveBound,
  multipleOf,
  pattern: (value, pointer) => malformedPattern(value, pointer),
  type,
  enum: array,
  required,
  uniqueItems: boolean,
  $ref: string,
  id: string,
  $id: string,
  $dynamicRef: string,
  $recursiveRef: string,
  $schema: string,
  $comment: string,
  $anchor: anchor,
  $dynamicAnchor: anchor,
  $recursiveAnchor: boolean,
  title: string,
  description: string,
  format: string,
  contentEncoding: string,
  contentMediaType: string,
  deprecated: boolean,
  readOnly: boolean,
  writeOnly: boolean,
  examples: array,
};
