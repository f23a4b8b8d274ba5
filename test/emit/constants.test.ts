import { readFileSync } from "node:fs";
import path from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { beforeAll, describe, expect, it } from "vitest";
import type { JsonObject, JsonValue } from "../../generator/json.js";
import { referenceValidator } from "../helpers/differential.js";
import type { TypeFunctions } from "../helpers/generated.js";
import { modulesOf } from "../helpers/generated.js";
import { breaches, spoiled } from "../helpers/javascript.js";
import { demoProject, generateInto, strictTsc } from "../helpers/project.js";
import { Random } from "../helpers/samples.js";

/**
 * Constants and enum values that are objects and arrays, end to end: the package compiles
 * under strict tsc with a type that says each value, and its functions agree with the
 * reference validator and with the wire, on the values, on near misses, and on the values
 * written again as JavaScript that JSON.stringify writes differently.
 */
const SCHEMA = {
  $defs: {
    Origin: { const: { x: 0, y: 0 } },
    Pair: { const: [1, "two"] },
    Empty: { const: {} },
    None: { const: [] },
    Nested: { const: { a: [{ b: null }, [true, 1.5]], c: "" } },
    Mixed: { enum: ["a", 1, null, { k: [1] }, [{}]] },
    Nothing: { enum: [] },
    Point: {
      type: "object",
      properties: { at: { $ref: "#/$defs/Origin" }, tag: { const: ["x"] } },
      required: ["at", "tag"],
    },
    Sixes: { type: "integer", multipleOf: 2, allOf: [{ multipleOf: 3 }] },
  },
};

/** Per type, documents of it and near misses, each judged by the reference. */
const DOCUMENTS: Readonly<Record<string, readonly JsonValue[]>> = {
  Origin: [{ x: 0, y: 0 }, { y: 0, x: 0 }, { x: 0 }, { x: 0, y: 0, z: 0 }, { x: 0, y: false }, [0, 0], null],
  Pair: [[1, "two"], ["two", 1], [1], [1, "two", 3], { 0: 1, 1: "two" }],
  Empty: [{}, [], { a: 1 }, null, ""],
  None: [[], {}, [null], ""],
  Nested: [
    { a: [{ b: null }, [true, 1.5]], c: "" },
    { c: "", a: [{ b: null }, [true, 1.5]] },
    { a: [{ b: null }, [1, 1.5]], c: "" },
    { a: [{ b: null, d: 1 }, [true, 1.5]], c: "" },
    { a: [{ b: null }, [true]], c: "" },
  ],
  Mixed: ["a", 1, null, { k: [1] }, [{}], "b", { k: [2] }, [{ a: 1 }], [], {}, true],
  Point: [{ at: { x: 0, y: 0 }, tag: ["x"] }, { at: { x: 0, y: 1 }, tag: ["x"] }, { at: { x: 0, y: 0 }, tag: "x" }, { at: { x: 0, y: 0 } }],
  Sixes: [0, 6, -12, 2, 3, 4, 9, 6.5, "6"],
};

let root = "";
let effective: JsonObject = {};
let functions: (type: string) => TypeFunctions;
beforeAll(async () => {
  root = demoProject(SCHEMA);
  await generateInto(root);
  const index = (await import(path.join(root, "generated/src/demo/index.ts"))) as Record<string, unknown>;
  effective = JSON.parse(readFileSync(path.join(root, "generated/src/demo/schema.json"), "utf8")) as JsonObject;
  functions = modulesOf(index, "demo").functions;
}, 60_000);

describe("constants that are objects and arrays", () => {
  it("have types that say the value, in a package that compiles under strict tsc", () => {
    const types = readFileSync(path.join(root, "generated/src/demo/types.ts"), "utf8");
    for (const line of [
      "export type Origin = { x: 0; y: 0 };",
      'export type Pair = [1, "two"];',
      "export type None = [];",
      'export type Nested = { a: [{ b: null }, [true, 1.5]]; c: "" };',
      'export type Mixed = "a" | 1 | null | { k: [1] } | [{}];',
      "export type Nothing = never;",
      'tag: ["x"];',
    ])
      expect(types).toContain(line);
    expect(strictTsc(root)).toEqual({ output: "", status: 0 });
  });

  it("are checked as the reference checks them, and as the wire carries them", () => {
    // ajv refuses an empty enum in a schema at all: that type is tried without it, below.
    const { Nothing: _, ...others } = effective["$defs"] as JsonObject;
    const reference = referenceValidator({ ...effective, $defs: others }, new Ajv2020({ strict: false, validateFormats: false }));
    const random = new Random(0xc0457);
    const problems: string[] = [];
    const verdicts = { accepted: 0, refused: 0 };
    for (const [type, documents] of Object.entries(DOCUMENTS)) {
      const check = reference(type);
      for (const document of documents) {
        const found = breaches(functions(type), check, document);
        if (functions(type).is(document) !== check(document)) found.push(`is says ${functions(type).is(document)}`);
        if (found.length > 0) problems.push(`${type} ${JSON.stringify(document)}: ${found.join("; ")}`);
        verdicts[check(document) ? "accepted" : "refused"]++;
        for (let i = 0; i < 20; i++) {
          const [how, value] = spoiled(document, random);
          const spoilt = breaches(functions(type), check, value);
          if (spoilt.length > 0) problems.push(`${type} ${JSON.stringify(document)} with ${how}: ${spoilt.join("; ")}`);
        }
      }
    }
    expect(problems).toEqual([]);
    expect(Math.min(verdicts.accepted, verdicts.refused)).toBeGreaterThan(10);
  });

  it("an empty enum accepts nothing", () => {
    for (const value of [null, 0, "", [], {}]) expect(functions("Nothing").is(value)).toBe(false);
    expect(functions("Nothing").decode("").ok).toBe(false);
  });

  it("say which value a validator expected", () => {
    expect(functions("Origin").validate({ x: 1, y: 0 })).toEqual({
      ok: false,
      errors: [{ path: "", keyword: "const", message: 'must be {"x":0,"y":0}' }],
    });
    expect(functions("Point").validate({ at: { x: 0, y: 0 }, tag: [] })).toEqual({
      ok: false,
      errors: [{ path: "/tag", keyword: "const", message: 'must be ["x"]' }],
    });
  });
});
