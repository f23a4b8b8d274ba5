import { readFileSync } from "node:fs";
import path from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { beforeAll, describe, expect, it } from "vitest";
import type { JsonObject } from "../../generator/json.js";
import type { TypeFunctions } from "../helpers/generated.js";
import { answersBeside, modulesOf } from "../helpers/generated.js";
import { generatedProject, strictTsc } from "../helpers/project.js";

/**
 * The object keywords beyond fields, generated as a package and run: pattern properties
 * (declared properties matched too, additionalProperties for the rest), property names,
 * the dependent keywords, and unevaluatedProperties beside patterns (what a pattern matches
 * is evaluated), each judged as ajv judges the effective schema.
 */
const SCHEMA = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  $defs: {
    Extensible: {
      type: "object",
      properties: { id: { type: "string" }, "x-id": { type: "string" } },
      required: ["id"],
      patternProperties: { "^x-": { type: "string", maxLength: 3 }, "[0-9]$": { type: "integer" } },
      additionalProperties: false,
    },
    Tagged: {
      type: "object",
      patternProperties: {
        "^x-": { type: "object", properties: { n: { type: "integer" } }, additionalProperties: false },
        "^[0-9]+$": { type: "string" },
      },
      additionalProperties: false,
    },
    Event: {
      type: "object",
      properties: { type: { const: "started" }, at: { type: "integer" } },
      required: ["type"],
      patternProperties: { "^x-": { type: "integer" } },
      additionalProperties: false,
    },
    Unevaluated: {
      type: "object",
      properties: { id: { type: "string" } },
      allOf: [{ patternProperties: { "^x-": { type: "integer" } } }],
      unevaluatedProperties: false,
    },
    Named: {
      type: "object",
      propertyNames: { pattern: "^[a-z]+$", maxLength: 4 },
      additionalProperties: { type: "number" },
    },
    Enumerated: { type: "object", propertyNames: { enum: ["a", "b"] } },
    Card: {
      type: "object",
      properties: { number: { type: "string" }, billing: { type: "string" }, kind: { type: "string" } },
      dependentRequired: { number: ["billing"] },
      dependentSchemas: { kind: { properties: { number: { minLength: 4 } }, required: ["number"] } },
    },
    AtLeastOne: {
      type: "object",
      properties: { a: { type: "string" }, b: { type: "number" } },
      anyOf: [{ required: ["a"] }, { required: ["b"] }],
    },
    OneRequired: { type: "object", properties: { a: {}, b: {} }, required: ["a"], oneOf: [{ required: ["a"] }, { required: ["b"] }] },
    AnyValue: { oneOf: [{ required: ["a"] }, { required: ["b"] }] },
    OpenAliased: {
      type: "object",
      properties: { orderId: { type: "string", maxLength: 3 }, note: {} },
      patternProperties: { "^(order_id)$": { type: "string", maxLength: 3 } },
    },
    // An allOf of anyOfs, each branch requiring a property of its own (as bench/unevaluated.js): one constraint.
    AllOfAnyOfs: {
      type: "object",
      allOf: [0, 1, 2].map((i) => ({
        anyOf: ["a", "b", "c"].map((name) => ({ properties: { [`${name}${i}`]: { type: "integer" } }, required: [`${name}${i}`] })),
      })),
      unevaluatedProperties: false,
    },
    UnevaluatedAliased: {
      type: "object",
      properties: { orderId: { type: "string" } },
      patternProperties: { "^(order_id)$": { type: "string" } },
      unevaluatedProperties: false,
    },
  },
};

const DOCUMENTS: Readonly<Record<string, readonly unknown[]>> = {
  Extensible: [
    { id: "a" },
    { id: "a", "x-a": "abc" },
    { id: "a", "x-a": "abcd" },
    { id: "a", "x-a": 1 },
    { id: "a", "x-id": "abc" },
    { id: "a", "x-id": "abcd" },
    { id: "a", b1: 2 },
    { id: "a", b1: 2.5 },
    { id: "a", "x-1": "1" },
    { id: "a", "x-1": 1 },
    { id: "a", other: true },
    { "x-a": "a" },
    { id: 1 },
  ],
  Tagged: [{}, { 0: "a" }, { a: true }, { "x-a": { n: 1 } }, { "x-a": { n: "1" } }, { "x-a": true }, { "x-a": { n: 1, m: 2 } }],
  Event: [{ type: "started" }, { type: "started", "x-n": 1 }, { type: "started", "x-n": "1" }, { type: "started", y: 1 }],
  Unevaluated: [{ id: "a" }, { id: "a", "x-n": 1 }, { id: "a", "x-n": "1" }, { id: "a", y: 1 }, { "x-": 2 }],
  Named: [{}, { abc: 1 }, { abcde: 1 }, { Abc: 1 }, { abc: "1" }, { "": 1 }],
  Enumerated: [{}, { a: 1, b: null }, { c: 1 }, "c", 1, null],
  AtLeastOne: [{}, { a: "x" }, { b: 1 }, { a: "x", b: 1 }, { a: 1 }, { c: 1 }, "a"],
  OneRequired: [{}, { a: 1 }, { b: 1 }, { a: 1, b: 1 }],
  AnyValue: [{}, { a: 1 }, { b: 1 }, { a: 1, b: 1 }, "a", 1, null, []],
  OpenAliased: [
    {},
    { orderId: "a" },
    { order_id: "ab" },
    { order_id: 1 },
    { order_id: "abcd" },
    { order_id: "a" },
    { orderId: "a", order_id: "a" },
    { orderId: "a", other: 1 },
  ],
  AllOfAnyOfs: [
    {},
    { a0: 1, a1: 1, a2: 1 },
    { a0: 1, b0: 1, c1: 1, b2: 1 },
    { a0: 1, a1: 1 },
    { a0: 1, a1: 1, a2: 1, d: 1 },
    { a0: "1", b0: 1, a1: 1, a2: 1 },
    { a0: 1, a1: 1, a2: 1, b2: "1" },
    [],
  ],
  UnevaluatedAliased: [{}, { orderId: "a" }, { order_id: "a" }, { order_id: 1 }, { orderId: "a", order_id: "a" }, { other: 1 }],
  Card: [
    {},
    { billing: "x" },
    { number: "1234" },
    { number: "1234", billing: "x" },
    { kind: "visa" },
    { kind: "visa", number: "123", billing: "x" },
    { kind: "visa", number: "1234", billing: "x" },
    [],
  ],
};

let root = "";
let functions: (type: string) => TypeFunctions;
let reference: (type: string) => (document: unknown) => boolean;
beforeAll(async () => {
  const generated = await generatedProject("objects", SCHEMA);
  root = generated.root;
  const index = generated.index;
  functions = modulesOf(index, "objects").functions;
  const effective = JSON.parse(readFileSync(path.join(root, "generated/src/objects/schema.json"), "utf8")) as JsonObject;
  const ajv = new Ajv2020({ strict: false, validateFormats: false });
  ajv.addSchema(effective, "effective");
  reference = (type) => ajv.compile({ $ref: `effective#/$defs/${type}` });
});

describe("emit: object keywords beyond fields", () => {
  it("generates a package that compiles under strict tsc", () => {
    expect(strictTsc(root)).toEqual({ output: "", status: 0 });
  });

  it.each(Object.keys(DOCUMENTS))("%s: is, validate and strict decode answer as the reference does", (type) => {
    const { ours, theirs } = answersBeside(functions(type), reference(type), DOCUMENTS[type]!);
    expect(ours).toEqual(theirs);
    // Each type's documents are not all valid, nor all invalid.
    expect(new Set(ours.map((answer) => answer[1])).size).toBe(2);
  });

  it("checks a wire alias of an open object as its field, and a field under one of its names at most", () => {
    const { is, validate } = functions("OpenAliased");
    expect(is({ order_id: 1 })).toBe(false);
    expect(validate({ orderId: "a", order_id: "a" })).toMatchObject({
      ok: false,
      errors: [{ path: "", keyword: "dependentSchemas", message: 'must have one of "orderId", "order_id" at most' }],
    });
    expect(validate({ order_id: "abcd" })).toMatchObject({ ok: false, errors: [{ path: "/order_id", keyword: "maxLength" }] });
  });

  it("reads a property a pattern matches as the pattern's shape, and keeps it where the object is closed", () => {
    const { decode } = functions("Extensible");
    expect(decode({ id: "a", "x-a": "abc", b1: 2, other: 1 }, { mode: "tolerant" })).toMatchObject({
      ok: true,
      value: { id: "a", "x-a": "abc", b1: 2 },
    });
    const tagged = functions("Tagged").decode({ "x-a": { n: 1, m: 2 }, b: true, 1: "c" }, { mode: "tolerant" });
    expect(tagged).toMatchObject({ ok: true, value: { "x-a": { n: 1 }, 1: "c" } });
  });

  it("takes no boxed string for an object whose patterns match its indices", () => {
    for (const type of ["Extensible", "Tagged", "Named", "Enumerated", "Card"])
      expect([type, functions(type).is(new String("1")), functions(type).validate(new String("1")).ok]).toEqual([type, false, false]);
  });

  it("builds an object with tags and pattern properties", async () => {
    const index = (await import(path.join(root, "generated/src/objects/index.ts"))) as Record<string, unknown>;
    const create = index["createEvent"] as (fields: object) => unknown;
    expect(create({ at: 1, "x-n": 2 })).toEqual({ type: "started", at: 1, "x-n": 2 });
  });

  it("reports a name that fails propertyNames at its property", () => {
    const result = functions("Named").validate({ abc: 1, Abcde: 2 });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.errors.map((error) => [error.path, error.keyword])).toEqual([
      ["/Abcde", "maxLength"],
      ["/Abcde", "pattern"],
    ]);
  });

  it("writes a property's name into a JSON Pointer escaped, where a map's key or a pattern's name holds / or ~", () => {
    const failures = (type: string, value: unknown) => {
      const result = functions(type).validate(value);
      return result.ok ? [] : result.errors.map((error) => `${error.path} ${error.keyword}`).sort();
    };
    expect(failures("Named", { "a/b": "x", "c~d": 1 })).toEqual(["/a~1b pattern", "/a~1b type", "/c~0d pattern"]);
    expect(failures("Extensible", { id: "i", "x-a/b": "long" })).toEqual(["/x-a~1b maxLength"]);
    expect(failures("Tagged", { "x-~/": { n: "1" } })).toEqual(["/x-~0~1/n type"]);
  });
});
