import { describe, expect, it } from "vitest";
import type { JsonValue } from "../../generator/json.js";
import { hoistTitled, NamedSchemas, nameDefinitions, nameRefTargets, nameRootRef, nameRoots } from "../../generator/resolve/named.js";
import { Resources } from "../../generator/resolve/resources.js";
import { PROJECT_DIR, sourceFile } from "../helpers/in-memory.js";

/** The schemas of a protocol "demo-app" whose main file is `main`, and any other files, named by no job yet. */
function schemasOf(main: JsonValue, ...others: readonly [name: string, document: JsonValue][]): NamedSchemas {
  const resources = new Resources(sourceFile("main.schema.json", main), { inputsDir: PROJECT_DIR, remotes: [] });
  for (const [name, document] of others) resources.add(sourceFile(name, document));
  return new NamedSchemas(resources, "demo-app");
}

/** What was named, in order: each type's name and its place, `file#pointer`. */
function namedOf(named: NamedSchemas): string[] {
  return named.names.named.map((entry) => `${entry.name} ${entry.source.file.replace("schemas/", "")}#${entry.pointer}`);
}

/** Names the definitions of every file, as canonicalize does after the roots. */
function nameAllDefinitions(named: NamedSchemas): void {
  for (const file of named.resources.files) nameDefinitions(named, file, file.document, "");
}

describe("nameRoots", () => {
  it("names a root that constrains values by its title, the main file's else by the protocol, another file's by its name", () => {
    const named = schemasOf(
      { type: "object" },
      ["bitrise-step.json", { type: "string" }],
      ["titled.json", { title: "Step Config", type: "string" }],
    );
    nameRoots(named);
    expect(namedOf(named)).toEqual(["DemoApp main.schema.json#", "BitriseStep bitrise-step.json#", "StepConfig titled.json#"]);
  });

  it("names no root that only holds definitions or only refs, and leaves a root's definitions out of its body", () => {
    const named = schemasOf({ $defs: { a: { type: "string" } } }, ["ref.json", { $ref: "main.schema.json" }]);
    nameRoots(named);
    expect(namedOf(named)).toEqual([]);
    const withBody = schemasOf({ $schema: "https://json-schema.org/draft/2020-12/schema", type: "object", $defs: { a: {} } });
    nameRoots(withBody);
    expect(withBody.names.named[0]!.body).toEqual({ type: "object" });
  });

  it("takes a title that reads as a sentence for no name", () => {
    const named = schemasOf({ title: "JSON schema for the demo configuration files.", type: "object" });
    nameRoots(named);
    expect(namedOf(named)).toEqual(["DemoApp main.schema.json#"]);
  });
});

describe("nameDefinitions", () => {
  it("names every definition at any depth by its key, in either container, a schema's own before those inside them", () => {
    const named = schemasOf({
      definitions: { old: { type: "string" } },
      $defs: { outer: { properties: { x: { $defs: { inner: { type: "number" } } } } } },
    });
    nameAllDefinitions(named);
    expect(namedOf(named)).toEqual([
      "outer main.schema.json#/$defs/outer",
      "old main.schema.json#/definitions/old",
      "inner main.schema.json#/$defs/outer/properties/x/$defs/inner",
    ]);
  });

  it("up to draft 7 reads what `$defs` holds as data, which names nothing", () => {
    const draft7 = schemasOf({ $schema: "http://json-schema.org/draft-07/schema#", $defs: { a: 3 }, definitions: { b: {} } });
    nameAllDefinitions(draft7);
    expect(namedOf(draft7)).toEqual(["b main.schema.json#/definitions/b"]);
  });
});

describe("hoistTitled", () => {
  it("hoists a titled inline schema of a named one, without the annotations of its use, and shares identical ones", () => {
    const address = { title: "Address", type: "object" };
    const named = schemasOf({
      type: "object",
      properties: { home: { ...address, description: "Where one lives." }, work: address, title: { title: "Not A Name.", type: "string" } },
    });
    nameRoots(named);
    hoistTitled(named);
    expect(namedOf(named)).toEqual(["DemoApp main.schema.json#", "Address main.schema.json#/properties/home"]);
    expect(named.names.named[1]!.body).toEqual(address);
    expect(named.isHoisted(named.root, "/properties/work")).toBe(true);
    expect(named.isDefinition(named.root, "/properties/work")).toBe(false);
  });

  it("leaves a titled definition where it is, and hoists what is titled inside a hoisted schema", () => {
    const named = schemasOf({
      $defs: { Kept: { title: "Kept", properties: { a: { title: "Outer", items: { title: "Inner", type: "string" } } } } },
    });
    nameAllDefinitions(named);
    hoistTitled(named);
    expect(namedOf(named).map((each) => each.split(" ")[0])).toEqual(["Kept", "Outer", "Inner"]);
    expect(named.isDefinition(named.root, "/$defs/Kept")).toBe(true);
  });
});

describe("nameRefTargets", () => {
  it("names a target no named schema holds as a subschema by its key, and what it refs in turn", () => {
    const named = schemasOf({
      type: "object",
      properties: { a: { $ref: "#/definitions/group/first" }, b: { $ref: "#/definitions/leaf" } },
      definitions: { group: { first: { items: { $ref: "#/definitions/group/second" } }, second: { type: "string" } }, leaf: {} },
    });
    nameRoots(named);
    nameAllDefinitions(named);
    nameRefTargets(named);
    expect(namedOf(named).map((each) => each.split(" ")[0])).toEqual(["DemoApp", "group", "leaf", "first", "second"]);
  });

  it("follows a target that is only a ref without naming it", () => {
    const named = schemasOf({
      properties: { a: { $ref: "#/x/alias" } },
      x: { alias: { $ref: "#/x/real" }, real: { type: "string" } },
    });
    nameRoots(named);
    nameRefTargets(named);
    expect(namedOf(named)).toEqual(["DemoApp main.schema.json#", "real main.schema.json#/x/real"]);
  });
});

describe("nameRootRef", () => {
  it("names the target of a root that is only a ref, where nothing holds it, as the root", () => {
    const named = schemasOf({ $ref: "#/definitions/group/x", definitions: { group: { x: { type: "object" } } } });
    nameAllDefinitions(named);
    nameRootRef(named);
    expect(namedOf(named)).toEqual(["group main.schema.json#/definitions/group", "DemoApp main.schema.json#/definitions/group/x"]);
  });

  it("hoists a target inside a named schema under the protocol's name", () => {
    const named = schemasOf({
      $ref: "#/$defs/Config/properties/settings",
      $defs: { Config: { properties: { settings: { type: "object" } } } },
    });
    nameAllDefinitions(named);
    nameRootRef(named);
    expect(namedOf(named)).toEqual(["Config main.schema.json#/$defs/Config", "DemoApp main.schema.json#/$defs/Config/properties/settings"]);
    expect(named.isHoisted(named.root, "/$defs/Config/properties/settings")).toBe(true);
  });

  it("names nothing for a root that constrains values itself", () => {
    const named = schemasOf({ $ref: "#/$defs/a", type: "object", $defs: { a: {} } });
    nameRoots(named);
    nameAllDefinitions(named);
    nameRootRef(named);
    expect(namedOf(named)).toEqual(["DemoApp main.schema.json#", "a main.schema.json#/$defs/a"]);
  });
});
