import { readFileSync } from "node:fs";
import path from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { SWITCH_MEMBERS } from "../../generator/emit/dispatch.js";
import { generatedProject, strictTsc } from "../helpers/project.js";

type Result = { ok: boolean; errors?: readonly { path: string; message: string }[]; unrecognized?: boolean; value?: unknown };
type Handlers = Record<string, (value: unknown) => unknown>;

/**
 * A tagged union longer than a switch dispatches on (emit/dispatch.ts): its tags include
 * names every object inherits, so that a table keyed by tag never finds a prototype's
 * property, and the guard, validator, decoder and match helpers answer as the switch does.
 */
const tags = [...Array.from({ length: SWITCH_MEMBERS }, (_, i) => `m${i}`), "constructor", "toString", "__proto__"];
const schema = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  $defs: {
    Root: { oneOf: tags.map((_, i) => ({ $ref: `#/$defs/M${i}` })) },
    ...Object.fromEntries(
      tags.map((tag, i) => [
        `M${i}`,
        {
          type: "object",
          properties: { type: { const: tag }, value: { type: "number" } },
          required: ["type", "value"],
          additionalProperties: false,
        },
      ]),
    ),
  },
};

describe(`a tagged union of more than ${SWITCH_MEMBERS} members`, async () => {
  const { root, index } = await generatedProject("long", schema);
  const isRoot = index["isRoot"] as (value: unknown) => boolean;
  const validateRoot = index["validateRoot"] as (value: unknown) => Result;
  const decodeRoot = index["decodeRoot"] as (value: unknown, options?: object) => Result;
  const matchRoot = index["matchRoot"] as (value: unknown, handlers: object) => unknown;
  const matchRootPartial = index["matchRootPartial"] as (
    value: unknown,
    handlers: object,
    otherwise: (value: unknown) => unknown,
  ) => unknown;
  const ajv = new Ajv2020({ strict: false }).compile({ ...schema, $ref: "#/$defs/Root" });

  it("is dispatched by a table, and type-checks under strict tsc", () => {
    const source = (module: string) => readFileSync(path.join(root, `generated/src/long/${module}.ts`), "utf8");
    expect(source("guards")).toMatch(/const RootGuards = tableOf</);
    expect(source("validate")).toMatch(/const RootChecks = tableOf</);
    expect(source("validate")).toMatch(/const RootReaders = tableOf</);
    expect(source("match")).toMatch(/const RootHandlerKeys = tableOf</);
    expect(source("guards")).not.toMatch(/case "m0"/);
    expect(strictTsc(root)).toEqual({ output: "", status: 0 });
  });

  it("accepts each member and refuses what ajv refuses, a prototype's names and other tags among them", () => {
    const documents = [
      ...tags.map((tag, i) => ({ type: tag, value: i })),
      ...tags.map((tag) => ({ type: tag, value: "x" })),
      { type: "hasOwnProperty", value: 1 },
      { type: "m999", value: 1 },
      { type: 0, value: 1 },
      { value: 1 },
      null,
      [],
    ];
    for (const document of documents) {
      const expected = ajv(document);
      expect(isRoot(document), JSON.stringify(document)).toBe(expected);
      expect(validateRoot(document).ok, JSON.stringify(document)).toBe(expected);
      expect(decodeRoot(document).ok, JSON.stringify(document)).toBe(expected);
    }
    // The tag is read as JSON would write it, from the object's own properties (where ajv reads a prototype's too).
    expect(isRoot(Object.create({ type: "m0", value: 1 }))).toBe(false);
  });

  it("says what a switch says of a tag it does not know, strict and tolerant", () => {
    expect(validateRoot({ type: "m999", value: 1 }).errors).toEqual([
      expect.objectContaining({ path: "/type", message: expect.stringMatching(/^unknown type "m999": expected one of "m0", "m1", /) }),
    ]);
    expect(validateRoot({ type: "toLocaleString", value: 1 }).errors).toEqual([
      expect.objectContaining({ path: "/type", message: expect.stringMatching(/^unknown type "toLocaleString": expected one of /) }),
    ]);
    expect(decodeRoot({ type: "m999", value: 1 }, { mode: "tolerant" })).toMatchObject({ ok: false, unrecognized: true });
    expect(decodeRoot({ type: "m1", value: 2 })).toEqual({ ok: true, value: { type: "m1", value: 2 } });
  });

  it("calls the member's handler, an inherited one too, but never a prototype's", () => {
    const handlers: Handlers = Object.fromEntries(tags.map((tag) => [tag, (value: unknown) => ({ tag, value })]));
    // `Object.fromEntries` sets "__proto__" as an own property, as a handlers literal cannot.
    for (const [i, tag] of tags.entries()) {
      const value = JSON.parse(JSON.stringify({ type: tag, value: i })) as object;
      expect(matchRoot(value, handlers)).toEqual({ tag, value });
    }
    const otherwise = (value: unknown) => ({ otherwise: value });
    // No own handler for "constructor" or "toString": Object.prototype's are not taken.
    for (const tag of ["constructor", "toString"])
      expect(matchRootPartial({ type: tag, value: 1 }, {}, otherwise)).toEqual({ otherwise: { type: tag, value: 1 } });
    expect(() => matchRoot({ type: "toString", value: 1 }, {})).toThrow(/no Root handler for type "toString"/);
    // A handler its object inherits from a class is taken, as the switch takes it.
    class Inherited {
      m3(value: unknown) {
        return { inherited: value };
      }
    }
    expect(matchRootPartial({ type: "m3", value: 3 }, new Inherited(), otherwise)).toEqual({ inherited: { type: "m3", value: 3 } });
    expect(matchRootPartial({ type: "m999", value: 1 }, handlers, otherwise)).toEqual({ otherwise: { type: "m999", value: 1 } });
  });
});
