import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { tags } from "../../generator/ir/members.js";
import { memberBuilderNames } from "../../generator/name/index.js";
import { builderName, matchName, partialMatchName } from "../../generator/name/rules.js";
import { generatedIndex, generatedModules } from "../helpers/generated.js";
import { PROTOCOLS, protocol } from "../helpers/protocols.js";

/** Any JSON value, with the keys that trip up code that reads objects carelessly. */
const hostileKeys = fc.constantFrom("__proto__", "constructor", "toString", "prototype", "type", "role", "method", "task", "");
const anyJson = fc.letrec((tie) => ({
  json: fc.oneof({ depthSize: "small" }, fc.jsonValue({ maxDepth: 3 }), tie("object"), fc.array(tie("json"), { maxLength: 3 })),
  object: fc.dictionary(fc.oneof(hostileKeys, fc.string()), tie("json"), { maxKeys: 4 }),
})).json;

/**
 * Guards, validators and decoders are total: on any JSON value, including objects with
 * `__proto__` and `constructor` keys and arrays where objects belong, they return and
 * never throw; what they say is consistent; decoding leaves its input as it was.
 */
describe.each(PROTOCOLS)("the generated functions of %s on any JSON value", (name) => {
  it("return, agree with each other, and do not touch their input", async () => {
    const { ir } = await protocol(name);
    const generated = await generatedModules(name);
    const names = ir.types.map((type) => type.name);
    fc.assert(
      fc.property(fc.constantFrom(...names), anyJson, (type, input) => {
        const document = JSON.parse(JSON.stringify(input)) as unknown;
        const before = JSON.stringify(document);
        const { is, validate, decode } = generated.functions(type);
        const accepted = is(document);
        const validated = validate(document);
        expect(validated.ok).toBe(accepted);
        for (const mode of ["strict", "tolerant"] as const) {
          const decoded = decode(document, { mode });
          if (decoded.ok) expect(is(decoded.value)).toBe(true);
          else expect(decoded.errors.length).toBeGreaterThan(0);
          if (accepted && mode === "strict") expect(decoded.ok).toBe(true);
        }
        expect(JSON.stringify(document)).toBe(before);
        expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
      }),
      { seed: 0x70a1, numRuns: 3000 },
    );
  }, 60_000);
});

/**
 * Builders and matches are total too, on what untyped code may pass them: a builder
 * builds from any fields, a partial match falls back, an exhaustive one throws only
 * UnmatchedError; none touches its input or Object.prototype.
 */
describe.each(PROTOCOLS)("the builders and matches of %s on any JSON value", (name) => {
  it("return or throw only UnmatchedError, and do not touch their input", async () => {
    const { ir } = await protocol(name);
    const index = await generatedIndex(name);
    const calls: [string, (value: unknown) => unknown][] = [];
    for (const type of ir.types) {
      const shape = type.shape;
      if (shape.kind === "object" && tags(shape).length > 0) calls.push([type.name, (value) => index[builderName(type.name)]!(value)]);
      if (shape.kind === "keyed-union")
        for (const [i, member] of shape.members.entries()) {
          const build = index[memberBuilderNames(type.name, shape.members)[i]!]!;
          calls.push([`${type.name}.${member.name}`, (value) => build(value, value)]);
        }
      if (shape.kind === "tagged-union" || shape.kind === "keyed-union") {
        calls.push([`${type.name} partial`, (value) => index[partialMatchName(type.name)]!(value, {}, () => "otherwise")]);
        calls.push([
          `${type.name} exhaustive`,
          (value) => {
            try {
              return index[matchName(type.name)]!(value, {});
            } catch (error) {
              if ((error as Error).name !== "UnmatchedError") throw error;
              return "unmatched";
            }
          },
        ]);
      }
    }
    expect(calls.length).toBeGreaterThan(0);
    fc.assert(
      fc.property(fc.constantFrom(...calls), anyJson, ([, call], input) => {
        const document = JSON.parse(JSON.stringify(input)) as unknown;
        const before = JSON.stringify(document);
        call(document);
        expect(JSON.stringify(document)).toBe(before);
        expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
      }),
      { seed: 0xb0117, numRuns: 2000 },
    );
  }, 60_000);
});
