import { describe, expect, it } from "vitest";
import { recursiveTypes, refsOf } from "../../generator/ir/graph.js";
import type { Ir, Shape } from "../../generator/ir/model.js";
import { field, ONE_OF_EACH_KIND, ref } from "../helpers/shapes.js";

/** An IR of the given types, each at its pointer in $defs. */
const ir = (types: Readonly<Record<string, Shape>>): Ir => ({
  protocol: "demo",
  types: Object.entries(types).map(([name, shape]) => ({ name, pointer: `/$defs/${name}`, doc: {}, shape })),
});

describe("refsOf", () => {
  it("finds the named types each kind of shape refers to directly", () => {
    const expected: { readonly [K in Shape["kind"]]: string[] } = {
      ref: ["Task"],
      unknown: [],
      never: [],
      literal: [],
      enum: [],
      string: [],
      number: [],
      boolean: [],
      null: [],
      array: ["Part"],
      object: [],
      map: [],
      nullable: [],
      constrained: ["Short", "Long"],
      union: ["Part"],
      "tagged-union": ["Started", "Finished"],
      "keyed-union": ["Task", "Message"],
    };
    for (const [kind, shape] of Object.entries(ONE_OF_EACH_KIND)) expect(refsOf(shape), kind).toEqual(expected[kind as Shape["kind"]]);
  });

  it("looks through nesting: fields, then what other properties hold", () => {
    const shape: Shape = {
      kind: "object",
      fields: [
        field("parts", { kind: "array", items: { kind: "nullable", shape: ref("Part") } }),
        field("meta", { kind: "map", values: { kind: "union", members: [ref("A"), ref("B")], exclusive: true } }),
      ],
      additional: ref("Extra"),
    };
    expect(refsOf(shape)).toEqual(["Part", "A", "B", "Extra"]);
  });

  it("looks into pattern properties, between the fields and the other properties, and into the names", () => {
    const shape: Shape = {
      kind: "object",
      fields: [field("id", ref("Id"))],
      patterns: [{ pattern: "^x-", shape: ref("Extension") }],
      additional: ref("Extra"),
      names: ref("Name"),
    };
    expect(refsOf(shape)).toEqual(["Id", "Extension", "Extra", "Name"]);
  });

  it("looks into keyed unions' members, then their shared fields, then what other properties hold", () => {
    const shape: Shape = {
      kind: "keyed-union",
      members: [field("task", ref("Task"), false)],
      fields: [field("id", ref("Id"))],
      additional: { kind: "map", values: ref("Value") },
    };
    expect(refsOf(shape)).toEqual(["Task", "Id", "Value"]);
  });

  it("looks into a tagged union's anonymous members", () => {
    const shape: Shape = {
      kind: "tagged-union",
      tag: "type",
      members: [{ value: "A", shape: { kind: "object", fields: [field("child", ref("Node"))], additional: { kind: "never" } } }],
    };
    expect(refsOf(shape)).toEqual(["Node"]);
  });

  it("keeps a name each time it is referred to", () => {
    expect(refsOf({ kind: "union", members: [ref("A"), { kind: "array", items: ref("A") }], exclusive: false })).toEqual(["A", "A"]);
  });

  it("finds the names of a tuple's positions, its rest and what it must contain", () => {
    expect(refsOf({ kind: "array", prefixItems: [ref("A"), ref("B")], items: ref("C"), contains: [{ shape: ref("D"), min: 1 }] })).toEqual([
      "A",
      "B",
      "C",
      "D",
    ]);
  });
});

describe("recursiveTypes", () => {
  it("finds a type that contains itself through arrays, maps and unions, as a JSON value does", () => {
    const value: Shape = {
      kind: "union",
      members: [{ kind: "string" }, { kind: "array", items: ref("Value") }, { kind: "map", values: ref("Value") }],
      exclusive: false,
    };
    expect([...recursiveTypes(ir({ Value: value, Text: { kind: "string" } }))]).toEqual(["Value"]);
  });

  it("finds every type on a cycle through others, and none that only refers to one", () => {
    const types = ir({
      A: { kind: "object", fields: [field("b", ref("B"))], additional: { kind: "never" } },
      B: { kind: "nullable", shape: ref("C") },
      C: { kind: "array", items: ref("A") },
      User: { kind: "object", fields: [field("a", ref("A"))], additional: { kind: "unknown" } },
      Leaf: { kind: "string" },
    });
    expect([...recursiveTypes(types)].sort()).toEqual(["A", "B", "C"]);
  });

  it("finds a tree whose nodes are told apart by a tag", () => {
    const types = ir({
      Node: {
        kind: "tagged-union",
        tag: "type",
        members: [
          { value: "LEAF", shape: ref("Leaf") },
          { value: "BRANCH", shape: ref("Branch") },
        ],
      },
      Leaf: { kind: "object", fields: [field("value", { kind: "number", integer: true })], additional: { kind: "never" } },
      Branch: { kind: "object", fields: [field("children", { kind: "array", items: ref("Node") })], additional: { kind: "never" } },
    });
    expect([...recursiveTypes(types)].sort()).toEqual(["Branch", "Node"]);
  });

  it("finds a type referring to itself directly, and ignores names that no type declares", () => {
    const types = ir({
      Self: { kind: "nullable", shape: ref("Self") },
      Dangling: { kind: "array", items: ref("Missing") },
    });
    expect([...recursiveTypes(types)]).toEqual(["Self"]);
  });

  it("finds nothing in an IR without cycles, even where two types refer to the same one", () => {
    const types = ir({
      A: { kind: "union", members: [ref("C"), ref("B")], exclusive: false },
      B: { kind: "array", items: ref("C") },
      C: { kind: "string" },
    });
    expect(recursiveTypes(types).size).toBe(0);
    expect(recursiveTypes(ir({})).size).toBe(0);
  });
});
