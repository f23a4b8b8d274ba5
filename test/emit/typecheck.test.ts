import { beforeAll, describe, expect, it } from "vitest";
import type { TypeFunctions } from "../helpers/generated.js";
import { modulesOf } from "../helpers/generated.js";
import { generatedProject, strictTsc } from "../helpers/project.js";

/**
 * What made the generated code of real schemas (SchemaStore's) fail strict tsc, each in
 * the smallest schema that shows it: the package compiles, and its functions still do
 * what the schema says.
 */
const MANY = Array.from({ length: 2500 }, (_, i) => `variable_${i}`);

const SCHEMA = {
  $defs: {
    // docker-compose's `build` or `image`: a keyed union whose member is named as the
    // runtime helper its builder calls.
    Service: {
      type: "object",
      properties: { build: { type: "string" }, image: { type: "string" }, name: { type: "string" } },
      oneOf: [{ required: ["build"] }, { required: ["image"] }],
    },
    // cryproj's console variables: an enum of thousands of names, as a type and as a field.
    Variable: { enum: MANY },
    Setting: {
      type: "object",
      properties: { name: { enum: MANY }, value: { type: "string" } },
      required: ["name"],
      additionalProperties: false,
    },
    // partial-poe's tasks: a named union's guard narrows its value, which an object's
    // checks after it then read (`toJSON`, `value[key]`), as a value and as an item.
    Task: {
      anyOf: [
        { type: "object", properties: { a: { type: "string" }, b: { type: "string" } }, required: ["a"], additionalProperties: false },
        { type: "object", properties: { c: { type: "string" } }, required: ["c"], additionalProperties: false },
      ],
    },
    Step: { $ref: "#/$defs/Task", if: { required: ["a"] }, then: { type: "object", properties: { b: false } } },
    Steps: {
      type: "array",
      items: { $ref: "#/$defs/Task", if: { required: ["a"] }, then: { type: "object", properties: { b: false } } },
    },
  },
};

let root: string;
let index: Record<string, unknown>;
let functions: (type: string) => TypeFunctions;

beforeAll(async () => {
  ({ root, index } = await generatedProject("real", SCHEMA));
  functions = modulesOf(index, "real").functions;
}, 120_000);

describe("the generated code of shapes real schemas have", () => {
  it("compiles under strict tsc", () => {
    expect(strictTsc(root)).toEqual({ output: "", status: 0 });
  }, 120_000);

  it("builds a member named `build` with the runtime's build", () => {
    const create = index["createServiceBuild"] as (value: string, fields?: object) => unknown;
    expect(create("./app", { name: "web" })).toEqual({ build: "./app", name: "web" });
    expect(functions("Service").is(create("./app"))).toBe(true);
  });

  it("checks a long enum by its values, as a type and as a field", () => {
    const variable = functions("Variable");
    const setting = functions("Setting");
    for (const value of [MANY[0], MANY[1234], MANY.at(-1)]) {
      expect(variable.is(value)).toBe(true);
      expect(setting.is({ name: value })).toBe(true);
    }
    for (const value of ["variable_2500", "", 0, null, ["variable_0"], { variable_0: 1 }]) {
      expect(variable.is(value)).toBe(false);
      expect(setting.is({ name: value })).toBe(false);
    }
    const refused = setting.validate({ name: "nope" });
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.errors.map(({ path, keyword }) => ({ path, keyword }))).toEqual([{ path: "/name", keyword: "enum" }]);
  });

  it("checks a named type's value, then an object's checks of it, in either order", () => {
    const step = functions("Step");
    const steps = functions("Steps");
    for (const [value, valid] of [
      [{ a: "x" }, true],
      [{ c: "x" }, true],
      [{ a: "x", b: "y" }, false],
      [{ c: "x", b: "y" }, false],
      [{ a: 1 }, false],
      [{}, false],
      ["a", false],
    ] as const) {
      expect(step.is(value)).toBe(valid);
      expect(steps.is([{ c: "x" }, value])).toBe(valid);
      expect(step.validate(value).ok).toBe(valid);
      expect(steps.validate([value]).ok).toBe(valid);
    }
  });
});
