import { describe, expect, it } from "vitest";
import type { Field, Shape } from "../../generator/ir/model.js";
import { mapFields } from "../../generator/ir/walk.js";
import { field, ONE_OF_EACH_KIND, ref } from "../helpers/shapes.js";

const names = (shape: Shape): string[] => {
  const seen: string[] = [];
  mapFields(shape, (f) => (seen.push(f.name), f));
  return seen;
};

/** A deep copy frozen all the way down, so that a write to it throws. */
function frozen<T>(value: T): T {
  const copy = structuredClone(value);
  const freeze = (node: unknown): void => {
    if (typeof node !== "object" || node === null) return;
    Object.freeze(node);
    for (const child of Object.values(node)) freeze(child);
  };
  freeze(copy);
  return copy;
}

describe("mapFields", () => {
  it("gives rewrite each field of objects and keyed unions, members before shared fields", () => {
    expect(names(ONE_OF_EACH_KIND.object)).toEqual(["id"]);
    expect(names(ONE_OF_EACH_KIND["keyed-union"])).toEqual(["task", "message"]);
    expect(
      names({
        kind: "keyed-union",
        members: [field("m", ref("M"), false)],
        fields: [field("shared", { kind: "string" })],
        additional: { kind: "never" },
      }),
    ).toEqual(["m", "shared"]);
  });

  it("finds objects wherever they nest: items, values, nullable, union members, tagged members and what other properties hold", () => {
    const object = (name: string): Shape => ({ kind: "object", fields: [field(name, { kind: "string" })], additional: { kind: "never" } });
    const shape: Shape = {
      kind: "union",
      members: [
        { kind: "array", items: object("inArray") },
        { kind: "map", values: object("inMap") },
        { kind: "nullable", shape: object("inNullable") },
        {
          kind: "tagged-union",
          tag: "type",
          members: [
            { value: "A", shape: { kind: "object", fields: [field("inTagged", { kind: "string" })], additional: object("inAdditional") } },
          ],
        },
      ],
      exclusive: false,
    };
    expect(names(shape)).toEqual(["inArray", "inMap", "inNullable", "inTagged", "inAdditional"]);
  });

  it("finds objects in a tuple's positions, its rest and what it must contain, in that order", () => {
    const object = (name: string): Shape => ({ kind: "object", fields: [field(name, { kind: "string" })], additional: { kind: "never" } });
    const shape: Shape = {
      kind: "array",
      prefixItems: [object("first")],
      items: object("rest"),
      contains: [{ shape: object("counted"), min: 1 }],
    };
    expect(names(shape)).toEqual(["first", "rest", "counted"]);
  });

  it("rewrites bottom up: a field after the fields of its own shape, which it then holds rewritten", () => {
    const shape: Shape = {
      kind: "object",
      fields: [field("outer", { kind: "object", fields: [field("inner", { kind: "string" })], additional: { kind: "never" } })],
      additional: { kind: "never" },
    };
    const seen: Field[] = [];
    const upper = mapFields(shape, (f) => {
      seen.push(f);
      return { ...f, name: f.name.toUpperCase() };
    });
    expect(seen.map((f) => f.name)).toEqual(["inner", "outer"]);
    expect(seen[1]!.shape).toEqual({
      kind: "object",
      fields: [{ ...field("inner", { kind: "string" }), name: "INNER" }],
      additional: { kind: "never" },
    });
    expect(upper).toEqual({
      kind: "object",
      fields: [{ ...field("outer", seen[1]!.shape), name: "OUTER" }],
      additional: { kind: "never" },
    });
  });

  it("returns the shapes that hold no fields as they are", () => {
    for (const kind of ["ref", "unknown", "never", "literal", "enum", "string", "number", "boolean", "null"] as const) {
      const shape = ONE_OF_EACH_KIND[kind];
      expect(
        mapFields(shape, () => expect.unreachable()),
        kind,
      ).toBe(shape);
    }
  });

  it("does not modify its input", () => {
    const shape = frozen<Shape>({
      kind: "array",
      items: {
        kind: "keyed-union",
        members: [field("a", { kind: "string" }, false)],
        fields: [field("b", { kind: "boolean" })],
        additional: { kind: "unknown" },
      },
    });
    const copy = structuredClone(shape);
    const result = mapFields(shape, (f) => ({ ...f, required: !f.required }));
    expect(shape).toEqual(copy);
    expect(result).toEqual({
      kind: "array",
      items: {
        kind: "keyed-union",
        members: [field("a", { kind: "string" }, true)],
        fields: [field("b", { kind: "boolean" }, false)],
        additional: { kind: "unknown" },
      },
    });
  });
});
