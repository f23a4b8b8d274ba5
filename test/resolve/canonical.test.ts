import { describe, expect, it } from "vitest";
import type { JsonObject } from "../../generator/json.js";
import { rewriteBody } from "../../generator/resolve/canonical.js";
import { hoistTitled, NamedSchemas, nameDefinitions, nameRoots } from "../../generator/resolve/named.js";
import { refResolver } from "../../generator/resolve/ref-pointers.js";
import { Resources } from "../../generator/resolve/resources.js";
import { DynamicScopes } from "../../generator/resolve/scopes.js";
import { PROJECT_DIR, sourceFile } from "../helpers/in-memory.js";

/** Each named type's body of one file's schemas as the effective schema has it, by name. */
function rewritten(document: JsonObject): Record<string, unknown> {
  const resources = new Resources(sourceFile("main.schema.json", document), { inputsDir: PROJECT_DIR, remotes: [] });
  const named = new NamedSchemas(resources, "demo");
  nameRoots(named);
  nameDefinitions(named, named.root, document, "");
  hoistTitled(named);
  const resolveRef = refResolver(resources, named.names);
  const scopes = new DynamicScopes(resources, named.names, resolveRef);
  const rewriting = { named, scopes, resolveRef };
  return Object.fromEntries(named.names.named.map((entry) => [entry.name, rewriteBody(entry, scopes.standalone(entry), rewriting)]));
}

describe("rewriteBody", () => {
  it("points each $ref into the effective schema, and drops what identified schemas", () => {
    expect(
      rewritten({
        $id: "https://example.com/demo",
        type: "object",
        properties: { a: { $ref: "#item" }, b: { $ref: "https://example.com/demo#/$defs/Other" } },
        $defs: { Item: { $anchor: "item", type: "string" }, Other: { type: "number" } },
      }),
    ).toEqual({
      Demo: { type: "object", properties: { a: { $ref: "#/$defs/Item" }, b: { $ref: "#/$defs/Other" } } },
      Item: { type: "string" },
      Other: { type: "number" },
    });
  });

  it("replaces a hoisted schema by a ref to its type, beside the annotations of its use", () => {
    expect(rewritten({ type: "array", items: { title: "Entry", description: "One entry.", type: "string" } })).toEqual({
      Demo: { type: "array", items: { $ref: "#/$defs/Entry", description: "One entry." } },
      Entry: { title: "Entry", type: "string" },
    });
  });

  it("makes a $dynamicRef whose target does not depend on the path a $ref, and one beside a $ref an allOf member", () => {
    expect(
      rewritten({
        $defs: {
          Node: { $dynamicAnchor: "node", type: "object", properties: { next: { $dynamicRef: "#node" } } },
          Both: { $ref: "#/$defs/Node", $dynamicRef: "#/$defs/Node" },
        },
      }),
    ).toEqual({
      Node: { type: "object", properties: { next: { $ref: "#/$defs/Node" } } },
      Both: { $ref: "#/$defs/Node", allOf: [{ $ref: "#/$defs/Node" }] },
    });
  });
});
