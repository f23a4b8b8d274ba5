import { describe, expect, it } from "vitest";
import type { JsonObject } from "../../generator/json.js";
import type { LoadedProtocol } from "../../generator/load/index.js";
import { compileStream } from "../../generator/stream/index.js";
import { inputError } from "../helpers/failure.js";
import { namedIrOf, sourceFile } from "../helpers/in-memory.js";

/** A stream of two tagged events, and a keyed union beside it. */
const schema = {
  title: "Event",
  oneOf: [{ $ref: "#/$defs/Open" }, { $ref: "#/$defs/Close" }],
  $defs: {
    Open: { type: "object", properties: { type: { const: "OPEN" }, id: { type: "string" } }, required: ["type", "id"] },
    Close: { type: "object", properties: { type: { const: "CLOSE" }, id: { type: "string" } }, required: ["type", "id"] },
    Frame: {
      type: "object",
      properties: { task: { type: "object" }, update: { type: "object" } },
      oneOf: [{ required: ["task"] }, { required: ["update"] }],
    },
  },
};

const because = "the prose says so";
const span = { name: "thing", span: { opens: ["OPEN"], closes: ["CLOSE"], key: "/id" }, because };

function compile(stream: JsonObject): ReturnType<typeof compileStream> {
  const protocol: LoadedProtocol = {
    config: { pointer: "/protocols/0", name: "test", schema: "schemas/test.schema.json", overlays: [], externalSchemas: [] },
    schema: sourceFile("test.schema.json", schema),
    overlays: [sourceFile("overlays/test.json", { stream })],
    externalSchemas: [],
  };
  return compileStream(protocol, namedIrOf(schema));
}

describe("stream facts", () => {
  it("compile into the rule table the stream module declares, and how events are told apart", () => {
    const { plans, ...compiled } = compile({ framing: "sse", because, rules: [{ name: "start", first: ["OPEN"], because }, span] })!;
    expect([...plans.byKind.keys()]).toEqual(["OPEN", "CLOSE"]);
    expect(compiled).toEqual({
      event: "Event",
      discriminant: { tag: "type" },
      transport: { framing: "sse", jsonRpc: false },
      because,
      rules: [
        { kind: "first", name: "start", because, events: [{ event: "OPEN" }] },
        {
          kind: "span",
          name: "thing",
          because,
          opens: [{ event: "OPEN" }],
          continues: [],
          closes: [{ event: "CLOSE" }],
          aborts: [],
          key: { "*": ["id"] },
          implicit: false,
          resumable: false,
          once: false,
          reopens: false,
        },
      ],
    });
  });

  it("read a keyed union's members as its kinds, and conditions on values", () => {
    const compiled = compile({
      event: "Frame",
      framing: "jsonl",
      jsonRpc: true,
      because,
      rules: [{ name: "first-task", first: [{ event: "task", where: { "/task/state": ["NEW"] } }], resumed: ["task"], because }],
    });
    expect(compiled?.discriminant).toEqual({ members: ["task", "update"] });
    expect(compiled?.rules).toEqual([
      {
        kind: "first",
        name: "first-task",
        because,
        events: [{ event: "task", where: [{ path: ["task", "state"], values: ["NEW"] }] }],
        resumed: [{ event: "task" }],
      },
    ]);
  });

  it.each([
    [{ framing: "xml", because, rules: [] }, '#/stream/framing: "framing" must be one of "sse", "jsonl"'],
    [{ framing: "sse", rules: [] }, '#/stream/because: "because" is required'],
    [{ framing: "sse", because: " ", rules: [] }, '#/stream/because: "because" must not be blank'],
    [{ framing: "sse", because, rules: [], extra: 1 }, '#/stream/extra: unknown key "extra"'],
    [{ framing: "sse", because, rules: [{ name: "x", because }] }, "#/stream/rules/0: a rule has exactly one of first, onlyFirst"],
    [{ framing: "sse", because, rules: [{ name: "Bad Name", first: ["OPEN"], because }] }, '"Bad Name" is not a rule name'],
    [{ framing: "sse", because, rules: [{ name: "x", first: ["OPEN"] }] }, '#/stream/rules/0/because: "because" is required'],
    [{ framing: "sse", because, rules: [{ name: "x", first: [], because }] }, "#/stream/rules/0/first: must list events"],
    [
      { framing: "sse", because, rules: [{ name: "x", first: ["NOPE"], because }] },
      '#/stream/rules/0/first/0: "NOPE" is not an event of the stream\n  its kinds: OPEN, CLOSE',
    ],
    [{ framing: "sse", because, rules: [{ name: "x", inside: "run", because }] }, '#/stream/rules/0/inside: no span rule is named "run"'],
    [{ framing: "sse", because, rules: [span, { ...span, because: "again" }] }, '#/stream/rules/1/name: another rule is named "thing"'],
    [
      { framing: "sse", because, rules: [{ name: "x", span: { opens: ["OPEN"], closes: ["CLOSE"], key: "id" }, because }] },
      '#/stream/rules/0/span/key: must be a JSON Pointer into the event, such as "/messageId"',
    ],
    [
      { framing: "sse", because, rules: [{ name: "x", span: { opens: ["OPEN"], closes: ["CLOSE"], key: "/ids/*" }, because }] },
      '#/stream/rules/0/span/key: names every element ("*"), which only a refers rule\'s "toKey" may',
    ],
    [
      { framing: "sse", because, rules: [{ name: "x", first: [{ event: "OPEN", where: { "/id": [] } }], because }] },
      "#/stream/rules/0/first/0/where/~1id: must list the values the event may have there",
    ],
    [
      {
        framing: "sse",
        because,
        rules: [
          { name: "thing", span: { opens: ["OPEN"], closes: ["CLOSE"], key: "/id", owner: "/owner" }, because },
          { name: "thing-chunk", chunk: { events: ["OPEN"], span: "thing", key: "/id" }, because },
        ],
      },
      '#/stream/rules/1/chunk/span: the span "thing" has an owner, and a chunk\'s lane has none',
    ],
    [{ event: "Nope", framing: "sse", because, rules: [] }, '#/stream/event: no type is named "Nope"'],
    // What the overlay's schema refuses, which the reader let through to fail later, or never.
    [
      { framing: "sse", because, rules: [{ name: "x", first: [""], because }] },
      '#/stream/rules/0/first/0: item 0 of "first" must have at least 1 character',
    ],
    [
      { framing: "sse", because, rules: [{ name: "x", span: { opens: ["OPEN"], closes: ["CLOSE"], key: {} }, because }] },
      '#/stream/rules/0/span/key: "key" must have at least 1 property',
    ],
    [
      {
        framing: "sse",
        because,
        rules: [span, { name: "x", refers: { events: ["CLOSE"], key: "/id", to: ["OPEN"], shownBy: "/id" }, because }],
      },
      '#/stream/rules/1/refers/shownBy: "shownBy" must be an object',
    ],
    [
      { framing: "sse", because, rules: [{ name: "x", terminal: ["CLOSE"], resumed: ["OPEN"], because }] },
      '#/stream/rules/0/resumed: unknown key "resumed": it goes with "first" only',
    ],
    [
      { framing: "sse", because, rules: [{ name: "x", first: ["OPEN"], span: { opens: ["OPEN"] }, because }] },
      "#/stream/rules/0: a rule has exactly one of first, onlyFirst, terminal, inside, span, refers, chunk; this one has 2",
    ],
    [
      {
        framing: "sse",
        because,
        rules: [],
        assembly: { snapshot: {}, steps: [{ name: "s", on: ["OPEN"], set: ["a"], key: "id", value: 1, because }] },
      },
      '#/stream/assembly/steps/0/key: unknown key "key": it goes with "add" and "merge" only',
    ],
    [
      { event: "Open", framing: "sse", because, rules: [] },
      "a stream's events are told apart by a tag or a keyed member, and Open is neither",
    ],
  ])("refuse %j, saying where", async (stream, message) => {
    expect(await inputError(() => compile(stream as JsonObject))).toContain(message);
  });

  it("are stated once: a second overlay with a stream is refused", async () => {
    const stream = { framing: "sse", because, rules: [] };
    const protocol: LoadedProtocol = {
      config: { pointer: "/protocols/0", name: "test", schema: "schemas/test.schema.json", overlays: [], externalSchemas: [] },
      schema: sourceFile("test.schema.json", schema),
      overlays: [sourceFile("overlays/a.json", { stream }), sourceFile("overlays/b.json", { stream })],
      externalSchemas: [],
    };
    expect(await inputError(() => compileStream(protocol, namedIrOf(schema)))).toBe(
      "schemas/overlays/b.json#/stream: the stream is already stated in schemas/overlays/a.json",
    );
  });
});

describe("a refers rule's keys", () => {
  it("may take in every element of an array where the rule takes keys in, and are compiled as written", () => {
    const refers = {
      name: "answer",
      refers: { events: ["CLOSE"], key: "/id", to: ["OPEN"], toKey: { OPEN: "/calls/*/id" } },
      because,
    };
    expect(compile({ framing: "sse", because, rules: [refers] })?.rules).toEqual([
      {
        kind: "refers",
        name: "answer",
        because,
        events: [{ event: "CLOSE" }],
        key: { "*": ["id"] },
        to: [{ event: "OPEN" }],
        toKey: { OPEN: ["calls", "*", "id"] },
      },
    ]);
  });

  it("say where an event shows every key, and where the request holds them, compiled as written; a kind the stream lacks is refused", () => {
    const refers = {
      name: "answer",
      refers: {
        events: ["CLOSE"],
        key: "/id",
        to: ["OPEN"],
        toKey: { OPEN: "/calls/*/id" },
        shownBy: { OPEN: "/calls" },
        request: "/calls/*/id",
      },
      because,
    };
    expect(compile({ framing: "sse", because, rules: [refers] })?.rules[0]).toMatchObject({
      shownBy: { OPEN: ["calls"] },
      request: ["calls", "*", "id"],
    });
    const unknown = { ...refers, refers: { ...refers.refers, shownBy: { NOPE: "/calls" } } };
    expect(() => compile({ framing: "sse", because, rules: [unknown] })).toThrow('"NOPE" is not an event of the stream');
  });
});
