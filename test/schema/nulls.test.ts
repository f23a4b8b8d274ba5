import { describe, expect, it } from "vitest";
import type { JsonValue } from "../../generator/json.js";
import { absentOrSchema, admitsNull, nullOrAbsent } from "../../generator/schema/nulls.js";

describe("admitsNull", () => {
  const document = { $defs: { Value: { title: "Value" }, Struct: { type: "object" }, Loop: { $ref: "#/$defs/Loop" } } };

  it("holds where no keyword that can refuse null refuses it", () => {
    const admitting: JsonValue[] = [
      true,
      {},
      { type: "null" },
      { type: ["string", "null"] },
      { const: null },
      { enum: ["a", null] },
      { minLength: 3, properties: { a: false }, items: false },
      { anyOf: [{ type: "string" }, { type: "null" }] },
      { oneOf: [{ type: "string" }, {}] },
      { allOf: [{}, { type: "null" }] },
      { not: { type: "string" } },
      { if: { type: "null" }, then: {}, else: false },
      { $ref: "#/$defs/Value" },
      { $ref: "#/$defs/Loop" },
    ];
    for (const schema of admitting) expect(admitsNull(schema, document), JSON.stringify(schema)).toBe(true);
  });

  it("fails where one does, through refs", () => {
    const refusing: JsonValue[] = [
      false,
      { type: "string" },
      { type: ["string", "object"] },
      { const: 0 },
      { enum: ["a"] },
      { anyOf: [{ type: "string" }, { type: "object" }] },
      { oneOf: [{}, { type: "null" }] },
      { allOf: [{}, { type: "string" }] },
      { not: {} },
      { if: { type: "null" }, then: false },
      { if: { type: "string" }, else: { type: "string" } },
      { $ref: "#/$defs/Struct" },
      { $ref: "#/$defs/Value", type: "string" },
    ];
    for (const schema of refusing) expect(admitsNull(schema, document), JSON.stringify(schema)).toBe(false);
  });
});

describe("nullOrAbsent", () => {
  it("is an anyOf of null and the schema, marked, its use-site annotations kept beside it; absentOrSchema reads it back", () => {
    const schema = { description: "d", default: "", title: "T", type: "string", minLength: 1 };
    const written = nullOrAbsent(schema);
    expect(written).toEqual({
      description: "d",
      default: "",
      title: "T",
      anyOf: [{ type: "null" }, { type: "string", minLength: 1 }],
      "x-agentwire-null-is-absent": true,
    });
    expect(absentOrSchema(written)).toEqual({ type: "string", minLength: 1 });
  });

  it("absentOrSchema is undefined for anything else", () => {
    const others: JsonValue[] = [
      { anyOf: [{ type: "null" }, { type: "string" }] },
      { anyOf: [{ type: "string" }, { type: "null" }], "x-agentwire-null-is-absent": true },
      { anyOf: [{ type: "null", description: "" }, {}], "x-agentwire-null-is-absent": true },
      { anyOf: [{ type: "null" }], "x-agentwire-null-is-absent": true },
      { type: "string", "x-agentwire-null-is-absent": true },
      { anyOf: [{ type: "null" }, {}], "x-agentwire-null-is-absent": "yes" },
      null,
    ];
    for (const schema of others) expect(absentOrSchema(schema), JSON.stringify(schema)).toBeUndefined();
  });
});
