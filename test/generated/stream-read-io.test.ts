import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readStream as readAgUi } from "../../generated/src/ag-ui/stream.js";
import { decodeServerNotification } from "../../generated/src/app-server/index.js";
import { readStream as readAppServer } from "../../generated/src/app-server/stream.js";
import type { StreamResult } from "../../generated/src/stream/result.js";
import { Random } from "../helpers/samples.js";

/**
 * The stream reader on real transports: server-sent events from a `node:http` server read
 * with `fetch`, and JSON lines from a child process's stdout. The bodies are vendored
 * recordings: the AG-UI Dart SDK's SSE fixtures (test/fixtures/traces, see its README) and
 * the app-server notifications of test/fixtures/corpus.
 */

const FIXTURES = path.join(import.meta.dirname, "../fixtures");

/** A trace recorded as server-sent events: its exact body, and the events the source says it holds. */
interface SseTrace {
  readonly source: string;
  readonly framing: "sse";
  readonly raw: string;
  readonly events: readonly unknown[];
  readonly unparsed_frames?: ReadonlyArray<{ readonly frameIndex: number; readonly data: string }>;
}

const TRACE_DIR = path.join(FIXTURES, "traces/ag-ui");
const sseTraceNames = readdirSync(TRACE_DIR)
  .filter((file) => file.startsWith("dart-sse__"))
  .map((file) => file.slice(0, -".json".length))
  .sort();

function sseTrace(name: string): SseTrace {
  return JSON.parse(readFileSync(path.join(TRACE_DIR, `${name}.json`), "utf8")) as SseTrace;
}

async function collect<T>(results: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const result of results) all.push(result);
  return all;
}

/** A result as the event it stands for: the value decoded, or the JSON of the data a fault carries. */
function eventOf(result: StreamResult<unknown>): unknown {
  if (result.ok) return result.value;
  if ("fault" in result && typeof result.data === "string") return JSON.parse(result.data);
  throw new Error(`no event: ${JSON.stringify(result)}`);
}

describe("server-sent events from an HTTP server, read with fetch", () => {
  let base = "";
  const server = createServer((request, response) => {
    const name = decodeURIComponent(new URL(request.url ?? "/", "http://localhost").pathname.slice(1));
    response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    if (name === "hang-up") {
      // Two events and half of a third, then the connection is dropped.
      response.write('data: {"type":"RUN_STARTED","threadId":"t1","runId":"r1"}\n\n');
      response.write('data: {"type":"TEXT_MESSAGE_START","messageId":"m1","role":"assistant"}\n\ndata: {"type":"TEXT_MESS');
      return void setTimeout(() => request.socket.destroy(), 20);
    }
    const body = Buffer.from(sseTrace(name).raw, "utf8");
    // Random chunk sizes, a few milliseconds apart, so that reads end anywhere in an event.
    const random = new Random(body.length);
    let at = 0;
    const next = (): void => {
      if (at >= body.length) return void response.end();
      const size = random.int(1, 40);
      response.write(body.subarray(at, at + size));
      at += size;
      setTimeout(next, random.int(0, 2));
    };
    next();
  });

  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  async function readFrom(name: string): Promise<StreamResult<unknown>[]> {
    const response = await fetch(`${base}/${encodeURIComponent(name)}`);
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    return collect(readAgUi(response.body!));
  }

  const wellFormed = sseTraceNames.filter((name) => name !== "dart-sse__malformed-examples");

  it("finds the vendored traces", () => {
    expect(wellFormed).toHaveLength(7);
  });

  it.each(wellFormed)("reads %s as the events the trace holds; the last, with no blank line after it, as cut off", async (name) => {
    const trace = sseTrace(name);
    const results = await readFrom(name);
    expect(results.map(eventOf)).toEqual(trace.events);
    expect(results.map((result) => result.index)).toEqual(trace.events.map((_, index) => index));
    // Every fixture ends its last event with one line end and no blank line: the HTML
    // standard does not dispatch it, and the reader says so rather than drop it.
    expect(trace.raw.endsWith("}\n")).toBe(true);
    expect(results.slice(0, -1).every((result) => result.ok)).toBe(true);
    expect(results.at(-1)).toMatchObject({ ok: false, fault: "cut-off" });
    // Offsets point at each event's first line in the body.
    const body = Buffer.from(trace.raw, "utf8");
    for (const result of results) expect(body.subarray(result.offset).toString("utf8")).toMatch(/^(data|id|event):/);
  });

  it("reports the event a dropped connection cut off, then throws fetch's error", async () => {
    const response = await fetch(`${base}/hang-up`);
    const seen: StreamResult<unknown>[] = [];
    await expect(
      (async () => {
        for await (const result of readAgUi(response.body!)) seen.push(result);
      })(),
    ).rejects.toThrow();
    expect(seen).toEqual([
      { ok: true, value: { type: "RUN_STARTED", threadId: "t1", runId: "r1" }, index: 0, offset: 0, line: 1 },
      { ok: true, value: { type: "TEXT_MESSAGE_START", messageId: "m1", role: "assistant" }, index: 1, offset: 59, line: 3 },
      { ok: false, fault: "cut-off", message: expect.any(String), data: '{"type":"TEXT_MESS', index: 2, offset: 132, line: 5 },
    ]);
  });

  it("reads the malformed examples as exactly these faults and decode errors", async () => {
    const trace = sseTrace("dart-sse__malformed-examples");
    const results = await readFrom("dart-sse__malformed-examples");
    expect(results).toEqual([
      { ok: false, fault: "not-json", message: expect.stringMatching(/^not JSON: /), data: "not valid json", index: 0, offset: 0, line: 1 },
      {
        ok: false,
        unrecognized: false,
        errors: [expect.objectContaining({ path: "/type", keyword: "discriminator", message: expect.stringContaining("UNKNOWN_EVENT_TYPE") })],
        index: 1,
        offset: 22,
        line: 3,
      },
      {
        ok: false,
        unrecognized: false,
        errors: [{ path: "/messageId", keyword: "required", message: "is required" }],
        index: 2,
        offset: 59,
        line: 5,
      },
      // `data: ` alone is an event whose data is empty, which is not JSON.
      { ok: false, fault: "not-json", message: expect.stringMatching(/^not JSON: /), data: "", index: 3, offset: 96, line: 7 },
      // The last frame is cut off twice over: its JSON is incomplete, and no blank line ends it.
      { ok: false, fault: "cut-off", message: expect.any(String), data: '{"incomplete":', index: 4, offset: 104, line: 9 },
    ]);
    // The frames the fixture marks unparsed are the faults; the others are its events, which do not decode.
    for (const { frameIndex, data } of trace.unparsed_frames!) expect(results[frameIndex]).toMatchObject({ data });
    expect(results.filter((result) => !("fault" in result))).toHaveLength(trace.events.length);
  });
});

describe("JSON lines from a child process's stdout", () => {
  const notifications = readdirSync(path.join(FIXTURES, "corpus/app-server"))
    .sort()
    .map((file) => JSON.parse(readFileSync(path.join(FIXTURES, "corpus/app-server", file), "utf8")) as Record<string, unknown>);

  it("reads each notification as the decoder does, at its line, and the line the child stopped in as cut off", async () => {
    const lines = notifications.map((notification) => JSON.stringify({ jsonrpc: "2.0", ...notification }));
    const unended = '{"jsonrpc":"2.0","method":"turn/started","params":{"threadId":"thr';
    // The child writes the lines in random pieces, a millisecond apart, as a process's pipe may carry them.
    const script = `
      const text = process.argv[1];
      let at = 0, seed = 7;
      const next = () => {
        if (at >= text.length) return;
        seed = (seed * 1103515245 + 12345) % 2147483648;
        const size = 1 + (seed % 200);
        process.stdout.write(text.slice(at, at + size));
        at += size;
        setTimeout(next, 1);
      };
      next();`;
    const child = spawn(process.execPath, ["-e", script, lines.map((line) => `${line}\n`).join("") + unended], { stdio: ["ignore", "pipe", "inherit"] });
    const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
    const results = await collect(readAppServer(child.stdout));
    expect(await exited).toBe(0);

    let offset = 0;
    const expected = notifications.map((notification, index) => {
      const place = { index, offset, line: index + 1 };
      offset += Buffer.byteLength(lines[index]!) + 1;
      return { ...decodeServerNotification(notification), ...place };
    });
    expect(results.slice(0, -1)).toEqual(expected);
    expect(results.at(-1)).toEqual({
      ok: false,
      fault: "cut-off",
      message: expect.any(String),
      data: unended,
      index: lines.length,
      offset,
      line: lines.length + 1,
    });
    // Both verdicts are there, so the comparison says something of each.
    expect(new Set(results.map((result) => result.ok))).toEqual(new Set([true, false]));
  });

  it("stops the child's stream when the consumer stops", async () => {
    const script = `let n = 0; const next = () => { process.stdout.write(JSON.stringify({ jsonrpc: "2.0", method: "thread/archived", params: { threadId: "t" + n++ } }) + "\\n"); setTimeout(next, 1); }; next();`;
    const child = spawn(process.execPath, ["-e", script], { stdio: ["ignore", "pipe", "inherit"] });
    const exited = new Promise<void>((resolve) => child.on("close", () => resolve()));
    let taken = 0;
    for await (const result of readAppServer(child.stdout)) {
      expect(result).toMatchObject({ ok: true, value: { method: "thread/archived", params: { threadId: `t${taken}` } } });
      if (++taken === 3) break;
    }
    expect(child.stdout.destroyed).toBe(true);
    child.kill();
    await exited;
  });
});
