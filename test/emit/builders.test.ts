import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { tags } from "../../generator/ir/members.js";
import { memberBuilderNames } from "../../generator/name/index.js";
import { builderName, guardName } from "../../generator/name/rules.js";
import type { KeyedUnionShape, NamedType, ObjectShape } from "../../generator/ir/model.js";
import type { JsonObject, JsonValue } from "../../generator/json.js";
import { generatedIndex } from "../helpers/generated.js";
import { PROTOCOLS, protocol } from "../helpers/protocols.js";
import { Random, SampleMaker } from "../helpers/samples.js";

type Builder = (...args: unknown[]) => unknown;
type Guard = (value: unknown) => boolean;

/** A document's fields without its tags, some absent optional fields given as undefined. */
function fieldsOf(document: JsonObject, shape: ObjectShape | KeyedUnionShape, leaveOut: readonly string[], random: Random) {
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(document)) if (!leaveOut.includes(key)) fields[key] = value;
  for (const field of shape.fields) if (!field.required && !(field.name in document) && random.chance(0.5)) fields[field.name] = undefined;
  return fields;
}

/**
 * Every builder's output passes the strict guard of its type, and is exactly the document
 * its fields came from: the tags first, nothing added, undefined fields left out.
 */
describe.each(PROTOCOLS)("the builders of %s", (name) => {
  it("build, from any valid fields, exactly the valid value they describe", async () => {
    const { ir } = await protocol(name);
    const index = await generatedIndex(name);
    const tagged = ir.types.filter(
      (type): type is NamedType & { shape: ObjectShape } => type.shape.kind === "object" && tags(type.shape).length > 0,
    );
    const keyed = ir.types.filter((type): type is NamedType & { shape: KeyedUnionShape } => type.shape.kind === "keyed-union");
    expect(tagged.length + keyed.length).toBeGreaterThan(0);
    fc.assert(
      fc.property(fc.integer(), (seed) => {
        const random = new Random(seed);
        const samples = new SampleMaker(ir, random);
        for (const type of tagged) {
          const document = samples.valid(type.shape) as JsonObject | undefined;
          if (document === undefined) continue;
          const tagNames = tags(type.shape).map((tag) => tag.name);
          const build = index[builderName(type.name)] as Builder;
          const built = build(fieldsOf(document, type.shape, tagNames, random));
          expect((index[guardName(type.name)] as Guard)(built), type.name).toBe(true);
          expect(JSON.stringify(built)).toBe(JSON.stringify(reorder(document, tagNames)));
        }
        for (const type of keyed)
          for (const [i, member] of type.shape.members.entries()) {
            const document = samples.variant(type.shape, member);
            if (document === undefined) continue;
            const build = index[memberBuilderNames(type.name, type.shape.members)[i]!] as Builder;
            const built = build(document[member.name], fieldsOf(document, type.shape, [member.name], random));
            expect((index[guardName(type.name)] as Guard)(built), `${type.name}.${member.name}`).toBe(true);
            expect(JSON.stringify(built)).toBe(JSON.stringify(reorder(document, [member.name])));
          }
      }),
      { seed: 0xb111d, numRuns: 200 },
    );
  });
});

/** The document with these keys first, as a builder orders them. */
function reorder(document: JsonObject, first: readonly string[]): JsonObject {
  const ordered: Record<string, JsonValue> = {};
  for (const key of first) ordered[key] = document[key]!;
  for (const [key, value] of Object.entries(document)) if (!first.includes(key)) ordered[key] = value;
  return ordered;
}

describe("AG-UI builders", async () => {
  const agUi = await generatedIndex("ag-ui");
  const createRunStartedEvent = agUi["createRunStartedEvent"] as Builder;
  const createTextMessageStartEvent = agUi["createTextMessageStartEvent"] as Builder;

  it("stamp timestamp with the current time in milliseconds only when asked, and never over a given one", () => {
    const before = Date.now();
    const stamped = createRunStartedEvent({ threadId: "t", runId: "r" }, { stamp: true }) as { timestamp: number };
    const after = Date.now();
    expect(Object.keys(stamped)).toEqual(["type", "threadId", "runId", "timestamp"]);
    expect(stamped.timestamp).toBeGreaterThanOrEqual(before);
    expect(stamped.timestamp).toBeLessThanOrEqual(after);
    expect(createRunStartedEvent({ threadId: "t", runId: "r", timestamp: 7 }, { stamp: true })).toEqual({
      type: "RUN_STARTED",
      threadId: "t",
      runId: "r",
      timestamp: 7,
    });
    expect(createRunStartedEvent({ threadId: "t", runId: "r" })).not.toHaveProperty("timestamp");
    expect(createRunStartedEvent({ threadId: "t", runId: "r", timestamp: undefined }, { stamp: false })).not.toHaveProperty("timestamp");
  });

  it("add nothing the caller did not ask for: an absent role stays absent", () => {
    expect(createTextMessageStartEvent({ messageId: "m1", role: undefined })).toEqual({ type: "TEXT_MESSAGE_START", messageId: "m1" });
    expect(Object.keys(createTextMessageStartEvent({ messageId: "m1" }) as object)).toEqual(["type", "messageId"]);
  });

  it("keep the tag they fill in, whatever untyped code passes, and do not write through __proto__", () => {
    const fields = JSON.parse('{"type":"RUN_ERROR","messageId":"m1","__proto__":{"polluted":true}}') as Record<string, unknown>;
    const built = createTextMessageStartEvent(fields) as Record<string, unknown>;
    expect(built["type"]).toBe("TEXT_MESSAGE_START");
    expect(Object.getPrototypeOf(built)).toBe(Object.prototype);
    expect(Object.hasOwn(built, "__proto__")).toBe(true);
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
    expect((agUi["isTextMessageStartEvent"] as Guard)(built)).toBe(false);
  });
});
