import { describe, expect, it } from "vitest";
import type { JsonObject } from "../../generator/json.js";
import { NamedSchemas, nameDefinitions, nameRoots } from "../../generator/resolve/named.js";
import { refResolver } from "../../generator/resolve/ref-pointers.js";
import { Resources } from "../../generator/resolve/resources.js";
import { inputError } from "../helpers/failure.js";
import { PROJECT_DIR, sourceFile } from "../helpers/in-memory.js";

/** Where a ref at a place of one file leads in the effective schema, its root and definitions named. */
function resolverOf(document: JsonObject) {
  const resources = new Resources(sourceFile("main.schema.json", document), { inputsDir: PROJECT_DIR, remotes: [] });
  const named = new NamedSchemas(resources, "demo");
  nameRoots(named);
  nameDefinitions(named, named.root, document, "");
  const resolve = refResolver(resources, named.names);
  return (ref: string, at = "") => resolve(named.root, at, ref);
}

describe("refResolver", () => {
  const resolve = resolverOf({
    type: "object",
    properties: { a: { type: "string" } },
    x: { alias: { $ref: "#/$defs/Item" }, loop: { $ref: "#/x/loop" } },
    $defs: { Item: { type: "object", properties: { id: {} } } },
  });

  it("points a ref into the named type that holds its target", () => {
    expect(resolve("#/$defs/Item")).toBe("#/$defs/Item");
    expect(resolve("#/$defs/Item/properties/id")).toBe("#/$defs/Item/properties/id");
    expect(resolve("#/properties/a")).toBe("#/$defs/Demo/properties/a");
  });

  it("follows a schema outside any named type that is only a ref", () => {
    expect(resolve("#/x/alias")).toBe("#/$defs/Item");
  });

  it("refuses a ref to nothing with the nearest key, and a cycle of refs that reaches no schema", async () => {
    expect(await inputError(() => resolve("#/$defs/Iten"))).toContain('points to nothing\n  did you mean "Item"?');
    expect(await inputError(() => resolve("#/x/loop"))).toContain("is part of a cycle of refs that never reaches a schema");
  });
});
