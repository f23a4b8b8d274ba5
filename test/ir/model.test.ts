import { describe, expect, it } from "vitest";
import { refsOf } from "../../generator/ir/graph.js";
import type { Field, Ir, Shape } from "../../generator/ir/model.js";
import { mapFields } from "../../generator/ir/walk.js";
import { isJsonObject } from "../../generator/json.js";
import { appendPointer, getAtPointer } from "../../generator/pointer.js";
import { protocol, PROTOCOLS } from "../helpers/protocols.js";

/** Every shape in a type, the type's own first, depth first. */
function shapesIn(shape: Shape): Shape[] {
  const found: Shape[] = [];
  const visit = (at: Shape): void => {
    found.push(at);
    switch (at.kind) {
      case "array":
        return visit(at.items);
      case "map":
        return visit(at.values);
      case "nullable":
        return visit(at.shape);
      case "union":
        return at.members.forEach(visit);
      case "tagged-union":
        return at.members.forEach((member) => visit(member.shape));
      case "object":
        at.fields.forEach((f) => visit(f.shape));
        return visit(at.additional);
      case "keyed-union":
        [...at.members, ...at.fields].forEach((f) => visit(f.shape));
        return visit(at.additional);
    }
  };
  visit(shape);
  return found;
}

const fieldsIn = (ir: Ir): Field[] => {
  const found: Field[] = [];
  for (const type of ir.types) mapFields(type.shape, (f) => (found.push(f), f));
  return found;
};

describe.each(PROTOCOLS)("the IR of %s", (name) => {
  it("is plain data: it comes back from JSON as it was, with no undefined, Map, class or function in it", async () => {
    const { ir } = await protocol(name);
    expect(JSON.parse(JSON.stringify(ir))).toStrictEqual(ir);
  });

  it("names each type once, at /$defs/<name>, in the order of the effective schema's $defs", async () => {
    const { ir, schema } = await protocol(name);
    const names = ir.types.map((type) => type.name);
    expect(new Set(names).size).toBe(names.length);
    for (const type of ir.types) expect(type.pointer, type.name).toBe(appendPointer("", "$defs", type.name));
    const defs = Object.keys(schema["$defs"] as object);
    expect(names).toEqual(defs.filter((def) => names.includes(def)));
    expect(ir.protocol).toBe(name);
  });

  it("refers only to types it declares, and its root is one of them", async () => {
    const { ir } = await protocol(name);
    const names = new Set(ir.types.map((type) => type.name));
    if (ir.root !== undefined) expect(names).toContain(ir.root);
    for (const type of ir.types) for (const target of refsOf(type.shape)) expect(names, `${type.name} → ${target}`).toContain(target);
  });

  it("keeps what each kind of shape promises", async () => {
    const { ir } = await protocol(name);
    for (const type of ir.types)
      for (const shape of shapesIn(type.shape)) {
        const where = `${type.name}: ${shape.kind}`;
        if (shape.kind === "enum") {
          expect(new Set(shape.values.map((value) => JSON.stringify(value))).size, where).toBe(shape.values.length);
          if (shape.descriptions !== undefined) expect(shape.descriptions, where).toHaveLength(shape.values.length);
        }
        if (shape.kind === "tagged-union") {
          const values = shape.members.map((member) => JSON.stringify(member.value));
          expect(new Set(values).size, where).toBe(values.length);
        }
        if (shape.kind === "keyed-union") {
          const members = new Set(shape.members.map((member) => member.name));
          for (const shared of shape.fields) expect(members.has(shared.name), `${where}: ${shared.name}`).toBe(false);
        }
        if (shape.kind === "object" || shape.kind === "keyed-union") {
          const fields = [...shape.fields, ...(shape.kind === "keyed-union" ? shape.members : [])].map((f) => f.name);
          expect(new Set(fields).size, where).toBe(fields.length);
        }
      }
  });

  it("points each field at where the effective schema defines it (its schema, or the required list naming it), and gives it aliases other than its name", async () => {
    const { ir, schema } = await protocol(name);
    const fields = fieldsIn(ir);
    expect(fields.length).toBeGreaterThan(0);
    for (const f of fields) {
      const at = getAtPointer(schema, f.pointer);
      const where = `${f.name} at ${f.pointer}`;
      expect(f.pointer, where).toMatch(/^\/\$defs\/[^/]+\//);
      if (Array.isArray(at)) expect(f.pointer.endsWith("/required") && at.includes(f.name), where).toBe(true);
      else expect(typeof at === "boolean" || isJsonObject(at), where).toBe(true);
      for (const alias of f.aliases ?? []) expect(alias, f.name).not.toBe(f.name);
    }
  });
});
