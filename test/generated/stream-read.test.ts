import { createParser } from "eventsource-parser";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readStream as readA2a } from "../../generated/src/a2a/stream.js";
import { readStream as readAgUi } from "../../generated/src/ag-ui/stream.js";
import { readStream as readAppServer } from "../../generated/src/app-server/stream.js";
import type { DecodeResult } from "../../generated/src/decode.js";
import { readEvents } from "../../generated/src/stream/read.js";
import type { ReadOptions } from "../../generated/src/stream/read.js";
import type { StreamResult } from "../../generated/src/stream/result.js";
import type { StreamSource } from "../../generated/src/stream/source.js";
import type { Transport } from "../../generated/src/stream/tables.js";

/**
 * The stream reader of the generated package (`readEvents` in templates/stream/read.ts, bound
 * to each protocol's decoder as `readStream`): framing as the HTML standard reads
 * server-sent events and as JSON lines are written, at any chunk boundary; where each
 * result is; the faults; and pulling only what the consumer asks for.
 */

/** Server-sent events whose `event: error` is the transport's error report, as a protocol's facts may name it. */
const SSE: Transport = { framing: "sse", jsonRpc: false, errorEvent: "error" };
const JSON_LINES: Transport = { framing: "jsonl", jsonRpc: false };

/** Each event's JSON as it is, so that a test sees the framing and nothing else. */
const asIs = (input: unknown): DecodeResult<unknown> => ({ ok: true, value: input });

const isJson = (text: string): boolean => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

const encoder = new TextEncoder();
const bytesOf = (text: string): Uint8Array => encoder.encode(text);

async function collect<T>(results: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const result of results) all.push(result);
  return all;
}

async function* chunks(...parts: ReadonlyArray<Uint8Array | string>): AsyncGenerator<Uint8Array | string> {
  for (const part of parts) yield part;
}

function read(source: StreamSource, transport: Transport = SSE, options: ReadOptions = {}): Promise<StreamResult<unknown>[]> {
  return collect(readEvents(source, asIs, transport, options));
}

/** A result without its words: its place, and its value or its fault and data. */
type Brief =
  | { index: number; offset: number; line: number; value: unknown }
  | { index: number; offset: number; line: number; fault: string; data?: unknown };

function brief(results: ReadonlyArray<StreamResult<unknown>>): Brief[] {
  return results.map((result) => {
    const place = { index: result.index, offset: result.offset, line: result.line };
    if (result.ok) return { ...place, value: result.value };
    if ("fault" in result) return "data" in result ? { ...place, fault: result.fault, data: result.data } : { ...place, fault: result.fault };
    throw new Error(`not decoded: ${JSON.stringify(result)}`);
  });
}

/** Pieces of `whole` cut at the given positions (in any order, repeats allowed). */
function cutAt<T extends Uint8Array | string>(whole: T, positions: readonly number[]): T[] {
  const cuts = [...new Set(positions)].filter((at) => at > 0 && at < whole.length).sort((a, b) => a - b);
  const pieces: T[] = [];
  let start = 0;
  for (const at of [...cuts, whole.length]) {
    pieces.push(whole.slice(start, at) as T);
    start = at;
  }
  return pieces;
}

/** The byte offset in `text` (UTF-8) where `marker` first starts. */
function offsetOf(text: string, marker: string): number {
  const at = text.indexOf(marker);
  if (at === -1) throw new Error(`no ${JSON.stringify(marker)}`);
  return bytesOf(text.slice(0, at)).length;
}

// A body with what chunking can break: a byte order mark, CRLF, lone CR and LF line ends,
// comments, `id` and `retry` lines, multi-line data, two- to four-byte UTF-8 characters, a
// blank line with no event, a field name with no colon, an error event, and a cut-off end.
const SSE_TEXT = [
  "\uFEFF: a comment, after the byte order mark\r\n",
  "retry: 3000\r\n",
  "\r\n",
  'id: 1\r\ndata: {"text":"Grüße, 世界 🌍"}\r\n\r\n',
  'event: delta\rdata: {"parts":\rdata: ["多行", "🧩"]}\r\r',
  ": keepalive\n\n",
  'id: 2\nevent: message\ndata:{"no":"space"}\n\n',
  "data: not JSON 😅\n\n",
  "event: named, with no data\n\n",
  "\n\n",
  'data\ndata: {"after":"an empty data line"}\r\n\n',
  'event: error\ndata: {"message":"上流 failed"}\r\n\r\n',
  'data: {"cut":"🎉',
].join("");
const SSE_BODY = bytesOf(SSE_TEXT);
const SSE_READ: Brief[] = [
  { index: 0, offset: offsetOf(SSE_TEXT, "id: 1"), line: 4, value: { text: "Grüße, 世界 🌍" } },
  { index: 1, offset: offsetOf(SSE_TEXT, "event: delta"), line: 7, value: { parts: ["多行", "🧩"] } },
  { index: 2, offset: offsetOf(SSE_TEXT, "id: 2"), line: 13, value: { no: "space" } },
  { index: 3, offset: offsetOf(SSE_TEXT, "data: not JSON"), line: 17, fault: "not-json", data: "not JSON 😅" },
  { index: 4, offset: offsetOf(SSE_TEXT, "data\ndata"), line: 23, value: { after: "an empty data line" } },
  { index: 5, offset: offsetOf(SSE_TEXT, "event: error"), line: 26, fault: "transport-error", data: { message: "上流 failed" } },
  { index: 6, offset: offsetOf(SSE_TEXT, 'data: {"cut"'), line: 29, fault: "cut-off", data: '{"cut":"🎉' },
];

const JSON_LINES_TEXT = [
  "\uFEFF",
  '{"text":"Grüße, 世界 🌍"}\r\n',
  "\n",
  "   \r\n",
  '{"n":1}\r',
  "not JSON 😅\n",
  '{"n":2}\r\n',
  '{"cut":"🎉',
].join("");
const JSON_LINES_BODY = bytesOf(JSON_LINES_TEXT);
const JSON_LINES_READ: Brief[] = [
  { index: 0, offset: 3, line: 1, value: { text: "Grüße, 世界 🌍" } },
  { index: 1, offset: offsetOf(JSON_LINES_TEXT, '{"n":1}'), line: 4, value: { n: 1 } },
  { index: 2, offset: offsetOf(JSON_LINES_TEXT, "not JSON"), line: 5, fault: "not-json", data: "not JSON 😅" },
  { index: 3, offset: offsetOf(JSON_LINES_TEXT, '{"n":2}'), line: 6, value: { n: 2 } },
  { index: 4, offset: offsetOf(JSON_LINES_TEXT, '{"cut"'), line: 7, fault: "cut-off", data: '{"cut":"🎉' },
];

const BODIES = [
  { framing: "server-sent events", transport: SSE, text: SSE_TEXT, body: SSE_BODY, expected: SSE_READ },
  { framing: "JSON lines", transport: JSON_LINES, text: JSON_LINES_TEXT, body: JSON_LINES_BODY, expected: JSON_LINES_READ },
];

describe.each(BODIES)("reading $framing at any chunk boundary", ({ transport, text, body, expected }) => {
  it("reads the body in one chunk as the framing says", async () => {
    expect(brief(await read(chunks(body), transport))).toEqual(expected);
  });

  it("reads the same cut in two anywhere: inside a UTF-8 character, between CR and LF, in the byte order mark", async () => {
    for (let at = 1; at < body.length; at++) expect(brief(await read(chunks(...cutAt(body, [at])), transport))).toEqual(expected);
  });

  it("reads the same a byte at a time", async () => {
    const bytes = Array.from(body, (byte) => Uint8Array.of(byte));
    expect(brief(await read(chunks(...bytes), transport))).toEqual(expected);
  });

  it("reads the same in random chunks, empty ones too", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 0, max: body.length }), { maxLength: 60 }), fc.boolean(), async (cuts, withEmpty) => {
        const pieces = cutAt(body, cuts);
        if (withEmpty) pieces.splice(pieces.length >> 1, 0, new Uint8Array(0));
        expect(brief(await read(chunks(...pieces), transport))).toEqual(expected);
      }),
      { seed: 0x5ead, numRuns: 100 },
    );
  });

  it("reads the same from strings cut anywhere, inside a surrogate pair too", async () => {
    for (let at = 1; at < text.length; at++) expect(brief(await read(chunks(...cutAt(text, [at])), transport))).toEqual(expected);
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 0, max: text.length }), { maxLength: 60 }), async (cuts) => {
        expect(brief(await read(chunks(...cutAt(text, cuts)), transport))).toEqual(expected);
      }),
      { seed: 0x57a1, numRuns: 100 },
    );
  });

  it("reads the same from a ReadableStream", async () => {
    const pieces = cutAt(body, [5, 6, 7, 40, 41, 100]);
    const source = new ReadableStream<Uint8Array>({
      pull(controller) {
        const piece = pieces.shift();
        if (piece === undefined) controller.close();
        else controller.enqueue(piece);
      },
    });
    expect(brief(await read(source, transport))).toEqual(expected);
  });
});

/** What an event of eventsource-parser reads as: a transport error, JSON, or text that is not. */
function readAs({ name, data }: { name: string | undefined; data: string }): unknown {
  if (name === "error") return "transport-error";
  return isJson(data) ? { value: JSON.parse(data) } : { notJson: data };
}

function expectedOf(result: StreamResult<unknown>): unknown {
  if (result.ok) return { value: result.value };
  if (!("fault" in result)) return result;
  return result.fault === "not-json" ? { notJson: result.data } : result.fault;
}

describe("random server-sent event streams", () => {
  // Events of one data line and a blank line are framed in one step where both are whole
  // in a chunk; a byte at a time, every line is read on its own. Both must read the same,
  // and the data must be what eventsource-parser reads.
  const value = fc.oneof(fc.string({ unit: "grapheme", maxLength: 12 }), fc.integer(), fc.constant("é東🚀"));
  const field = fc.oneof(
    { weight: 6, arbitrary: value.map((json) => `data: ${JSON.stringify(json)}`) },
    { weight: 2, arbitrary: value.map((json) => `data:${JSON.stringify(json)}`) },
    fc.constantFrom("event: error", "event: message", "id: 7", ": a comment", "retry: 10", "data", "datum: x"),
  );
  const lineEnd = fc.constantFrom("\n", "\n", "\n", "\r\n", "\r");
  const line = fc.tuple(field, lineEnd).map(([text, end]) => text + end);
  const stream = fc.array(fc.tuple(fc.array(line, { minLength: 1, maxLength: 3 }), lineEnd), { maxLength: 12 }).map((events) =>
    events.map(([lines, end]) => lines.join("") + end).join(""),
  );

  it("reads the same in one chunk, a byte at a time and in random chunks, and the same data as eventsource-parser", async () => {
    await fc.assert(
      fc.asyncProperty(stream, fc.array(fc.integer({ min: 0, max: 400 }), { maxLength: 8 }), async (text, cuts) => {
        const body = bytesOf(text);
        const whole = brief(await read(chunks(body)));
        expect(brief(await read(chunks(...Array.from(body, (byte) => Uint8Array.of(byte)))))).toEqual(whole);
        expect(brief(await read(chunks(...cutAt(body, cuts))))).toEqual(whole);
        const parsed: { name: string | undefined; data: string }[] = [];
        const parser = createParser({ onEvent: ({ event, data }) => parsed.push({ name: event, data }) });
        // A CR that ends the stream ends its line; eventsource-parser waits for an LF that may follow.
        parser.feed(text.endsWith("\r") ? `${text}\n` : text);
        // An event the stream ends in is reported as cut off, and a field it does not know as
        // unknown; eventsource-parser drops the one and ignores the other.
        const events = (await read(chunks(body))).filter(
          (result) => !("fault" in result && (result.fault === "cut-off" || result.fault === "unknown-field")),
        );
        expect(events.map(expectedOf)).toEqual(parsed.map(readAs));
      }),
      { seed: 0x55e, numRuns: 300 },
    );
  });
});

describe("where each result is", () => {
  it("gives each event its index, the byte offset of its first line and that line's number, from 1", async () => {
    // Bytes: 0 `data: 1␊` 8 `␊` 9 `: note␍␊` 17 `id: 7␍␊` 24 `data: "é"␍␊` (é is two bytes)
    // 36 `␍␊` 38 `data: [3,␍` 48 `data: 4]␍` 57 `␍`.
    const text = 'data: 1\n\n: note\r\nid: 7\r\ndata: "é"\r\n\r\ndata: [3,\rdata: 4]\r\r';
    expect(brief(await read(chunks(text)))).toEqual([
      { index: 0, offset: 0, line: 1, value: 1 },
      // A comment is no part of the event; an `id` line is.
      { index: 1, offset: 17, line: 4, value: "é" },
      { index: 2, offset: 38, line: 7, value: [3, 4] },
    ]);
  });

  it("places each event of a run of one-line events in one chunk, characters past U+007F in them, and the events after the run", async () => {
    // Bytes: 0 `data: "é"␊␊` (é two bytes) 12 `data:"東"␊␊` (東 three) 24 `data: "🚀"␊␊`
    // (🚀 four) 38 `data: 4␍␊␍␊` 49 `data: "ü"␊␊` 61 `event: x␊` 70 `data: 6␊␊`.
    const text = 'data: "é"\n\ndata:"東"\n\ndata: "🚀"\n\ndata: 4\r\n\r\ndata: "ü"\n\nevent: x\ndata: 6\n\n';
    const expected = [
      { index: 0, offset: 0, line: 1, value: "é" },
      { index: 1, offset: 12, line: 3, value: "東" },
      { index: 2, offset: 24, line: 5, value: "🚀" },
      { index: 3, offset: 38, line: 7, value: 4 },
      { index: 4, offset: 49, line: 9, value: "ü" },
      { index: 5, offset: 61, line: 11, value: 6 },
    ];
    expect(brief(await read(chunks(bytesOf(text))))).toEqual(expected);
    // Cut inside the run: its end, the rest of a line, is read on in the next chunk.
    for (const at of [5, 12, 13, 16, 30, 36, 37]) expect(brief(await read(chunks(...cutAt(bytesOf(text), [at]))))).toEqual(expected);
  });

  it("counts the byte order mark in offsets and not as a line", async () => {
    expect(brief(await read(chunks("\uFEFFdata: 1\n\ndata: 2\n\n")))).toEqual([
      { index: 0, offset: 3, line: 1, value: 1 },
      { index: 1, offset: 12, line: 3, value: 2 },
    ]);
    expect(brief(await read(chunks("\uFEFF1\n2\n"), JSON_LINES))).toEqual([
      { index: 0, offset: 3, line: 1, value: 1 },
      { index: 1, offset: 5, line: 2, value: 2 },
    ]);
  });

  it("counts faults as results: each has the next index, and its own place", async () => {
    const text = '{"n":0}\nnope\n\n{"n":2}\r\n{"n":';
    expect(brief(await read(chunks(text), JSON_LINES))).toEqual([
      { index: 0, offset: 0, line: 1, value: { n: 0 } },
      { index: 1, offset: 8, line: 2, fault: "not-json", data: "nope" },
      { index: 2, offset: 14, line: 4, value: { n: 2 } },
      { index: 3, offset: 23, line: 5, fault: "cut-off", data: '{"n":' },
    ]);
  });
});

describe("server-sent events as the HTML standard parses them", () => {
  // Values that are not JSON come back as `not-json` faults with the data as read, which
  // shows spaces JSON would ignore.
  it("takes a data line's value after the colon, less one space if there is one", async () => {
    expect(brief(await read(chunks("data:x\n\ndata:  x\n\ndata: \n\n")))).toEqual([
      { index: 0, offset: 0, line: 1, fault: "not-json", data: "x" },
      { index: 1, offset: 8, line: 3, fault: "not-json", data: " x" },
      { index: 2, offset: 18, line: 5, fault: "not-json", data: "" },
    ]);
  });

  it("reads a field name with no colon as that field with an empty value: `data` alone is an empty data line", async () => {
    expect(brief(await read(chunks("data\n\ndata\ndata\n\ndata\ndata: 1\n\n")))).toEqual([
      { index: 0, offset: 0, line: 1, fault: "not-json", data: "" },
      { index: 1, offset: 6, line: 3, fault: "not-json", data: "\n" },
      { index: 2, offset: 17, line: 6, value: 1 },
    ]);
    // `event` alone names the event with the empty string, the default type: not an error.
    expect(brief(await read(chunks("event\ndata: 1\n\n")))).toEqual([{ index: 0, offset: 0, line: 1, value: 1 }]);
  });

  it("reports a field it does not know as a fault and reads on; ignores comments, `id` and `retry`; names are case-sensitive", async () => {
    // The standard ignores an unknown field; a producer that sends one has made a mistake.
    expect(brief(await read(chunks("foo: 1\nDATA: 2\nData: 3\nretry: x\nid: 4\n: data: 5\n\n")))).toEqual([
      { index: 0, offset: 0, line: 1, fault: "unknown-field", data: "foo: 1" },
      { index: 1, offset: 7, line: 2, fault: "unknown-field", data: "DATA: 2" },
      { index: 2, offset: 15, line: 3, fault: "unknown-field", data: "Data: 3" },
    ]);
    expect(brief(await read(chunks("foo\nid\nretry\ndata: 1\n\n")))).toEqual([
      { index: 0, offset: 0, line: 1, fault: "unknown-field", data: "foo" },
      { index: 1, offset: 0, line: 1, value: 1 },
    ]);
  });

  it("says of a line of JSON with no data: before it that it is one", async () => {
    // A body whose events lack the `data:` prefix: before, no events and no complaint.
    const results = await read(chunks('{"type":"RUN_STARTED"}\n\n{"type":"RUN_FINISHED"}\n\n'));
    expect(brief(results)).toEqual([
      { index: 0, offset: 0, line: 1, fault: "unknown-field", data: '{"type":"RUN_STARTED"}' },
      { index: 1, offset: 24, line: 3, fault: "unknown-field", data: '{"type":"RUN_FINISHED"}' },
    ]);
    expect(results.map((result) => ("message" in result ? result.message : ""))).toEqual([
      'a line of JSON with no "data:" before it, which server-sent events ignore',
      'a line of JSON with no "data:" before it, which server-sent events ignore',
    ]);
    const [unknown] = await read(chunks(`${"x".repeat(100)}: 1\n\n`));
    expect(unknown).toMatchObject({
      fault: "unknown-field",
      message: `an unknown field "${"x".repeat(40)}…", which server-sent events ignore: theirs are data, event, id and retry`,
    });
  });

  it("dispatches nothing for an event with no data, and its name does not carry over", async () => {
    expect(brief(await read(chunks("event: error\n\ndata: 1\n\n")))).toEqual([{ index: 0, offset: 14, line: 3, value: 1 }]);
    expect(brief(await read(chunks("event: error\nid: 1\nretry: 10\n\n")))).toEqual([]);
  });

  it("dispatches nothing for blank lines with no data", async () => {
    expect(brief(await read(chunks("\n\n\r\n\r\r\n\n", "data: 1\n\n", "\n\n\n")))).toEqual([{ index: 0, offset: 8, line: 7, value: 1 }]);
  });

  it("reads a CR that ends a chunk and an LF that starts the next as one line end", async () => {
    // Two line ends would end the first event after its first line: `[1,` alone is not JSON.
    const results = await read(chunks("data: [1,\r", "\ndata: 2]\r", "\n\r", "\ndata: 3\n\n"));
    expect(brief(results)).toEqual([
      { index: 0, offset: 0, line: 1, value: [1, 2] },
      { index: 1, offset: 23, line: 4, value: 3 },
    ]);
    // And the same LF after an empty chunk.
    expect(brief(await read(chunks("data: [1,\r", "", "\ndata: 2]\r\n\r\n")))).toEqual([{ index: 0, offset: 0, line: 1, value: [1, 2] }]);
  });

  it("drops one leading byte order mark only", async () => {
    // A second one starts the first line's field name, which is then no field it knows.
    expect(brief(await read(chunks("\uFEFF\uFEFFdata: 1\n\ndata: 2\n\n")))).toEqual([
      { index: 0, offset: 3, line: 1, fault: "unknown-field", data: "\uFEFFdata: 1" },
      { index: 1, offset: 15, line: 3, value: 2 },
    ]);
  });
});

/** A source that starts with `first` and repeats `more` forever, counting what it gave. */
function endless(first: string, more: string): { source: AsyncIterable<Uint8Array>; given: { chunks: number; closed: boolean } } {
  const given = { chunks: 0, closed: false };
  const chunk = bytesOf(more);
  async function* source(): AsyncGenerator<Uint8Array> {
    try {
      yield bytesOf(first);
      for (;;) {
        given.chunks++;
        yield chunk;
      }
    } finally {
      given.closed = true;
    }
  }
  return { source: source(), given };
}

describe("an event past maxEventSize", () => {
  it("is a too-large fault at its place, after the events before it, and nothing is read after it", async () => {
    const text = `data: {"n":1}\n\ndata: "${"x".repeat(100)}"\n\ndata: {"n":3}\n\n`;
    for (const source of [chunks(text), chunks(...Array.from(bytesOf(text), (byte) => Uint8Array.of(byte)))]) {
      const results = await read(source, SSE, { maxEventSize: 64 });
      expect(brief(results)).toEqual([
        { index: 0, offset: 0, line: 1, value: { n: 1 } },
        { index: 1, offset: 15, line: 3, fault: "too-large" },
      ]);
      expect(results[1]).toMatchObject({ message: expect.stringMatching(/larger than 64 bytes.*maxEventSize/) });
    }
  });

  it("is the size of its data lines, line ends not counted: exactly the limit is read, a byte more is not", async () => {
    const line = (size: number) => `data: ${"1".repeat(size - 6)}`; // `data: ` is six bytes
    const sse = async (text: string) => (await read(chunks(text), SSE, { maxEventSize: 64 })).map((result) => (result.ok ? "ok" : result));
    expect(await sse(`${line(64)}\n\n`)).toEqual(["ok"]);
    expect(await sse(`${line(65)}\n\n`)).toEqual([expect.objectContaining({ fault: "too-large" })]);
    expect(await sse(`${line(32)}\r\n${line(32)}\r\n\r\n`)).toEqual([expect.objectContaining({ fault: "not-json" })]);
    expect(await sse(`${line(32)}\r\n${line(33)}\r\n\r\n`)).toEqual([expect.objectContaining({ fault: "too-large" })]);
    const jsonLines = async (text: string) =>
      (await read(chunks(text), JSON_LINES, { maxEventSize: 64 })).map((result) => (result.ok ? "ok" : result));
    expect(await jsonLines(`${"1".repeat(64)}\r\n`)).toEqual(["ok"]);
    expect(await jsonLines(`${"1".repeat(65)}\r\n`)).toEqual([expect.objectContaining({ fault: "too-large" })]);
  });

  it("is measured the same however the bytes come, after a byte order mark too", async () => {
    for (const size of [61, 62]) {
      const body = bytesOf(`\uFEFFdata: "${"x".repeat(size - 8)}"\n\n`); // a data line of `size` bytes
      const whole = brief(await read(chunks(body), SSE, { maxEventSize: 61 }));
      expect(whole).toEqual(size === 61 ? [{ index: 0, offset: 3, line: 1, value: "x".repeat(53) }] : [{ index: 0, offset: 3, line: 1, fault: "too-large" }]);
      for (let at = 1; at < body.length; at++) expect(brief(await read(chunks(...cutAt(body, [at])), SSE, { maxEventSize: 61 }))).toEqual(whole);
      const endless = bytesOf(`\uFEFFdata: "${"x".repeat(size)}`);
      expect(brief(await read(chunks(...cutAt(endless, [2, 40])), SSE, { maxEventSize: 61 }))).toEqual([{ index: 0, offset: 3, line: 1, fault: "too-large" }]);
    }
  });

  it("bounds an event that never ends: an endless data line, endless data lines, an endless JSON line", async () => {
    const limit = 64 * 1024;
    for (const [first, more, transport] of [
      ["data: ", "x".repeat(1024), SSE],
      [": hello\nid: 1\n", "data: x\n".repeat(128), SSE],
      ['{"a":"', "x".repeat(1024), JSON_LINES],
    ] as const) {
      const { source, given } = endless(first, more);
      const results = await read(source, transport, { maxEventSize: limit });
      expect(brief(results)).toEqual([{ index: 0, offset: first.startsWith(":") ? 8 : 0, line: first.startsWith(":") ? 2 : 1, fault: "too-large" }]);
      // Read up to about the limit (line ends are not counted in it), and no further.
      expect(given.chunks * more.length).toBeLessThanOrEqual(limit * 1.25);
      expect(given.closed).toBe(true);
    }
  });

  it("is 16 MiB unless given", async () => {
    const { source, given } = endless("data: ", "x".repeat(1024 * 1024));
    const results = await read(source);
    expect(brief(results)).toEqual([{ index: 0, offset: 0, line: 1, fault: "too-large" }]);
    expect(results[0]).toMatchObject({ message: expect.stringContaining("16777216 bytes") });
    expect(given.chunks).toBe(16);
  });
});

describe("bytes that are not UTF-8", () => {
  const spoilers: ReadonlyArray<[string, number[]]> = [
    ["a byte no UTF-8 text has", [0xff]],
    ["a continuation byte alone", [0x80]],
    ["an overlong /", [0xc0, 0xaf]],
    ["a UTF-16 surrogate", [0xed, 0xa0, 0x80]],
    ["a character cut short, then more text", [0xe4, 0xb8, 0x41]],
    ["past U+10FFFF", [0xf4, 0x90, 0x80, 0x80]],
  ];

  it.each(spoilers)("are an invalid-utf8 fault at the line, after the events before it, and stop the reading: %s", async (_, spoiler) => {
    const [before, after] = [bytesOf('data: {"n":1}\n\ndata: "'), bytesOf('"\n\ndata: {"n":3}\n\n')];
    const body = new Uint8Array([...before, ...spoiler, ...after]);
    const results = await read(chunks(...cutAt(body, [before.length + 1])));
    expect(brief(results)).toEqual([
      { index: 0, offset: 0, line: 1, value: { n: 1 } },
      { index: 1, offset: 15, line: 3, fault: "invalid-utf8" },
    ]);
    const lines = new Uint8Array([...bytesOf('{"n":1}\n"'), ...spoiler, ...bytesOf('"\n{"n":3}\n')]);
    expect(brief(await read(chunks(lines), JSON_LINES))).toEqual([
      { index: 0, offset: 0, line: 1, value: { n: 1 } },
      { index: 1, offset: 8, line: 2, fault: "invalid-utf8" },
    ]);
  });
});

describe("a stream cut off inside an event", () => {
  it("is a cut-off fault carrying the data read so far: server-sent events", async () => {
    expect(brief(await read(chunks('data: {"n":1}\n\ndata: {"n":')))).toEqual([
      { index: 0, offset: 0, line: 1, value: { n: 1 } },
      { index: 1, offset: 15, line: 3, fault: "cut-off", data: '{"n":' },
    ]);
    // Whole lines, but no blank line to end the event: not dispatched, as the standard says, but not dropped either.
    expect(brief(await read(chunks('id: 1\ndata: {"parts":\ndata: [1]}\n')))).toEqual([
      { index: 0, offset: 0, line: 1, fault: "cut-off", data: '{"parts":\n[1]}' },
    ]);
  });

  it("is a cut-off fault carrying the data read so far: JSON lines", async () => {
    expect(brief(await read(chunks('{"n":1}\n{"n":'), JSON_LINES))).toEqual([
      { index: 0, offset: 0, line: 1, value: { n: 1 } },
      { index: 1, offset: 8, line: 2, fault: "cut-off", data: '{"n":' },
    ]);
    // A last line without its line end is whole when it is JSON.
    expect(brief(await read(chunks('{"n":1}\n{"n":2}'), JSON_LINES))).toEqual([
      { index: 0, offset: 0, line: 1, value: { n: 1 } },
      { index: 1, offset: 8, line: 2, value: { n: 2 } },
    ]);
  });

  it("is a cut-off fault, not invalid UTF-8, when the cut falls inside a character", async () => {
    const sse = bytesOf('data: {"n":1}\n\ndata: {"text":"🎉');
    expect(brief(await read(chunks(sse.subarray(0, -2))))).toEqual([
      { index: 0, offset: 0, line: 1, value: { n: 1 } },
      { index: 1, offset: 15, line: 3, fault: "cut-off", data: '{"text":"' },
    ]);
    const lines = bytesOf('{"n":1}\n{"text":"世');
    expect(brief(await read(chunks(lines.subarray(0, -1)), JSON_LINES))).toEqual([
      { index: 0, offset: 0, line: 1, value: { n: 1 } },
      { index: 1, offset: 8, line: 2, fault: "cut-off", data: '{"text":"' },
    ]);
  });

  it("is a cut-off fault when the source fails, reported before the source's error is thrown", async () => {
    async function* failing(): AsyncGenerator<string> {
      yield 'data: {"n":1}\n\ndata: {"n":';
      throw new Error("connection reset");
    }
    const seen: unknown[] = [];
    await expect(
      (async () => {
        for await (const result of readEvents(failing(), asIs, SSE)) seen.push(result);
      })(),
    ).rejects.toThrow("connection reset");
    expect(brief(seen as StreamResult<unknown>[])).toEqual([
      { index: 0, offset: 0, line: 1, value: { n: 1 } },
      { index: 1, offset: 15, line: 3, fault: "cut-off", data: '{"n":' },
    ]);
  });

  it("is no fault when the stream ends between events, or inside a block with no data", async () => {
    expect(brief(await read(chunks("data: 1\n\n: bye")))).toEqual([{ index: 0, offset: 0, line: 1, value: 1 }]);
    expect(brief(await read(chunks("data: 1\n\nevent: end\nid: 2\n")))).toEqual([{ index: 0, offset: 0, line: 1, value: 1 }]);
    expect(brief(await read(chunks("1\n\n  "), JSON_LINES))).toEqual([{ index: 0, offset: 0, line: 1, value: 1 }]);
  });
});

describe("the transport's own error report", () => {
  const runStarted = { type: "RUN_STARTED", threadId: "t1", runId: "r1" };

  it("is none where the protocol defines none: an `event: error` is read as any event, and what it holds is the fault", async () => {
    // AG-UI's prose and binding define no SSE error event; an error is RUN_ERROR.
    const body = `data: ${JSON.stringify(runStarted)}\n\nevent: error\ndata: {"message":"rate limited"}\n\n`;
    const results = await collect(readAgUi(chunks(body)));
    expect(results[1]).toMatchObject({ ok: false, index: 1, line: 3, errors: [{ path: "/type", keyword: "discriminator" }] });
    expect(results.some((result) => "fault" in result)).toBe(false);
  });

  it("is a transport-error fault: the SSE event the facts name (`event: error`), with its message", async () => {
    const body = `data: ${JSON.stringify(runStarted)}\n\nevent: error\ndata: {"message":"rate limited","code":429}\n\nevent: error\ndata: upstream timed out\n\n`;
    const results = await read(chunks(body));
    expect(results).toEqual([
      { ok: true, value: runStarted, index: 0, offset: 0, line: 1 },
      {
        ok: false,
        fault: "transport-error",
        message: "rate limited",
        data: { message: "rate limited", code: 429 },
        index: 1,
        offset: offsetOf(body, "event: error"),
        line: 3,
      },
      {
        ok: false,
        fault: "transport-error",
        message: "upstream timed out",
        data: "upstream timed out",
        index: 2,
        offset: offsetOf(body, "event: error\ndata: upstream"),
        line: 6,
      },
    ]);
  });

  it("is a transport-error fault: a JSON-RPC error response in place of a result (A2A over server-sent events)", async () => {
    const task = { id: "task-1", contextId: "context-1", status: { state: "TASK_STATE_WORKING" } };
    const failure = { code: -32001, message: "Task not found" };
    const body = [
      `data: ${JSON.stringify({ jsonrpc: "2.0", id: 7, result: { task } })}\n\n`,
      `data: ${JSON.stringify({ jsonrpc: "2.0", id: 7, error: failure })}\n\n`,
    ].join("");
    const results = await collect(readA2a(chunks(body)));
    expect(results).toEqual([
      { ok: true, value: { task }, index: 0, offset: 0, line: 1 },
      {
        ok: false,
        fault: "transport-error",
        message: "Task not found",
        data: { jsonrpc: "2.0", id: 7, error: failure },
        index: 1,
        offset: offsetOf(body, 'data: {"jsonrpc":"2.0","id":7,"error"'),
        line: 3,
      },
    ]);
  });

  it("is a transport-error fault: a JSON-RPC error response among notifications (app-server over JSON lines)", async () => {
    const notification = { method: "thread/archived", params: { threadId: "th1" } };
    const body = [
      JSON.stringify({ jsonrpc: "2.0", ...notification }),
      JSON.stringify({ jsonrpc: "2.0", id: 3, error: { code: -32600, message: "Invalid request" } }),
      "",
    ].join("\n");
    const results = await collect(readAppServer(chunks(body)));
    expect(results[0]).toEqual({ ok: true, value: notification, index: 0, offset: 0, line: 1 });
    expect(results[1]).toMatchObject({ ok: false, fault: "transport-error", message: "Invalid request", index: 1, line: 2 });
    expect(results).toHaveLength(2);
  });
});

describe("text that is not JSON", () => {
  it("is a not-json fault with the text, and the reading goes on", async () => {
    const results = await read(chunks('data: {"n":1\n\ndata: {"n":2}\n\n'));
    expect(brief(results)).toEqual([
      { index: 0, offset: 0, line: 1, fault: "not-json", data: '{"n":1' },
      { index: 1, offset: 14, line: 3, value: { n: 2 } },
    ]);
    expect(results[0]).toMatchObject({ message: expect.stringMatching(/^not JSON: /) });
    expect(brief(await read(chunks("{]\n2\n"), JSON_LINES))).toEqual([
      { index: 0, offset: 0, line: 1, fault: "not-json", data: "{]" },
      { index: 1, offset: 3, line: 2, value: 2 },
    ]);
  });
});

describe("decoding, strict or tolerant", () => {
  it("decodes each event as the protocol's decoder does in the mode given", async () => {
    const body = [
      'data: {"type":"RUN_STARTED","threadId":"t1","runId":"r1","extra":1}\n\n',
      'data: {"type":"SOMETHING_NEWER","threadId":"t1"}\n\n',
    ].join("");
    const strict = await collect(readAgUi(chunks(body)));
    expect(strict).toMatchObject([
      { ok: false, unrecognized: false, errors: [{ path: "/extra", keyword: "additionalProperties" }], index: 0 },
      { ok: false, unrecognized: false, errors: [{ path: "/type", keyword: "discriminator" }], index: 1 },
    ]);
    expect(await collect(readAgUi(chunks(body), { mode: "strict" }))).toEqual(strict);
    expect(await collect(readAgUi(chunks(body), { mode: "tolerant" }))).toEqual([
      { ok: true, value: { type: "RUN_STARTED", threadId: "t1", runId: "r1" }, ignored: ["/extra"], index: 0, offset: 0, line: 1 },
      {
        ok: false,
        unrecognized: true,
        errors: [expect.objectContaining({ path: "/type", keyword: "unrecognized" })],
        index: 1,
        offset: offsetOf(body, "data: {\"type\":\"SOMETHING_NEWER\""),
        line: 3,
      },
    ]);
  });

  it("reads another framing when told: JSON lines for a protocol sent as server-sent events", async () => {
    const results = await collect(readAgUi(chunks('{"type":"RUN_STARTED","threadId":"t1","runId":"r1"}\n'), { framing: "jsonl" }));
    expect(results).toEqual([{ ok: true, value: { type: "RUN_STARTED", threadId: "t1", runId: "r1" }, index: 0, offset: 0, line: 1 }]);
  });
});

describe("pulling", () => {
  /** A ReadableStream of `count` events, one a chunk, that counts its pulls and notes its cancelling. */
  function counted(count: number) {
    const seen = { pulls: 0, cancelled: false };
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (seen.pulls === count) return controller.close();
        controller.enqueue(bytesOf(`data: {"n":${seen.pulls++}}\n\n`));
      },
      cancel() {
        seen.cancelled = true;
      },
    });
    return { stream, seen };
  }

  it("pulls a chunk only when the next result is asked for", async () => {
    const { stream, seen } = counted(1000);
    const results = readEvents(stream, asIs, SSE);
    expect(seen.pulls).toBeLessThanOrEqual(1); // the stream's own start fills its queue of one
    expect((await results.next()).value).toMatchObject({ ok: true, value: { n: 0 } });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(seen.pulls).toBeLessThanOrEqual(2);
    for (let n = 1; n < 10; n++) expect((await results.next()).value).toMatchObject({ value: { n } });
    expect(seen.pulls).toBeLessThanOrEqual(11);
    expect(seen.cancelled).toBe(false);
  });

  it("cancels the source and lets it go when the consumer stops", async () => {
    const { stream, seen } = counted(1000);
    let taken = 0;
    for await (const result of readEvents(stream, asIs, SSE)) {
      expect(result.ok).toBe(true);
      if (++taken === 5) break;
    }
    expect(seen.cancelled).toBe(true);
    expect(stream.locked).toBe(false);
    expect(seen.pulls).toBeLessThanOrEqual(6);
  });

  it("cancels the source when a fault stops the reading", async () => {
    const { stream, seen } = counted(1000);
    expect(brief(await read(stream, SSE, { maxEventSize: 4 }))).toEqual([{ index: 0, offset: 0, line: 1, fault: "too-large" }]);
    expect(seen.cancelled).toBe(true);
    expect(stream.locked).toBe(false);
  });

  it("reads a stream to its end and lets it go", async () => {
    const { stream, seen } = counted(3);
    expect((await read(stream)).map((result) => result.ok && result.value)).toEqual([{ n: 0 }, { n: 1 }, { n: 2 }]);
    expect(seen.cancelled).toBe(false);
    expect(stream.locked).toBe(false);
  });

  /** A reader, as `getReader()` gives one, whose reads answer in turn as `answers` says; notes its releasing. */
  function byteStream(answers: ReadonlyArray<() => Promise<{ done: boolean; value?: Uint8Array }>>) {
    const seen = { reads: 0, released: false };
    const stream = {
      getReader: () => ({
        read: () => answers[seen.reads++]!(),
        cancel: () => Promise.resolve(),
        releaseLock: () => {
          seen.released = true;
        },
      }),
    };
    return { stream, seen };
  }

  it("reads a reader again where a read gives no bytes, and lets it go at its end", async () => {
    const { stream, seen } = byteStream([
      async () => ({ done: false }),
      async () => ({ done: false, value: bytesOf('data: {"n":0}\n') }),
      async () => ({ done: false, value: undefined }),
      async () => ({ done: false, value: bytesOf("\n") }),
      async () => ({ done: true }),
    ]);
    expect(brief(await read(stream))).toEqual([{ index: 0, offset: 0, line: 1, value: { n: 0 } }]);
    expect(seen).toEqual({ reads: 5, released: true });
  });

  it("lets a reader go and throws its error where a read fails, by rejecting or by throwing", async () => {
    const failure = new Error("the connection was reset");
    for (const fails of [() => Promise.reject(failure), () => { throw failure; }]) {
      const { stream, seen } = byteStream([async () => ({ done: false, value: bytesOf('data: {"n":0}\n\ndata: {"n"') }), fails]);
      const results: unknown[] = [];
      await expect(
        (async () => {
          for await (const result of readEvents(stream, asIs, SSE)) results.push(brief([result])[0]);
        })(),
      ).rejects.toBe(failure);
      expect(results).toEqual([
        { index: 0, offset: 0, line: 1, value: { n: 0 } },
        { index: 1, offset: 15, line: 3, fault: "cut-off", data: '{"n"' },
      ]);
      expect(seen.released).toBe(true);
    }
  });
});
