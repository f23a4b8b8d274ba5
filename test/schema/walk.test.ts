import { describe, expect, it } from "vitest";
import type { JsonObject, JsonValue } from "../../generator/json.js";
import { isSubschemaPlace, mapSchemas, subschemasOf, walkSchemas } from "../../generator/schema/walk.js";

const pointers = (schema: JsonValue, at = "") => subschemasOf(schema, at).map((sub) => sub.pointer);

/** A deep copy frozen all the way down, so that a write to it throws. */
function frozen<T extends JsonValue>(value: T): T {
  const copy = structuredClone(value) as JsonValue;
  const freeze = (node: JsonValue): void => {
    if (typeof node !== "object" || node === null) return;
    Object.freeze(node);
    for (const child of Object.values(node)) freeze(child as JsonValue);
  };
  freeze(copy);
  return copy as T;
}

describe("subschemasOf", () => {
  it("lists the subschemas in keyword order, then in document order within a keyword", () => {
    const schema: JsonObject = {
      properties: { b: { title: "B" }, a: { title: "A" } },
      allOf: [{ title: "X" }, { title: "Y" }],
      items: { title: "I" },
      not: { title: "N" },
    };
    expect(subschemasOf(schema, "")).toEqual([
      { schema: { title: "B" }, pointer: "/properties/b" },
      { schema: { title: "A" }, pointer: "/properties/a" },
      { schema: { title: "X" }, pointer: "/allOf/0" },
      { schema: { title: "Y" }, pointer: "/allOf/1" },
      { schema: { title: "I" }, pointer: "/items" },
      { schema: { title: "N" }, pointer: "/not" },
    ]);
  });

  it("knows every applicator keyword of one schema, of a list and of a map", () => {
    const schema: JsonObject = {
      additionalProperties: {},
      unevaluatedProperties: {},
      propertyNames: {},
      additionalItems: {},
      unevaluatedItems: {},
      contains: {},
      if: {},
      then: {},
      else: {},
      contentSchema: {},
      anyOf: [{}],
      oneOf: [{}],
      prefixItems: [{}],
      $defs: { D: {} },
      definitions: { E: {} },
      patternProperties: { "^x$": {} },
      dependentSchemas: { a: {} },
    };
    expect(pointers(schema)).toEqual([
      "/additionalProperties",
      "/unevaluatedProperties",
      "/propertyNames",
      "/additionalItems",
      "/unevaluatedItems",
      "/contains",
      "/if",
      "/then",
      "/else",
      "/contentSchema",
      "/anyOf/0",
      "/oneOf/0",
      "/prefixItems/0",
      "/$defs/D",
      "/definitions/E",
      "/patternProperties/^x$",
      "/dependentSchemas/a",
    ]);
  });

  it("reads an array under items as a tuple of schemas (draft 2019 and earlier)", () => {
    expect(pointers({ items: [{ type: "string" }, true] })).toEqual(["/items/0", "/items/1"]);
  });

  it("counts boolean schemas as subschemas", () => {
    expect(subschemasOf({ additionalProperties: false, allOf: [true] }, "/$defs/A")).toEqual([
      { schema: false, pointer: "/$defs/A/additionalProperties" },
      { schema: true, pointer: "/$defs/A/allOf/0" },
    ]);
  });

  it("treats only keyword positions as schemas: a property named properties is data, and so are const, enum, default and unknown keywords", () => {
    expect(pointers({ properties: { properties: { type: "string" } } })).toEqual(["/properties/properties"]);
    expect(pointers({ type: "string" })).toEqual([]);
    expect(pointers({ const: { properties: { a: {} } }, enum: [{ items: {} }], default: { not: {} }, "x-extra": { allOf: [{}] } })).toEqual(
      [],
    );
  });

  it("reads a schema-valued entry of dependencies as a subschema, and a list of property names as none", () => {
    expect(pointers({ dependencies: { a: { required: ["b"] }, c: ["a"], d: false } })).toEqual(["/dependencies/a", "/dependencies/d"]);
    expect(pointers({ dependencies: [{}] })).toEqual([]);
  });

  it("skips a list or map keyword whose value has the wrong JSON type", () => {
    expect(pointers({ allOf: { a: {} }, properties: [{}], $defs: "x" })).toEqual([]);
  });

  it("escapes names in the pointers it builds from the given one", () => {
    expect(pointers({ $defs: { "a/b": {}, "c~d": {} } }, "/x~1y")).toEqual(["/x~1y/$defs/a~1b", "/x~1y/$defs/c~0d"]);
  });

  it("has nothing beneath a boolean, an array or a string", () => {
    for (const schema of [true, false, [{ type: "string" }], "properties", null]) expect(pointers(schema)).toEqual([]);
  });
});

describe("isSubschemaPlace", () => {
  const schema: JsonObject = {
    properties: { a: { type: "array", items: { type: "string" } } },
    definitions: { group: { x: { type: "object" }, list: [{ type: "string" }] } },
  };

  it("is where keyword positions lead, the schema itself included", () => {
    for (const target of ["", "/properties/a", "/properties/a/items", "/definitions/group"])
      expect(isSubschemaPlace(schema, "", target), target).toBe(true);
    expect(isSubschemaPlace({ type: "array", items: { type: "string" } }, "/properties/a", "/properties/a/items")).toBe(true);
  });

  it("is not where the way passes a key that is no keyword, or a place no schema is", () => {
    for (const target of ["/definitions/group/x", "/definitions/group/list/0", "/properties/a/type", "/properties/b"])
      expect(isSubschemaPlace(schema, "", target), target).toBe(false);
  });

  it("is every place subschemasOf lists, and only those, through tuples, dependencies and escaped names", () => {
    const tangled: JsonObject = {
      items: [{ type: "string" }, { properties: { "a/b~c": { not: { type: "null" } } } }],
      prefixItems: [{ items: { type: "number" } }],
      dependencies: { x: ["y"], z: { required: ["w"] } },
      $defs: { "": { anyOf: [true, false] } },
      properties: { items: { type: "string" } },
      const: { items: { type: "string" } },
    };
    const places = new Set<string>();
    walkSchemas(tangled, "", (_, pointer) => places.add(pointer));
    const candidates = [
      ...places,
      ...[...places].flatMap((place) => [`${place}/0`, `${place}/items`, `${place}/x`, `${place}/type`, `${place}/01`, `${place}/2`]),
      "/items",
      "/dependencies",
      "/dependencies/x",
      "/dependencies/x/0",
      "/const/items",
      "/properties",
      "/$defs",
    ];
    for (const target of candidates) expect(isSubschemaPlace(tangled, "", target), target).toBe(places.has(target));
    expect(places).toContain("/items/1/properties/a~1b~0c/not");
    expect(places).toContain("/$defs//anyOf/1");
    // From a schema inside the document: the places beneath it.
    const second = (tangled["items"] as JsonValue[])[1]!;
    expect(isSubschemaPlace(second, "/items/1", "/items/1/properties/a~1b~0c")).toBe(true);
    expect(isSubschemaPlace(second, "/items/1", "/items/0")).toBe(false);
  });
});

describe("walkSchemas", () => {
  it("visits depth first, each schema before the ones beneath it", () => {
    const schema: JsonObject = {
      $defs: { A: { properties: { x: { items: { type: "string" } } } }, B: true },
      anyOf: [{ $ref: "#/$defs/A" }],
    };
    const seen: string[] = [];
    walkSchemas(schema, "", (_, pointer) => seen.push(pointer));
    expect(seen).toEqual(["", "/$defs/A", "/$defs/A/properties/x", "/$defs/A/properties/x/items", "/$defs/B", "/anyOf/0"]);
  });

  it("visits a boolean schema once, with the given pointer", () => {
    const seen: [JsonValue, string][] = [];
    walkSchemas(false, "/not", (schema, pointer) => seen.push([schema, pointer]));
    expect(seen).toEqual([[false, "/not"]]);
  });
});

describe("mapSchemas", () => {
  it("rewrites bottom up: each schema after the ones beneath it", () => {
    const schema: JsonObject = { properties: { a: { items: {} }, b: {} }, allOf: [{}] };
    const order: string[] = [];
    mapSchemas(schema, "", (rebuilt, pointer) => {
      order.push(pointer);
      return rebuilt;
    });
    expect(order).toEqual(["/properties/a/items", "/properties/a", "/properties/b", "/allOf/0", ""]);
  });

  it("gives rewrite the schema with its subschemas already replaced", () => {
    const schema: JsonObject = { properties: { a: { title: "drop" }, b: { title: "keep" } }, items: [{ title: "drop" }] };
    const parents: JsonValue[] = [];
    const result = mapSchemas(schema, "", (rebuilt, pointer) => {
      if (pointer === "") parents.push(rebuilt);
      return rebuilt["title"] === "drop" ? true : rebuilt;
    });
    expect(parents).toEqual([{ properties: { a: true, b: { title: "keep" } }, items: [true] }]);
    expect(result).toEqual({ properties: { a: true, b: { title: "keep" } }, items: [true] });
  });

  it("leaves data positions and boolean schemas alone: rewrite sees schema objects only", () => {
    const schema: JsonObject = { const: { properties: { a: {} } }, enum: [{}], additionalProperties: false, "x-extra": { not: {} } };
    const seen: string[] = [];
    const result = mapSchemas(schema, "/$defs/T", (rebuilt, pointer) => {
      seen.push(pointer);
      return rebuilt;
    });
    expect(seen).toEqual(["/$defs/T"]);
    expect(result).toEqual(schema);
  });

  it("rewrites a schema-valued entry of dependencies and keeps a list of property names as it is", () => {
    const schema: JsonObject = { dependencies: { a: { title: "drop" }, c: ["a"] } };
    expect(mapSchemas(schema, "", (rebuilt) => (rebuilt["title"] === "drop" ? true : rebuilt))).toEqual({
      dependencies: { a: true, c: ["a"] },
    });
  });

  it("does not modify its input", () => {
    const schema = frozen({ properties: { a: { type: "string" } }, allOf: [{ type: "object" }] } as JsonObject);
    const result = mapSchemas(schema, "", (rebuilt) => ({ ...rebuilt, seen: true }));
    expect(schema).toEqual({ properties: { a: { type: "string" } }, allOf: [{ type: "object" }] });
    expect(result).toEqual({
      properties: { a: { type: "string", seen: true } },
      allOf: [{ type: "object", seen: true }],
      seen: true,
    });
  });

  it("keeps a property named __proto__ as an own property, not as the prototype", () => {
    const schema = JSON.parse('{"properties": {"__proto__": {"type": "string"}}}') as JsonObject;
    const result = mapSchemas(schema, "", (rebuilt) => rebuilt) as { properties: JsonObject };
    expect(Object.getPrototypeOf(result.properties)).toBe(Object.prototype);
    expect(Object.keys(result.properties)).toEqual(["__proto__"]);
    expect(Object.getOwnPropertyDescriptor(result.properties, "__proto__")?.value).toEqual({ type: "string" });
  });

  it("returns a non-object schema as it is, without calling rewrite", () => {
    let calls = 0;
    expect(mapSchemas(true, "", (rebuilt) => (calls++, rebuilt))).toBe(true);
    expect(calls).toBe(0);
  });
});
