import { describe, expect, it } from "vitest";
import { canonicalNormalized, defs } from "../helpers/canonical.js";
import { demoProject } from "../helpers/project.js";
import type { JsonObject } from "../../generator/json.js";
import { nameCycles, targetsFrom } from "../../generator/resolve/cycles.js";
import { NamedSchemas, nameRoots } from "../../generator/resolve/named.js";
import { Resources } from "../../generator/resolve/resources.js";
import { PROJECT_DIR, sourceFile } from "../helpers/in-memory.js";

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

/** One file's schemas with its root named, as the cycles' job finds them. */
function rootNamed(document: JsonObject): NamedSchemas {
  const named = new NamedSchemas(new Resources(sourceFile("main.schema.json", document), { inputsDir: PROJECT_DIR, remotes: [] }), "demo");
  nameRoots(named);
  return named;
}

describe("nameCycles, alone", () => {
  const document = {
    type: "object",
    properties: {
      a: { type: "object", properties: { b: { $ref: "#/properties/c/items" } } },
      c: { type: "array", items: { type: "object", properties: { d: { $ref: "#/properties/a" } } } },
      e: { $ref: "#/properties/a" },
    },
  };

  it("finds the targets of a schema's refs, not entering a named schema below it", () => {
    const named = rootNamed(document);
    expect(targetsFrom(named, named.root, "").map(({ pointer }) => pointer)).toEqual([
      "/properties/c/items",
      "/properties/a",
      "/properties/a",
    ]);
    expect(targetsFrom(named, named.root, "/properties/a").map(({ pointer }) => pointer)).toEqual(["/properties/c/items"]);
  });

  it("names each target on a cycle, outer first, and hoists it", () => {
    const named = rootNamed(document);
    nameCycles(named);
    expect(named.names.named.map(({ name, pointer }) => `${name} ${pointer}`)).toEqual([
      "Demo ",
      "a /properties/a",
      "items /properties/c/items",
    ]);
    expect(named.isHoisted(named.root, "/properties/a")).toBe(true);
  });
});
