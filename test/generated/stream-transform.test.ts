import { readFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import * as a2a from "../../generated/src/a2a/stream.js";
import * as agUi from "../../generated/src/ag-ui/stream.js";
import * as appServer from "../../generated/src/app-server/stream.js";
import * as gtm from "../../generated/src/gtm-agent/stream.js";
import type { Event } from "../../generated/src/ag-ui/index.js";
import type { Checked, StreamResult, Violation } from "../../generated/src/ag-ui/stream.js";
import { REPO } from "../helpers/project.js";
import type { StreamProtocol } from "../helpers/streams.js";
import { loadTraces } from "../helpers/streams.js";

/**
 * The stream as web TransformStreams (templates/stream/transform.ts, bound per protocol as
 * decodeStream, verifyStream, assembleStream and checkStream): what they give is what
 * readStream, createVerifier and createAssembler give, at any chunk boundary, on real
 * recordings; faults pass through; cancelling and a pipe's signal reach the source; the
 * source's error errors the stream; and a reader that does not read stops the pulls
 * (counted, never timed).
 */

const encoder = new TextEncoder();

/** The stream module of each protocol, typed by AG-UI's: the traces hold events of every shape. */
const MODULES = { "ag-ui": agUi, a2a, "gtm-agent": gtm, "app-server": appServer } as unknown as Record<StreamProtocol, typeof agUi>;

/** What a source saw: the chunks pulled, and the reason it was cancelled with. */
interface Log {
  pulls: number;
  cancelled: { reason: unknown } | undefined;
}

/**
 * A byte source as a fetch body is one: a chunk a pull, none read ahead (high water mark
 * 0); after the chunks, `then` (the end; or an error; or `forever`, the chunks again).
 */
function source(chunks: readonly Uint8Array[], then: "end" | "forever" | { error: unknown } = "end"): { body: ReadableStream<Uint8Array>; log: Log } {
  const log: Log = { pulls: 0, cancelled: undefined };
  let at = 0;
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        log.pulls++;
        if (at < chunks.length) return controller.enqueue(chunks[at++]!);
        if (then === "forever") {
          at = 1;
          return controller.enqueue(chunks[0]!);
        }
        if (then === "end") controller.close();
        else controller.error(then.error);
      },
      cancel(reason) {
        log.cancelled = { reason };
      },
    },
    { highWaterMark: 0 },
  );
  return { body, log };
}

async function collect<T>(stream: ReadableStream<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of stream) all.push(item);
  return all;
}

/** The bytes cut at the given positions. */
function cut(bytes: Uint8Array, positions: readonly number[]): Uint8Array[] {
  const cuts = [...new Set(positions)].filter((at) => at > 0 && at < bytes.length).sort((a, b) => a - b);
  const pieces: Uint8Array[] = [];
  let start = 0;
  for (const at of [...cuts, bytes.length]) {
    pieces.push(bytes.slice(start, at));
    start = at;
  }
  return pieces;
}

const sse = (events: readonly unknown[]): string => events.map((event) => `data: ${JSON.stringify(event)}\n\n`).join("");

/**
 * What readStream, createVerifier and createAssembler give, as the TransformStreams pass it
 * on: each result; after it the assembler's refusal (at the result's index), then the
 * verifier's violation; at the end, the verifier's.
 */
async function reference(module: typeof agUi, chunks: readonly Uint8Array[], options: agUi.DecodeStreamOptions = {}) {
  const verifier = module.createVerifier();
  const assembler = module.createAssembler();
  const items: Checked<Event>[] = [];
  let last: StreamResult<Event> | undefined;
  for await (const result of module.readStream(
    (async function* () {
      yield* chunks;
    })(),
    options,
  )) {
    items.push(result);
    last = result;
    if (!result.ok) {
      verifier.skip();
      continue;
    }
    const broken = verifier.push(result.value);
    const refused = assembler.push(result.value);
    if (refused !== undefined) items.push({ ...refused, index: result.index });
    if (broken !== undefined) items.push(broken);
  }
  const unfinished = verifier.end(last);
  if (unfinished !== undefined) items.push(unfinished);
  return { items, snapshot: assembler.snapshot() };
}

/** The same through the three piped, and through checkStream. */
async function piped(module: typeof agUi, chunks: readonly Uint8Array[], options: agUi.DecodeStreamOptions = {}) {
  const assembly = module.assembleStream();
  const items = await collect(source(chunks).body.pipeThrough(module.decodeStream(options)).pipeThrough(module.verifyStream()).pipeThrough(assembly));
  return { items, snapshot: assembly.snapshot() };
}

async function inOne(module: typeof agUi, chunks: readonly Uint8Array[], options: agUi.DecodeStreamOptions = {}) {
  const check = module.checkStream(options);
  const items = await collect(source(chunks).body.pipeThrough(check));
  return { items, snapshot: check.snapshot() };
}

/** Lets the pipes run until they wait: turns of the event loop, not time. */
async function settle(): Promise<void> {
  for (let turn = 0; turn < 50; turn++) await new Promise((resolve) => setImmediate(resolve));
}

describe("decodeStream", () => {
  // Characters cut inside, CRLF and CR line ends, a comment, text that is not JSON, an
  // unknown field, and an event the end cuts off.
  const text =
    ': keep-alive\r\ndata: {"type":"RUN_STARTED","threadId":"t","runId":"r"}\r\n\r\n' +
    'data: {"type":"TEXT_MESSAGE_START","messageId":"m","role":"assistant"}\r\rdata: {"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"café 東京 🚀"}\n\n' +
    "data: not json\n\nretry: 10\nid: 4\ndelta: x\n\n" +
    'data: {"type":"TEXT_MESSAGE_END","messageId":"m"}\n\ndata: {"type":"RUN_FINISHED","threadId":"t","runId":"r"}\n';
  const bytes = encoder.encode(text);

  it("gives readStream's results, with their places and faults, at any chunk boundary", async () => {
    const whole = await reference(agUi, [bytes]);
    expect(whole.items.map((item) => ("rule" in item ? item.rule : item.ok ? item.value.type : "fault" in item ? item.fault : "invalid"))).toEqual([
      "RUN_STARTED",
      "TEXT_MESSAGE_START",
      "TEXT_MESSAGE_CONTENT",
      "not-json",
      "unknown-field",
      "TEXT_MESSAGE_END",
      "cut-off",
      // The run never finished: the cut-off event was its RUN_FINISHED.
      "run",
    ]);
    const results = whole.items.filter((item): item is StreamResult<Event> => !("rule" in item));
    await fc.assert(
      fc.asyncProperty(fc.array(fc.nat({ max: bytes.length }), { maxLength: 12 }), async (positions) => {
        const chunks = cut(bytes, positions);
        expect(await collect(source(chunks).body.pipeThrough(agUi.decodeStream()))).toEqual(results);
      }),
      { numRuns: 60 },
    );
    // A byte at a time.
    expect(await collect(source(cut(bytes, [...bytes.keys()])).body.pipeThrough(agUi.decodeStream()))).toEqual(results);
  });

  it("reads with readStream's options: the framing, the decoding mode, the size limit", async () => {
    const lines = encoder.encode('{"type":"RUN_STARTED","threadId":"t","runId":"r"}\n{"type":"RUN_STARTED"}\n');
    for (const options of [{ framing: "jsonl" }, { framing: "jsonl", mode: "tolerant" }, { framing: "jsonl", maxEventSize: 30 }] as const)
      expect(await collect(source([lines]).body.pipeThrough(agUi.decodeStream(options)))).toEqual((await reference(agUi, [lines], options)).items.filter((item) => !("rule" in item)));
  });

  it("passes a fault that stops the reading, as readStream does, then ends, and cancels the source", async () => {
    const { body, log } = source([bytes], "forever");
    const results = await collect(body.pipeThrough(agUi.decodeStream({ maxEventSize: 60 })));
    expect(results.map((result) => (result.ok ? result.value.type : "fault" in result ? result.fault : "invalid"))).toEqual(["RUN_STARTED", "too-large"]);
    expect(results).toEqual((await reference(agUi, [bytes], { maxEventSize: 60 })).items.filter((item) => !("rule" in item)));
    await settle();
    expect(log.cancelled).toBeDefined();
  });

  it("cancelled, cancels the source with its reason, before it is read or after", async () => {
    for (const read of [0, 1, 3]) {
      const { body, log } = source([bytes], "forever");
      const results = body.pipeThrough(agUi.decodeStream());
      const reader = results.getReader();
      for (let i = 0; i < read; i++) expect((await reader.read()).done).toBe(false);
      await reader.cancel("enough");
      await settle();
      expect(log.cancelled).toEqual({ reason: "enough" });
    }
  });

  it("left by a for await (a break), cancels the source", async () => {
    const { body, log } = source([bytes], "forever");
    for await (const result of body.pipeThrough(agUi.decodeStream())) if (result.ok) break;
    await settle();
    expect(log.cancelled).toBeDefined();
  });

  it("stops where a pipe's signal aborts: the source cancelled, the reader rejected, with its reason", async () => {
    const { body, log } = source([bytes], "forever");
    const controller = new AbortController();
    const reader = body.pipeThrough(agUi.decodeStream(), { signal: controller.signal }).getReader();
    expect((await reader.read()).done).toBe(false);
    const reason = new Error("the client left");
    controller.abort(reason);
    await expect(
      (async () => {
        while (!(await reader.read()).done);
      })(),
    ).rejects.toBe(reason);
    expect(log.cancelled).toEqual({ reason });
  });

  it("errors where the source errors, after the results it sent", async () => {
    const error = new Error("connection reset");
    const { body } = source([encoder.encode(sse([{ type: "RUN_STARTED", threadId: "t", runId: "r" }]))], { error });
    const reader = body.pipeThrough(agUi.decodeStream()).getReader();
    expect(await reader.read()).toMatchObject({ done: false, value: { ok: true, index: 0 } });
    await expect(reader.read()).rejects.toBe(error);
  });

  it("is made only where the host has TransformStream", () => {
    const { TransformStream } = globalThis;
    try {
      Reflect.deleteProperty(globalThis, "TransformStream");
      expect(() => agUi.decodeStream()).toThrow(TypeError);
    } finally {
      globalThis.TransformStream = TransformStream;
    }
  });
});

describe("verifyStream, assembleStream and checkStream", () => {
  it("give what readStream, createVerifier and createAssembler give, on every vendored trace, at any chunk boundary", async () => {
    const traces = loadTraces();
    expect(traces.length).toBeGreaterThan(100);
    let violations = 0;
    for (const [n, trace] of traces.entries()) {
      const module = MODULES[trace.protocol];
      const bytes = encoder.encode(sse(trace.events));
      // Cut at a few places, the trace's own: a character, a line end, anywhere.
      const chunks = cut(bytes, [n % 7, Math.floor(bytes.length / 3) + (n % 5), bytes.length - 1 - (n % 3)]);
      const expected = await reference(module, [bytes], { mode: "tolerant" });
      expect(await piped(module, chunks, { mode: "tolerant" }), trace.file).toEqual(expected);
      expect(await inOne(module, chunks, { mode: "tolerant" }), trace.file).toEqual(expected);
      violations += expected.items.filter((item) => "rule" in item).length;
    }
    // The invalid traces break rules: the violations are among what is compared.
    expect(violations).toBeGreaterThan(20);
  });

  it("give what they give on the .NET Agent Framework recording, which they assemble as createAssembler does", async () => {
    const recorded = (name: string): unknown => JSON.parse(readFileSync(path.join(REPO, "test/fixtures/dotnet", `${name}__dotnet-baseline__1.json`), "utf8"));
    const turn = ["RunStartedEvent", "ToolCallStartEvent", "ToolCallArgsEvent", "ToolCallEndEvent", "RunFinishedEvent"].map(recorded);
    const bytes = encoder.encode(sse(turn));
    const expected = await reference(agUi, [bytes]);
    expect(expected.items).toHaveLength(5);
    expect(expected.snapshot.messages).toEqual([
      { id: "call_Id_1", role: "assistant", toolCalls: [{ id: "call_Id_1", type: "function", function: { name: "get_user_location", arguments: "{}" } }] },
    ]);
    for (const at of [1, 17, 100, bytes.length - 2]) {
      expect(await piped(agUi, cut(bytes, [at, at * 2]))).toEqual(expected);
      expect(await inOne(agUi, cut(bytes, [at, at * 2]))).toEqual(expected);
    }
  });

  it("count a result that is not ok, so that a violation and a refusal are at the stream's index", async () => {
    const bytes = encoder.encode(
      sse([{ type: "RUN_STARTED", threadId: "t", runId: "r" }]) +
        "data: not json\n\n" +
        sse([
          { type: "TEXT_MESSAGE_CONTENT", messageId: "m", delta: "x" },
          { type: "STATE_DELTA", delta: [{ op: "remove", path: "/missing" }] },
        ]),
    );
    const { items } = await piped(agUi, [bytes]);
    const found = items.filter((item): item is Violation => "rule" in item).map(({ rule, index }) => ({ rule, index }));
    // After the fault, the content (of a message never started) is event 2, which the assembler
    // refuses first and the verifier then; the patch, the third event the assembler is given, event 3.
    expect(found).toEqual([
      { rule: "text-message-content", index: 2 },
      { rule: "text-message", index: 2 },
      { rule: "state-delta", index: 3 },
      { rule: "run", index: 4 },
    ]);
    expect((await inOne(agUi, [bytes])).items).toEqual(items);
  });

  it("cancelled at the end of the pipes, cancel the source with the reason", async () => {
    const bytes = encoder.encode(sse([{ type: "RUN_STARTED", threadId: "t", runId: "r" }, { type: "STATE_SNAPSHOT", snapshot: {} }]));
    for (const through of ["piped", "in one"] as const) {
      const { body, log } = source([bytes], "forever");
      const items =
        through === "piped"
          ? body.pipeThrough(agUi.decodeStream()).pipeThrough(agUi.verifyStream()).pipeThrough(agUi.assembleStream())
          : body.pipeThrough(agUi.checkStream());
      const reader = items.getReader();
      for (let i = 0; i < 5; i++) await reader.read();
      await reader.cancel("enough");
      await settle();
      // Piped, the source is cancelled; with the reason, but where Node's TransformStream
      // (before nodejs/node#62040) throws its own TypeError at a write the cancel raced.
      if (through === "in one") expect(log.cancelled, through).toEqual({ reason: "enough" });
      else expect(log.cancelled, through).toBeDefined();
    }
  });

  it("hold backpressure: while the reader does not read, no chunk is pulled; a slow reader pulls what it reads, and a few chunks ahead", async () => {
    // Three events a chunk, forever.
    const chunk = encoder.encode(
      sse([
        { type: "RUN_STARTED", threadId: "t", runId: "r" },
        { type: "STATE_SNAPSHOT", snapshot: { n: 1 } },
        { type: "RUN_FINISHED", threadId: "t", runId: "r" },
      ]),
    );
    const pipes = {
      decodeStream: (body: ReadableStream<Uint8Array>) => body.pipeThrough(agUi.decodeStream()),
      piped: (body: ReadableStream<Uint8Array>) => body.pipeThrough(agUi.decodeStream()).pipeThrough(agUi.verifyStream()).pipeThrough(agUi.assembleStream()),
      checkStream: (body: ReadableStream<Uint8Array>) => body.pipeThrough(agUi.checkStream()),
    };
    for (const [name, pipe] of Object.entries(pipes)) {
      const { body, log } = source([chunk], "forever");
      const reader = pipe(body).getReader();
      await settle();
      // Nothing read: a chunk or two pulled, to fill the queues of one chunk each.
      expect(log.pulls, name).toBeLessThanOrEqual(3);
      let read = 0;
      for (const batch of [1, 30, 300]) {
        for (let i = 0; i < batch; i++) expect((await reader.read()).done).toBe(false);
        read += batch;
        await settle();
        const pulled = log.pulls;
        // What it read, three a chunk, and a bounded number ahead: no more come while it does not read.
        expect(pulled, name).toBeGreaterThanOrEqual(Math.ceil(read / 3));
        expect(pulled - Math.ceil(read / 3), name).toBeLessThanOrEqual(3);
        await settle();
        expect(log.pulls, name).toBe(pulled);
      }
      await reader.cancel();
    }
  });
});

afterEach(() => {
  expect(typeof globalThis.TransformStream).toBe("function");
});
