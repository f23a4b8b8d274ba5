import { describe, expect, it } from "vitest";
import { tags } from "../../generator/emit/members.js";
import { builderName, matchName, memberBuilderNames, partialMatchName } from "../../generator/emit/names.js";
import type { JsonObject } from "../../generator/json.js";
import { generatedIndex, generatedModules } from "../helpers/generated.js";
import { PROTOCOLS, protocol } from "../helpers/protocols.js";
import { Random, SampleMaker } from "../helpers/samples.js";

/** Values built to hurt: as deep, as long and as large as the issue names, and made once. */
function hostileValues(): [string, unknown][] {
  const deepObject: Record<string, unknown> = {};
  let object = deepObject;
  for (let i = 0; i < 10_000; i++) object = object["a"] = {} as Record<string, unknown>;
  const deepArray: unknown[] = [];
  let array = deepArray;
  for (let i = 0; i < 10_000; i++) array.push((array = []));
  return [
    ["an object nested 10,000 deep", deepObject],
    ["an array nested 10,000 deep", deepArray],
    ["an array of 1,000,000 items", new Array<number>(1_000_000).fill(0)],
    ["an array of 1,000,000 objects", Array.from({ length: 1_000_000 }, () => ({}))],
    ["a string of 10 MB", "x".repeat(10 * 1024 * 1024)],
    ["__proto__ as JSON.parse makes it", JSON.parse('{"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}}')],
  ];
}

/**
 * No generated function throws or hangs on hostile input, at the top or inside otherwise
 * valid documents: guards and validators answer, decoders return a result, builders
 * build, partial matches fall back and exhaustive ones throw only UnmatchedError.
 */
describe.each(PROTOCOLS)("the generated functions of %s on hostile input", (name) => {
  it("return without throwing, whatever they are given, wherever it is", async () => {
    const { ir } = await protocol(name);
    const generated = await generatedModules(name);
    const index = await generatedIndex(name);
    const random = new Random(0x4057);
    const samples = new SampleMaker(ir, random);
    for (const [label, hostile] of hostileValues()) {
      for (const type of ir.types) {
        const { is, validate, decode } = generated.functions(type.name);
        const document = samples.valid(type.shape);
        // At the top, and in place of one of a valid document's properties, drawn from a fixed seed.
        const positions: unknown[] = [hostile];
        if (typeof document === "object" && document !== null && !Array.isArray(document) && Object.keys(document).length > 0)
          positions.push({ ...(document as JsonObject), [random.pick(Object.keys(document))]: hostile });
        for (const value of positions) {
          const where = `${type.name} with ${label}`;
          expect(() => is(value), where).not.toThrow();
          expect(() => validate(value), where).not.toThrow();
          expect(() => decode(value, { mode: "tolerant" }), where).not.toThrow();
          if (type.shape.kind === "object" && tags(type.shape).length > 0)
            expect(() => index[builderName(type.name)]!(value), where).not.toThrow();
          if (type.shape.kind === "keyed-union")
            for (const builder of memberBuilderNames(type.name, type.shape.members))
              expect(() => index[builder]!(value, value), where).not.toThrow();
          if (type.shape.kind === "tagged-union" || type.shape.kind === "keyed-union") {
            expect(
              index[partialMatchName(type.name)]!(value, {}, () => "otherwise"),
              where,
            ).toBe("otherwise");
            try {
              index[matchName(type.name)]!(value, {});
            } catch (error) {
              expect((error as Error).name, where).toBe("UnmatchedError");
            }
          }
        }
      }
    }
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
  }, 120_000);
});
