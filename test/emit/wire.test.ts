import { Ajv2020 } from "ajv/dist/2020.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { JsonValue } from "../../generator/json.js";
import { referenceValidator } from "../helpers/differential.js";
import { generatedModules } from "../helpers/generated.js";
import { anyJavaScript, breaches, spoiled } from "../helpers/javascript.js";
import { PROTOCOLS, protocol } from "../helpers/protocols.js";
import { Random, SampleMaker } from "../helpers/samples.js";

/**
 * Guards agree with the wire on any JavaScript value: what `isT` accepts is still a T
 * after `JSON.stringify`, and `isT`, `validateT` and strict `decodeT` give one verdict
 * (test/helpers/javascript.ts). Arbitrary values rarely have a valid shape, so valid
 * documents are also written as JavaScript values JSON writes differently: a property
 * undefined, on a prototype, not enumerable or behind a getter, a number NaN, a primitive
 * boxed, an object a Date.
 */
describe.each(PROTOCOLS)("the generated functions of %s on any JavaScript value", (name) => {
  it("give one verdict, and accept only what is still valid sent as JSON: arbitrary values", async () => {
    const { ir, schema } = await protocol(name);
    const generated = await generatedModules(name);
    const reference = referenceValidator(schema, new Ajv2020({ strict: false, validateFormats: false }));
    const names = ir.types.map((type) => type.name);
    const references = new Map(names.map((type) => [type, reference(type)]));
    fc.assert(
      fc.property(fc.constantFrom(...names), anyJavaScript, (type, value) => {
        expect(breaches(generated.functions(type), references.get(type)!, value)).toEqual([]);
      }),
      { seed: 0x15a11, numRuns: 1500 },
    );
  }, 60_000);

  it("give one verdict, and accept only what is still valid sent as JSON: valid documents written differently", async () => {
    const { ir, schema } = await protocol(name);
    const generated = await generatedModules(name);
    const reference = referenceValidator(schema, new Ajv2020({ strict: false, validateFormats: false }));
    const random = new Random(0x5b011);
    const maker = new SampleMaker(ir, random);
    const problems: string[] = [];
    const verdicts = { accepted: 0, refused: 0 };
    for (const type of ir.types) {
      const functions = generated.functions(type.name);
      const check = reference(type.name);
      for (let i = 0; i < 40; i++) {
        const made = maker.valid(type.shape);
        if (made === undefined) continue;
        // As a document arrives: through JSON text, so "__proto__" is an own property.
        const document = JSON.parse(JSON.stringify(made)) as JsonValue;
        const [how, value] = spoiled(document, random);
        const found = breaches(functions, check, value);
        if (found.length > 0) problems.push(`${type.name} with ${how}: ${found.join("; ")}: ${JSON.stringify(document)}`);
        verdicts[functions.is(value) ? "accepted" : "refused"]++;
      }
    }
    expect(problems.slice(0, 10)).toEqual([]);
    // Neither verdict is so rare that the rule goes untested.
    expect(Math.min(verdicts.accepted, verdicts.refused)).toBeGreaterThan((verdicts.accepted + verdicts.refused) / 5);
  }, 60_000);
});

/**
 * What the guards do with each kind of JavaScript value that JSON.stringify writes
 * differently, on AG-UI events; validate and decode agree (the tests above), so the
 * reasons are pinned with the verdict.
 */
describe("the guards on each kind of JavaScript value", async () => {
  const { is, validate, decode } = (await generatedModules("ag-ui")).functions("Event");
  const run = { type: "RUN_STARTED", threadId: "t", runId: "r" };
  const user = { id: "m", role: "user", content: "hi" };
  const reasons = (value: unknown) => {
    const validated = validate(value);
    const decoded = decode(value);
    expect(decoded.ok).toBe(validated.ok);
    return validated.ok ? [] : validated.errors;
  };
  const missingType = [{ path: "/type", keyword: "discriminator", message: expect.stringMatching(/^missing "type": expected one of /) }];
  const required = (name: string) => [{ path: `/${name}`, keyword: "required", message: "is required" }];
  const notObject = (path: string) => [{ path, keyword: "type", message: "must be an object" }];

  it.each<[string, unknown, boolean, unknown[]]>([
    ["an optional property undefined is absent", { ...run, timestamp: undefined }, true, []],
    ["an unknown property undefined is absent, even in a closed object", { ...run, future: undefined }, true, []],
    ["a required property undefined is missing", { type: "STATE_SNAPSHOT", snapshot: undefined }, false, required("snapshot")],
    [
      "a function where any value goes is missing, as JSON leaves it out",
      { type: "STATE_SNAPSHOT", snapshot: () => ({}) },
      false,
      required("snapshot"),
    ],
    [
      "a tag on the prototype is missing",
      Object.assign(Object.create({ type: "RUN_STARTED" }) as object, { threadId: "t", runId: "r" }),
      false,
      missingType,
    ],
    [
      "a field on the prototype is missing",
      Object.assign(Object.create({ runId: "r" }) as object, { type: "RUN_STARTED", threadId: "t" }),
      false,
      required("runId"),
    ],
    [
      "a prototype's getter is never called",
      Object.assign(
        Object.create({
          get type(): never {
            throw new Error("read through the prototype");
          },
        }) as object,
        { threadId: "t", runId: "r" },
      ),
      false,
      missingType,
    ],
    [
      "a property that is not enumerable is missing",
      Object.defineProperty({ ...run }, "runId", { enumerable: false }),
      false,
      required("runId"),
    ],
    [
      "an unknown property that is not enumerable is absent",
      Object.defineProperty({ ...run }, "extra", { value: 1, enumerable: false }),
      true,
      [],
    ],
    ["a symbol key is absent", { ...run, [Symbol("key")]: 1 }, true, []],
    [
      "an enumerable getter is read, as JSON reads it",
      Object.defineProperty({ ...run }, "runId", { get: () => "r", enumerable: true }),
      true,
      [],
    ],
    ["an object without a prototype is an object", Object.assign(Object.create(null) as object, run), true, []],
    ["a class instance is the object of its own properties", Object.assign(new (class Run {})(), run), true, []],
    ["a Map is the object of its own properties: {}", { ...run, metadata: new Map([["a", 1]]) }, true, []],
    [
      "anything with a toJSON method is no object",
      Object.assign(
        new (class Run {
          toJSON(): object {
            return {};
          }
        })(),
        run,
      ),
      false,
      notObject(""),
    ],
    ["a Date is no object", { ...run, metadata: new Date(0) }, false, notObject("/metadata")],
    ["a boxed primitive is no object", { ...run, metadata: new Number(1) }, false, notObject("/metadata")],
    [
      "a boxed string is no string",
      { ...run, threadId: new String("t") },
      false,
      [{ path: "/threadId", keyword: "type", message: "must be a string" }],
    ],
    ["NaN is no number", { ...run, timestamp: NaN }, false, [{ path: "/timestamp", keyword: "type", message: "must be an integer" }]],
    [
      "Infinity is no number",
      { ...run, timestamp: Infinity },
      false,
      [{ path: "/timestamp", keyword: "type", message: "must be an integer" }],
    ],
    ["a hole in an array is no item", { type: "MESSAGES_SNAPSHOT", messages: [user, , user] }, false, notObject("/messages/1")],
    [
      "an array with a toJSON method is no array",
      { type: "MESSAGES_SNAPSHOT", messages: Object.defineProperty([user], "toJSON", { value: () => [] }) },
      false,
      [{ path: "/messages", keyword: "type", message: "must be an array" }],
    ],
  ])("%s", (_, value, verdict, errors) => {
    expect(() => is(value)).not.toThrow();
    expect(is(value)).toBe(verdict);
    expect(reasons(value)).toEqual(errors);
  });

  it("judges a primitive's box given properties of its own by those properties: the one exception, for speed", async () => {
    const part = (await generatedModules("a2a")).functions("Part");
    const boxed = Object.assign(new String(""), { text: "a" });
    expect(part.is(boxed)).toBe(true);
    expect(JSON.stringify(boxed)).toBe('""');
    expect(part.is(new String(""))).toBe(false);
  });
});
