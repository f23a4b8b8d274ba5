import { describe, expect, it } from "vitest";
import type { JsonObject } from "../../generator/json.js";
import { load } from "../../generator/load/index.js";
import { normalize } from "../../generator/normalize/index.js";
import { applyOverlays } from "../../generator/overlay/index.js";
import { resolve } from "../../generator/resolve/index.js";
import { inputError } from "../helpers/failure.js";
import { demoProject } from "../helpers/project.js";

async function resolved(root: string): Promise<JsonObject> {
  const project = load(root);
  return (await resolve(project, project.protocols[0]!)).schema;
}

const failure = (root: string, stage: (root: string) => Promise<unknown> = resolved) => inputError(() => stage(root));

const defs = (schema: JsonObject) => schema["$defs"] as Record<string, JsonObject>;

describe("resolve: names", () => {
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

  it("refuses two different schemas that would get one name", async () => {
    expect(
      await failure(
        demoProject({
          $defs: { One: { type: "object", properties: { a: { title: "Mode", enum: ["x"] }, b: { title: "Mode", enum: ["y"] } } } },
        }),
      ),
    ).toMatch(
      /^schemas\/demo\.schema\.json#\/\$defs\/One\/properties\/b: two different schemas would both be named "Mode"; the other is at schemas\/demo\.schema\.json#\/\$defs\/One\/properties\/a/,
    );
    expect(await failure(demoProject({ title: "Thing", type: "object", $defs: { Thing: { type: "string" } } }))).toContain(
      'would both be named "Thing"',
    );
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
    ["../outside.json", "points outside the schemas folder"],
    ["/etc/passwd", "points outside the schemas folder"],
    ["file:///etc/passwd", "points outside the schemas folder"],
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

  it("brings in definitions of other files in the schemas folder, by name", async () => {
    const root = demoProject(
      {
        title: "Order",
        type: "object",
        properties: { to: { $ref: "common/address.schema.json#/$defs/Address" }, note: { $ref: "common/note.schema.json" } },
      },
      {
        "schemas/common/address.schema.json": {
          $defs: {
            Address: { type: "object", properties: { zip: { $ref: "#/$defs/Zip" } } },
            Zip: { type: "string", pattern: "^[0-9]{5}$" },
          },
        },
        "schemas/common/note.schema.json": { title: "Note", type: "string" },
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
      'schemas/other.schema.json#/$defs/B/$ref: $ref "https://example.com/b.json" points to the network\n  agentwire never fetches schemas while generating: vendor the file into schemas/ and ref it by a relative path',
    );
  });

  it("refuses an embedded schema resource (a nested $id)", async () => {
    expect(
      await failure(demoProject({ $defs: { A: { type: "object", properties: { b: { $id: "b.json", type: "string" } } } } })),
    ).toContain("schemas/demo.schema.json#/$defs/A/properties/b/$id: unsupported: a nested $id");
  });
});

describe("resolve: provenance", () => {
  it("reports a problem found later by where the user wrote it, not where it moved", async () => {
    const root = demoProject({
      definitions: { Outer: { type: "object", properties: { mode: { title: "Mode", allOf: [{ type: "string" }, { type: "null" }] } } } },
    });
    const message = await failure(root, async (dir) => {
      const project = load(dir);
      return normalize(applyOverlays(await resolve(project, project.protocols[0]!)));
    });
    expect(message).toMatch(/^schemas\/demo\.schema\.json#\/definitions\/Outer\/properties\/mode: no value satisfies this schema/);
  });
});

function escape(text: string): string {
  return text.replace(/[\\^$.|?*+()[\]{}]/g, "\\$&");
}
