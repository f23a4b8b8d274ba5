import { describe, expect, it } from "vitest";
import { canonicalNormalized, defs } from "../helpers/canonical.js";
import type { JsonObject } from "../../generator/json.js";
import { isJsonObject } from "../../generator/json.js";
import { getAtPointer } from "../../generator/pointer.js";
import { walkSchemas } from "../../generator/schema/walk.js";
import { inputError } from "../helpers/failure.js";
import { CONFIG_FILE, configFor, demoProject, makeProject } from "../helpers/project.js";

const resolved = canonicalNormalized;

/** The `$ref`s of a document's schemas that point at nothing of it. */
function danglingRefs(document: JsonObject): string[] {
  const found: string[] = [];
  walkSchemas(document, "", (schema) => {
    const ref = isJsonObject(schema) ? schema["$ref"] : undefined;
    if (typeof ref === "string" && getAtPointer(document, decodeURIComponent(ref.slice(1))) === undefined) found.push(ref);
  });
  return found;
}

describe("resolve: a ref's target is any place", () => {
  it("resolves a target that a key of no keyword holds (definitions/group/x) as a schema; the root's ref to it names it as the root", async () => {
    const schema = await resolved(
      demoProject({
        $ref: "#/definitions/group/x",
        definitions: {
          group: { x: { type: "object", properties: { v: { $ref: "#/definitions/leaf" } } } },
          leaf: { type: "string" },
        },
      }),
    );
    expect(schema["$ref"]).toBe("#/$defs/Demo");
    expect(defs(schema)["Demo"]).toEqual({ type: "object", properties: { v: { $ref: "#/$defs/leaf" } } });
    expect(danglingRefs(schema)).toEqual([]);
  });

  it("names a target a ref reached only through such a target, and follows chains of them", async () => {
    const schema = await resolved(
      demoProject({
        type: "object",
        properties: { a: { $ref: "#/definitions/group/first" } },
        definitions: {
          group: {
            first: { type: "array", items: { $ref: "#/definitions/group/second" } },
            second: { type: "object", properties: { c: { $ref: "#/definitions/other/third" } } },
          },
          other: { third: { anyOf: [{ type: "null" }, { $ref: "#/definitions/group/first" }] } },
        },
      }),
    );
    expect(Object.keys(defs(schema))).toEqual(["Demo", "group", "other", "first", "second", "third"]);
    expect(defs(schema)["Demo"]!["properties"]).toEqual({ a: { $ref: "#/$defs/first" } });
    expect(defs(schema)["first"]).toEqual({ type: "array", items: { $ref: "#/$defs/second" } });
    expect(defs(schema)["second"]!["properties"]).toEqual({ c: { $ref: "#/$defs/third" } });
    expect(defs(schema)["third"]).toEqual({ anyOf: [{ type: "null" }, { $ref: "#/$defs/first" }] });
    expect(danglingRefs(schema)).toEqual([]);
  });

  it("resolves a target at a keyword's place inside such a target, and one in an array of no keyword", async () => {
    const schema = await resolved(
      demoProject({
        type: "object",
        properties: {
          a: { $ref: "#/definitions/group/x/properties/v" },
          b: { $ref: "#/definitions/group/list/1" },
          c: { $ref: "#/definitions/group/list/0/items" },
        },
        definitions: {
          group: {
            x: { type: "object", properties: { v: { type: "array", items: { $ref: "#/definitions/leaf" } } } },
            list: [{ type: "array", items: { type: "string", minLength: 1 } }, { $ref: "#/definitions/leaf" }],
          },
          leaf: { type: "string" },
        },
      }),
    );
    expect(defs(schema)["Demo"]!["properties"]).toEqual({
      a: { $ref: "#/$defs/v" },
      b: { $ref: "#/$defs/leaf" },
      c: { $ref: "#/$defs/items" },
    });
    expect(defs(schema)["v"]).toEqual({ type: "array", items: { $ref: "#/$defs/leaf" } });
    expect(defs(schema)["items"]).toEqual({ type: "string", minLength: 1 });
    expect(danglingRefs(schema)).toEqual([]);
  });

  it("qualifies such a target's name, as any name, by the named schema around it", async () => {
    const schema = await resolved(
      demoProject({
        type: "object",
        properties: { a: { $ref: "#/definitions/common/Task" } },
        definitions: { common: { Task: { type: "object", properties: { n: { $ref: "#/definitions/Task" } } } }, Task: { type: "string" } },
      }),
    );
    expect(Object.keys(defs(schema))).toEqual(["Demo", "common", "Task", "commonTask"]);
    expect(defs(schema)["commonTask"]!["properties"]).toEqual({ n: { $ref: "#/$defs/Task" } });
  });

  it("reads the $id and anchors of such a target: its refs resolve against its own resource", async () => {
    const schema = await resolved(
      demoProject({
        type: "object",
        properties: { a: { $ref: "#/definitions/group/x" }, b: { $ref: "https://example.com/x.json#Leaf" } },
        definitions: {
          group: {
            x: {
              $id: "https://example.com/x.json",
              type: "array",
              items: { $ref: "#/definitions/leaf" },
              definitions: { leaf: { $anchor: "Leaf", type: "integer" } },
            },
          },
          leaf: { type: "string" },
        },
      }),
    );
    expect(defs(schema)["Demo"]!["properties"]).toEqual({ a: { $ref: "#/$defs/x" }, b: { $ref: "#/$defs/xLeaf" } });
    expect(defs(schema)["x"]).toEqual({ type: "array", items: { $ref: "#/$defs/xLeaf" } });
    expect(defs(schema)["xLeaf"]).toEqual({ type: "integer" });
  });

  it("reports a malformed keyword of such a target where it is written", async () => {
    const root = demoProject({ $ref: "#/definitions/group/x", definitions: { group: { x: { type: "array", minItems: -1 } } } });
    expect(await inputError(() => resolved(root))).toMatch(/^schemas\/demo\.schema\.json#\/definitions\/group\/x\/minItems: /);
  });

  it("keeps refs to keyword places of a named schema as they were: #/properties/a/items", async () => {
    const schema = await resolved(
      demoProject({
        type: "object",
        properties: { a: { type: "array", items: { $ref: "#/definitions/leaf" } }, b: { $ref: "#/properties/a/items" } },
        definitions: { leaf: { type: "string" } },
      }),
    );
    expect(defs(schema)["Demo"]!["properties"]).toEqual({
      a: { type: "array", items: { $ref: "#/$defs/leaf" } },
      b: { $ref: "#/$defs/Demo/properties/a/items" },
    });
  });

  it("rewrites the refs of draft 7's schema-valued dependencies, and reads no list of names as a schema", async () => {
    const schema = await resolved(
      demoProject({
        $schema: "http://json-schema.org/draft-07/schema#",
        type: "object",
        dependencies: { a: { $ref: "#/definitions/needsB" }, c: ["a"], d: { properties: { e: { title: "E", type: "string" } } } },
        definitions: { needsB: { required: ["b"] }, leaf: { type: "string" } },
      }),
    );
    expect(defs(schema)["Demo"]!["dependencies"]).toEqual({
      a: { $ref: "#/$defs/needsB" },
      c: ["a"],
      d: { properties: { e: { $ref: "#/$defs/E" } } },
    });
    expect(defs(schema)["E"]).toEqual({ title: "E", type: "string" });
    expect(danglingRefs(schema)).toEqual([]);
  });

  it("resolves a target of another file at a place of no keyword, and what it refs there, in other files too", async () => {
    const schema = await resolved(
      makeProject({
        [CONFIG_FILE]: configFor([{ name: "demo", schema: "schemas/demo.schema.json" }], {
          remotes: { "http://localhost:1234/": "schemas/vendor/" },
        }),
        "schemas/demo.schema.json": {
          type: "object",
          properties: {
            a: { $ref: "http://localhost:1234/other.json#/definitions/group/x" },
            b: { $ref: "http://localhost:1234/other.json#/loose/y" },
          },
        },
        "schemas/vendor/other.json": {
          definitions: { group: { x: { type: "array", items: { $ref: "#/definitions/leaf" } } }, leaf: { type: "integer" } },
          loose: { y: { type: "object", properties: { z: { $ref: "#/definitions/group/x" }, w: { $ref: "third.json#/group/w" } } } },
        },
        "schemas/vendor/third.json": { group: { w: { type: "array", items: { $ref: "fourth.json" } } } },
        "schemas/vendor/fourth.json": { type: "boolean" },
      }),
    );
    expect(defs(schema)["Demo"]!["properties"]).toEqual({ a: { $ref: "#/$defs/x" }, b: { $ref: "#/$defs/y" } });
    expect(defs(schema)["x"]).toEqual({ type: "array", items: { $ref: "#/$defs/leaf" } });
    expect(defs(schema)["y"]!["properties"]).toEqual({ z: { $ref: "#/$defs/x" }, w: { $ref: "#/$defs/w" } });
    expect(defs(schema)["w"]).toEqual({ type: "array", items: { $ref: "#/$defs/Fourth" } });
    expect(danglingRefs(schema)).toEqual([]);
  });
});

describe("resolve: external schemas, named by their $id", () => {
  const GRUNT = {
    $id: "https://json.schemastore.org/grunt-clean-task",
    type: "object",
    additionalProperties: { $ref: "grunt-task#/definitions/fileFormat" },
  };
  const TASK = {
    $id: "https://json.schemastore.org/grunt-task",
    definitions: { fileFormat: { type: "array", items: { $ref: "#/definitions/file" } }, file: { type: "string" } },
  };
  const project = (externalSchemas?: string[]) =>
    makeProject({
      [CONFIG_FILE]: configFor([
        { name: "grunt", schema: "schemas/grunt-clean-task.json", ...(externalSchemas === undefined ? {} : { externalSchemas }) },
      ]),
      "schemas/grunt-clean-task.json": GRUNT,
      "schemas/vendor/tasks.json": TASK,
    });

  it("reads a ref to an $id from the external schema that has it, whatever its file is named", async () => {
    const schema = await resolved(project(["schemas/vendor/tasks.json"]));
    expect(defs(schema)["Grunt"]!["additionalProperties"]).toEqual({ $ref: "#/$defs/fileFormat" });
    expect(defs(schema)["fileFormat"]).toEqual({ type: "array", items: { $ref: "#/$defs/file" } });
    expect(danglingRefs(schema)).toEqual([]);
  });

  it("reads each file once, though the config names it twice or names the schema", async () => {
    const twice = await resolved(project(["schemas/vendor/tasks.json", "schemas/vendor/tasks.json", "schemas/grunt-clean-task.json"]));
    expect(twice).toEqual(await resolved(project(["schemas/vendor/tasks.json"])));
  });

  it("without it, the ref points to nothing", async () => {
    expect(await inputError(() => resolved(project()))).toContain(
      '$ref "grunt-task#/definitions/fileFormat" points to a file that does not exist',
    );
  });
});
