import { registerSchema, validate } from "@hyperjump/json-schema/draft-2020-12";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import type { JsonValue } from "../../generator/json.js";
import type { TypeFunctions } from "../helpers/generated.js";
import { modulesOf } from "../helpers/generated.js";
import { generatedProject } from "../helpers/project.js";

/**
 * Both unevaluated keywords on one schema of any type, where what is evaluated depends on
 * the branches a value passes: anyOf within anyOf, oneOf beside if/then/else, a nested
 * unevaluatedProperties, dependentSchemas, branches that are named types, an allOf of
 * anyOfs (bench/unevaluated.js). The guards, validators and decoders agree with
 * @hyperjump/json-schema, which reads 2020-12 as the suite does, on objects and arrays
 * drawn from the names and items the schemas tell apart.
 */
const SCHEMA = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  $defs: {
    Named: { type: "object", properties: { n: { type: "integer" } }, required: ["n"] },
    NamedItems: { type: "array", prefixItems: [{ const: 1 }] },
    NestedAny: {
      anyOf: [
        {
          properties: { a: { type: "integer" } },
          required: ["a"],
          anyOf: [{ properties: { b: {} }, required: ["b"] }, { prefixItems: [true, true] }],
        },
        { $ref: "#/$defs/Named" },
        { $ref: "#/$defs/NamedItems" },
        { contains: { const: "b" } },
      ],
      unevaluatedProperties: false,
      unevaluatedItems: false,
    },
    OneOfIf: {
      allOf: [
        {
          oneOf: [
            { properties: { a: { type: "integer" } }, required: ["a"] },
            { properties: { b: { type: "integer" } }, required: ["b"] },
            { prefixItems: [{ const: 1 }] },
          ],
        },
        {
          if: { properties: { a: { const: 1 } }, required: ["a"], prefixItems: [{ const: 1 }] },
          then: { properties: { c: {} }, prefixItems: [true, true] },
          else: { patternProperties: { "^x": {} }, contains: { const: "a" } },
        },
      ],
      unevaluatedProperties: { type: "string" },
      unevaluatedItems: { type: "boolean" },
    },
    Deep: {
      allOf: [
        {
          anyOf: [
            { properties: { a: {} }, required: ["a"] },
            { anyOf: [{ properties: { b: {} }, required: ["b"] }, { prefixItems: [{ const: "a" }] }] },
          ],
        },
        {
          anyOf: [
            { properties: { c: {} }, unevaluatedProperties: false },
            { dependentSchemas: { a: { properties: { d: {} } } } },
            { items: { const: 1 } },
          ],
        },
      ],
      unevaluatedProperties: false,
      unevaluatedItems: false,
    },
    ThreeByThree: {
      allOf: [0, 1, 2].map((i) => ({
        anyOf: [
          { properties: { [`a${i}`]: {} }, required: [`a${i}`], prefixItems: [{ const: i }] },
          { properties: { [`b${i}`]: {} }, required: [`b${i}`], prefixItems: [true, { const: i }] },
          { patternProperties: { [`^c${i}`]: {} }, contains: { const: i } },
        ],
      })),
      unevaluatedProperties: false,
      unevaluatedItems: false,
    },
  },
};

let functions: (type: string) => TypeFunctions;
const reference = new Map<string, (document: JsonValue) => boolean>();
beforeAll(async () => {
  const generated = await generatedProject("unevaluated", SCHEMA);
  functions = modulesOf(generated.index, "unevaluated").functions;
  const id = "https://agentwire.test/unevaluated";
  registerSchema({ ...SCHEMA, $id: id } as never);
  for (const type of Object.keys(SCHEMA.$defs)) {
    const validator = await validate(`${id}#/$defs/${type}`);
    reference.set(type, (document) => validator(document as never).valid);
  }
}, 120_000);

describe("emit: unevaluatedProperties and unevaluatedItems by the branches passed", () => {
  it.each(["NestedAny", "OneOfIf", "Deep", "ThreeByThree"])("%s agrees with the reference on objects and arrays", (type) => {
    const { is, validate, decode } = functions(type);
    const item = fc.constantFrom<JsonValue>(0, 1, 2, "a", "b", true, null);
    const key = fc.constantFrom("a", "b", "c", "d", "n", "x1", "a0", "b0", "c0", "a1", "b1", "c1x", "a2", "b2", "c2");
    const object = fc.dictionary(key, item, { maxKeys: 5 });
    const array = fc.array(item, { maxLength: 5 });
    const checked = { valid: 0, invalid: 0 };
    fc.assert(
      fc.property(fc.oneof(object, array), (document) => {
        const expected = reference.get(type)!(document as JsonValue);
        checked[expected ? "valid" : "invalid"]++;
        expect([is(document), validate(document).ok, decode(document).ok], JSON.stringify(document)).toEqual([
          expected,
          expected,
          expected,
        ]);
      }),
      { seed: 0x756e6576, numRuns: 2000 },
    );
    expect(checked.valid).toBeGreaterThan(100);
    expect(checked.invalid).toBeGreaterThan(100);
  });
});
