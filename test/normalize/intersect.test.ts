import { describe, expect, it } from "vitest";
import type { Shape } from "../../generator/ir/model.js";
import type { ShapeLookup } from "../../generator/normalize/intersect.js";
import { intersect, satisfies } from "../../generator/normalize/intersect.js";
import { field, ref } from "../helpers/shapes.js";

const SHAPES: Readonly<Record<string, Shape>> = {
  Point: {
    kind: "object",
    fields: [field("x", { kind: "number", integer: true }), field("label", { kind: "string" }, false)],
    additional: { kind: "never" },
  },
};

const lookup: ShapeLookup = {
  shapeOf: (name) => SHAPES[name]!,
  isExpanding: () => false,
  unsupported: (problem) => {
    throw new Error(problem);
  },
};

describe("satisfies: constants that are objects and arrays", () => {
  it("reads an array's items and its keywords", () => {
    const pairs: Shape = { kind: "array", items: { kind: "number", integer: true }, maxItems: 2, uniqueItems: true };
    expect(satisfies([1, 2], pairs, lookup)).toBe(true);
    expect(satisfies([1, 1], pairs, lookup)).toBe(false);
    expect(satisfies([1, 2, 3], pairs, lookup)).toBe(false);
    expect(satisfies([1.5], pairs, lookup)).toBe(false);
    expect(satisfies({ 0: 1 }, pairs, lookup)).toBe(false);
  });

  it("reads an object's fields, what else it allows and its counts, through a ref", () => {
    expect(satisfies({ x: 1 }, ref("Point"), lookup)).toBe(true);
    expect(satisfies({ x: 1, label: "a" }, ref("Point"), lookup)).toBe(true);
    expect(satisfies({ label: "a" }, ref("Point"), lookup)).toBe(false);
    expect(satisfies({ x: 1, y: 2 }, ref("Point"), lookup)).toBe(false);
    expect(satisfies([1], ref("Point"), lookup)).toBe(false);
    const small: Shape = { kind: "map", values: { kind: "boolean" }, maxProperties: 1 };
    expect(satisfies({ a: true }, small, lookup)).toBe(true);
    expect(satisfies({ a: true, b: false }, small, lookup)).toBe(false);
    expect(satisfies({ a: 1 }, small, lookup)).toBe(false);
  });

  it("reads a keyed union's one member and a tagged union's tag", () => {
    const keyed: Shape = {
      kind: "keyed-union",
      members: [field("text", { kind: "string" }, false), field("data", { kind: "unknown" }, false)],
      fields: [],
      additional: { kind: "never" },
    };
    expect(satisfies({ text: "a" }, keyed, lookup)).toBe(true);
    expect(satisfies({ text: "a", data: 1 }, keyed, lookup)).toBe(false);
    expect(satisfies({}, keyed, lookup)).toBe(false);
    const tagged: Shape = {
      kind: "tagged-union",
      tag: "type",
      members: [
        {
          value: "a",
          shape: { kind: "object", fields: [field("type", { kind: "literal", value: "a" })], additional: { kind: "unknown" } },
        },
      ],
    };
    expect(satisfies({ type: "a", more: [] }, tagged, lookup)).toBe(true);
    expect(satisfies({ type: "b" }, tagged, lookup)).toBe(false);
  });

  it("is equality as JSON against a literal", () => {
    expect(satisfies({ b: [1], a: null }, { kind: "literal", value: { a: null, b: [1] } }, lookup)).toBe(true);
    expect(satisfies([false], { kind: "literal", value: [0] }, lookup)).toBe(false);
    expect(satisfies({}, { kind: "string" }, lookup)).toBe(false);
  });

  it("refuses a shape with a keyword it does not read rather than judge without it", () => {
    const later = { kind: "array", items: { kind: "unknown" }, someLaterKeyword: 1 } as unknown as Shape;
    expect(() => satisfies([1], later, lookup)).toThrow("a constant compared with an array that has someLaterKeyword");
  });

  it("judges a constant array by a tuple's positions, its rest and its contains counts", () => {
    const tuple: Shape = {
      kind: "array",
      prefixItems: [{ kind: "string" }],
      items: { kind: "number", integer: true },
      contains: [{ shape: { kind: "literal", value: 2 }, min: 1, max: 1 }],
    };
    expect(satisfies(["a", 2], tuple, lookup)).toBe(true);
    expect(satisfies([1, 2], tuple, lookup)).toBe(false);
    expect(satisfies(["a", 1], tuple, lookup)).toBe(false);
    expect(satisfies(["a", 2, 2], tuple, lookup)).toBe(false);
  });
});

describe("intersect: constants and multipleOf", () => {
  it("keeps a constant object a shape admits, and is never where it does not", () => {
    expect(intersect({ kind: "literal", value: { x: 1 } }, ref("Point"), lookup)).toEqual({ kind: "literal", value: { x: 1 } });
    expect(intersect(ref("Point"), { kind: "literal", value: { x: "1" } }, lookup)).toEqual({ kind: "never" });
  });

  it("meets two different multipleOf as the same shape in either order", () => {
    const two: Shape = { kind: "number", integer: false, multipleOf: 2 };
    const three: Shape = { kind: "number", integer: true, multipleOf: 3 };
    const met = {
      kind: "constrained",
      shape: { kind: "number", integer: true, multipleOf: 2 },
      constraints: [{ kind: "also", shape: { kind: "number", integer: false, multipleOf: 3 } }],
    };
    expect(intersect(two, three, lookup)).toEqual(met);
    expect(intersect(three, two, lookup)).toEqual(met);
    expect(intersect(intersect(two, three, lookup), { kind: "number", integer: false, multipleOf: 5 }, lookup)).toEqual({
      ...met,
      // The third beside the one met with the number, then the second.
      constraints: [{ kind: "also", shape: { kind: "number", integer: false, multipleOf: 5 } }, ...met.constraints],
    });
  });
});

describe("intersect: unions under allOf", () => {
  const choice = (prefix: string): Shape => ({
    kind: "union",
    members: ["a", "b", "c"].map((name) => ({
      kind: "object",
      fields: [field(`${prefix}${name}`, { kind: "string" })],
      additional: { kind: "unknown" },
    })),
    exclusive: false,
  });
  const values = (shape: Shape) =>
    [{ xa: "1", ya: "1" }, { xb: "1", yc: "1" }, { xa: "1" }, { ya: "1" }, { xa: 1, ya: "1" }].map((value) =>
      satisfies(value, shape, lookup),
    );

  it("keeps the second of two unions a constraint beside the first where meeting them would multiply their members", () => {
    const met = intersect(choice("x"), choice("y"), lookup);
    expect(met).toEqual({ kind: "constrained", shape: choice("x"), constraints: [{ kind: "also", shape: choice("y") }] });
    expect(values(met)).toEqual([true, true, false, false, false]);
  });

  it("meets a union of JSON types with a union of untyped branches member by member: its arrays and strings meet into one each", () => {
    const array: Shape = { kind: "array", items: { kind: "unknown" } };
    const anyType: Shape = {
      kind: "union",
      members: [{ kind: "map", values: { kind: "unknown" } }, array, { kind: "string" }],
      exclusive: false,
    };
    const untyped = (name: string): Shape => ({
      kind: "union",
      members: [{ kind: "object", fields: [field(name, { kind: "string" })], additional: { kind: "unknown" } }, array, { kind: "string" }],
      exclusive: false,
    });
    const branches: Shape = { kind: "union", members: ["a", "b", "c"].map(untyped), exclusive: false };
    const met = intersect(anyType, branches, lookup);
    expect(met.kind).toBe("union");
    expect(JSON.stringify(met)).not.toContain('"also"');
    expect([{ a: "1" }, { d: "1" }, [], "", 1].map((value) => satisfies(value, met, lookup))).toEqual([true, false, true, true, false]);
  });
});

describe("intersect: a field declared by both parts", () => {
  it("reads a null as the field absent only where both declarations do, whichever comes first", () => {
    const object = (nullIsAbsent: boolean): Shape => ({
      kind: "object",
      fields: [{ ...field("a", { kind: "string" }, false), ...(nullIsAbsent ? { nullIsAbsent: true as const } : {}) }],
      additional: { kind: "unknown" },
    });
    const flag = (shape: Shape) => (shape.kind === "object" ? shape.fields[0]!.nullIsAbsent === true : undefined);
    expect(flag(intersect(object(true), object(true), lookup))).toBe(true);
    expect(flag(intersect(object(true), object(false), lookup))).toBe(false);
    expect(flag(intersect(object(false), object(true), lookup))).toBe(false);
  });
});
