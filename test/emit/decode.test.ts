import { isDeepStrictEqual } from "node:util";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import type { Ir, NamedType, Shape } from "../../generator/ir/model.js";
import type { JsonObject, JsonValue } from "../../generator/json.js";
import { typesDecodingKeepsAccepted } from "../../generator/emit/decode.js";
import { corpusDocuments } from "../helpers/corpus.js";
import { generatedModules } from "../helpers/generated.js";
import type { ProtocolName } from "../helpers/protocols.js";
import { PROTOCOLS, protocol } from "../helpers/protocols.js";
import { Random, SampleMaker, toWireForm } from "../helpers/samples.js";

const a2a = async () => {
  const { ir, schema } = await protocol("a2a");
  const ajv = new Ajv2020({ strict: false, validateFormats: false });
  ajv.addSchema(schema, "effective");
  return { ir, ajv, generated: await generatedModules("a2a") };
};

describe("decode: wire forms", () => {
  it("reads aliases, enum numbers and int32 digits into the canonical value, which the reference accepts in both forms", async () => {
    const { ir, ajv, generated } = await a2a();
    const problems: string[] = [];
    let changed = 0;
    for (const [index, type] of ir.types.entries()) {
      const reference = ajv.compile({ $ref: `effective#/$defs/${type.name}` });
      const { is, decode } = generated.functions(type.name);
      const random = new Random(0xa2a + index);
      const maker = new SampleMaker(ir, random);
      for (let i = 0; i < 200; i++) {
        const canonical = maker.valid(type.shape);
        if (canonical === undefined || !reference(canonical)) continue;
        const wire = JSON.parse(JSON.stringify(toWireForm(canonical, type.shape, maker, random))) as JsonValue;
        if (JSON.stringify(wire) === JSON.stringify(canonical)) continue;
        changed++;
        const decoded = decode(wire);
        if (!reference(wire)) problems.push(`${type.name}: the reference rejects the wire form ${JSON.stringify(wire)}`);
        if (!decoded.ok) problems.push(`${type.name}: decode rejects ${JSON.stringify(wire)}: ${JSON.stringify(decoded.errors)}`);
        else if (JSON.stringify(decoded.value) !== JSON.stringify(canonical))
          problems.push(`${type.name}: ${JSON.stringify(decoded.value)} is not ${JSON.stringify(canonical)}`);
        if (is(wire)) problems.push(`${type.name}: isT accepts the wire form ${JSON.stringify(wire)}`);
      }
    }
    expect(problems.slice(0, 10)).toEqual([]);
    expect(changed).toBeGreaterThan(2000);
  }, 60_000);

  const decodeTaskStatus = async (input: unknown, mode?: "strict" | "tolerant") =>
    (await generatedModules("a2a")).functions("TaskStatus").decode(input, mode === undefined ? undefined : { mode });

  it("refuses as unrecognized an enum number that names no value, which the schema's integer branch accepts", async () => {
    const { ajv } = await a2a();
    const decode = (await generatedModules("a2a")).functions("ListTasksRequest").decode;
    const request = { status: -269916345 };
    expect(ajv.validate({ $ref: "effective#/$defs/ListTasksRequest" }, request)).toBe(true);
    const unrecognized = {
      ok: false,
      unrecognized: true,
      errors: [{ path: "/status", keyword: "unrecognized", message: "-269916345 is not the number of a TaskState this version knows" }],
    };
    expect(decode(request)).toEqual(unrecognized);
    expect(decode(request, { mode: "tolerant" })).toEqual(unrecognized);
    expect(await decodeTaskStatus({ state: 42 })).toEqual({
      ok: false,
      unrecognized: true,
      errors: [{ path: "/state", keyword: "unrecognized", message: "42 is not the number of a TaskState this version knows" }],
    });
    expect(decode({ status: 2 })).toEqual({ ok: true, value: { status: "TASK_STATE_WORKING" } });
  });

  it("refuses as invalid a number the schema does not accept for an enum: beyond an int32, or not an integer", async () => {
    for (const state of [2147483648, 1.5])
      for (const mode of ["strict", "tolerant"] as const)
        expect(await decodeTaskStatus({ state }, mode)).toMatchObject({
          ok: false,
          unrecognized: false,
          errors: [{ path: "/state", keyword: "enum" }],
        });
  });

  it("refuses a field sent under both its names, as the schema does (protojson: a duplicate field)", async () => {
    const { ajv, generated } = await a2a();
    const { is, validate, decode } = generated.functions("Task");
    const task = { id: "t", status: { state: "TASK_STATE_WORKING" }, contextId: "a", context_id: "a" };
    expect(decode(task)).toEqual({
      ok: false,
      unrecognized: false,
      errors: [{ path: "/context_id", keyword: "duplicate", message: 'is "contextId" again, under another of its names: send one' }],
    });
    expect(ajv.validate({ $ref: "effective#/$defs/Task" }, task)).toBe(false);
    expect(is(task)).toBe(false);
    expect(validate(task).ok).toBe(false);
  });

  it("refuses every aliased field of every type under both its names, as the reference does, and reads either alone", async () => {
    const { ir, ajv, generated } = await a2a();
    const problems: string[] = [];
    let tried = 0;
    for (const [index, type] of ir.types.entries()) {
      const shape = type.shape;
      const fields = shape.kind === "object" ? shape.fields : shape.kind === "keyed-union" ? [...shape.members, ...shape.fields] : [];
      const reference = ajv.compile({ $ref: `effective#/$defs/${type.name}` });
      const { is, decode } = generated.functions(type.name);
      const maker = new SampleMaker(ir, new Random(0xa11a5 + index));
      for (let i = 0; i < 20; i++) {
        const canonical = maker.valid(shape) as Record<string, JsonValue> | undefined;
        if (canonical === undefined || !reference(canonical)) continue;
        for (const field of fields)
          for (const alias of field.aliases ?? []) {
            if (canonical[field.name] === undefined) continue;
            tried++;
            const both = { ...canonical, [alias]: canonical[field.name]! };
            const show = `${type.name} ${JSON.stringify(both)}`;
            if (reference(both)) problems.push(`the reference accepts ${show}`);
            if (is(both)) problems.push(`isT accepts ${show}`);
            const decoded = decode(both);
            if (decoded.ok || !decoded.errors.some((error) => error.keyword === "duplicate"))
              problems.push(`decode does not refuse ${show}`);
            const { [field.name]: value, ...rest } = canonical;
            if (!reference({ ...rest, [alias]: value! }) || !decode({ ...rest, [alias]: value! }).ok)
              problems.push(`${type.name}: "${alias}" alone is refused`);
          }
      }
    }
    expect(problems.slice(0, 10)).toEqual([]);
    expect(tried).toBeGreaterThan(100);
  }, 60_000);

  it("refuses int32 digits beyond an int32, which the schema's pattern allows", async () => {
    const decode = (await generatedModules("a2a")).functions("GetTaskRequest").decode;
    expect(decode({ id: "t", historyLength: "12" })).toEqual({ ok: true, value: { id: "t", historyLength: 12 } });
    expect(decode({ id: "t", historyLength: "99999999999" })).toMatchObject({
      ok: false,
      errors: [{ path: "/historyLength", keyword: "maximum" }],
    });
  });

  it("requires what a2a.proto requires, a field with a wire alias under either of its names, as the reference does", async () => {
    const { ajv, generated } = await a2a();
    const { validate, decode } = generated.functions("Message");
    const parts = [{ text: "hi" }];
    const wire = { message_id: "m", role: 1, parts };
    expect(ajv.validate({ $ref: "effective#/$defs/Message" }, wire)).toBe(true);
    expect(decode(wire)).toEqual({ ok: true, value: { messageId: "m", role: "ROLE_USER", parts } });
    expect(ajv.validate({ $ref: "effective#/$defs/Message" }, { role: 1, parts })).toBe(false);
    expect(decode({ role: 1, parts })).toEqual({
      ok: false,
      unrecognized: false,
      errors: [{ path: "/messageId", keyword: "required", message: "is required" }],
    });
    expect(validate({})).toEqual({
      ok: false,
      errors: ["/messageId", "/parts", "/role"].map((path) => ({ path, keyword: "required", message: "is required" })),
    });
  });

  it("gives the reasons of what it reads, not those of the input, where an invalid input holds a wire form", async () => {
    // The checks of the input stand for those of what reading gives only where they met no
    // wire form: here each input's own checks would add one (at /role, /taskId, /message_id).
    const generated = await generatedModules("a2a");
    const { validate, decode } = generated.functions("Message");
    const canonical = { messageId: "m", role: "ROLE_USER", parts: 5 };
    const reasons = [{ path: "/parts", keyword: "type", message: "must be an array" }];
    expect(validate(canonical)).toEqual({ ok: false, errors: reasons });
    for (const wire of [
      { ...canonical, role: 1 },
      { ...canonical, taskId: null },
      { message_id: "m", role: "ROLE_USER", parts: 5 },
    ]) {
      const own = validate(wire);
      expect(own.ok === false ? own.errors.length : 0).toBeGreaterThan(1);
      for (const mode of ["strict", "tolerant"] as const)
        expect(decode(wire, { mode })).toEqual({ ok: false, unrecognized: false, errors: reasons });
    }
    // A strict reading reports an unknown property first, then what the checks of the copy find.
    const unknown = { path: "/extra", keyword: "additionalProperties", message: 'must not have the property "extra"' };
    expect(decode({ ...canonical, extra: 1 })).toEqual({ ok: false, unrecognized: false, errors: [unknown, ...reasons] });
    expect(decode({ ...canonical, extra: 1 }, { maxErrors: 1 })).toEqual({
      ok: false,
      unrecognized: false,
      errors: [unknown],
      truncated: true,
    });
    // Tolerant, it drops the unknown property: what was read is valid only where nothing else failed.
    expect(decode({ ...canonical, extra: 1 }, { mode: "tolerant" })).toEqual({ ok: false, unrecognized: false, errors: reasons });
    expect(decode({ ...canonical, parts: [], extra: 1 }, { mode: "tolerant" })).toEqual({
      ok: true,
      value: { ...canonical, parts: [] },
      ignored: ["/extra"],
    });
    // An alias is read (the duplicate at the name sent, the value checked under the field's name).
    expect(decode({ ...canonical, message_id: 7, extra: 1 })).toEqual({
      ok: false,
      unrecognized: false,
      errors: [
        { path: "/message_id", keyword: "duplicate", message: 'is "messageId" again, under another of its names: send one' },
        unknown,
        { path: "/messageId", keyword: "type", message: "must be a string" },
        ...reasons,
      ],
    });
    const request = generated.functions("GetTaskRequest");
    expect(request.decode({ id: 7, historyLength: "12" })).toEqual({
      ok: false,
      unrecognized: false,
      errors: [{ path: "/id", keyword: "type", message: "must be a string" }],
    });
  });
});

describe("decode: null for absent (ProtoJSON)", () => {
  it("reads a null on every optional field of the A2A corpus as the field absent, which the reference accepts", async () => {
    const { ir, ajv, generated } = await a2a();
    const shapes = shapesOf(ir);
    const problems: string[] = [];
    let injected = 0;
    let documents = 0;
    for (const { file, protocol: name, definition, document } of corpusDocuments()) {
      if (name !== "a2a") continue;
      const { is, validate, decode } = generated.functions(definition);
      const decoded = decode(document);
      if (!decoded.ok) continue;
      const nulls = withNulls(document, { kind: "ref", name: definition }, shapes);
      if (nulls.count === 0) continue;
      documents++;
      injected += nulls.count;
      const wire = nulls.document;
      if (!ajv.validate({ $ref: `effective#/$defs/${definition}` }, wire))
        problems.push(`${file}: the reference refuses ${JSON.stringify(wire)}`);
      const read = decode(wire);
      if (!read.ok) problems.push(`${file}: decode refuses ${JSON.stringify(wire)}: ${JSON.stringify(read.errors)}`);
      else if (JSON.stringify(read.value) !== JSON.stringify(decoded.value))
        problems.push(`${file}: ${JSON.stringify(read.value)} is not ${JSON.stringify(decoded.value)}`);
      // The guard is for canonical values, which have no null there; decoding makes them so.
      if (is(wire) || validate(wire).ok) problems.push(`${file}: the guard accepts nulls in ${JSON.stringify(wire)}`);
    }
    expect(problems.slice(0, 10)).toEqual([]);
    // 54 documents the decoder accepts, 367 nulls.
    expect(documents).toBeGreaterThanOrEqual(50);
    expect(injected).toBeGreaterThanOrEqual(300);
  }, 60_000);

  it("keeps null where it is a value (google.protobuf.Value), and refuses it on a required field, as the reference does", async () => {
    const { ajv, generated } = await a2a();
    const judge = (type: string, value: unknown) => [
      ajv.validate({ $ref: `effective#/$defs/${type}` }, value),
      generated.functions(type).decode(value),
    ];
    expect(judge("Part", { data: null })).toEqual([true, { ok: true, value: { data: null } }]);
    // data's null is a member present, beside text.
    expect(judge("Part", { text: "hi", data: null })).toMatchObject([false, { ok: false }]);
    expect(judge("Part", { text: "hi", raw: null, url: null })).toEqual([true, { ok: true, value: { text: "hi" } }]);
    expect(judge("Task", { id: null, status: { state: "TASK_STATE_WORKING" } })).toMatchObject([
      false,
      { ok: false, errors: [{ path: "/id", keyword: "type" }] },
    ]);
    expect(judge("GetTaskRequest", { id: "t", historyLength: null, tenant: null })).toEqual([true, { ok: true, value: { id: "t" } }]);
    const task = { id: "t", status: { state: "TASK_STATE_WORKING" } };
    expect(judge("StreamResponse", { task, message: null, statusUpdate: null, artifact_update: null })).toEqual([
      true,
      { ok: true, value: { task } },
    ]);
    expect(judge("StreamResponse", { task: null, message: null })).toMatchObject([false, { ok: false }]);
  });

  it("refuses a field under both its names when one is null, as the reference does (protojson: a duplicate field, null or not)", async () => {
    const { ajv, generated } = await a2a();
    const { decode } = generated.functions("GetTaskRequest");
    const duplicate = [
      { path: "/history_length", keyword: "duplicate", message: 'is "historyLength" again, under another of its names: send one' },
    ];
    for (const request of [
      { id: "t", historyLength: 3, history_length: null },
      { id: "t", historyLength: null, history_length: 3 },
      { id: "t", historyLength: null, history_length: null },
    ]) {
      expect(ajv.validate({ $ref: "effective#/$defs/GetTaskRequest" }, request), JSON.stringify(request)).toBe(false);
      expect(decode(request), JSON.stringify(request)).toEqual({ ok: false, unrecognized: false, errors: duplicate });
    }
    // The alias first, null: the field's own name after it is the duplicate.
    expect(decode({ history_length: null, id: "t", historyLength: 3 })).toMatchObject({
      ok: false,
      errors: [{ path: "/historyLength", keyword: "duplicate" }],
    });
  });
});

/**
 * The document with a null for every optional field it leaves out whose null is absence,
 * at every depth the shapes reach, and how many it added.
 */
function withNulls(document: JsonValue, shape: Shape, shapes: ReadonlyMap<string, Shape>): { document: JsonValue; count: number } {
  let count = 0;
  const walk = (value: JsonValue, at: Shape): JsonValue => {
    const resolved = at.kind === "ref" ? shapes.get(at.name)! : at;
    if (resolved.kind === "ref") return walk(value, resolved);
    if (resolved.kind === "nullable" || resolved.kind === "constrained") return value === null ? null : walk(value, resolved.shape);
    if (Array.isArray(value))
      return resolved.kind === "array" ? value.map((item, i) => walk(item, resolved.prefixItems?.[i] ?? resolved.items)) : value;
    if (value === null || typeof value !== "object") return value;
    if (resolved.kind === "map") return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, walk(item, resolved.values)]));
    if (resolved.kind === "tagged-union") {
      const member = resolved.members.find((each) => each.value === (value as JsonObject)[resolved.tag]);
      return member === undefined ? value : walk(value, member.shape);
    }
    if (resolved.kind !== "object" && resolved.kind !== "keyed-union") return value;
    const fields = resolved.kind === "object" ? resolved.fields : [...resolved.members, ...resolved.fields];
    const copy: Record<string, JsonValue> = {};
    for (const [key, item] of Object.entries(value)) {
      const field = fields.find((each) => each.name === key || (each.aliases ?? []).includes(key));
      copy[key] = field === undefined ? item : walk(item, field.shape);
    }
    for (const field of fields)
      if (field.nullIsAbsent && ![field.name, ...(field.aliases ?? [])].some((name) => Object.hasOwn(value, name))) {
        copy[field.name] = null;
        count++;
      }
    return copy;
  };
  return { document: walk(document, shape), count };
}

describe("decode: tolerant mode", () => {
  it("drops and lists the properties a closed object does not know", async () => {
    const decode = (await generatedModules("ag-ui")).functions("Event").decode;
    const event = { type: "TEXT_MESSAGE_START", messageId: "m", futureField: 1, metadata: { kept: true } };
    expect(decode(event).ok).toBe(false);
    expect(decode(event, { mode: "tolerant" })).toEqual({
      ok: true,
      value: { type: "TEXT_MESSAGE_START", messageId: "m", metadata: { kept: true } },
      ignored: ["/futureField"],
    });
  });

  it("reports an event type this version does not know as unrecognized, not invalid", async () => {
    const decode = (await generatedModules("ag-ui")).functions("Event").decode;
    expect(decode({ type: "THINKING_START" }, { mode: "tolerant" })).toEqual({
      ok: false,
      unrecognized: true,
      errors: [{ path: "/type", keyword: "unrecognized", message: '"THINKING_START" is not an Event type this version knows' }],
    });
    expect(decode({ type: "THINKING_START" })).toMatchObject({
      ok: false,
      unrecognized: false,
      errors: [
        {
          path: "/type",
          keyword: "discriminator",
          message: expect.stringMatching(/^unknown type "THINKING_START": expected one of "TEXT_MESSAGE_START", /),
        },
      ],
    });
    expect(decode({ type: 7 }, { mode: "tolerant" })).toMatchObject({ ok: false, unrecognized: false });
  });

  it("reads an enum value it does not know as the overlay's fallback", async () => {
    const decode = (await generatedModules("gtm-agent")).functions("AgentTaskStatusUpdateEvent").decode;
    const update = { taskId: "run", status: { state: "TASK_STATE_PAUSED" } };
    expect(decode(update).ok).toBe(false);
    expect(decode(update, { mode: "tolerant" })).toEqual({
      ok: true,
      value: { taskId: "run", status: { state: "TASK_STATE_UNSPECIFIED" } },
    });
  });
});

describe("decode: safety", () => {
  it("returns the input itself when the guard accepts it: it is canonical already, and nothing converts", async () => {
    for (const [name, type, text] of [
      ["ag-ui", "RunStartedEvent", '{"type":"RUN_STARTED","threadId":"t","runId":"r","input":{"threadId":"t","runId":"r","messages":[]}}'],
      ["a2a", "TaskStatus", '{"state":"TASK_STATE_WORKING"}'],
    ] as const) {
      const { is, decode } = (await generatedModules(name)).functions(type);
      const input: unknown = JSON.parse(text);
      expect(is(input)).toBe(true);
      for (const mode of ["strict", "tolerant"] as const) expect(decode(input, { mode })).toEqual({ ok: true, value: input });
      for (const mode of ["strict", "tolerant"] as const) expect((decode(input, { mode }) as { value: unknown }).value).toBe(input);
    }
  });

  it("returns a new value where something converts, and leaves its input as it was", async () => {
    const decode = (await generatedModules("a2a")).functions("Task").decode;
    const input = JSON.parse(
      '{"id":"t","context_id":"c","status":{"state":3},"history":[{"message_id":"m","role":"ROLE_USER","parts":[{"text":"hi"}]}]}',
    ) as Record<string, unknown>;
    const before = JSON.stringify(input);
    for (const mode of ["strict", "tolerant"] as const) {
      const decoded = decode(input, { mode });
      expect(decoded).toMatchObject({ ok: true, value: { id: "t", contextId: "c", history: [{ messageId: "m" }] } });
      expect(decoded.ok && decoded.value).not.toBe(input);
      expect(decoded.ok && (decoded.value as { history: unknown }).history).not.toBe(input["history"]);
    }
    expect(JSON.stringify(input)).toBe(before);
  });

  it("never writes to a prototype, wherever __proto__ is", async () => {
    const generated = await generatedModules("ag-ui");
    const documents = [
      '{"__proto__":{"polluted":true},"type":"TEXT_MESSAGE_START","messageId":"m"}',
      '{"type":"TEXT_MESSAGE_START","messageId":"m","metadata":{"__proto__":{"polluted":true}}}',
      '{"type":"STATE_SNAPSHOT","snapshot":{"__proto__":{"polluted":true}}}',
      '{"type":"CUSTOM","name":"n","value":[{"__proto__":{"polluted":true}}]}',
    ];
    for (const text of documents)
      for (const mode of ["strict", "tolerant"] as const) {
        const decoded = generated.functions("Event").decode(JSON.parse(text), { mode });
        expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
        if (decoded.ok) expect(Object.getPrototypeOf(decoded.value)).toBe(Object.prototype);
      }
    const metadata = generated.functions("Event").decode(JSON.parse(documents[1]!));
    expect(metadata.ok && Object.getPrototypeOf((metadata.value as { metadata: object }).metadata)).toBe(Object.prototype);
    expect(metadata.ok && Object.keys((metadata.value as { metadata: object }).metadata)).toEqual(["__proto__"]);
  });
});

describe("decode: what the guard accepts", () => {
  it("is kept as it is, in both modes, for every type whose decoding keeps it: a stream reader takes the guard's verdict there", async () => {
    const problems: string[] = [];
    let kept = 0;
    for (const name of PROTOCOLS) {
      const { ir } = await protocol(name);
      const generated = await generatedModules(name);
      for (const [index, type] of ir.types.entries()) {
        if (!typesDecodingKeepsAccepted(shapesOf(ir)).has(type.name)) continue;
        const { is, decode } = generated.functions(type.name);
        const random = new Random(0xdec0de + index);
        const maker = new SampleMaker(ir, random);
        for (let i = 0; i < 40; i++) {
          const valid = maker.valid(type.shape);
          if (valid === undefined) continue;
          const wire = toWireForm(valid, type.shape, maker, random);
          for (const sample of [valid, wire, maker.mutate(valid, type.shape)]) {
            const parsed: unknown = JSON.parse(JSON.stringify(sample));
            if (!is(parsed)) continue;
            kept++;
            for (const mode of ["strict", "tolerant"] as const) {
              const decoded = decode(parsed, { mode });
              if (!decoded.ok || !isDeepStrictEqual(decoded.value, parsed) || "ignored" in decoded)
                problems.push(`${name} ${type.name} (${mode}): ${JSON.stringify(parsed)} decodes to ${JSON.stringify(decoded)}`);
            }
          }
        }
      }
    }
    expect(problems.slice(0, 10)).toEqual([]);
    expect(kept).toBeGreaterThan(1000);
  }, 60_000);

  it("holds for the stream events of AG-UI, GTM and app-server, and not for A2A's, whose fields have proto names and enums numbers", async () => {
    const keeps = async (name: ProtocolName, type: string) => typesDecodingKeepsAccepted(shapesOf((await protocol(name)).ir)).has(type);
    expect(await keeps("ag-ui", "Event")).toBe(true);
    expect(await keeps("gtm-agent", "AgentStreamEvent")).toBe(true);
    expect(await keeps("app-server", "ServerNotification")).toBe(true);
    expect(await keeps("a2a", "StreamResponse")).toBe(false);
    expect(await keeps("a2a", "TaskStatus")).toBe(false);
  });

  it("is known for a type at the head of a chain of 100,000 types, each a field of the one before", () => {
    const count = 100_000;
    const link = (i: number, last: Shape): NamedType => ({
      name: `T${i}`,
      pointer: `/$defs/T${i}`,
      doc: {},
      shape: {
        kind: "object",
        fields: [{ name: "next", shape: i + 1 < count ? { kind: "ref", name: `T${i + 1}` } : last, required: false, doc: {}, pointer: "" }],
        additional: { kind: "never" },
      },
    });
    const chain = (last: Shape): Ir => ({ protocol: "chain", types: Array.from({ length: count }, (_, i) => link(i, last)) });
    expect(typesDecodingKeepsAccepted(shapesOf(chain({ kind: "string" }))).has("T0")).toBe(true);
    expect(typesDecodingKeepsAccepted(shapesOf(chain({ kind: "enum", values: ["A"], wire: { numbers: { A: 1 } } }))).has("T0")).toBe(false);
  });
});

/** The named types' shapes, by name, as the emitters are given them (as `ProtocolShapes.byName` has them). */
function shapesOf(ir: Ir): ReadonlyMap<string, Shape> {
  return new Map(ir.types.map((type) => [type.name, type.shape]));
}
