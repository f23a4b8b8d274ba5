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

/**
 * The malformed keyword values of one schema object, each keyword's in the order of its
 * value (its subschemas are checked as schemas of their own).
 */
export function malformedKeywords(schema: Readonly<Record<string, JsonValue>>, pointer: string, dialect: Dialect): readonly Malformed[] {
  const checked = Object.keys(schema).filter(
    (keyword) => isKeywordOf(keyword, dialect) && hasAnnotation(keyword, dialect) && Object.hasOwn(CHECKS, keyword),
  );
  return all(checked, (keyword) => CHECKS[keyword]!(schema[keyword]!, appendPointer(pointer, keyword), { keyword, dialect }));
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

/** What is malformed in a keyword's value: as a rule nothing, and so one shared empty list rather than a new one per keyword. */
type Check = (value: JsonValue, pointer: string, keyword: { readonly keyword: string; readonly dialect: Dialect }) => readonly Malformed[];

const NONE: readonly Malformed[] = [];

const listed = (malformed: Malformed | undefined): readonly Malformed[] => (malformed === undefined ? NONE : [malformed]);

/** The problems of each of some values, in their order. */
function all<T>(values: Iterable<T>, check: (value: T) => readonly Malformed[]): readonly Malformed[] {
  let found: Malformed[] | undefined;
  for (const value of values) for (const malformed of check(value)) (found ??= []).push(malformed);
  return found ?? NONE;
}

const TYPE_NAMES = ["string", "number", "integer", "boolean", "null", "array", "object"];

function describe(value: JsonValue): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  return `${typeof value === "string" ? "a string" : typeof value === "number" ? "a number" : "a boolean"} (${JSON.stringify(value)})`;
}

const schema: Check = (value, pointer) => listed(notASchema(value, pointer));

/** Each item of an array, a schema. */
const schemas = (values: readonly JsonValue[], pointer: string): readonly Malformed[] =>
  all(values.keys(), (i) => listed(notASchema(values[i]!, appendPointer(pointer, i))));

/** A schema, or in drafts before 2020-12 (`items`) an array of schemas. 2020-12's array `items` is normalization's to refuse, with its hint. */
const schemaOrTuple: Check = (value, pointer) => (Array.isArray(value) ? schemas(value, pointer) : listed(notASchema(value, pointer)));

const schemaList: Check = (value, pointer, { keyword }) => {
  const notList = notSchemaList(keyword, value, pointer);
  return notList === undefined ? schemas(value as JsonValue[], pointer) : [notList];
};

const schemaMap: Check = (value, pointer, { keyword }) => {
  if (!isJsonObject(value)) return [{ pointer, problem: `"${keyword}" must be an object of schemas` }];
  return all(Object.keys(value), (name) => listed(notASchema(value[name]!, appendPointer(pointer, name))));
};

/** Each a schema under a pattern that compiles: a property whose pattern does not, and whose value is no schema, has both problems. */
const patternMap: Check = (value, pointer, context) => {
  if (!isJsonObject(value)) return schemaMap(value, pointer, context);
  return all(Object.keys(value), (pattern) => {
    const at = appendPointer(pointer, pattern);
    const notSchema = notASchema(value[pattern]!, at);
    const malformed = malformedPattern(pattern, at);
    return notSchema === undefined ? listed(malformed) : malformed === undefined ? [notSchema] : [malformed, notSchema];
  });
};

const names = (value: JsonValue): boolean => Array.isArray(value) && value.every((name) => typeof name === "string");

const dependentNames: Check = (value, pointer, { keyword }) => {
  if (!isJsonObject(value)) return [{ pointer, problem: `"${keyword}" must be an object` }];
  return all(Object.keys(value), (name) => {
    const dependent = value[name]!;
    const at = appendPointer(pointer, name);
    // `dependencies` (up to draft 7, read in every draft) takes a schema or a list of names.
    if (keyword === "dependencies" && !Array.isArray(dependent)) return listed(notASchema(dependent, at));
    return names(dependent) ? NONE : [{ pointer: at, problem: "a dependent property list must be an array of property names" }];
  });
};

const count: Check = (value, pointer, { keyword }) =>
  typeof value === "number" && Number.isInteger(value) && value >= 0
    ? NONE
    : [{ pointer, problem: `"${keyword}" must be a non-negative integer, not ${describe(value)}` }];

const number: Check = (value, pointer, { keyword }) =>
  typeof value === "number" ? NONE : [{ pointer, problem: `"${keyword}" must be a number` }];

/** `exclusiveMinimum` and `exclusiveMaximum`: booleans beside `minimum` in draft 4, numbers since. */
const exclusiveBound: Check = (value, pointer, context) =>
  context.dialect === "draft4"
    ? typeof value === "boolean"
      ? NONE
      : [{ pointer, problem: `"${context.keyword}" must be a boolean in draft 4` }]
    : number(value, pointer, context);

const multipleOf: Check = (value, pointer) =>
  typeof value === "number" && value > 0
    ? NONE
    : [{ pointer, problem: `"multipleOf" must be a number greater than 0, not ${describe(value)}` }];

const type: Check = (value, pointer) => {
  if (!Array.isArray(value)) return typeName(value, 0, [value], pointer);
  if (value.length === 0) return [{ pointer, problem: '"type" must be a type name or a non-empty array of them' }];
  return all(value.keys(), (i) => typeName(value[i]!, i, value, appendPointer(pointer, i)));
};

/** What is wrong with the i-th of the types a `type` lists: a name that is none, or that an earlier one repeats. */
function typeName(name: JsonValue, i: number, types: readonly JsonValue[], at: string): readonly Malformed[] {
  if (typeof name !== "string" || !TYPE_NAMES.includes(name)) return [{ pointer: at, problem: `unknown type ${JSON.stringify(name)}` }];
  if (types.indexOf(name) !== i) return [{ pointer: at, problem: `"type" lists ${JSON.stringify(name)} twice` }];
  return NONE;
}

const array: Check = (value, pointer, { keyword }) =>
  Array.isArray(value) ? NONE : [{ pointer, problem: `"${keyword}" must be an array` }];

const required: Check = (value, pointer) => (names(value) ? NONE : [{ pointer, problem: '"required" must be an array of property names' }]);

const string: Check = (value, pointer, { keyword }) =>
  typeof value === "string" ? NONE : [{ pointer, problem: `"${keyword}" must be a string, not ${describe(value)}` }];

const boolean: Check = (value, pointer, { keyword }) =>
  typeof value === "boolean" ? NONE : [{ pointer, problem: `"${keyword}" must be a boolean, not ${describe(value)}` }];

const anchor: Check = (value, pointer, context) => {
  if (typeof value !== "string") return string(value, pointer, context);
  if (/^[A-Za-z_][-A-Za-z0-9._]*$/.test(value)) return NONE;
  const problem = `"${context.keyword}" ${JSON.stringify(value)} is not a name: a letter or "_", then letters, digits, "-", "_" and "."`;
  return [{ pointer, problem }];
};

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
      ? schemas(value, pointer)
      : [{ pointer, problem: '"prefixItems" must be a non-empty array of schemas' }],
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
  pattern: (value, pointer) => listed(malformedPattern(value, pointer)),
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
