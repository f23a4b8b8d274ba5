import { describe, expect, it } from "vitest";
import { canonicalNormalized, defs } from "../helpers/canonical.js";
import { demoProject } from "../helpers/project.js";

const resolved = canonicalNormalized;

describe("resolve: a ref target on a cycle through schemas without a name is named", () => {
  it("names ESLint's overrides by its key, and refs to it point to it", async () => {
    const schema = await resolved(
      demoProject({
        type: "object",
        properties: {
          overrides: {
            description: "Per-file settings.",
            type: "array",
            items: { type: "object", properties: { overrides: { $ref: "#/properties/overrides" } } },
          },
        },
      }),
    );
    expect(Object.keys(defs(schema))).toEqual(["Demo", "overrides"]);
    expect(defs(schema)["Demo"]!["properties"]).toEqual({ overrides: { $ref: "#/$defs/overrides", description: "Per-file settings." } });
    expect(defs(schema)["overrides"]).toEqual({
      type: "array",
      items: { type: "object", properties: { overrides: { $ref: "#/$defs/overrides" } } },
    });
  });

  it("names each target of a cycle through two unnamed places, outer first", async () => {
    const schema = await resolved(
      demoProject({
        type: "object",
        properties: {
          a: { type: "object", properties: { b: { $ref: "#/properties/c/items" } } },
          c: { type: "array", items: { type: "object", properties: { d: { $ref: "#/properties/a" } } } },
        },
      }),
    );
    expect(Object.keys(defs(schema))).toEqual(["Demo", "a", "items"]);
    expect(defs(schema)["Demo"]!["properties"]).toEqual({
      a: { $ref: "#/$defs/a" },
      c: { type: "array", items: { $ref: "#/$defs/items" } },
    });
    expect(defs(schema)["a"]).toEqual({ type: "object", properties: { b: { $ref: "#/$defs/items" } } });
    expect(defs(schema)["items"]).toEqual({ type: "object", properties: { d: { $ref: "#/$defs/a" } } });
  });

  it("qualifies the name, as any name, where a definition has it", async () => {
    const schema = await resolved(
      demoProject({
        type: "object",
        properties: { node: { type: "object", properties: { next: { $ref: "#/properties/node" }, value: { $ref: "#/$defs/node" } } } },
        $defs: { node: { type: "string" } },
      }),
    );
    expect(Object.keys(defs(schema))).toEqual(["Demo", "node", "DemoNode"]);
    expect(defs(schema)["DemoNode"]!["properties"]).toEqual({ next: { $ref: "#/$defs/DemoNode" }, value: { $ref: "#/$defs/node" } });
  });

  it("keeps inline a ref to an unnamed place that is on no cycle, and one whose cycle passes a named type", async () => {
    const schema = await resolved(
      demoProject({
        type: "object",
        properties: {
          a: { type: "array", items: { type: "string" } },
          b: { $ref: "#/properties/a" },
          c: { type: "object", properties: { d: { $ref: "#/$defs/Tree" } } },
          e: { $ref: "#/properties/c" },
        },
        $defs: { Tree: { type: "object", properties: { up: { $ref: "#/properties/c" } } } },
      }),
    );
    expect(Object.keys(defs(schema))).toEqual(["Demo", "Tree"]);
    expect(defs(schema)["Demo"]!["properties"]).toMatchObject({
      b: { $ref: "#/$defs/Demo/properties/a" },
      e: { $ref: "#/$defs/Demo/properties/c" },
    });
    expect(defs(schema)["Tree"]!["properties"]).toEqual({ up: { $ref: "#/$defs/Demo/properties/c" } });
  });
});
