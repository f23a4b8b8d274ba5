import { describe, expect, it } from "vitest";
import { ShapeIds } from "../../generator/ir/identity.js";
import type { Field, Shape } from "../../generator/ir/model.js";

const STRING: Shape = { kind: "string" };

function field(name: string, shape: Shape, extra: Partial<Field> = {}): Field {
  return { name, shape, required: false, doc: {}, pointer: `/$defs/X/properties/${name}`, ...extra };
}

function object(...fields: Field[]): Shape {
  return { kind: "object", fields, additional: { kind: "unknown" } };
}

describe("ShapeIds: shapes by what they accept", () => {
  it("gives one id to shapes alike but for docs, pointers, descriptions and stamps", () => {
    const ids = new ShapeIds();
    const a = object(field("at", { kind: "number", integer: true }, { doc: { description: "When." }, stamp: "unix-milliseconds" }));
    const b = object(field("at", { kind: "number", integer: true }, { pointer: "/$defs/Y/properties/at" }));
    expect(ids.id(a)).toBe(ids.id(b));
    const described: Shape = { kind: "enum", values: ["a", "b"], descriptions: ["A", null] };
    expect(ids.id(described)).toBe(ids.id({ kind: "enum", values: ["a", "b"] }));
  });

  it("tells apart shapes that accept differently", () => {
    const ids = new ShapeIds();
    const distinct: Shape[] = [
      object(field("a", STRING)),
      object(field("b", STRING)),
      object(field("a", STRING, { required: true })),
      object(field("a", STRING, { aliases: ["A"] })),
      { kind: "literal", value: "#0" },
      { kind: "literal", value: { kind: "string" } },
      { kind: "literal", value: { doc: 1 } },
      { kind: "literal", value: { doc: 2 } },
      // A record of the IR's data keeps every key, however it is named.
      { kind: "enum", values: ["doc"], wire: { numbers: { doc: 1 } } },
      { kind: "enum", values: ["doc"], wire: { numbers: { doc: 2 } } },
      STRING,
      { kind: "array", items: STRING },
      { kind: "array", items: { kind: "array", items: STRING } },
    ];
    expect(new Set(distinct.map((shape) => ids.id(shape))).size).toBe(distinct.length);
  });

  it("finds the shapes met again, not walking into a part met before", () => {
    const ids = new ShapeIds();
    const inner = object(field("x", { kind: "array", items: STRING }));
    const outer = object(field("one", inner), field("two", inner));
    const repeated = ids.repeated([outer, outer]);
    expect(repeated.has(ids.id(outer))).toBe(true);
    expect(repeated.has(ids.id(inner))).toBe(true);
    // Each object's open rest.
    expect(repeated.has(ids.id({ kind: "unknown" }))).toBe(true);
    // The array inside the inner object is met once: its object is written once.
    expect(repeated.has(ids.id({ kind: "array", items: STRING }))).toBe(false);
  });
});
