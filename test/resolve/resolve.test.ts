import { describe, expect, it } from "vitest";
import type { JsonObject } from "../../generator/json.js";
import { load } from "../../generator/load/index.js";
import { normalize } from "../../generator/normalize/index.js";
import { applyOverlays } from "../../generator/overlay/index.js";
import { resolve } from "../../generator/resolve/index.js";
import { inputError } from "../helpers/failure.js";
import { CONFIG_FILE, configFor, demoProject, makeProject } from "../helpers/project.js";

async function resolved(root: string): Promise<JsonObject> {
  const project = load(root);
  return resolve(project, project.protocols[0]!).schema;
}

const failure = (root: string, stage: (root: string) => Promise<unknown> = resolved) => inputError(() => stage(root));

const defs = (schema: JsonObject) => schema["$defs"] as Record<string, JsonObject>;

describe("resolve: names", () => {
  it("reads draft 7's $defs, no keyword there, as data where it holds no schema; 2020-12's refuses it", async () => {
    const schema = (draft: string) => ({
      $schema: draft,
      title: "Note",
      type: "object",
      properties: { a: { $ref: "#/definitions/a" } },
      definitions: { a: { type: "string" } },
      $defs: { note: "not a schema" },
    });
    expect(Object.keys(defs(await resolved(demoProject(schema("http://json-schema.org/draft-07/schema#")))))).toEqual(["Note", "a"]);
    expect(await failure(demoProject(schema("https://json-schema.org/draft/2020-12/schema")))).toBe(
      'schemas/demo.schema.json#/$defs/note: a schema must be an object or a boolean, not a string ("not a schema")',
    );
  });

  it("names definitions by key without whitespace, a titled root by its title, first", async () => {
    const schema = await resolved(
      demoProject({
        title: "Order Event",
        type: "object",
        properties: { to: { $ref: "#/definitions/Shipping Address" } },
        definitions: { "Shipping Address": { type: "object" } },
      }),
    );
    expect(Object.keys(defs(schema))).toEqual(["OrderEvent", "ShippingAddress"]);
    expect(schema["$ref"]).toBe("#/$defs/OrderEvent");
    expect(defs(schema)["OrderEvent"]!["properties"]).toEqual({ to: { $ref: "#/$defs/ShippingAddress" } });
  });

  it("names an untitled root after the protocol", async () => {
    expect(Object.keys(defs(await resolved(demoProject({ type: "string" }))))).toEqual(["Demo"]);
  });

  it("keeps a root that is only a $ref as a ref, not a type", async () => {
    const schema = await resolved(demoProject({ title: "Protocol", $ref: "#/$defs/Event", $defs: { Event: { type: "object" } } }));
    expect(Object.keys(defs(schema))).toEqual(["Event"]);
    expect(schema["$ref"]).toBe("#/$defs/Event");
  });

  it("hoists titled inline schemas, identical ones into one entry, use-site annotations staying behind", async () => {
    const state = { title: "Task State", enum: ["A", "B"] };
    const schema = await resolved(
      demoProject({
        $defs: {
          One: { type: "object", properties: { state: { ...state, description: "One's state.", default: "A" } } },
          Two: { type: "object", properties: { status: { ...state, description: "Two's." } } },
        },
      }),
    );
    expect(defs(schema)["TaskState"]).toEqual(state);
    expect(defs(schema)["One"]!["properties"]).toEqual({ state: { $ref: "#/$defs/TaskState", description: "One's state.", default: "A" } });
    expect(defs(schema)["Two"]!["properties"]).toEqual({ status: { $ref: "#/$defs/TaskState", description: "Two's." } });
  });

  it("takes a title for a name only where it reads as one: a description names nothing", async () => {
    const schema = await resolved(
      demoProject({
        title: "JSON schema for the demo configuration files",
        type: "object",
        properties: {
          where: { title: "Location in the inventory management system", type: "string", minLength: 1 },
          when: { title: "Plan date. Local time.", type: "string", minLength: 1 },
          series: { title: "Non-Negative Integer Time Dependent Values", type: "array", items: { type: "integer" } },
        },
      }),
    );
    // The root is named as an untitled root is; the inline schemas stay where they are.
    expect(Object.keys(defs(schema))).toEqual(["Demo", "NonNegativeIntegerTimeDependentValues"]);
    expect(defs(schema)["Demo"]!["properties"]).toMatchObject({
      where: { title: "Location in the inventory management system", minLength: 1 },
      when: { title: "Plan date. Local time.", minLength: 1 },
      series: { $ref: "#/$defs/NonNegativeIntegerTimeDependentValues" },
    });
  });

  it("qualifies a schema whose name another already has by the named schemas around it, nearest first", async () => {
    const titled = await resolved(
      demoProject({
        $defs: { One: { type: "object", properties: { a: { title: "Mode", enum: ["x"] }, b: { title: "Mode", enum: ["y"] } } } },
      }),
    );
    expect(Object.keys(defs(titled))).toEqual(["One", "Mode", "OneMode"]);
    expect(defs(titled)["One"]!["properties"]).toEqual({ a: { $ref: "#/$defs/Mode" }, b: { $ref: "#/$defs/OneMode" } });
    const nested = await resolved(
      demoProject({
        $defs: {
          Numbers: { $defs: { Item: { type: "number" } }, type: "array", items: { $ref: "#/$defs/Numbers/$defs/Item" } },
          Strings: { $defs: { Item: { type: "string" } }, type: "array", items: { $ref: "#/$defs/Strings/$defs/Item" } },
        },
      }),
    );
    expect(Object.keys(defs(nested))).toEqual(["Numbers", "Strings", "Item", "StringsItem"]);
    expect(defs(nested)["Strings"]!["items"]).toEqual({ $ref: "#/$defs/StringsItem" });
  });

  it("names a schema a ref leads to outside any named schema by its key, following a schema that is only a $ref", async () => {
    const schema = await resolved(
      demoProject(
        { $ref: "sub.json#/refToInteger" },
        { "schemas/sub.json": { integer: { type: "integer" }, refToInteger: { $ref: "#/integer" } } },
      ),
    );
    expect(schema["$ref"]).toBe("#/$defs/integer");
    expect(defs(schema)).toEqual({ integer: { type: "integer" } });
  });

  it("qualifies last by the place itself, where the named schemas around it are no help", async () => {
    const schema = await resolved(
      demoProject({
        type: "object",
        $defs: { item: { type: "string" } },
        if: { $defs: { item: { type: "number" } } },
        then: { $defs: { item: { type: "null" } } },
      }),
    );
    expect(Object.keys(defs(schema))).toEqual(["Demo", "item", "DemoItem", "ThenItem"]);
  });

  it("names Unnamed a definition whose key has nothing to make a name of", async () => {
    const schema = await resolved(
      demoProject({ $defs: { "": { type: "number" }, Box: { type: "object", $defs: { "???": { type: "string" } } } } }),
    );
    expect(Object.keys(defs(schema))).toEqual(["Unnamed", "Box", "BoxUnnamed"]);
  });

  it("qualifies a definition named as its file's titled root by the root", async () => {
    const schema = await resolved(demoProject({ title: "Thing", type: "object", $defs: { Thing: { type: "string" } } }));
    expect(Object.keys(defs(schema))).toEqual(["Thing", "ThingThing"]);
  });

  it("qualifies two definitions of one place whose keys make one name by their rank", async () => {
    const schema = await resolved(
      demoProject({ $defs: { "Agent Card": { type: "string" }, AgentCard: { type: "number" }, "Agent  Card": { type: "null" } } }),
    );
    expect(Object.keys(defs(schema))).toEqual(["AgentCard", "AgentCard2", "AgentCard3"]);
  });

  it("qualifies a definition whose name differs from another's only in its first letter's case, as their guards would not", async () => {
    const schema = await resolved(
      demoProject({
        type: "object",
        properties: { a: { $ref: "#/$defs/deployment" }, b: { $ref: "#/$defs/Deployment" } },
        $defs: { deployment: { type: "string" }, Deployment: { type: "number" } },
      }),
    );
    expect(Object.keys(defs(schema))).toEqual(["Demo", "deployment", "DemoDeployment"]);
    expect(defs(schema)["Demo"]!["properties"]).toEqual({ a: { $ref: "#/$defs/deployment" }, b: { $ref: "#/$defs/DemoDeployment" } });
    const alone = await resolved(demoProject({ $defs: { methods: { type: "string" }, Methods: { type: "number" } } }));
    expect(Object.keys(defs(alone))).toEqual(["methods", "Methods2"]);
  });

  it("qualifies a definition named like an export of the runtime", async () => {
    const schema = await resolved(
      demoProject({
        title: "Cloud Build",
        type: "object",
        $defs: { BuildOptions: { type: "object" }, "build options": { type: "string" } },
      }),
    );
    expect(Object.keys(defs(schema))).toEqual(["CloudBuild", "CloudBuildBuildOptions", "buildoptions"]);
    const alone = await resolved(demoProject({ definitions: { ValidationError: { type: "string" }, assertNever: { type: "number" } } }));
    expect(Object.keys(defs(alone))).toEqual(["ValidationError2", "AssertNever"]);
  });

  it("qualifies a schema of another file by that file's name: a definition of one key, a root of one title", async () => {
    const schema = await resolved(
      demoProject(
        {
          title: "Step",
          type: "object",
          properties: {
            own: { $ref: "#/$defs/Config" },
            other: { $ref: "bitrise-step.json#/$defs/Config" },
            root: { $ref: "step-v2.json" },
          },
          $defs: { Config: { type: "string" } },
        },
        {
          "schemas/bitrise-step.json": { $defs: { Config: { type: "number" } } },
          "schemas/step-v2.json": { title: "Step", type: "boolean" },
        },
      ),
    );
    expect(Object.keys(defs(schema))).toEqual(["Step", "StepV2Step", "Config", "BitriseStepConfig"]);
    expect(defs(schema)["Step"]!["properties"]).toEqual({
      own: { $ref: "#/$defs/Config" },
      other: { $ref: "#/$defs/BitriseStepConfig" },
      root: { $ref: "#/$defs/StepV2Step" },
    });
  });

  it("qualifies a second inline schema of one title, and shares the name between identical ones", async () => {
    const schema = await resolved(
      demoProject({
        type: "object",
        properties: {
          a: { title: "Url", type: "string" },
          b: { title: "Url", type: "string", description: "the same, used elsewhere" },
          c: { title: "Url", type: "number" },
          d: { title: "url", type: "boolean" },
        },
      }),
    );
    expect(Object.keys(defs(schema))).toEqual(["Demo", "Url", "DemoUrl", "PropertiesUrl"]);
    expect(defs(schema)["Demo"]!["properties"]).toEqual({
      a: { $ref: "#/$defs/Url" },
      b: { $ref: "#/$defs/Url", description: "the same, used elsewhere" },
      c: { $ref: "#/$defs/DemoUrl" },
      d: { $ref: "#/$defs/PropertiesUrl" },
    });
  });
});

describe("resolve: refs", () => {
  it("maps a ref to a missing file onto the bundled definition whose title or key it names", async () => {
    const schema = await resolved(
      demoProject({
        definitions: {
          "Shipping Address": {
            title: "Shipping Address",
            type: "object",
            properties: { meta: { $ref: "acme.protobuf.Struct.jsonschema.json" } },
          },
          Order: {
            type: "object",
            properties: {
              to: { $ref: "acme.v1.ShippingAddress.jsonschema.json" },
              zip: { $ref: "acme.v1.ShippingAddress.jsonschema.json#/properties/meta" },
            },
          },
          Struct: { type: "object" },
        },
      }),
    );
    expect(defs(schema)["Order"]!["properties"]).toEqual({
      to: { $ref: "#/$defs/ShippingAddress" },
      zip: { $ref: "#/$defs/ShippingAddress/properties/meta" },
    });
    expect(defs(schema)["ShippingAddress"]!["properties"]).toEqual({ meta: { $ref: "#/$defs/Struct" } });
  });

  it("says which ref names no file and no bundled definition", async () => {
    expect(await failure(demoProject({ $defs: { A: { $ref: "acme.v1.Nothing.jsonschema.json" } } }))).toBe(
      'schemas/demo.schema.json#/$defs/A/$ref: $ref "acme.v1.Nothing.jsonschema.json" points to a file that does not exist, and no definition of schemas/demo.schema.json is named "Nothing"\n  vendor that file into schemas/, or ref a definition by its key or title',
    );
  });

  it("refuses a bundled name that matches two definitions", async () => {
    expect(
      await failure(demoProject({ definitions: { Other: { title: "Ship To" }, ShipTo: {}, A: { $ref: "x.ShipTo.json" } } })),
    ).toContain('the bundled-definition name "ShipTo" matches 2 definitions');
  });

  it.each([
    ["https://example.com/schema.json#/$defs/A", "points to the network"],
    ["http://localhost/x.json", "points to the network"],
    // The schema is in schemas/ at the project's root: two folders up is out of the project.
    ["../../outside.json", "points outside the project"],
    ["/etc/passwd", "points outside the project"],
    ["file:///etc/passwd", "points outside the project"],
    ["../generated/src/demo/schema.json", "points into the output folder generated/, which agentwire replaces"],
  ])("refuses %s", async (ref, problem) => {
    expect(await failure(demoProject({ $defs: { A: { $ref: ref } } }))).toMatch(
      new RegExp(`^${escape(`schemas/demo.schema.json#/$defs/A/$ref: $ref "${ref}" ${problem}`)}\\n  `),
    );
  });

  it("says where a ref points to nothing, and what was probably meant", async () => {
    expect(await failure(demoProject({ $defs: { Event: {}, A: { $ref: "#/$defs/Evnt" } } }))).toBe(
      'schemas/demo.schema.json#/$defs/A/$ref: $ref "#/$defs/Evnt" points to nothing\n  did you mean "Event"?',
    );
  });

  it("follows anchors and refs by the document's own $id", async () => {
    const schema = await resolved(
      demoProject({
        $id: "https://example.com/demo.json",
        $defs: { A: { $anchor: "Alpha", type: "string" }, B: { $ref: "#Alpha" }, C: { $ref: "https://example.com/demo.json#/$defs/A" } },
      }),
    );
    expect(defs(schema)["B"]).toEqual({ $ref: "#/$defs/A" });
    expect(defs(schema)["C"]).toEqual({ $ref: "#/$defs/A" });
    expect(defs(schema)["A"]).toEqual({ type: "string" });
  });

  it("brings in definitions of other files of the project, by name, in schemas/ or out of it", async () => {
    const root = demoProject(
      {
        title: "Order",
        type: "object",
        properties: { to: { $ref: "common/address.schema.json#/$defs/Address" }, note: { $ref: "../notes/note.schema.json" } },
      },
      {
        "schemas/common/address.schema.json": {
          $defs: {
            Address: { type: "object", properties: { zip: { $ref: "#/$defs/Zip" } } },
            Zip: { type: "string", pattern: "^[0-9]{5}$" },
          },
        },
        "notes/note.schema.json": { title: "Note", type: "string" },
      },
    );
    const schema = await resolved(root);
    expect(Object.keys(defs(schema)).sort()).toEqual(["Address", "Note", "Order", "Zip"]);
    expect(defs(schema)["Order"]!["properties"]).toEqual({ to: { $ref: "#/$defs/Address" }, note: { $ref: "#/$defs/Note" } });
    expect(defs(schema)["Address"]!["properties"]).toEqual({ zip: { $ref: "#/$defs/Zip" } });
  });

  it("refuses a network ref inside another file, naming that file", async () => {
    const root = demoProject(
      { $defs: { A: { $ref: "other.schema.json#/$defs/B" } } },
      { "schemas/other.schema.json": { $defs: { B: { $ref: "https://example.com/b.json" } } } },
    );
    expect(await failure(root)).toBe(
      'schemas/other.schema.json#/$defs/B/$ref: $ref "https://example.com/b.json" points to the network\n  agentwire never fetches schemas while generating: vendor the document into a folder of the project and map its base URL there in the config, "remotes": { "https://example.com/": "<folder>/" }',
    );
  });

  it("refuses a URN that no schema has as its $id", async () => {
    expect(await failure(demoProject({ $defs: { A: { $ref: "urn:uuid:deadbeef-1234-ffff-ffff-4321feebdaed" } } }))).toBe(
      'schemas/demo.schema.json#/$defs/A/$ref: $ref "urn:uuid:deadbeef-1234-ffff-ffff-4321feebdaed" names urn:uuid:deadbeef-1234-ffff-ffff-4321feebdaed, which no schema here has as its $id\n  give agentwire the schema with that $id: in this file, or in a file of the project that a $ref reads',
    );
  });
});

describe("resolve: embedded schema resources and anchors", () => {
  it("resolves the refs of a schema with its own $id against that $id, and refs to it by its URI", async () => {
    const schema = await resolved(
      demoProject({
        $id: "http://example.com/root.json",
        type: "object",
        properties: {
          foo: { $id: "inner/foo.json", $defs: { bar: { type: "string" } }, $ref: "#/$defs/bar" },
          again: { $ref: "inner/foo.json" },
          deep: { $ref: "http://example.com/inner/foo.json#/$defs/bar" },
        },
      }),
    );
    expect(defs(schema)["Demo"]!["properties"]).toEqual({
      foo: { $ref: "#/$defs/bar" },
      again: { $ref: "#/$defs/Demo/properties/foo" },
      deep: { $ref: "#/$defs/bar" },
    });
  });

  it("takes an $id nearest first: a ref resolves against the closest enclosing one", async () => {
    const schema = await resolved(
      demoProject({
        $id: "http://example.com/a.json",
        $defs: { x: { $id: "http://example.com/b/c.json", not: { $defs: { y: { $id: "d.json", type: "number" } } } } },
        allOf: [{ $ref: "http://example.com/b/d.json" }],
      }),
    );
    expect(defs(schema)["Demo"]!["allOf"]).toEqual([{ $ref: "#/$defs/y" }]);
  });

  it("finds an $anchor in the resource the ref names, not another resource's anchor of the same name", async () => {
    const schema = await resolved(
      demoProject({
        $id: "http://example.com/root",
        $defs: {
          A: {
            $id: "child1",
            anyOf: [
              { $id: "child2", $anchor: "it", type: "number" },
              { $anchor: "it", type: "string" },
            ],
          },
        },
        $ref: "child1#it",
      }),
    );
    // What the root refs, inside A, is a type of its own, named as a root is; A refs it.
    expect(schema["$ref"]).toBe("#/$defs/Demo");
    expect(defs(schema)["Demo"]).toEqual({ type: "string" });
    expect((defs(schema)["A"]!["anyOf"] as JsonObject[])[1]).toEqual({ $ref: "#/$defs/Demo" });
  });

  it("reads draft 7 anchors ($id fragments), draft 4 ids, and ignores an $id beside a draft 7 $ref", async () => {
    const draft7 = await resolved(
      demoProject({
        $schema: "http://json-schema.org/draft-07/schema#",
        $id: "http://example.com/base/",
        definitions: { A: { $id: "#alpha", type: "integer" }, B: { $id: "foo.json", type: "number" } },
        allOf: [{ $ref: "#alpha" }, { $id: "http://example.com/", $ref: "foo.json" }],
      }),
    );
    expect(defs(draft7)["Demo"]!["allOf"]).toEqual([{ $ref: "#/$defs/A" }, { $ref: "#/$defs/B" }]);
    const draft4 = await resolved(
      demoProject({
        $schema: "http://json-schema.org/draft-04/schema#",
        id: "http://example.com/root.json",
        definitions: { A: { id: "#alpha", type: "integer" }, B: { id: "b.json", type: "string" } },
        anyOf: [{ $ref: "#alpha" }, { $ref: "b.json" }],
      }),
    );
    expect(defs(draft4)["Demo"]!["anyOf"]).toEqual([{ $ref: "#/$defs/A" }, { $ref: "#/$defs/B" }]);
    expect(defs(draft4)["A"]).toEqual({ type: "integer" });
  });

  it("reads a $dynamicAnchor as a plain-name fragment, as $anchor", async () => {
    const schema = await resolved(
      demoProject({ type: "array", items: { $ref: "#item" }, $defs: { Item: { $dynamicAnchor: "item", type: "string" } } }),
    );
    expect(defs(schema)["Demo"]!["items"]).toEqual({ $ref: "#/$defs/Item" });
  });

  it("refuses two schemas with one URI", async () => {
    expect(await failure(demoProject({ $id: "http://example.com/root.json", $defs: { A: { $id: "a.json" }, B: { $id: "a.json" } } }))).toBe(
      "schemas/demo.schema.json#/$defs/B/$id: http://example.com/a.json names two schemas, this one and schemas/demo.schema.json#/$defs/A\n  give each schema its own $id or anchor",
    );
  });

  it("reads a relative ref of a vendored copy whose $id is a URL no remote maps beside the copy", async () => {
    const root = demoProject(
      { $id: "https://example.com/published/demo.json", type: "object", properties: { a: { $ref: "common.schema.json#/$defs/A" } } },
      { "schemas/common.schema.json": { $defs: { A: { type: "string" } } } },
    );
    expect(defs(await resolved(root))["Demo"]!["properties"]).toEqual({ a: { $ref: "#/$defs/A" } });
  });
});

describe("resolve: remotes", () => {
  const remoteProject = (schema: object, remotes: Readonly<Record<string, object>>) =>
    makeProject({
      [CONFIG_FILE]: configFor([{ name: "demo", schema: "schemas/demo.schema.json" }], {
        remotes: { "http://localhost:1234/": "schemas/vendor/localhost/" },
      }),
      "schemas/demo.schema.json": schema,
      ...Object.fromEntries(Object.entries(remotes).map(([file, document]) => [`schemas/vendor/localhost/${file}`, document])),
    });

  it("reads a ref under a mapped base URL from its folder, and the refs in it relative to its URL", async () => {
    const schema = await resolved(
      remoteProject(
        {
          type: "object",
          properties: {
            count: { $ref: "http://localhost:1234/integer.json" },
            name: { $ref: "http://localhost:1234/nested/foo-ref-string.json" },
          },
        },
        {
          "integer.json": { type: "integer" },
          "nested/foo-ref-string.json": { type: "object", properties: { foo: { $ref: "string.json" } } },
          "nested/string.json": { type: "string" },
        },
      ),
    );
    expect(Object.keys(defs(schema))).toEqual(["Demo", "Integer", "FooRefString", "String"]);
    expect(defs(schema)["Demo"]!["properties"]).toEqual({ count: { $ref: "#/$defs/Integer" }, name: { $ref: "#/$defs/FooRefString" } });
    expect(defs(schema)["FooRefString"]!["properties"]).toEqual({ foo: { $ref: "#/$defs/String" } });
  });

  it("reads a ref that an $id moves under a mapped base", async () => {
    const schema = await resolved(
      remoteProject(
        { $id: "http://localhost:1234/", type: "array", items: { $id: "baseUriChange/", items: { $ref: "folderInteger.json" } } },
        { "baseUriChange/folderInteger.json": { type: "integer" } },
      ),
    );
    expect(defs(schema)["Demo"]!["items"]).toEqual({ items: { $ref: "#/$defs/FolderInteger" } });
  });

  it("reads a remote without $schema in the draft of the protocol's schema", async () => {
    const schema = await resolved(
      remoteProject(
        { $schema: "http://json-schema.org/draft-07/schema#", $ref: "http://localhost:1234/ids.json#/definitions/refToInteger" },
        { "ids.json": { definitions: { refToInteger: { $ref: "#foo" }, A: { $id: "#foo", type: "integer" } } } },
      ),
    );
    expect(schema["$ref"]).toBe("#/$defs/refToInteger");
    expect(defs(schema)["refToInteger"]).toEqual({ $ref: "#/$defs/A" });
  });

  it("says which vendored document is missing, and which network ref has no remote", async () => {
    expect(await failure(remoteProject({ $ref: "http://localhost:1234/missing.json" }, { "integer.json": {} }))).toMatch(
      /^schemas\/demo\.schema\.json#\/\$ref: \$ref "http:\/\/localhost:1234\/missing\.json" points to a file that does not exist/,
    );
    expect(await failure(remoteProject({ $ref: "http://localhost:4321/x.json" }, { "integer.json": {} }))).toContain(
      '"remotes": { "http://localhost:4321/": "<folder>/" }',
    );
    expect(
      await failure(remoteProject({ $ref: "http://localhost:1234/../../../agentwire.config.json" }, { "integer.json": {} })),
    ).toContain("points to a file that does not exist");
  });

  it("reads a remote's documents from its folder alone: an encoded ../ climbs neither to the project nor out of it", async () => {
    const vendored = { "integer.json": {}, "../other.json": { type: "string" } };
    for (const ref of ["..%2Fother.json", "..%2F..%2F..%2Fagentwire.config.json", "..%2F..%2F..%2F..%2Fsecret.json"])
      expect(await failure(remoteProject({ $ref: `http://localhost:1234/${ref}` }, vendored)), ref).toBe(
        `schemas/demo.schema.json#/$ref: $ref "http://localhost:1234/${ref}" points outside the folder of "http://localhost:1234/", schemas/vendor/localhost/\n  vendor the documents of that base URL into its folder, keeping their paths below the base`,
      );
  });

  it("reports a problem in a remote by the vendored file and pointer", async () => {
    const root = remoteProject(
      { type: "object", properties: { a: { $ref: "http://localhost:1234/defs.json#/$defs/Mode" } } },
      { "defs.json": { $defs: { Mode: { type: "string", pattern: "([a-z]" } } } },
    );
    const message = await failure(root, async (dir) => {
      const project = load(dir);
      return normalize(applyOverlays(resolve(project, project.protocols[0]!)));
    });
    expect(message).toMatch(/^schemas\/vendor\/localhost\/defs\.json#\/\$defs\/Mode\/pattern: invalid pattern/);
  });
});

describe("resolve: provenance", () => {
  it("reports a problem found later by where the user wrote it, not where it moved", async () => {
    const root = demoProject({
      definitions: { Outer: { type: "object", properties: { mode: { title: "Mode", type: "string", pattern: "([a-z]" } } } },
    });
    const message = await failure(root, async (dir) => {
      const project = load(dir);
      return normalize(applyOverlays(resolve(project, project.protocols[0]!)));
    });
    expect(message).toMatch(/^schemas\/demo\.schema\.json#\/definitions\/Outer\/properties\/mode\/pattern: invalid pattern/);
  });
});

function escape(text: string): string {
  return text.replace(/[\\^$.|?*+()[\]{}]/g, "\\$&");
}

describe("resolve: $dynamicRef", () => {
  const list = (anchor: JsonObject) => ({
    $id: "https://example.com/list",
    type: "array",
    items: { $dynamicRef: "#item" },
    $defs: { item: { $dynamicAnchor: "item", ...anchor } },
  });

  it("leads to the root's $dynamicAnchor of its name, the outermost in every dynamic scope", async () => {
    const schema = await resolved(
      demoProject({
        $id: "https://example.com/root",
        $ref: "list",
        $defs: { Strings: { $dynamicAnchor: "item", type: "string" }, List: list({}) },
      }),
    );
    expect(defs(schema)["List"]!["items"]).toEqual({ $ref: "#/$defs/Strings" });
  });

  it("is a $ref where only one schema has the anchor, or it names no $dynamicAnchor", async () => {
    const only = await resolved(demoProject({ $id: "https://example.com/root", $ref: "list", $defs: { List: list({ type: "number" }) } }));
    expect(defs(only)["List"]!["items"]).toEqual({ $ref: "#/$defs/item" });
  });

  it("makes a type once more for each dynamic scope a ref leads to it in, where its anchor depends on the path", async () => {
    const schema = await resolved(
      demoProject({
        $id: "https://example.com/root",
        anyOf: [{ $ref: "numbers" }, { $ref: "strings" }],
        $defs: {
          List: list({}),
          Numbers: { $id: "numbers", $ref: "list", $defs: { n: { $dynamicAnchor: "item", type: "number" } } },
          Strings: { $id: "strings", $ref: "list", $defs: { s: { $dynamicAnchor: "item", type: "string" } } },
        },
      }),
    );
    // List alone binds its own anchor; through Numbers or Strings, theirs.
    expect(defs(schema)["List"]).toEqual({ type: "array", items: { $ref: "#/$defs/item" } });
    expect(defs(schema)["Numbers"]).toEqual({ $ref: "#/$defs/ListWithN" });
    expect(defs(schema)["ListWithN"]).toEqual({ type: "array", items: { $ref: "#/$defs/n" } });
    expect(defs(schema)["ListWithS"]).toEqual({ type: "array", items: { $ref: "#/$defs/s" } });
  });
});

describe("resolve: $recursiveRef (2019-09)", () => {
  const DRAFT = "https://json-schema.org/draft/2019-09/schema";
  const tree = {
    $id: "tree",
    $recursiveAnchor: true,
    type: "object",
    properties: { children: { type: "array", items: { $recursiveRef: "#" } } },
  };

  it("leads to the root where the root has $recursiveAnchor: an extension's children are of the extension", async () => {
    const schema = await resolved(
      demoProject({
        $schema: DRAFT,
        $id: "https://example.com/strict",
        $recursiveAnchor: true,
        $ref: "tree",
        unevaluatedProperties: false,
        $defs: { Tree: tree },
      }),
    );
    expect((defs(schema)["Tree"]!["properties"] as JsonObject)["children"]).toEqual({ type: "array", items: { $ref: "#/$defs/Demo" } });
  });

  it("makes a type once more for each scope where its target depends on the path", async () => {
    const schema = await resolved(
      demoProject({
        $schema: DRAFT,
        $id: "https://example.com/root",
        anyOf: [{ $ref: "strict" }, { $ref: "tree" }],
        $defs: { Tree: tree, Strict: { $id: "strict", $recursiveAnchor: true, $ref: "tree", unevaluatedProperties: false } },
      }),
    );
    expect((defs(schema)["Tree"]!["properties"] as JsonObject)["children"]).toEqual({ type: "array", items: { $ref: "#/$defs/Tree" } });
    expect(defs(schema)["Strict"]!["$ref"]).toBe("#/$defs/TreeWithStrict");
    expect((defs(schema)["TreeWithStrict"]!["properties"] as JsonObject)["children"]).toEqual({
      type: "array",
      items: { $ref: "#/$defs/Strict" },
    });
  });

  it("is a $ref to its own resource where the root has no $recursiveAnchor", async () => {
    const schema = await resolved(demoProject({ $schema: DRAFT, $id: "https://example.com/root", $ref: "tree", $defs: { Tree: tree } }));
    expect((defs(schema)["Tree"]!["properties"] as JsonObject)["children"]).toEqual({ type: "array", items: { $ref: "#/$defs/Tree" } });
  });
});
