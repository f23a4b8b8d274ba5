import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { generatedProject, strictTsc } from "../helpers/project.js";

/** A type composed, inside itself, with a constraint: SchemaStore's resource maps, which were refused as "composed of itself". */
const schema = {
  title: "Resource",
  type: "object",
  additionalProperties: { minProperties: 1, anyOf: [{ type: "string" }, { $ref: "#" }] },
};

describe("a type met with a constraint inside itself", () => {
  it("generates, type-checks, and its guard agrees with ajv", async () => {
    const { root, index } = await generatedProject("resource", schema);
    expect(strictTsc(root)).toEqual({ output: "", status: 0 });
    const isResource = index["isResource"] as (value: unknown) => boolean;
    const ajv = new Ajv2020({ strict: false }).compile(schema);
    const samples = [
      {},
      { a: "x" },
      { a: {} },
      { a: { b: "y" } },
      { a: { b: {} } },
      { a: { b: { c: 1 } } },
      { a: 1 },
      [],
      "x",
      { a: ["z"] },
    ];
    expect(samples.map(isResource)).toEqual(samples.map((sample) => ajv(sample)));
    expect(samples.map(isResource)).toEqual([true, true, false, true, false, false, false, false, false, false]);
  });
});

/** ESLint's `overrides`, which recurse through a place without a name: it is named by its key and generated. */
const eslint = {
  type: "object",
  properties: {
    overrides: {
      type: "array",
      items: { type: "object", properties: { files: { type: "string" }, overrides: { $ref: "#/properties/overrides" } } },
    },
  },
};

describe("a type recursing through a subschema without a name", () => {
  it("generates, type-checks, and its guard agrees with ajv", async () => {
    const { root, index } = await generatedProject("eslint", eslint);
    expect(strictTsc(root)).toEqual({ output: "", status: 0 });
    const isEslint = index["isEslint"] as (value: unknown) => boolean;
    const ajv = new Ajv2020({ strict: false }).compile(eslint);
    const samples = [
      {},
      { overrides: [] },
      { overrides: [{ files: "a.js" }] },
      { overrides: [{ overrides: [{ overrides: [] }] }] },
      { overrides: [{ overrides: [{ files: 1 }] }] },
      { overrides: [{ overrides: {} }] },
      { overrides: [1] },
      { overrides: "x" },
      [],
      null,
    ];
    expect(samples.map(isEslint)).toEqual(samples.map((sample) => ajv(sample)));
    expect(samples.map(isEslint)).toEqual([true, true, true, true, false, false, false, false, false, false]);
  });
});
