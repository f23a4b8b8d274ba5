import { sValidator } from "@hono/standard-validator";
import type { StandardJSONSchemaV1, StandardSchemaV1 } from "@standard-schema/spec";
import { initTRPC, TRPCError } from "@trpc/server";
import { asSchema, tool } from "ai";
import { Ajv } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import fc from "fast-check";
import { Hono } from "hono";
import { describe, expect, expectTypeOf, it } from "vitest";
import { typesDecodingKeepsAccepted } from "../../generator/emit/decode.js";
import { emitProtocol } from "../../generator/emit/index.js";
import { format } from "../../generator/format/index.js";
import { ProtocolShapes } from "../../generator/ir/identity.js";
import { decoderName, guardName, standardSchemaName, validatorName } from "../../generator/name/rules.js";
import { GetTaskRequestSchema } from "../../generated/src/a2a/index.js";
import type { GetTaskRequest } from "../../generated/src/a2a/index.js";
import { EventSchema, RunAgentInputSchema, validateEvent } from "../../generated/src/ag-ui/index.js";
import type { Event, RunAgentInput } from "../../generated/src/ag-ui/index.js";
import { corpusDocuments } from "../helpers/corpus.js";
import { namedIrOf } from "../helpers/in-memory.js";
import { generatedIndex } from "../helpers/generated.js";
import type { ProtocolName } from "../helpers/protocols.js";
import { PROTOCOLS, protocol } from "../helpers/protocols.js";

/**
 * `TSchema`, each type as a Standard Schema: it is what `@standard-schema/spec`'s types
 * say, a consumer of the spec (Hono's validator) takes it, its `validate` says what
 * `validateT` says on the real corpus, and its JSON Schema, in both drafts, judges the
 * corpus as the bindings do.
 */
type Schema = StandardSchemaV1<unknown> & StandardJSONSchemaV1<unknown>;
type Validator = (value: unknown) => { ok: true; value: unknown } | { ok: false; errors: readonly { path: string; message: string }[] };

const indexes = new Map(await Promise.all(PROTOCOLS.map(async (name) => [name, await generatedIndex(name)] as const)));
const schemaOf = (name: string, type: string) => indexes.get(name as ProtocolName)![standardSchemaName(type)] as unknown as Schema;
const validatorOf = (name: string, type: string) => indexes.get(name as ProtocolName)![validatorName(type)] as unknown as Validator;
const shapes = new Map(
  await Promise.all(PROTOCOLS.map(async (name) => [name, new ProtocolShapes((await protocol(name)).ir.types)] as const)),
);
/** Whether T's wire form is its canonical form, so that `TSchema` validates as `validateT` does, not as `decodeT`. */
const kept = new Map([...shapes].map(([name, each]) => [name, typesDecodingKeepsAccepted(each.byName)] as const));
const keeps = (name: string, type: string) => kept.get(name as ProtocolName)!.has(type);
const guardOf = (name: string, type: string) =>
  indexes.get(name as ProtocolName)![guardName(type)] as unknown as (value: unknown) => boolean;
/** What `TSchema` reads a value by: `validateT`, or the strict `decodeT` where the wire form differs. */
const readerOf = (name: string, type: string) =>
  keeps(name, type) ? validatorOf(name, type) : (indexes.get(name as ProtocolName)![decoderName(type)] as unknown as Validator);
/** What `TSchema`'s `validate` gives where its reader gives `verdict`. */
const standardOf = (verdict: ReturnType<Validator>, document: unknown) =>
  verdict.ok
    ? { value: verdict.value }
    : { issues: verdict.errors.map(({ message, path }) => ({ message, path: segments(path, document) })) };

describe("TSchema", () => {
  it("is a Standard Schema and a Standard JSON Schema of T, by the spec's own types", () => {
    const standard: StandardSchemaV1<Event> = EventSchema;
    const json: StandardJSONSchemaV1<RunAgentInput> = RunAgentInputSchema;
    expectTypeOf<StandardSchemaV1.InferOutput<typeof EventSchema>>().toEqualTypeOf<Event>();
    expectTypeOf<StandardSchemaV1.InferInput<typeof RunAgentInputSchema>>().toEqualTypeOf<RunAgentInput>();
    expect(standard["~standard"]).toMatchObject({ version: 1, vendor: "agentwire" });
    expect(json["~standard"].jsonSchema.output({ target: "draft-07" })).toMatchObject({ type: "object" });
  });

  it("gives validateT's verdicts, each error's pointer as path segments", () => {
    const value = { type: "RUN_STARTED", threadId: "t1", runId: "r1" };
    expect(EventSchema["~standard"].validate(value)).toEqual({ value });
    const input = { threadId: 1, runId: "r", state: {}, tools: [], context: [], forwardedProps: {}, messages: [{ role: "user" }] };
    expect(RunAgentInputSchema["~standard"].validate(input)).toEqual({
      issues: [
        { message: "must be a string", path: ["threadId"] },
        { message: "is required", path: ["messages", 0, "content"] },
        { message: "is required", path: ["messages", 0, "id"] },
      ],
    });
    // An object's key that reads as an index stays a string; `~1` and `~0` are read back.
    const state = { type: "STATE_SNAPSHOT", snapshot: {}, "a/b~c": 1 };
    const issues = EventSchema["~standard"].validate(state) as StandardSchemaV1.FailureResult;
    expect(validateEvent(state)).toMatchObject({ ok: false, errors: [{ path: "/a~1b~0c" }] });
    expect(issues.issues.map((issue) => issue.path)).toEqual([["a/b~c"]]);
  });

  it("says what validateT says on the real corpus, or decodeT where the wire form differs, whose value is the document where isT accepts it, else a canonical copy", () => {
    const documents = corpusDocuments();
    const decoding = new Set<string>();
    const disagreements = documents.flatMap(({ file, protocol: name, definition, document }) => {
      const verdict = readerOf(name, definition)(document);
      const standard = schemaOf(name, definition)["~standard"].validate(document);
      if (!keeps(name, definition)) decoding.add(`${name}:${definition}`);
      const value = (standard as { value?: unknown }).value;
      return JSON.stringify(standard) === JSON.stringify(standardOf(verdict, document)) &&
        (!verdict.ok || (value === document) === guardOf(name, definition)(document))
        ? []
        : [file];
    });
    expect(disagreements).toEqual([]);
    // A2A's aliases and enum numbers: the corpus reaches types of both kinds.
    expect(decoding.size).toBeGreaterThan(5);
  });

  it("says what its reader says of arbitrary JSON, keys with / and ~ too (fast-check)", () => {
    const key = fc.oneof(fc.constantFrom("type", "messages", "0", "a/b", "~1", "~0/~"), fc.string({ maxLength: 4 }));
    const { value } = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: "small" },
        fc.jsonValue({ maxDepth: 2 }),
        fc.dictionary(key, tie("value"), { maxKeys: 4 }),
        fc.array(tie("value"), { maxLength: 3 }),
      ),
    }));
    const types = ["ag-ui:Event", "ag-ui:RunAgentInput", "a2a:StreamResponse", "app-server:ServerNotification"].filter((entry) => {
      const [name, type] = entry.split(":") as [string, string];
      return indexes.get(name as ProtocolName)![standardSchemaName(type)] !== undefined;
    });
    expect(types.length).toBeGreaterThanOrEqual(3);
    fc.assert(
      fc.property(fc.constantFrom(...types), value, (entry, document) => {
        const [name, type] = entry.split(":") as [string, string];
        expect(schemaOf(name, type)["~standard"].validate(document)).toEqual(standardOf(readerOf(name, type)(document), document));
      }),
      { numRuns: 300, seed: 25 },
    );
  });

  it("is taken by Hono's standard validator, which answers 400 with its issues", async () => {
    const app = new Hono().post("/events", sValidator("json", EventSchema), (c) => {
      const event: Event = c.req.valid("json");
      return c.json({ type: event.type });
    });
    const post = (body: unknown) =>
      app.request("/events", { method: "POST", body: JSON.stringify(body), headers: { "content-type": "application/json" } });
    const accepted = await post({ type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: "Hi" });
    expect([accepted.status, await accepted.json()]).toEqual([200, { type: "TEXT_MESSAGE_CONTENT" }]);
    const refused = await post({ type: "TEXT_MESSAGE_CONTENT", messageId: "m1" });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ success: false, error: [{ message: "is required", path: ["delta"] }] });
  });

  it("is taken by tRPC as a procedure's input, which refuses with BAD_REQUEST and its issues", async () => {
    const t = initTRPC.create();
    const router = t.router({ run: t.procedure.input(RunAgentInputSchema).mutation(({ input }) => input.messages.length) });
    const caller = t.createCallerFactory(router)({});
    expectTypeOf(caller.run).parameter(0).toEqualTypeOf<RunAgentInput>();
    const input: RunAgentInput = { threadId: "t1", runId: "r1", state: {}, messages: [], tools: [], context: [], forwardedProps: {} };
    expect(await caller.run(input)).toBe(0);
    const refused = await caller.run({ ...input, threadId: 1 } as unknown as RunAgentInput).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(TRPCError);
    expect(refused).toMatchObject({ code: "BAD_REQUEST", cause: { issues: [{ message: "must be a string", path: ["threadId"] }] } });
  });

  it("is taken by the AI SDK as a tool's input: the model is given its draft-07 JSON Schema, execute a typed value", async () => {
    const getTask = tool({
      description: "Reads an A2A task",
      inputSchema: GetTaskRequestSchema,
      execute: async (input) => `task ${input.id}`,
    });
    expectTypeOf(getTask.execute).parameter(0).toEqualTypeOf<GetTaskRequest>();
    const schema = asSchema(getTask.inputSchema);
    expect(await schema.jsonSchema).toMatchObject({ $schema: "http://json-schema.org/draft-07/schema#", type: "object", required: ["id"] });
    expect(await schema.validate!({ id: "t1" })).toEqual({ success: true, value: { id: "t1" } });
    // What a model may send by that schema, read as the canonical value.
    expect(await schema.validate!({ id: "t1", history_length: "3" })).toEqual({ success: true, value: { id: "t1", historyLength: 3 } });
    expect(await schema.validate!({ id: 1 })).toMatchObject({
      success: false,
      error: { cause: [{ message: "must be a string", path: ["id"] }] },
    });
    expect(await getTask.execute!({ id: "t1" }, { toolCallId: "c1", messages: [] })).toBe("task t1");
  });
});

describe("TSchema's JSON Schema", () => {
  it("refuses a target it does not give", () => {
    expect(() => EventSchema["~standard"].jsonSchema.input({ target: "openapi-3.0" })).toThrow(/openapi-3.0/);
  });

  it.each(PROTOCOLS)("of every type of %s, in draft 2020-12 and draft-07, judges the corpus as the bindings do", async (name) => {
    const { ir } = await protocol(name);
    const drafts = [
      { target: "draft-2020-12", ajv: new Ajv2020({ strict: false, validateFormats: false }) },
      { target: "draft-07", ajv: new Ajv({ strict: false, validateFormats: false }) },
    ] as const;
    const documents = corpusDocuments().filter((document) => document.protocol === name);
    const disagreements: string[] = [];
    for (const type of ir.types) {
      const converter = schemaOf(name, type.name)["~standard"].jsonSchema;
      for (const { target, ajv } of drafts) {
        const schema = converter.input({ target });
        // A new object each time, the same text.
        expect(converter.output({ target })).toEqual(schema);
        const validate = ajv.compile(schema);
        for (const { file, definition, document } of documents)
          if (definition === type.name && validate(document) !== validatorOf(name, type.name)(document).ok)
            disagreements.push(`${target} ${file}`);
      }
    }
    expect(disagreements).toEqual([]);
  });
});

describe("the Standard Schema module", () => {
  /** standard.ts of a chain of n definitions, each referring to the next, as the pipeline prints it. */
  const standardOfChain = (n: number): string => {
    const $defs = Object.fromEntries(
      Array.from({ length: n }, (_, i) => [
        `D${i}`,
        { type: "object", properties: { next: i + 1 < n ? { $ref: `#/$defs/D${i + 1}` } : { type: "string" } } },
      ]),
    );
    const files = format(emitProtocol(namedIrOf({ $defs })));
    return files.find((file) => file.path.endsWith("/standard.ts"))!.content;
  };

  it("grows as the schema does: each definition is written once and names those it refers to", () => {
    const [small, large] = [standardOfChain(40), standardOfChain(400)];
    // Ten times the definitions: about ten times the text, where each type listing every definition it reaches would make it near a hundred.
    expect(large.length / small.length).toBeLessThan(20);
    expect(large.match(/^function definitionD7\(\)/gm)).toHaveLength(1);
    expect(large).toContain("refers: [definitionD8]");
  });
});

describe("TSchema on a wire form that is not canonical", () => {
  it("accepts what its JSON Schema accepts, and gives the canonical value: A2A's documents with fields under their proto names and enums as numbers", async () => {
    const { ir } = await protocol("a2a");
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    const guards = indexes.get("a2a")!;
    const documents = corpusDocuments().filter((document) => document.protocol === "a2a");
    let random = 25;
    // A small seeded generator (a linear congruential one), so a failure repeats.
    const coin = () => ((random = (random * 1103515245 + 12345) % 2 ** 31) & 1) === 1;
    const snake = (key: string) => key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
    const wire = (value: unknown, every: boolean): unknown =>
      Array.isArray(value)
        ? value.map((item) => wire(item, every))
        : typeof value === "object" && value !== null
          ? Object.fromEntries(Object.entries(value).map(([key, item]) => [every || coin() ? snake(key) : key, wire(item, every)]))
          : typeof value === "string" && /^(TASK_STATE|ROLE)_[A-Z_]+$/.test(value) && coin()
            ? Number(coin()) + Number(coin()) * 2
            : value;
    const disagreements: string[] = [];
    let accepted = 0;
    let renamed = 0;
    for (const type of ir.types.filter((each) => !keeps("a2a", each.name))) {
      const schema = schemaOf("a2a", type.name);
      const validate = ajv.compile(schema["~standard"].jsonSchema.input({ target: "draft-2020-12" }));
      for (const { file, definition, document } of documents) {
        if (definition !== type.name) continue;
        for (const variant of [wire(document, true), wire(document, false), wire(document, false)]) {
          const result = schema["~standard"].validate(variant) as StandardSchemaV1.Result<unknown>;
          const ok = result.issues === undefined;
          if (ok !== validate(variant)) disagreements.push(`${file}: ${JSON.stringify(variant)}`);
          if (ok && !guards[guardName(type.name)]!(result.value))
            disagreements.push(`${file}: not canonical ${JSON.stringify(result.value)}`);
          if (ok) accepted++;
          if (ok && JSON.stringify(variant) !== JSON.stringify(document)) renamed++;
        }
      }
    }
    expect(disagreements).toEqual([]);
    // Not a test of refusals only: wire forms that differ from the document are accepted.
    expect(renamed).toBeGreaterThan(20);
    expect(accepted).toBeGreaterThan(renamed);
  });

  it("reads a null for a field absent as its JSON Schema does, where that is the only wire form a type has (AgentExtension)", () => {
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    const schema = schemaOf("a2a", "AgentExtension");
    const validate = ajv.compile(schema["~standard"].jsonSchema.input({ target: "draft-2020-12" }));
    const wire = { uri: "https://example.com/ext", description: null, required: null };
    expect(keeps("a2a", "AgentExtension")).toBe(false);
    expect(validate(wire)).toBe(true);
    expect(schema["~standard"].validate(wire)).toEqual({ value: { uri: "https://example.com/ext" } });
    expect(validatorOf("a2a", "AgentExtension")(wire).ok).toBe(false);
  });
});

/** A JSON Pointer as Standard Schema's path, by its own reading (RFC 6901). */
function segments(pointer: string, value: unknown): PropertyKey[] {
  if (pointer === "") return [];
  let at = value;
  return pointer
    .slice(1)
    .split("/")
    .map((token) => {
      const key = token.replace(/~1/g, "/").replace(/~0/g, "~");
      const segment = Array.isArray(at) ? Number(key) : key;
      at = (at as Record<PropertyKey, unknown> | undefined)?.[segment];
      return segment;
    });
}
