/**
 * Standard Schema (https://standardschema.dev) for the generated types: each protocol's
 * `standard.ts` declares, per type T, `TSchema`, whose `~standard.jsonSchema` gives T's
 * JSON Schema, bundled from the effective schema, and whose `~standard.validate` accepts
 * what that schema does: `validateT`, or `decodeT` where T's wire form is not its
 * canonical form. Nothing here runs unless a `TSchema` is used, and a bundle that does
 * not import one leaves this module out.
 *
 * The interfaces below are those of `@standard-schema/spec` 1.1.0 (src/index.ts), copied
 * as the spec asks implementers to ("copy/paste the code block below into their
 * codebase"), so that the bindings depend on no package. They are under the MIT License,
 * Copyright (c) 2024 Colin McDonnell.
 */
import type { ValidationResult } from "./runtime.js";
import { define } from "./runtime.js";

/** The Standard Typed interface. This is a base type extended by other specs. */
export interface StandardTypedV1<Input = unknown, Output = Input> {
  /** The Standard properties. */
  readonly "~standard": StandardTypedV1.Props<Input, Output>;
}

export declare namespace StandardTypedV1 {
  /** The Standard Typed properties interface. */
  interface Props<Input = unknown, Output = Input> {
    /** The version number of the standard. */
    readonly version: 1;
    /** The vendor name of the schema library. */
    readonly vendor: string;
    /** Inferred types associated with the schema. */
    readonly types?: Types<Input, Output> | undefined;
  }

  /** The Standard Typed types interface. */
  interface Types<Input = unknown, Output = Input> {
    /** The input type of the schema. */
    readonly input: Input;
    /** The output type of the schema. */
    readonly output: Output;
  }

  /** Infers the input type of a Standard Typed. */
  type InferInput<Schema extends StandardTypedV1> = NonNullable<
    Schema["~standard"]["types"]
  >["input"];

  /** Infers the output type of a Standard Typed. */
  type InferOutput<Schema extends StandardTypedV1> = NonNullable<
    Schema["~standard"]["types"]
  >["output"];
}

/** The Standard Schema interface. */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  /** The Standard Schema properties. */
  readonly "~standard": StandardSchemaV1.Props<Input, Output>;
}

export declare namespace StandardSchemaV1 {
  /** The Standard Schema properties interface. */
  interface Props<
    Input = unknown,
    Output = Input,
  > extends StandardTypedV1.Props<Input, Output> {
    /** Validates unknown input values. */
    readonly validate: (
      value: unknown,
      options?: StandardSchemaV1.Options | undefined,
    ) => Result<Output> | Promise<Result<Output>>;
  }

  /** The result interface of the validate function. */
  type Result<Output> = SuccessResult<Output> | FailureResult;

  /** The result interface if validation succeeds. */
  interface SuccessResult<Output> {
    /** The typed output value. */
    readonly value: Output;
    /** A falsy value for `issues` indicates success. */
    readonly issues?: undefined;
  }

  interface Options {
    /** Explicit support for additional vendor-specific parameters, if needed. */
    readonly libraryOptions?: Record<string, unknown> | undefined;
  }

  /** The result interface if validation fails. */
  interface FailureResult {
    /** The issues of failed validation. */
    readonly issues: ReadonlyArray<Issue>;
  }

  /** The issue interface of the failure output. */
  interface Issue {
    /** The error message of the issue. */
    readonly message: string;
    /** The path of the issue, if any. */
    readonly path?: ReadonlyArray<PropertyKey | PathSegment> | undefined;
  }

  /** The path segment interface of the issue. */
  interface PathSegment {
    /** The key representing a path segment. */
    readonly key: PropertyKey;
  }

  /** The Standard types interface. */
  interface Types<
    Input = unknown,
    Output = Input,
  > extends StandardTypedV1.Types<Input, Output> {}

  /** Infers the input type of a Standard. */
  type InferInput<Schema extends StandardTypedV1> =
    StandardTypedV1.InferInput<Schema>;

  /** Infers the output type of a Standard. */
  type InferOutput<Schema extends StandardTypedV1> =
    StandardTypedV1.InferOutput<Schema>;
}

/** The Standard JSON Schema interface. */
export interface StandardJSONSchemaV1<Input = unknown, Output = Input> {
  /** The Standard JSON Schema properties. */
  readonly "~standard": StandardJSONSchemaV1.Props<Input, Output>;
}

export declare namespace StandardJSONSchemaV1 {
  /** The Standard JSON Schema properties interface. */
  interface Props<
    Input = unknown,
    Output = Input,
  > extends StandardTypedV1.Props<Input, Output> {
    /** Methods for generating the input/output JSON Schema. */
    readonly jsonSchema: StandardJSONSchemaV1.Converter;
  }

  /** The Standard JSON Schema converter interface. */
  interface Converter {
    /** Converts the input type to JSON Schema. May throw if conversion is not supported. */
    readonly input: (
      options: StandardJSONSchemaV1.Options,
    ) => Record<string, unknown>;
    /** Converts the output type to JSON Schema. May throw if conversion is not supported. */
    readonly output: (
      options: StandardJSONSchemaV1.Options,
    ) => Record<string, unknown>;
  }

  /**
   * The target version of the generated JSON Schema.
   *
   * It is *strongly recommended* that implementers support `"draft-2020-12"` and `"draft-07"`, as they are both in wide use. All other targets can be implemented on a best-effort basis. Libraries should throw if they don't support a specified target.
   *
   * The `"openapi-3.0"` target is intended as a standardized specifier for OpenAPI 3.0 which is a superset of JSON Schema `"draft-04"`.
   */
  type Target = "draft-2020-12" | "draft-07" | "openapi-3.0" | ({} & string);

  /** The options for the input/output methods. */
  interface Options {
    /** Specifies the target version of the generated JSON Schema. Support for all versions is on a best-effort basis. If a given version is not supported, the library should throw. */
    readonly target: Target;
    /** Explicit support for additional vendor-specific parameters, if needed. */
    readonly libraryOptions?: Record<string, unknown> | undefined;
  }

  /** The Standard types interface. */
  interface Types<
    Input = unknown,
    Output = Input,
  > extends StandardTypedV1.Types<Input, Output> {}

  /** Infers the input type of a Standard. */
  type InferInput<Schema extends StandardTypedV1> =
    StandardTypedV1.InferInput<Schema>;

  /** Infers the output type of a Standard. */
  type InferOutput<Schema extends StandardTypedV1> =
    StandardTypedV1.InferOutput<Schema>;
}

// ---------------------------------------------------------------------------------------
// agentwire's side: what the generated `TSchema` objects are made of.

/**
 * A generated type T as Standard Schema and Standard JSON Schema at once: `TSchema`.
 * Input and output are both T. Where T's wire form is its canonical form, `validate`
 * returns the value it was given, as `validateT` does; else it returns `decodeT`'s
 * canonical copy, and types its input as T, the form every producer of T may send. It
 * returns at once, never a promise.
 */
export interface AgentwireSchema<T>
  extends StandardSchemaV1<T>, StandardJSONSchemaV1<T> {
  readonly "~standard": AgentwireSchema.Props<T>;
}

export declare namespace AgentwireSchema {
  /** The properties of both specs, `validate` synchronous. */
  interface Props<T>
    extends StandardSchemaV1.Props<T>, StandardJSONSchemaV1.Props<T> {
    readonly validate: (
      value: unknown,
      options?: StandardSchemaV1.Options | undefined,
    ) => StandardSchemaV1.Result<T>;
  }
}

/** What a `TSchema`'s `validate` returns. */
export type StandardResult<T> = StandardSchemaV1.Result<T>;

/** What a `TSchema`'s `jsonSchema.input` and `output` take. */
export type JsonSchemaOptions = StandardJSONSchemaV1.Options;

/**
 * A definition of a protocol's `$defs`, as its effective schema has it, with its key, its
 * place among the `$defs` (the order a JSON Schema lists them in) and the definitions its
 * schema refers to, itself and not through others. Each is a function that returns it, so
 * that definitions may refer to each other in cycles; each names its own, so that the
 * module grows as the schema does, and a bundle holds the definitions its `TSchema`s reach.
 */
export interface JsonSchemaDefinition {
  readonly key: string;
  readonly place: number;
  readonly schema: unknown;
  readonly refers?: readonly (() => JsonSchemaDefinition)[];
}

/** A JSON Schema, as `jsonSchema.input` and `output` return it. */
export type JsonSchemaDocument = Record<string, unknown>;

/** The vendor every `TSchema` names. */
export const VENDOR = "agentwire";

/**
 * A `validateT` or `decodeT` result as Standard Schema's: the value, or an issue per error, its path
 * the error's JSON Pointer as path segments (`~1` read as `/`, `~0` as `~`, an index into
 * an array as a number).
 */
export function standardResult<T>(
  result: ValidationResult<T>,
  value: unknown,
): StandardSchemaV1.Result<T> {
  if (result.ok) return { value: result.value };
  return {
    issues: result.errors.map((error) => ({
      message: error.message,
      path: pathSegments(error.path, value),
    })),
  };
}

/** A JSON Pointer into `value` as its keys: a number where the value there is an array. */
export function pathSegments(pointer: string, value: unknown): PropertyKey[] {
  if (pointer === "") return [];
  const segments: PropertyKey[] = [];
  let at: unknown = value;
  for (const token of pointer.slice(1).split("/")) {
    const key = unescapeToken(token);
    if (Array.isArray(at) && /^(0|[1-9][0-9]*)$/.test(key)) {
      segments.push(Number(key));
      at = at[Number(key)];
    } else {
      segments.push(key);
      at =
        typeof at === "object" && at !== null && Object.hasOwn(at, key)
          ? (at as Record<string, unknown>)[key]
          : undefined;
    }
  }
  return segments;
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

/**
 * The JSON Schema of a type of a protocol: its own schema (`root`, a definition of the
 * effective schema's `$defs`) at the root, and the definitions it refers to, however
 * indirectly (itself where a ref leads back to it), in the effective schema's order,
 * under `$defs` (draft 2020-12) or `definitions` (draft-07). A new object each time. Other
 * targets, and a schema that uses a keyword draft-07 has no form for, throw, as the spec
 * asks.
 */
export function jsonSchemaOf(
  definition: () => JsonSchemaDefinition,
  options: StandardJSONSchemaV1.Options,
): JsonSchemaDocument {
  const target = options?.target;
  if (target !== "draft-2020-12" && target !== "draft-07")
    throw new Error(
      `agentwire: no JSON Schema for the target ${JSON.stringify(target)} (draft-2020-12 and draft-07 are)`,
    );
  const root = definition();
  const bundled = reached(root);
  const defs: JsonObject = {};
  for (const { key, schema } of [root, ...bundled])
    define(defs, key, schema as Json);
  const draft07 = target === "draft-07";
  const convert = (schema: Json): Json =>
    draft07 ? toDraft07(schema, defs) : copy(schema);
  const document: Record<string, unknown> = {};
  define(
    document,
    "$schema",
    draft07
      ? "http://json-schema.org/draft-07/schema#"
      : "https://json-schema.org/draft/2020-12/schema",
  );
  const own = convert(root.schema as Json);
  if (typeof own === "boolean") {
    // A boolean schema at the root: true accepts everything, false nothing.
    if (!own) define(document, "not", {});
  } else
    for (const key of Object.keys(own as JsonObject))
      define(document, key, (own as JsonObject)[key]);
  if (bundled.length > 0) {
    const definitions: Record<string, unknown> = {};
    for (const { key, schema } of bundled)
      define(definitions, key, convert(schema as Json));
    define(document, draft07 ? "definitions" : "$defs", definitions);
  }
  return document;
}

/** The definitions `root` refers to, however indirectly, in their places' order. */
function reached(root: JsonSchemaDefinition): JsonSchemaDefinition[] {
  const found = new Map<() => JsonSchemaDefinition, JsonSchemaDefinition>();
  const pending = [...(root.refers ?? [])];
  for (let next = pending.pop(); next !== undefined; next = pending.pop())
    if (!found.has(next)) {
      const definition = next();
      found.set(next, definition);
      pending.push(...(definition.refers ?? []));
    }
  return [...found.values()].sort((a, b) => a.place - b.place);
}

/** The keywords whose value is a schema, an array of schemas, or an object of schemas. */
const ONE = new Set([
  "additionalProperties",
  "items",
  "additionalItems",
  "contains",
  "propertyNames",
  "not",
  "if",
  "then",
  "else",
  "unevaluatedItems",
  "unevaluatedProperties",
]);
const MANY = new Set(["allOf", "anyOf", "oneOf", "prefixItems"]);
const NAMED = new Set([
  "properties",
  "patternProperties",
  "$defs",
  "definitions",
  "dependentSchemas",
]);

/** 2020-12 keywords draft-07 has no form for (`unevaluatedProperties` has one where the properties it sees are known). */
const NOT_IN_DRAFT_07 = new Set([
  "unevaluatedItems",
  "minContains",
  "maxContains",
  "$dynamicRef",
  "$dynamicAnchor",
  "$recursiveRef",
  "$anchor",
]);

/**
 * A draft 2020-12 schema as draft-07 says it: `$defs` as `definitions` (and their refs),
 * `prefixItems` and `items` as `items` and `additionalItems`, `dependentRequired` and
 * `dependentSchemas` as `dependencies`, a `$ref` beside other keywords inside `allOf`
 * (draft-07 ignores a `$ref`'s siblings), and `unevaluatedProperties` as
 * `additionalProperties` beside every property the schema's `allOf` and `$ref` evaluate
 * (as `true`), which is what it means where those are all the applicators.
 */
function toDraft07(schema: Json, defs: JsonObject): Json {
  if (typeof schema !== "object" || schema === null || Array.isArray(schema))
    return copy(schema);
  const convert = (value: Json) => toDraft07(value, defs);
  const out: JsonObject = {};
  let ref: string | undefined;
  const dependencies: JsonObject = {};
  for (const key of Object.keys(schema)) {
    const value = schema[key]!;
    if (NOT_IN_DRAFT_07.has(key))
      throw new Error(`agentwire: ${key} has no draft-07 form`);
    if (key === "$ref" && typeof value === "string")
      ref = value.startsWith("#/$defs/")
        ? `#/definitions/${value.slice("#/$defs/".length)}`
        : value;
    else if (key === "prefixItems" && Array.isArray(value)) {
      define(out, "items", value.map(convert));
      if (Object.hasOwn(schema, "items"))
        define(out, "additionalItems", convert(schema["items"]!));
    } else if (key === "items" && Object.hasOwn(schema, "prefixItems"))
      continue;
    else if (key === "unevaluatedProperties") continue;
    else if (
      isObject(value) &&
      (key === "dependentRequired" || key === "dependentSchemas")
    )
      for (const property of Object.keys(value))
        define(
          dependencies,
          property,
          key === "dependentRequired"
            ? copy(value[property]!)
            : convert(value[property]!),
        );
    else if (ONE.has(key)) define(out, key, convert(value));
    else if (MANY.has(key) && Array.isArray(value))
      define(out, key, value.map(convert));
    else if (NAMED.has(key) && isObject(value)) {
      const named: JsonObject = {};
      for (const name of Object.keys(value))
        define(named, name, convert(value[name]!));
      define(out, key === "$defs" ? "definitions" : key, named);
    } else define(out, key, copy(value));
  }
  if (Object.keys(dependencies).length > 0)
    define(out, "dependencies", dependencies);
  if (
    Object.hasOwn(schema, "unevaluatedProperties") &&
    !Object.hasOwn(schema, "additionalProperties")
  ) {
    const properties: JsonObject = isObject(out["properties"])
      ? out["properties"]
      : {};
    for (const name of evaluatedProperties(schema, defs, new Set()))
      if (!Object.hasOwn(properties, name)) define(properties, name, true);
    define(out, "properties", properties);
    define(
      out,
      "additionalProperties",
      convert(schema["unevaluatedProperties"]!),
    );
  }
  if (ref === undefined) return out;
  if (Object.keys(out).length === 0) return { $ref: ref };
  const allOf = Array.isArray(out["allOf"]) ? out["allOf"] : [];
  define(out, "allOf", [{ $ref: ref }, ...allOf]);
  return out;
}

/**
 * The names of the properties a schema evaluates, through `properties`, `allOf` and
 * `$ref` (into `defs`); where another applicator could evaluate more, or fewer, the set
 * is not known, and `unevaluatedProperties` has no draft-07 form.
 */
function evaluatedProperties(
  schema: Json,
  defs: JsonObject,
  seen: Set<JsonObject>,
): string[] {
  if (!isObject(schema) || seen.has(schema)) return [];
  seen.add(schema);
  const names: string[] = [];
  for (const key of [
    "patternProperties",
    "anyOf",
    "oneOf",
    "if",
    "dependentSchemas",
  ])
    if (Object.hasOwn(schema, key))
      throw new Error(
        `agentwire: unevaluatedProperties beside ${key} has no draft-07 form`,
      );
  if (isObject(schema["properties"]))
    names.push(...Object.keys(schema["properties"]));
  const ref = schema["$ref"];
  if (typeof ref === "string") {
    if (
      !ref.startsWith("#/$defs/") ||
      ref.slice("#/$defs/".length).includes("/")
    )
      throw new Error(
        `agentwire: unevaluatedProperties beside the $ref ${ref} has no draft-07 form`,
      );
    const key = unescapeToken(decodeURIComponent(ref.slice("#/$defs/".length)));
    names.push(
      ...evaluatedProperties(
        Object.hasOwn(defs, key) ? defs[key]! : {},
        defs,
        seen,
      ),
    );
  }
  if (Array.isArray(schema["allOf"]))
    for (const member of schema["allOf"])
      names.push(...evaluatedProperties(member, defs, seen));
  return names;
}

function isObject(value: Json | undefined): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A deep copy of JSON, each key an own property (`__proto__` too). */
function copy(value: Json): Json {
  if (typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) return value.map(copy);
  const out: JsonObject = {};
  for (const key of Object.keys(value)) define(out, key, copy(value[key]!));
  return out;
}

/** A JSON Pointer's token as the key it names (RFC 6901: `~1` is `/`, `~0` is `~`). */
function unescapeToken(token: string): string {
  return token.replaceAll("~1", "/").replaceAll("~0", "~");
}
