import { spawn } from "node:child_process";
import { getEventListeners } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { Readable } from "node:stream";
import { afterEach, describe, expect, it, vi } from "vitest";
import { readStream as readAgUi } from "../../generated/src/ag-ui/stream.js";
import type { DecodeResult } from "../../generated/src/decode.js";
import { readEvents } from "../../generated/src/stream/read.js";
import type { ReadOptions } from "../../generated/src/stream/read.js";
import type { StreamResult } from "../../generated/src/stream/result.js";
import type { StreamSource } from "../../generated/src/stream/source.js";
import type { Transport } from "../../generated/src/stream/tables.js";
import { REPO } from "../helpers/project.js";

/**
 * Streams that stall or never end (templates/stream/read.ts, `readEvents`): an AbortSignal that
 * stops the reading while a result is awaited, the idle timeout, and return() or throw()
 * while a call waits on a source that never answers. Sources that never answer are made
 * so: a read that returns a promise nothing settles. No test waits on the clock but for
 * the idle timeouts, which are a few milliseconds and come to sources that never answer.
 */

const SSE: Transport = { framing: "sse", jsonRpc: false };
const asIs = (input: unknown): DecodeResult<unknown> => ({ ok: true, value: input });
const encoder = new TextEncoder();
const event = (n: number) => encoder.encode(`data: {"n":${n}}\n\n`);
const never = <T>() => new Promise<T>(() => {});

function read(source: StreamSource, options: ReadOptions = {}) {
  return readEvents(source, asIs, SSE, options);
}

/** A ReadableStream that gives these chunks, then never answers a read; it notes its pulls and its cancelling. */
function stalling(...chunks: Uint8Array[]) {
  const seen = { pulls: 0, cancelled: false, reason: undefined as unknown };
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        const chunk = chunks[seen.pulls++];
        if (chunk === undefined) return never();
        controller.enqueue(chunk);
        return undefined;
      },
      cancel(reason) {
        seen.cancelled = true;
        seen.reason = reason;
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, seen };
}

/** A ReadableStream of these chunks, which then ends. */
function finite(...chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = chunks.shift();
      if (chunk === undefined) controller.close();
      else controller.enqueue(chunk);
    },
  });
}

/** A hand-written async iterator that gives these chunks, then never answers; it notes return(). */
function stallingIterator(...chunks: Uint8Array[]) {
  const seen = { returned: false };
  let at = 0;
  const source: AsyncIterable<Uint8Array> = {
    [Symbol.asyncIterator]: () => ({
      next: () => (at < chunks.length ? Promise.resolve({ value: chunks[at++]!, done: false }) : never()),
      return: () => {
        seen.returned = true;
        return Promise.resolve({ value: undefined, done: true });
      },
    }),
  };
  return { source, seen };
}

/** An async generator that awaits forever after its chunks: nothing can make it run its finally. */
async function* stallingGenerator(...chunks: Uint8Array[]): AsyncGenerator<Uint8Array> {
  yield* chunks;
  await never();
}

/** Whether a promise has settled by the time the promises that settle now have run. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  promise.then(
    () => (done = true),
    () => (done = true),
  );
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

describe("an AbortSignal", () => {
  it("rejects the call waiting on a ReadableStream with the signal's reason, cancels the stream with it, and is done after", async () => {
    const { stream, seen } = stalling(event(0));
    const controller = new AbortController();
    const results = read(stream, { signal: controller.signal });
    expect((await results.next()).value).toMatchObject({ value: { n: 0 } });
    const waiting = results.next();
    expect(await settled(waiting)).toBe(false);
    controller.abort();
    await expect(waiting).rejects.toMatchObject({ name: "AbortError" });
    await expect(waiting).rejects.toBe(controller.signal.reason);
    expect(seen).toMatchObject({ cancelled: true, reason: controller.signal.reason });
    expect(stream.locked).toBe(false);
    expect(await results.next()).toEqual({ value: undefined, done: true });
    expect(await results.return()).toEqual({ value: undefined, done: true });
  });

  it("rejects with the reason given, and stops an async iterator (return()) or a Node stream (destroyed) waited on", async () => {
    const iterator = stallingIterator();
    const controller = new AbortController();
    const fromIterator = read(iterator.source, { signal: controller.signal }).next();
    const reason = new Error("the user closed the tab");
    controller.abort(reason);
    await expect(fromIterator).rejects.toBe(reason);
    expect(iterator.seen.returned).toBe(true);

    const node = new Readable({ read() {} });
    const nodeController = new AbortController();
    const fromNode = read(node, { signal: nodeController.signal }).next();
    expect(await settled(fromNode)).toBe(false);
    nodeController.abort();
    await expect(fromNode).rejects.toMatchObject({ name: "AbortError" });
    expect(node.destroyed).toBe(true);
  });

  it("answers a call waiting on an async generator that never resumes", async () => {
    const controller = new AbortController();
    const results = read(stallingGenerator(event(0)), { signal: controller.signal });
    expect((await results.next()).value).toMatchObject({ value: { n: 0 } });
    const waiting = results.next();
    controller.abort();
    await expect(waiting).rejects.toMatchObject({ name: "AbortError" });
  });

  it("stops between calls: the stream is cancelled at once, and the next call rejects though results were left", async () => {
    const { stream, seen } = stalling(encoder.encode(`data: {"n":0}\n\ndata: {"n":1}\n\n`));
    const controller = new AbortController();
    const results = read(stream, { signal: controller.signal });
    expect((await results.next()).value).toMatchObject({ value: { n: 0 } });
    controller.abort();
    expect(seen.cancelled).toBe(true);
    await expect(results.next()).rejects.toMatchObject({ name: "AbortError" });
    expect(await results.next()).toEqual({ value: undefined, done: true });
  });

  it("already aborted, reads nothing: the first call rejects, and the source is cancelled", async () => {
    const { stream, seen } = stalling(event(0));
    const results = read(stream, { signal: AbortSignal.abort() });
    await expect(results.next()).rejects.toMatchObject({ name: "AbortError" });
    expect(seen).toMatchObject({ pulls: 0, cancelled: true });
    expect(stream.locked).toBe(false);
  });

  it("gives the reason of AbortSignal.timeout, a TimeoutError", async () => {
    const results = read(stalling().stream, { signal: AbortSignal.timeout(5) });
    await expect(results.next()).rejects.toMatchObject({ name: "TimeoutError" });
  });

  it("is listened to from the first read until the reading ends, however it ends: 10,000 streams leave no listener on a signal they share", async () => {
    const signal = new AbortController().signal;
    const listeners = () => getEventListeners(signal, "abort").length;
    const endings: ReadonlyArray<() => Promise<void>> = [
      // Read to the end.
      async () => {
        for await (const _ of read(finite(event(0)), { signal }))
          if (listeners() !== 1) throw new Error("not listened to while reading");
      },
      // A fault stops the reading.
      async () => {
        const results = read(stalling(encoder.encode(`data: ${"x".repeat(100)}\n\n`)).stream, { signal, maxEventSize: 64 });
        expect((await results.next()).value).toMatchObject({ fault: "too-large" });
        expect(await results.next()).toMatchObject({ done: true });
      },
      // The consumer stops: a break, or return() while a call waits.
      async () => {
        for await (const _ of read(stalling(event(0)).stream, { signal })) break;
      },
      async () => {
        const results = read(stalling().stream, { signal });
        const waiting = results.next();
        await results.return();
        await waiting;
      },
      // The source fails.
      async () => {
        const failing = (async function* () {
          yield event(0);
          throw new Error("connection reset");
        })();
        await expect(
          (async () => {
            for await (const _ of read(failing, { signal }));
          })(),
        ).rejects.toThrow("connection reset");
      },
      // Never read: never listened to.
      async () => {
        read(stalling(event(0)).stream, { signal });
      },
    ];
    for (let n = 0; n < 10_000; n++) await endings[n % endings.length]!();
    expect(listeners()).toBe(0);
  });

  it("stops a fetch body from an HTTP server that stalls, and the server sees the connection closed", async () => {
    let closed!: () => void;
    const connectionClosed = new Promise<void>((resolve) => (closed = resolve));
    const server = createServer((request, response) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.write('data: {"type":"RUN_STARTED","threadId":"t","runId":"r"}\n\n');
      response.on("close", closed);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const controller = new AbortController();
      const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
      const seen: StreamResult<unknown>[] = [];
      await expect(
        (async () => {
          for await (const result of readAgUi(response.body!, { signal: controller.signal })) {
            seen.push(result);
            setTimeout(() => controller.abort(), 5);
          }
        })(),
      ).rejects.toMatchObject({ name: "AbortError" });
      expect(seen).toMatchObject([{ ok: true, value: { type: "RUN_STARTED" } }]);
      await connectionClosed;
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe("the idle timeout", () => {
  afterEach(() => void vi.useRealTimers());

  it("ends a stream that never sends an event with an idle-timeout fault at its start, and cancels it", async () => {
    const { stream, seen } = stalling();
    const results = read(stream, { idleTimeout: 5 });
    expect(await results.next()).toEqual({
      value: { ok: false, fault: "idle-timeout", message: "no event came within 5 ms (idleTimeout): the reading stopped", index: 0, offset: 0, line: 1 },
      done: false,
    });
    expect(seen.cancelled).toBe(true);
    expect(stream.locked).toBe(false);
    expect(await results.next()).toEqual({ value: undefined, done: true });
  });

  it("places the fault at the event it stalled in, and stops an iterator, a Node stream or a generator that never answers", async () => {
    const half = encoder.encode(`data: {"n":`);
    const iterator = stallingIterator(event(0), half);
    const node = new Readable({ read() {} });
    node.push(event(0));
    node.push(half);
    for (const source of [iterator.source, node, stallingGenerator(event(0), half)]) {
      const results: unknown[] = [];
      for await (const result of read(source, { idleTimeout: 5 })) results.push(result);
      expect(results).toMatchObject([
        { ok: true, value: { n: 0 }, index: 0 },
        { ok: false, fault: "idle-timeout", index: 1, offset: 15, line: 3 },
      ]);
    }
    expect(iterator.seen.returned).toBe(true);
    expect(node.destroyed).toBe(true);
  });

  it("counts whole events only: keep-alive comments, or an event's bytes one at a time, do not hold it off", async () => {
    for (const piece of [": keep-alive\n", "d", "data: {}\n"]) {
      let sent = 0;
      // Each piece a turn of the event loop after the last, endlessly.
      const trickle = new ReadableStream<Uint8Array>({
        async pull(controller) {
          await new Promise((resolve) => setImmediate(resolve));
          controller.enqueue(encoder.encode(piece));
          sent++;
        },
      });
      const results: StreamResult<unknown>[] = [];
      // Long enough for pieces to arrive on a loaded machine (they did not, in 10 ms, on one).
      for await (const result of read(trickle, { idleTimeout: 250, maxEventSize: 2 ** 30 })) results.push(result);
      expect(results).toMatchObject([{ fault: "idle-timeout", index: 0 }]);
      expect(sent).toBeGreaterThan(1);
      const [{ offset, line }] = results as [StreamResult<unknown>];
      // After comments, the fault is where the next event would start; inside an event (or a line), at its start.
      if (piece.startsWith(":")) expect(offset).toBe(13 * (line - 1));
      else expect({ offset, line }).toEqual({ offset: 0, line: 1 });
    }
  });

  /** A stream with no end that answers each read `delay` ms after it is asked, an event in two halves. */
  function slow(delay: number) {
    let pulls = 0;
    return new ReadableStream<Uint8Array>(
      {
        pull: (controller) =>
          new Promise<void>((resolve) => {
            const half = pulls++;
            setTimeout(() => {
              try {
                controller.enqueue(encoder.encode(half % 2 === 0 ? `data: {"n":${half / 2}}` : "\n\n"));
              } catch {
                // The reader cancelled the stream meanwhile.
              }
              resolve();
            }, delay);
          }),
      },
      { highWaterMark: 0 },
    );
  }

  it("measures each wait from when the reader began it: the consumer's time between results does not count", async () => {
    vi.useFakeTimers();
    const results = read(slow(20), { idleTimeout: 50 });
    for (let expected = 0; expected < 5; expected++) {
      const next = results.next();
      await vi.advanceTimersByTimeAsync(40);
      expect((await next).value).toMatchObject({ ok: true, value: { n: expected } });
      // The consumer takes its time.
      await vi.advanceTimersByTimeAsync(1000);
    }
    await results.return();
    expect(vi.getTimerCount()).toBe(0);
  });

  it("counts the whole wait for an event, across the chunks that bring its parts", async () => {
    vi.useFakeTimers();
    const results = read(slow(30), { idleTimeout: 50 });
    const next = results.next();
    await vi.advanceTimersByTimeAsync(50);
    expect((await next).value).toMatchObject({ ok: false, fault: "idle-timeout", index: 0, offset: 0, line: 1 });
    // The stream's own timer for the read it was asked for, and no other.
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(30);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("leaves no timer behind, however the reading ends", async () => {
    vi.useFakeTimers();
    const endings: ReadonlyArray<() => Promise<unknown>> = [
      async () => {
        for await (const _ of read(finite(event(0)), { idleTimeout: 1000 }));
      },
      async () => {
        for await (const _ of read(stalling(event(0)).stream, { idleTimeout: 1000 })) break;
      },
      async () => {
        const results = read(stalling().stream, { idleTimeout: 1000 });
        const waiting = results.next();
        await results.return();
        return waiting;
      },
      async () => {
        const controller = new AbortController();
        const waiting = read(stalling().stream, { idleTimeout: 1000, signal: controller.signal }).next();
        controller.abort();
        return waiting.catch(() => undefined);
      },
      async () => {
        const results = read(stalling().stream, { idleTimeout: 1000 });
        const waiting = results.next();
        await vi.advanceTimersByTimeAsync(1000);
        return waiting;
      },
    ];
    for (const ending of endings) {
      await ending();
      expect(vi.getTimerCount()).toBe(0);
    }
  });

  it("keeps no process alive once the stream has ended", async () => {
    // A child reads a stream with a ten-minute idle timeout and a signal that never aborts;
    // it exits when its work is done, or this test times out.
    const script = `
      const { readEvents } = await import(${JSON.stringify(path.join(REPO, "generated/dist/stream/read.js"))});
      const source = (async function* () { yield 'data: {"n":0}\\n\\n'; })();
      const signal = new AbortController().signal;
      let count = 0;
      for await (const _ of readEvents(source, (value) => ({ ok: true, value }), { framing: "sse", jsonRpc: false }, { idleTimeout: 600000, signal })) count++;
      console.log(count);`;
    const child = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    expect(await new Promise((resolve) => child.on("close", resolve))).toBe(0);
    expect(out).toBe("1\n");
  });

  it("is a number of milliseconds a timer can wait", () => {
    for (const idleTimeout of [0, -1, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 31])
      expect(() => read(stalling().stream, { idleTimeout })).toThrow(RangeError);
    expect(() => read(stalling().stream, { idleTimeout: 2 ** 31 - 1 })).not.toThrow();
  });
});

describe("return() or throw() while a call waits on the source", () => {
  it("answers the call as done, cancels a ReadableStream and lets it go, and is done itself", async () => {
    const { stream, seen } = stalling(event(0));
    const results = read(stream);
    expect((await results.next()).value).toMatchObject({ value: { n: 0 } });
    const waiting = results.next();
    expect(await settled(waiting)).toBe(false);
    expect(await results.return()).toEqual({ value: undefined, done: true });
    expect(await waiting).toEqual({ value: undefined, done: true });
    expect(seen.cancelled).toBe(true);
    expect(stream.locked).toBe(false);
    expect(await results.next()).toEqual({ value: undefined, done: true });
  });

  it("returns an async iterator, destroys a Node stream, and leaves a generator that never resumes behind", async () => {
    const iterator = stallingIterator();
    const node = new Readable({ read() {} });
    for (const source of [iterator.source, node, stallingGenerator()]) {
      const results = read(source);
      const waiting = results.next();
      expect(await results.return()).toEqual({ value: undefined, done: true });
      expect(await waiting).toEqual({ value: undefined, done: true });
    }
    expect(iterator.seen.returned).toBe(true);
    expect(node.destroyed).toBe(true);
  });

  it("throw() answers the waiting call as done, and rejects with its error", async () => {
    const { stream, seen } = stalling();
    const results = read(stream);
    const waiting = results.next();
    const error = new Error("the consumer gave up");
    await expect(results.throw(error)).rejects.toBe(error);
    expect(await waiting).toEqual({ value: undefined, done: true });
    expect(seen.cancelled).toBe(true);
  });

  it("answers every call that waits, in turn", async () => {
    const results = read(stalling().stream);
    const waiting = [results.next(), results.next()];
    const returned = results.return();
    expect(await Promise.all([...waiting, returned])).toEqual([
      { value: undefined, done: true },
      { value: undefined, done: true },
      { value: undefined, done: true },
    ]);
  });
});
