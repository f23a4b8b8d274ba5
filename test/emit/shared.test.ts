import { readFileSync } from "node:fs";
import path from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { beforeAll, describe, expect, it } from "vitest";
import type { JsonObject } from "../../generator/json.js";
import type { TypeFunctions } from "../helpers/generated.js";
import { answersBeside, modulesOf } from "../helpers/generated.js";
import { generatedProject } from "../helpers/project.js";

/**
 * A shape without a name met in several places is checked, and read, by one function,
 * whatever its descriptions say in each place; an object whose shape is a named type's
 * is checked by that type's guard. Each place still reports its own JSON Pointer. (Such
 * helpers are compiled with the four protocols' package, which has them, at every
 * generate, and with the SchemaStore half's 499 packages by its harness.)
 */
const TAGS = { type: "array", items: { type: "string", maxLength: 3 }, minItems: 1 };
const LIMITS = {
  type: "object",
  properties: { low: { type: "integer" }, high: { type: "integer" }, level: { enum: ["info", "warn"] } },
  additionalProperties: false,
};
const SCHEMA = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  $defs: {
    Rule: {
      type: "object",
      properties: {
        tags: { ...TAGS, description: "The rule's tags." },
        limits: { ...LIMITS, description: "The rule's limits." },
        point: { type: "object", properties: { x: { type: "number" }, y: { type: "number" } }, required: ["x", "y"] },
      },
      required: ["tags"],
    },
    Group: {
      type: "object",
      properties: {
        tags: { ...TAGS, description: "The group's tags." },
        rules: { type: "object", additionalProperties: { ...LIMITS, description: "Per rule, its limits." } },
        origin: { type: "object", properties: { x: { type: "number" }, y: { type: "number" } }, required: ["x", "y"] },
      },
    },
    Point: { type: "object", properties: { x: { type: "number" }, y: { type: "number" } }, required: ["x", "y"] },
  },
};

const DOCUMENTS: Readonly<Record<string, readonly unknown[]>> = {
  Rule: [
    { tags: ["a"] },
    { tags: [] },
    { tags: ["abcd"] },
    { tags: ["a"], limits: { low: 1, level: "warn" } },
    { tags: ["a"], limits: { low: 1.5 } },
    { tags: ["a"], limits: { level: "debug" } },
    { tags: ["a"], point: { x: 1, y: 2 } },
    { tags: ["a"], point: { x: 1 } },
  ],
  Group: [
    {},
    { tags: ["ab", "abc"] },
    { tags: ["abcd"] },
    { rules: { r: { high: 2 } } },
    { rules: { r: { other: 2 } } },
    { origin: { x: 0, y: 0 } },
    { origin: { x: "0", y: 0 } },
  ],
};

let root = "";
let functions: (type: string) => TypeFunctions;
let reference: (type: string) => (document: unknown) => boolean;
let source: (module: string) => string;
beforeAll(async () => {
  const generated = await generatedProject("shared", SCHEMA);
  root = generated.root;
  functions = modulesOf(generated.index, "shared").functions;
  source = (module) => readFileSync(path.join(root, `generated/src/shared/${module}.ts`), "utf8");
  const effective = JSON.parse(readFileSync(path.join(root, "generated/src/shared/schema.json"), "utf8")) as JsonObject;
  const ajv = new Ajv2020({ strict: false, validateFormats: false });
  ajv.addSchema(effective, "effective");
  reference = (type) => ajv.compile({ $ref: `effective#/$defs/${type}` });
});

/** The functions a module declares, in order. */
function declared(module: string): string[] {
  return [...source(module).matchAll(/^(?:export )?function (\w+)/gm)].map((match) => match[1]!);
}

describe("emit: a shape met in several places", () => {
  it.each(Object.keys(DOCUMENTS))("%s: is, validate and strict decode answer as the reference does", (type) => {
    const { ours, theirs } = answersBeside(functions(type), reference(type), DOCUMENTS[type]!);
    expect(ours).toEqual(theirs);
  });

  it("is checked and read by one function, named by the first place", () => {
    expect(declared("guards")).toEqual(["isRule", "isGroup", "isPoint", "isRuleTags", "isRuleLimits"]);
    expect(declared("validate").filter((name) => /^(check|read)/.test(name))).toEqual([
      ...["checkRule", "checkGroup", "checkPoint", "checkRuleTags", "checkRuleLimits"],
      ...["readRule", "readGroup", "readPoint", "readRuleTags", "readRuleLimitsLevel", "readRuleLimits", "readGroupRules"],
    ]);
  });

  it("that is a named type's shape is checked by the named type's guard", () => {
    expect(source("guards")).toMatch(/case "point":\s+if \(!isPoint\(property\)\) return false;/);
    expect(source("guards")).toMatch(/case "origin":\s+if \(!isPoint\(property\)\) return false;/);
  });

  it("reports each place's own pointer", () => {
    expect(functions("Rule").validate({ tags: ["abcd"], limits: { low: 1.5 } })).toEqual({
      ok: false,
      errors: [
        { path: "/tags/0", keyword: "maxLength", message: "must have at most 3 characters" },
        { path: "/limits/low", keyword: "type", message: "must be an integer" },
      ],
    });
    expect(functions("Group").validate({ tags: ["abcd"], rules: { r: { low: 1.5 } }, origin: { x: 0 } })).toEqual({
      ok: false,
      errors: [
        { path: "/tags/0", keyword: "maxLength", message: "must have at most 3 characters" },
        { path: "/rules/r/low", keyword: "type", message: "must be an integer" },
        { path: "/origin/y", keyword: "required", message: "is required" },
      ],
    });
  });

  it("a tolerant reader's note names no place: the one reader serves them all", () => {
    expect(functions("Group").decode({ rules: { r: { level: "debug" } } }, { mode: "tolerant" })).toMatchObject({
      ok: false,
      unrecognized: true,
      errors: [{ path: "/rules/r/level", keyword: "unrecognized", message: '"debug" is not a value this version knows' }],
    });
  });
});
