import { describe, expect, it } from "vitest";
import { recursiveTypes, refsOf, stronglyConnected, ThroughRefs } from "../../generator/ir/graph.js";
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

describe("stronglyConnected", () => {
  it("finds the components of a graph, each once, a component after those it reaches", () => {
    // 0 → 1 → 2 → 0 is a cycle, 3 → 4 → 3 another reached from it, 5 alone with a self-edge, 6 alone.
    const successors = [[1], [2], [0, 3], [4], [3], [5], []];
    const components = stronglyConnected(successors.length, (node) => successors[node]!);
    expect(components.map((component) => [...component].sort())).toEqual([[3, 4], [0, 1, 2], [5], [6]]);
  });

  it("asks each node for its successors once and walks a ring of 100,000 without recursing", () => {
    const count = 100_000;
    let asked = 0;
    const components = stronglyConnected(count, (node) => {
      asked++;
      return [(node + 1) % count];
    });
    expect(asked).toBe(count);
    expect(components).toHaveLength(1);
    expect(components[0]).toHaveLength(count);
  });
});

describe("recursiveTypes on many types", () => {
  it("finds the types on a chain's cycle and none of those leading to it", () => {
    const count = 2_000;
    // T0 → T1 → … → T1999 → T1990: the last ten are a cycle, the rest lead to it.
    const types = Object.fromEntries(
      Array.from({ length: count }, (_, i): [string, Shape] => [
        `T${i}`,
        { kind: "array", items: ref(`T${i + 1 < count ? i + 1 : count - 10}`) },
      ]),
    );
    const recursive = recursiveTypes(ir(types));
    expect(recursive.size).toBe(10);
    expect(recursive.has(`T${count - 10}`) && recursive.has(`T${count - 1}`) && !recursive.has(`T${count - 11}`)).toBe(true);
  });
});

describe("ThroughRefs", () => {
  /** Whether a type holds a string somewhere through refs, as the emitters ask such things, counting what is computed. */
  const holdsString = (shapes: ReadonlyMap<string, Shape>) => {
    const named = new ThroughRefs(false);
    let computed = 0;
    const holds = (shape: Shape): boolean => {
      if (shape.kind === "string") return true;
      if (shape.kind === "union") return shape.members.some(holds);
      if (shape.kind !== "ref") return false;
      return named.follow(shape.name, () => (computed++, holds(shapes.get(shape.name)!)));
    };
    return { holds, computed: () => computed };
  };

  it("computes each named type once however many paths lead to it", () => {
    // A chain of 1,000 aliases, each a union of the next, ending in a string: asked of every link.
    const count = 1_000;
    const shapes = new Map<string, Shape>(
      Array.from({ length: count }, (_, i): [string, Shape] => [
        `T${i}`,
        i + 1 < count ? { kind: "union", members: [{ kind: "null" }, ref(`T${i + 1}`)], exclusive: false } : { kind: "string" },
      ]),
    );
    const { holds, computed } = holdsString(shapes);
    for (let i = 0; i < count; i++) expect(holds(ref(`T${i}`))).toBe(true);
    expect(computed()).toBe(count);
  });

  it("answers through a cycle, the name met again on its own way cut there", () => {
    // A → B → A, and B also holds a string: from A, B is computed first with A cut.
    const shapes = new Map<string, Shape>([
      ["A", { kind: "union", members: [ref("B")], exclusive: false }],
      ["B", { kind: "union", members: [ref("A"), { kind: "string" }], exclusive: false }],
      ["C", { kind: "union", members: [ref("A")], exclusive: false }],
    ]);
    const { holds } = holdsString(shapes);
    expect(holds(ref("C"))).toBe(true);
    expect(holds(ref("A"))).toBe(true);
    expect(holds(ref("B"))).toBe(true);
  });
});
