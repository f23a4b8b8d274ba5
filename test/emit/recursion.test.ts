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
