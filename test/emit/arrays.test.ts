import { readFileSync } from "node:fs";
import path from "node:path";
import { registerSchema, validate } from "@hyperjump/json-schema/draft-2020-12";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import type { JsonValue } from "../../generator/json.js";
import type { TypeFunctions } from "../helpers/generated.js";
import { modulesOf } from "../helpers/generated.js";
import { accepts, readsAll } from "../helpers/items-oracle.js";
import { generatedProject, strictTsc } from "../helpers/project.js";
import { readGroups } from "../suite/run.js";

/**
 * Tuples, contains and unevaluatedItems in a generated package: their types compile under
 * strict tsc with the guards that narrow to them, and the guards, validators and decoders
 * agree on arrays drawn from values the schemas tell apart with a reference that reads
 * the specification literally (ajv errs here: see `test/helpers/items-oracle.ts`), which
 * @hyperjump/json-schema agrees with on every one of them.
 */
const SCHEMA = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  $defs: {
    Pair: { type: "array", prefixItems: [{ type: "string" }, { type: "integer" }], items: false, minItems: 1 },
    Row: {
      type: "array",
      prefixItems: [{ type: "string" }, { $ref: "#/$defs/Pair" }],
      items: { type: "number" },
      contains: { type: "number" },
      maxContains: 2,
    },
    Counted: { type: "array", contains: { const: "a" }, minContains: 2, maxContains: 3, uniqueItems: false },
    Both: {
      type: "array",
      allOf: [
        { contains: { type: "string" } },
        { contains: { type: "null" }, maxContains: 1 },
        { prefixItems: [true, { type: "boolean" }] },
      ],
    },
    Loose: { prefixItems: [{ type: ["string", "number"] }], unevaluatedItems: false },
    Contained: { type: "array", prefixItems: [{ const: 1 }], contains: { type: "string" }, unevaluatedItems: { type: "boolean" } },
    Merged: { type: "array", allOf: [{ prefixItems: [true, true] }, { $ref: "#/$defs/Pair" }], unevaluatedItems: { type: "null" } },
    Chosen: {
      type: "array",
      if: { prefixItems: [{ const: 1 }] },
      then: { prefixItems: [true, { type: "string" }] },
      else: { contains: { const: "b" } },
      unevaluatedItems: false,
    },
    Longest: {
      type: "array",
      anyOf: [{ prefixItems: [{ const: 1 }] }, { prefixItems: [true, { const: "a" }] }, { minItems: 3 }],
      unevaluatedItems: { type: "null" },
    },
    OneOf: {
      type: "array",
      oneOf: [{ prefixItems: [{ type: "string" }] }, { prefixItems: [{ type: "number" }, true], items: { type: "boolean" } }],
      unevaluatedItems: false,
    },
    NestedIf: { type: "array", if: { contains: { const: "a" } }, then: { if: { contains: { const: 1 } } }, unevaluatedItems: false },
    SideBySide: {
      type: "array",
      allOf: [{ oneOf: [{ prefixItems: [{ type: "string" }] }, { prefixItems: [{ type: "number" }, true] }] }],
      if: { prefixItems: [true, true, { const: 3 }] },
      then: { prefixItems: [true, true, true, true] },
      unevaluatedItems: { type: "boolean" },
    },
    AnyContains: {
      type: "array",
      anyOf: [
        { contains: { const: 1 } },
        { prefixItems: [{ type: "string" }] },
        { if: { minItems: 3 }, then: { prefixItems: [true, true] } },
      ],
      unevaluatedItems: { type: "boolean" },
    },
    AnyValue: { unevaluatedItems: { type: "string" } },
    TwoContains: {
      type: "array",
      allOf: [{ contains: { const: "a" } }, { contains: { const: 1 } }],
      unevaluatedItems: { type: "boolean" },
    },
    // An allOf of anyOfs, each branch evaluating a position or a contains of its own (as bench/unevaluated.js): one constraint.
    AllOfAnyOfs: {
      type: "array",
      allOf: ["a", 1, true].map((value) => ({
        anyOf: [{ prefixItems: [{ const: value }] }, { prefixItems: [true, { const: value }] }, { contains: { const: value } }],
      })),
      unevaluatedItems: { type: "null" },
    },
    Open: { type: "array", prefixItems: [{ type: "string" }] },
    ThroughRef: { $ref: "#/$defs/Open", prefixItems: [true, true], unevaluatedItems: false },
    NotIgnored: { type: "array", prefixItems: [true], not: { prefixItems: [true, { const: "a" }] }, unevaluatedItems: { type: "number" } },
    Untyped: { prefixItems: [{ const: 1 }], contains: { type: "string" }, unevaluatedItems: false },
    Holder: {
      type: "object",
      properties: { pair: { $ref: "#/$defs/Pair" }, rows: { type: "array", items: { $ref: "#/$defs/Row" } } },
      required: ["pair"],
    },
  },
};

let root = "";
let functions: (type: string) => TypeFunctions;
const hyperjump = new Map<string, (document: JsonValue) => boolean>();
beforeAll(async () => {
  const generated = await generatedProject("arrays", SCHEMA);
  root = generated.root;
  const index = generated.index;
  functions = modulesOf(index, "arrays").functions;
  const id = "https://agentwire.test/arrays";
  registerSchema({ ...SCHEMA, $id: id } as never);
  for (const type of Object.keys(SCHEMA.$defs)) {
    const validator = await validate(`${id}#/$defs/${type}`);
    hyperjump.set(type, (document) => validator(document as never).valid);
  }
});

describe("emit: arrays", () => {
  it("a package of tuples, contains and unevaluatedItems compiles under strict tsc", () => {
    const types = readFileSync(path.join(root, "generated/src/arrays/types.ts"), "utf8");
    expect(types).toContain("export type Pair = [string, number?];");
    expect(types).toContain("export type Row = [string?, Pair?, ...number[]];");
    expect(strictTsc(root)).toEqual({ output: "", status: 0 });
  }, 60_000);

  it("the reference for arrays answers the official suite wherever it knows every keyword", () => {
    const groups = readGroups("draft2020-12").groups.filter((group) => readsAll(group.schema));
    const wrong = groups.flatMap((group) =>
      group.tests
        .filter((test) => accepts(group.schema, group.schema, test.data) !== test.valid)
        .map((test) => `${group.id} / ${test.description}`),
    );
    expect(wrong).toEqual([]);
    expect(groups.filter((group) => group.file === "unevaluatedItems.json").length).toBeGreaterThan(15);
  });

  it("reports an item that no passed branch evaluated where it is, as the rest's failure", () => {
    const { is, validate } = functions("AllOfAnyOfs");
    expect(is(["a", 1, true, null])).toBe(true);
    expect(validate(["a", 1, true, 5])).toMatchObject({ ok: false, errors: [{ path: "/3", keyword: "type" }] });
  });

  it.each(Object.keys(SCHEMA.$defs).filter((name) => name !== "Holder"))(
    "%s agrees with the reference on arrays of values it tells apart",
    (type) => {
      const { is, validate, decode } = functions(type);
      const schema = (SCHEMA.$defs as Record<string, JsonValue>)[type]!;
      const item = fc.constantFrom<JsonValue>(1, 2, 1.5, "a", "b", "", null, true, false, [1], ["a"], ["a", 1], {});
      const checked = { valid: 0, invalid: 0 };
      // Arrays of any of the values, and arrays that begin as a tuple of these schemas would.
      const documents = (each: fc.Arbitrary<JsonValue>) =>
        fc.oneof(
          fc.array(each, { maxLength: 5 }),
          fc
            .tuple(
              fc.constantFrom<JsonValue>("a", 1),
              fc.constantFrom<JsonValue>(["a"], ["a", 1], "a", true),
              fc.array(each, { maxLength: 3 }),
            )
            .map(([first, second, rest]) => [first, second, ...rest]),
        );
      fc.assert(
        fc.property(documents(item), (document) => {
          const expected = accepts(SCHEMA as JsonValue, schema, document);
          expect(hyperjump.get(type)!(document), `@hyperjump/json-schema on ${JSON.stringify(document)}`).toBe(expected);
          checked[expected ? "valid" : "invalid"]++;
          expect([is(document), validate(document).ok, decode(document).ok], JSON.stringify(document)).toEqual([
            expected,
            expected,
            expected,
          ]);
        }),
        { seed: 0x61727279, numRuns: 2000 },
      );
      expect(checked.valid).toBeGreaterThan(10);
      expect(checked.invalid).toBeGreaterThan(10);
    },
  );
});
