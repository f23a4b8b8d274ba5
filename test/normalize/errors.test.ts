import { describe, expect, it } from "vitest";
import type { JsonObject } from "../../generator/json.js";
import { inputError } from "../helpers/failure.js";
import { irOf } from "../helpers/in-memory.js";

const failure = (schema: JsonObject) => inputError(() => irOf(schema));

describe("normalize: what it refuses", () => {
  it.each([
    [
      "a metaschema agentwire does not know",
      { $schema: "https://example.com/my-metaschema", $defs: { A: { type: "string" } } },
      'schemas/test.schema.json#/$schema: unknown dialect "https://example.com/my-metaschema"',
    ],
    [
      "a tuple of drafts before 2020-12 in a 2020-12 schema",
      { $defs: { A: { type: "array", items: [{}, {}] } } },
      'schemas/test.schema.json#/$defs/A/items: unsupported: "items" as an array of schemas is the tuple of drafts before 2020-12',
    ],
    [
      "a pattern property whose pattern is not a u-flag RegExp",
      { $defs: { A: { type: "object", patternProperties: { "^(x-": {} } } } },
      'schemas/test.schema.json#/$defs/A/patternProperties/^(x-: invalid pattern "^(x-"',
    ],
    ["an enum that is not an array", { $defs: { A: { enum: "a" } } }, 'schemas/test.schema.json#/$defs/A/enum: "enum" must be an array'],
  ])("%s", async (_, schema, message) => {
    expect(await failure(schema)).toContain(message);
  });

  it("reads parts that contradict each other as never, as JSON Schema does, rather than refusing them", () => {
    expect(irOf({ $defs: { A: { allOf: [{ type: "string" }, { type: "integer" }] } } }).types[0]!.shape).toEqual({ kind: "never" });
    const tags = irOf({
      $defs: {
        A: { allOf: [{ $ref: "#/$defs/B" }, { properties: { kind: { const: "c" } }, required: ["kind"] }] },
        B: { type: "object", properties: { kind: { enum: ["a", "b"] } } },
      },
    });
    expect(tags.types[0]!.shape).toEqual({ kind: "never" });
  });

  it("refuses an invalid pattern, naming it", async () => {
    expect(await failure({ $defs: { A: { type: "string", pattern: "([a-z]" } } })).toMatch(
      /^schemas\/test\.schema\.json#\/\$defs\/A\/pattern: invalid pattern "\(\[a-z\]": /,
    );
  });

  it("refuses an empty oneOf and an unknown type", async () => {
    expect(await failure({ $defs: { A: { oneOf: [] } } })).toBe(
      'schemas/test.schema.json#/$defs/A/oneOf: "oneOf" must be a non-empty array of schemas\n  with no schemas it would accept no value: list the alternatives, or remove it',
    );
    expect(await failure({ $defs: { A: { type: "text" } } })).toBe('schemas/test.schema.json#/$defs/A/type: unknown type "text"');
  });

  it("refuses a type composed of itself, but not one that contains itself, composed or not", async () => {
    expect(await failure({ $defs: { A: { allOf: [{ $ref: "#/$defs/B" }] }, B: { allOf: [{ $ref: "#/$defs/A" }] } } })).toContain(
      '"A" is defined only in terms of itself (A → B → A)',
    );
    expect(
      await failure({
        $defs: { A: { anyOf: [{ $ref: "#/$defs/B" }, { type: "null" }] }, B: { type: "object", allOf: [{ $ref: "#/$defs/A" }] } },
      }),
    ).toContain('"B" is defined only in terms of itself (B → B)');
    // Inside itself, where a constraint meets it (SchemaStore's resource maps): the name, constrained.
    const resources = irOf({
      $defs: {
        Resource: {
          type: "object",
          additionalProperties: { minProperties: 1, anyOf: [{ type: "string" }, { $ref: "#/$defs/Resource" }] },
        },
      },
    });
    expect(resources.types[0]!.shape).toMatchObject({
      kind: "map",
      values: {
        kind: "union",
        members: [{ kind: "string" }, { kind: "constrained", shape: { kind: "ref", name: "Resource" }, constraints: [{ kind: "also" }] }],
      },
    });
    const tree = irOf({
      $defs: { Node: { type: "object", properties: { children: { type: "array", items: { $ref: "#/$defs/Node" } } } } },
    });
    expect(tree.types[0]!.shape).toMatchObject({
      kind: "object",
      fields: [{ name: "children", shape: { kind: "array", items: { kind: "ref", name: "Node" } } }],
    });
  });

  it("makes a required property that additionalProperties forbids a field of never: no object is valid", () => {
    const ir = irOf({ $defs: { A: { type: "object", required: ["x"], additionalProperties: false } } });
    expect(ir.types[0]!.shape).toMatchObject({ kind: "object", fields: [{ name: "x", shape: { kind: "never" }, required: true }] });
  });
});

describe("normalize: unevaluatedProperties", () => {
  it("closes a referenced object over the fields it declares", async () => {
    const ir = irOf({
      $defs: {
        Open: { type: "object", properties: { a: { type: "string" } } },
        Closed: { $ref: "#/$defs/Open", unevaluatedProperties: false },
      },
    });
    expect(ir.types[1]!.shape).toMatchObject({ kind: "object", fields: [{ name: "a" }], additional: { kind: "never" } });
  });

  it("does nothing where a part already evaluates every property", async () => {
    const ir = irOf({
      $defs: {
        A: { allOf: [{ type: "object", additionalProperties: true }], properties: { a: { type: "string" } }, unevaluatedProperties: false },
      },
    });
    expect(ir.types[0]!.shape).toMatchObject({ kind: "object", additional: { kind: "unknown" } });
  });

  it("is a constraint where what is evaluated depends on the value: an anyOf branch passed", async () => {
    const ir = irOf({
      $defs: {
        A: { anyOf: [{ type: "object", properties: { a: { type: "string" } } }, { type: "string" }], unevaluatedProperties: false },
      },
    });
    expect(ir.types[0]!.shape).toMatchObject({
      kind: "constrained",
      constraints: [
        {
          kind: "unevaluated",
          evaluated: { names: [], patterns: [], all: false, when: [{ then: { names: ["a"] }, else: { names: [] } }] },
          rest: { kind: "never" },
        },
      ],
    });
  });
});
