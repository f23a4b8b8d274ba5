// Reading and verifying a protocol's stream of events: what every protocol's `stream.ts`
// shares. Copied from templates/stream.ts by agentwire; each protocol's module binds it to
// its decoder and to the stream facts of its overlay.

import type { DecodeOptions, DecodeResult } from "./runtime.js";

// ---------------------------------------------------------------------------------------
// Sources: a fetch body, or any async iterable of bytes or strings. Typed by shape, so that
// the package needs neither the DOM's types nor Node's.

/** A `ReadableStream<Uint8Array>`, such as `(await fetch(url)).body`, by the methods used. */
export interface ByteStream {
  getReader(): {
    read(): Promise<{ done: boolean; value?: Uint8Array | undefined }>;
    cancel(reason?: unknown): Promise<void>;
    releaseLock(): void;
  };
}

/** What `readStream` reads: a fetch body, or an async iterable of bytes or strings (a Node stream). */
export type StreamSource = ByteStream | AsyncIterable<Uint8Array | string>;

interface TextCodecs {
  TextDecoder: new (
    label: string,
    options: { fatal: boolean; ignoreBOM: boolean },
  ) => { decode(bytes: Uint8Array, options?: { stream: boolean }): string };
  TextEncoder: new () => { encode(text: string): Uint8Array };
}
const { TextDecoder, TextEncoder } = globalThis as unknown as TextCodecs;
const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const encoder = new TextEncoder();

/** The host's timers, called as its own each time (so that fake timers or a polyfill installed later take part). */
const timers = globalThis as unknown as {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(timer: unknown): void;
};

// ---------------------------------------------------------------------------------------
// Reading.

/** How events are framed on the wire: server-sent events, or one JSON document per line. */
export type Framing = "sse" | "jsonl";

/** An `AbortSignal`, by the members the reader uses. */
export interface AbortSignalLike {
  readonly aborted: boolean;
  readonly reason?: unknown;
  addEventListener(type: "abort", listener: () => void): void;
  removeEventListener(type: "abort", listener: () => void): void;
}

export interface ReadOptions extends DecodeOptions {
  /** The framing, when it is not the protocol's usual one. */
  readonly framing?: Framing;
  /**
   * The largest event read, in bytes (16 MiB unless given): the bytes of its data lines,
   * or of its JSON line, line ends not counted. Past it the stream is not read further.
   */
  readonly maxEventSize?: number;
  /**
   * Stops the reading when it aborts, at once, even while a result is awaited: the source
   * is cancelled with the signal's reason, the call waiting (or else the next one) rejects
   * with that reason (an `AbortError` unless the signal was given another), and the calls
   * after it are done. Already aborted, nothing is read. It rejects as `fetch`, `pipeTo` and
   * Node's `events.on` do, since ending as done would read as the stream's own end.
   */
  readonly signal?: AbortSignalLike | undefined;
  /**
   * The longest wait for an event, in milliseconds (none unless given): where no event is
   * complete that long after the reader began waiting for it, the reading stops with an
   * `idle-timeout` fault, and the source is cancelled. Only a whole event counts; a
   * comment (an SSE keep-alive) or part of an event does not. The time the consumer takes
   * between results does not count.
   */
  readonly idleTimeout?: number;
}

/** Where a result is in the stream: its index among the events, its byte offset and line (from 1). */
export interface StreamPlace {
  readonly index: number;
  readonly offset: number;
  readonly line: number;
}

/**
 * What is not an event of the protocol: the transport's own error report (the SSE event
 * its facts name, `event: error`; a JSON-RPC error response), which ends the stream;
 * text that is not JSON; an SSE line whose field is none of `data`, `event`, `id` and
 * `retry`, which the standard ignores (a producer's fault, reported, that does not end
 * the stream: a line of JSON with no `data:` before it is one); an event past the size
 * limit, or not UTF-8, or not complete within the idle timeout (each stops the reading);
 * an event the stream was cut off in.
 */
export interface StreamFault {
  readonly ok: false;
  readonly fault:
    | "transport-error"
    | "not-json"
    | "unknown-field"
    | "too-large"
    | "invalid-utf8"
    | "idle-timeout"
    | "cut-off";
  readonly message: string;
  /** The transport's error report, or the text that did not parse. */
  readonly data?: unknown;
}

/** One result of reading a stream: an event decoded (or not), or a fault, and where it was. */
export type StreamResult<T> = (DecodeResult<T> | StreamFault) & StreamPlace;

/** How a protocol's stream is sent, from its stream facts. */
export interface Transport {
  readonly framing: Framing;
  /** Each event may be a JSON-RPC message: a response's result, or a notification. */
  readonly jsonRpc: boolean;
  /**
   * The SSE event name of the transport's own error report (`event: error`), where the
   * protocol or its binding defines one; elsewhere such an event is read as any other.
   */
  readonly errorEvent?: string;
}

const MAX_EVENT_SIZE = 16 * 1024 * 1024;

/** The longest a timer waits: longer ones fire at once. */
const MAX_TIMEOUT = 2 ** 31 - 1;

/** One event's text as framed, before JSON: where it starts, and its SSE event name. */
interface Frame {
  readonly text: string;
  readonly name: string | undefined;
  readonly offset: number;
  readonly line: number;
  /** The stream ended in this JSON line, before its line end. */
  readonly unended: boolean;
  /** An SSE line of a field the standard ignores, read as it is: its field's name. */
  readonly unknownField?: string;
}

/** What stops the framer: a fault at a place. */
type FramingFault = StreamFault & {
  readonly offset: number;
  readonly line: number;
};

/**
 * Cuts bytes into frames, at any chunk boundary (inside a UTF-8 character or a CRLF too),
 * counting bytes and lines. Server-sent events are read as the HTML standard says (fields
 * `data` and `event`; comments, `id` and `retry` ignored; CR, LF or CRLF line ends; a
 * leading BOM dropped); JSON lines as one document per non-blank line.
 *
 * Each chunk is decoded in one call and cut into lines as text: a call a line would cost
 * more than the decoding does, and so would looking for line ends in bytes
 * (bench/stream.bench.js). Bytes that are not UTF-8 make that call throw; from there on the
 * framer reads bytes, each line decoded on its own, which finds the line at fault (and so
 * at the end, where a character may be cut short).
 */
class Framer {
  // Reading text: the line being read so far, its size in bytes, and the first bytes of a
  // character the chunk ended in, which the next chunk's first bytes complete.
  private tail = "";
  private tailSize = 0;
  private carry: Uint8Array | undefined;
  /** Bytes were met that do not decode: read on in bytes, a line at a time. */
  private bytewise = false;
  /** Reading bytes: the bytes of the line being read, in pieces. */
  private pending: Uint8Array[] = [];
  private pendingSize = 0;
  /** A CR ended the last chunk: an LF that starts the next one belongs to it. */
  private afterCr = false;
  /** The bytes read so far, those of the line being read too. */
  private offset = 0;
  private line = 1;
  /** The first bytes, too few yet to tell a byte order mark from text; undefined once told. */
  private head: Uint8Array | undefined = new Uint8Array(0);
  // The event being gathered (server-sent events).
  /** The data lines so far, joined by LFs; undefined before the first. */
  private data: string | undefined;
  private dataSize = 0;
  private name: string | undefined;
  private eventOffset = -1;
  private eventLine = 0;
  private lineOffset = 0;

  constructor(
    private readonly framing: Framing,
    private readonly maxEventSize: number,
  ) {}

  /** The frames the bytes complete, or a fault that stops the reading. */
  push(chunk: Uint8Array, frames: Frame[]): FramingFault | undefined {
    if (this.head === undefined) return this.read(chunk, frames);
    let head = chunk;
    if (this.head.length > 0) {
      head = new Uint8Array(this.head.length + chunk.length);
      head.set(this.head);
      head.set(chunk, this.head.length);
    }
    const lineEnds = head.indexOf(0x0a) !== -1 || head.indexOf(0x0d) !== -1;
    if (head.length < 3 && !lineEnds) {
      this.head = head;
      return undefined;
    }
    return this.read(this.afterMark(head), frames);
  }

  /** The bytes of the stream from its start on, less a leading byte order mark. */
  private afterMark(head: Uint8Array): Uint8Array {
    this.head = undefined;
    if (head[0] !== 0xef || head[1] !== 0xbb || head[2] !== 0xbf) return head;
    // Dropped before the first line, as the HTML standard drops it: no part of any line.
    this.offset = this.lineOffset = 3;
    return head.subarray(3);
  }

  /** Reads bytes past the head: as text, unless bytes that do not decode were met. */
  private read(chunk: Uint8Array, frames: Frame[]): FramingFault | undefined {
    if (this.afterCr && chunk.length > 0) {
      this.afterCr = false;
      if (chunk[0] === 0x0a) {
        chunk = chunk.subarray(1);
        this.offset += 1;
        this.lineOffset = this.offset;
      }
    }
    if (this.bytewise) return this.readBytes(chunk, frames);
    let bytes = chunk;
    if (this.carry !== undefined) {
      bytes = new Uint8Array(this.carry.length + chunk.length);
      bytes.set(this.carry);
      bytes.set(chunk, this.carry.length);
      this.carry = undefined;
    }
    const whole = bytes.length - unfinishedAtEnd(bytes);
    let text: string;
    try {
      text = utf8.decode(
        whole === bytes.length ? bytes : bytes.subarray(0, whole),
      );
    } catch {
      return this.toBytes(bytes, frames);
    }
    if (whole < bytes.length) this.carry = bytes.slice(whole);
    return this.readText(text, bytes, whole, frames);
  }

  /**
   * Cuts the text of the first `size` bytes into lines, keeping the last one's start for
   * the next chunk.
   */
  private readText(
    text: string,
    bytes: Uint8Array,
    size: number,
    frames: Frame[],
  ): FramingFault | undefined {
    let lf = text.indexOf("\n");
    let cr = text.indexOf("\r");
    let at = 0; // where the line starts in the text
    let from = 0; // and in the bytes
    while (lf !== -1 || cr !== -1) {
      const i = cr === -1 || (lf !== -1 && lf < cr) ? lf : cr;
      // Offsets and sizes count bytes. A line has as many as characters (UTF-16 units),
      // and its line end is there, unless some take more (those past U+007F): its line
      // end is then further on, and the bytes up to it (no byte of a character is a CR or
      // an LF) are the line's. Looking costs a byte read, not a scan of the line.
      const end = text.charCodeAt(i);
      let stop = from + (i - at);
      while (stop < size && bytes[stop] !== end) stop++;
      // Mostly an event is one data line and the blank line after it, both whole in the
      // chunk: it is framed here, as the lines would frame it, in one step.
      if (
        i === lf &&
        text.charCodeAt(i + 1) === 0x0a &&
        this.eventOffset === -1 &&
        this.tailSize === 0 &&
        this.framing === "sse" &&
        stop - from <= this.maxEventSize &&
        text.startsWith("data:", at)
      ) {
        frames.push({
          text: text.slice(at + (text.charCodeAt(at + 5) === 0x20 ? 6 : 5), i),
          name: undefined,
          offset: this.lineOffset,
          line: this.line,
          unended: false,
        });
        this.offset = this.lineOffset + (stop - from) + 2;
        this.line += 2;
        this.lineOffset = this.offset;
        at = i + 2;
        from = stop + 2;
        lf = text.indexOf("\n", at);
        if (cr !== -1 && cr < at) cr = text.indexOf("\r", at);
        continue;
      }
      let line = text.slice(at, i);
      let lineSize = stop - from;
      if (this.tailSize > 0) {
        line = this.tail + line;
        lineSize += this.tailSize;
        this.tail = "";
        this.tailSize = 0;
      }
      const fault = this.takeLine(line, lineSize, frames);
      if (fault !== undefined) return fault;
      const next = i === cr && text.charCodeAt(i + 1) === 0x0a ? i + 2 : i + 1;
      // A CR that ends the chunk may start a CRLF that the next chunk ends.
      if (i + 1 === text.length && i === cr && this.carry === undefined)
        this.afterCr = true;
      this.offset = this.lineOffset + lineSize + (next - i);
      this.line++;
      this.lineOffset = this.offset;
      at = next;
      from = stop + (next - i);
      if (lf !== -1 && lf < at) lf = text.indexOf("\n", at);
      if (cr !== -1 && cr < at) cr = text.indexOf("\r", at);
    }
    if (at < text.length) {
      this.tail += text.slice(at);
      this.tailSize += size - from;
    }
    const carried = this.carry === undefined ? 0 : this.carry.length;
    this.offset = this.lineOffset + this.tailSize + carried;
    if (this.tailSize + carried + this.dataSize > this.maxEventSize)
      return this.tooLarge();
    return undefined;
  }

  /** From now on reads bytes, a line at a time, from these and the line begun as text. */
  private toBytes(
    bytes: Uint8Array,
    frames: Frame[],
  ): FramingFault | undefined {
    this.bytewise = true;
    if (this.tailSize > 0) this.pending.push(encoder.encode(this.tail));
    if (this.carry !== undefined) this.pending.push(this.carry);
    this.pendingSize = this.tailSize + (this.carry?.length ?? 0);
    // The bytes read so far less those given now (a carried character's first bytes among them).
    this.offset = this.lineOffset + this.pendingSize;
    this.tail = "";
    this.tailSize = 0;
    this.carry = undefined;
    return this.readBytes(bytes, frames);
  }

  /** Cuts bytes into lines, each decoded on its own, keeping the last one's start for the next bytes. */
  private readBytes(
    chunk: Uint8Array,
    frames: Frame[],
  ): FramingFault | undefined {
    let start = 0;
    // Line ends are found with indexOf, which is native: CRs are rare, LFs one per line.
    let lf = chunk.indexOf(0x0a, start);
    let cr = chunk.indexOf(0x0d, start);
    while (lf !== -1 || cr !== -1) {
      const i = cr === -1 || (lf !== -1 && lf < cr) ? lf : cr;
      const fault = this.endLine(chunk.subarray(start, i), frames);
      if (fault !== undefined) return fault;
      const crlf = i === cr && chunk[i + 1] === 0x0a;
      if (i === cr && i + 1 === chunk.length) this.afterCr = true;
      this.offset += i - start + (crlf ? 2 : 1);
      this.line++;
      this.lineOffset = this.offset;
      start = i + (crlf ? 2 : 1);
      if (lf !== -1 && lf < start) lf = chunk.indexOf(0x0a, start);
      if (cr !== -1 && cr < start) cr = chunk.indexOf(0x0d, start);
    }
    if (start < chunk.length) {
      const rest = chunk.subarray(start);
      this.pending.push(rest.slice());
      this.pendingSize += rest.length;
      this.offset += rest.length;
      if (this.pendingSize + this.dataSize > this.maxEventSize)
        return this.tooLarge();
    }
    return undefined;
  }

  /** At the end of the bytes: what an unfinished event or line leaves, reported, not dropped. */
  end(frames: Frame[]): FramingFault | undefined {
    if (this.head !== undefined) {
      const fault = this.read(this.afterMark(this.head), frames);
      if (fault !== undefined) return fault;
    }
    // A character cut short: the line's bytes, decoded as they are, say whether it was one.
    if (this.carry !== undefined) {
      const fault = this.toBytes(new Uint8Array(0), frames);
      if (fault !== undefined) return fault;
    }
    if (this.pendingSize > 0) {
      const fault = this.endLine(new Uint8Array(0), frames, true);
      if (fault !== undefined) return fault;
    }
    if (this.tailSize > 0) {
      const fault = this.takeLine(this.tail, this.tailSize, frames, true);
      if (fault !== undefined) return fault;
    }
    if (this.data !== undefined)
      return {
        ok: false,
        fault: "cut-off",
        message: `the stream ended inside an event, before the blank line that ends it`,
        data: detached(this.data),
        offset: this.eventOffset,
        line: this.eventLine,
      };
    return undefined;
  }

  /** Takes a line from its bytes, the pending ones first; `unended` when the stream ended in it, before a line end. */
  private endLine(
    tail: Uint8Array,
    frames: Frame[],
    unended = false,
  ): FramingFault | undefined {
    let bytes = tail;
    if (this.pendingSize > 0) {
      bytes = new Uint8Array(this.pendingSize + tail.length);
      let at = 0;
      for (const piece of this.pending) {
        bytes.set(piece, at);
        at += piece.length;
      }
      bytes.set(tail, at);
      this.pending = [];
      this.pendingSize = 0;
    }
    if (bytes.length + this.dataSize > this.maxEventSize)
      return this.tooLarge();
    let text: string | undefined;
    try {
      text = utf8.decode(bytes);
    } catch {
      // A stream that ends inside a character is cut off, not invalid.
      if (unended) text = cutShort(bytes);
    }
    if (text === undefined)
      return {
        ok: false,
        fault: "invalid-utf8",
        message: "the stream is not UTF-8 here",
        offset: this.lineOffset,
        line: this.line,
      };
    return this.takeLine(text, bytes.length, frames, unended);
  }

  /** Takes a line's text, of `size` bytes. */
  private takeLine(
    text: string,
    size: number,
    frames: Frame[],
    unended = false,
  ): FramingFault | undefined {
    if (size + this.dataSize > this.maxEventSize) return this.tooLarge();
    if (this.framing === "jsonl") {
      if (text.trim() !== "")
        frames.push({
          text,
          name: undefined,
          offset: this.lineOffset,
          line: this.line,
          unended,
        });
      return undefined;
    }
    if (text === "") {
      if (this.data !== undefined)
        frames.push({
          text: this.data,
          name: this.name,
          offset: this.eventOffset,
          line: this.eventLine,
          unended: false,
        });
      this.data = undefined;
      this.dataSize = 0;
      this.name = undefined;
      this.eventOffset = -1;
      return undefined;
    }
    if (text.charCodeAt(0) === 0x3a) return undefined; // a comment
    if (this.eventOffset === -1) {
      this.eventOffset = this.lineOffset;
      this.eventLine = this.line;
    }
    // Mostly `data: …`, read without cutting out its field's name.
    if (text.startsWith("data:")) {
      this.addData(text.slice(text.charCodeAt(5) === 0x20 ? 6 : 5), size);
      return undefined;
    }
    const colon = text.indexOf(":");
    const field = colon === -1 ? text : text.slice(0, colon);
    let value = colon === -1 ? "" : text.slice(colon + 1);
    if (value.charCodeAt(0) === 0x20) value = value.slice(1);
    if (field === "data") this.addData(value, size);
    else if (field === "event") this.name = value;
    else if (field !== "id" && field !== "retry")
      frames.push({
        text,
        name: undefined,
        offset: this.lineOffset,
        line: this.line,
        unended: false,
        unknownField: field,
      });
    return undefined;
  }

  private addData(value: string, size: number): void {
    this.data = this.data === undefined ? value : `${this.data}\n${value}`;
    this.dataSize += size;
  }

  private tooLarge(): FramingFault {
    return {
      ok: false,
      fault: "too-large",
      message: `an event is larger than ${this.maxEventSize} bytes, the most this reader takes (maxEventSize)`,
      ...this.place(),
    };
  }

  /** Where the event being read starts, or where the next one will. */
  place(): { readonly offset: number; readonly line: number } {
    return this.eventOffset === -1
      ? { offset: this.lineOffset, line: this.line }
      : { offset: this.eventOffset, line: this.eventLine };
  }
}

/**
 * How many bytes at the end of a chunk start a character that they do not finish: a lead
 * byte and the continuation bytes after it, fewer than it announces.
 */
function unfinishedAtEnd(bytes: Uint8Array): number {
  for (let back = 1; back <= 3 && back <= bytes.length; back++) {
    const byte = bytes[bytes.length - back]!;
    if ((byte & 0xc0) === 0x80) continue; // a continuation byte
    const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return length > back ? back : 0;
  }
  return 0;
}

/** The text of bytes that are UTF-8 but for a character cut short at their end; else undefined. */
function cutShort(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(
      bytes,
      { stream: true },
    );
  } catch {
    return undefined;
  }
}

const ignore = (): undefined => undefined;

/**
 * A source's chunks as bytes, pulled one at a time, and let go at the end. A string that
 * ends inside a surrogate pair keeps its half for the next one, which would otherwise be
 * encoded as U+FFFD.
 */
class Pull {
  private readonly reader: ReturnType<ByteStream["getReader"]> | undefined;
  private readonly iterator: AsyncIterator<Uint8Array | string> | undefined;
  private half = "";
  /** The iterator is done; a half it left may be still to hand out. */
  private ended = false;
  /** The source ended, failed or was cancelled: it is let go. */
  private over = false;

  constructor(private readonly source: StreamSource) {
    if ("getReader" in source) this.reader = source.getReader();
    else this.iterator = source[Symbol.asyncIterator]();
  }

  /** The next chunk, or undefined at the source's end. */
  async next(): Promise<Uint8Array | undefined> {
    try {
      const chunk =
        this.reader === undefined
          ? await this.fromIterator(this.iterator!)
          : await this.fromReader(this.reader);
      if (chunk === undefined) this.letGo();
      return chunk;
    } catch (error) {
      this.letGo();
      throw error;
    }
  }

  private async fromReader(
    reader: ReturnType<ByteStream["getReader"]>,
  ): Promise<Uint8Array | undefined> {
    while (true) {
      const next = await reader.read();
      if (next.done) return undefined;
      if (next.value !== undefined) return next.value;
    }
  }

  private async fromIterator(
    iterator: AsyncIterator<Uint8Array | string>,
  ): Promise<Uint8Array | undefined> {
    while (!this.ended) {
      const next = await iterator.next();
      if (next.done === true) {
        this.ended = true;
        break;
      }
      const chunk = next.value;
      if (typeof chunk !== "string") {
        if (this.half === "") return chunk;
        const half = encoder.encode(this.half);
        this.half = "";
        const bytes = new Uint8Array(half.length + chunk.length);
        bytes.set(half);
        bytes.set(chunk, half.length);
        return bytes;
      }
      let text = this.half + chunk;
      this.half = "";
      const last = text.charCodeAt(text.length - 1);
      if (last >= 0xd800 && last <= 0xdbff) {
        this.half = text.slice(-1);
        text = text.slice(0, -1);
      }
      if (text !== "") return encoder.encode(text);
    }
    if (this.half === "") return undefined;
    const half = encoder.encode(this.half);
    this.half = "";
    return half;
  }

  /** After the end, or where the source failed: a reader released, nothing cancelled. */
  private letGo(): void {
    if (this.over) return;
    this.over = true;
    this.reader?.releaseLock();
  }

  /**
   * Stops the source before its end, and lets it go: a ReadableStream's reader cancelled
   * with the reason and released; an iterator returned, and a Node stream destroyed first,
   * since its iterator answers return() only after the read it is waiting on (so does an
   * async generator, which nothing can stop while it waits). Settles once the source has;
   * never rejects.
   */
  cancel(reason?: unknown): Promise<void> {
    if (this.over) return Promise.resolve();
    this.over = true;
    try {
      if (this.reader !== undefined) {
        const cancelled = this.reader.cancel(reason);
        this.reader.releaseLock();
        return cancelled.then(ignore, ignore);
      }
      const { destroy } = this.source as { readonly destroy?: unknown };
      if (typeof destroy === "function") destroy.call(this.source);
      return Promise.resolve(this.iterator!.return?.()).then(ignore, ignore);
    } catch {
      return Promise.resolve();
    }
  }
}

/**
 * Reads a protocol's events from a stream of bytes: frames them, parses each as JSON,
 * unwraps a JSON-RPC envelope where the protocol has one, and decodes it. Pulls a chunk
 * only when the consumer asks for the next result, so backpressure reaches the source.
 *
 * An async generator in all but its making: hand-written (EventReader), since a
 * generator's step for each event cost more than framing the event
 * (bench/stream.bench.js). It is used as one is, and does what one does: calls are taken
 * in turn; `return()` and `throw()` cancel the source unless the reading has ended. Where
 * one does not: `return()` or `throw()` while a call waits on the source (a generator
 * would queue them behind it, forever if the source never answers) answers that call at
 * once, as done, and cancels the source without waiting for it.
 *
 * `accepts`, where given, is the event type's guard, for a type whose decoding changes
 * nothing the guard accepts (no alias to rename, no number to name): a parsed value it
 * accepts is the decoded event itself, since JSON.parse made it new, and is neither read
 * again nor copied. What it refuses is decoded, to say why or to read it tolerantly.
 */
export function readEvents<T>(
  source: StreamSource,
  decode: (input: unknown, options?: DecodeOptions) => DecodeResult<T>,
  transport: Transport,
  options: ReadOptions = {},
  accepts?: (value: unknown) => value is T,
): AsyncGenerator<StreamResult<T>, void, undefined> {
  const { idleTimeout } = options;
  if (
    idleTimeout !== undefined &&
    !(idleTimeout > 0 && idleTimeout <= MAX_TIMEOUT)
  )
    throw new RangeError(
      `idleTimeout is a number of milliseconds, more than 0 and at most ${MAX_TIMEOUT}, not ${idleTimeout}`,
    );
  return new EventReader(source, decode, transport, options, accepts);
}

type Next<T> = IteratorResult<StreamResult<T>, void>;

const DONE: IteratorReturnResult<void> = { value: undefined, done: true };

/**
 * What stops the reading from outside: the consumer's return() or throw() while a call
 * waits on the source, the signal's abort, the idle timeout with its fault.
 */
type Stop =
  | { readonly kind: "return" }
  | { readonly kind: "abort"; readonly reason: unknown }
  | { readonly kind: "idle"; readonly fault: StreamFault & StreamPlace };

const RETURNED: Stop = { kind: "return" };

/** What a wait on the source gives when a stop comes first. */
const STOPPED = Symbol("stopped");

/**
 * The reader of {@link readEvents}, as the generator it stands for would read: the
 * results of a chunk's frames, one a call, then the next chunk; at the end (of the
 * bytes, or at a fault, or where the source failed) the source let go, the frames the
 * end completes, the fault, and the source's error thrown. A stop (see Stop) ends it at
 * once, whatever the source does: the source is cancelled, not waited for.
 */
class EventReader<T> implements AsyncGenerator<
  StreamResult<T>,
  void,
  undefined
> {
  private readonly framer: Framer;
  private readonly decodeOptions: DecodeOptions;
  private index = 0;
  /** The frames of the last chunk, and the next to hand out. */
  private readonly frames: Frame[] = [];
  private at = 0;
  /** The source's chunks, from the first read on. */
  private pull: Pull | undefined;
  /**
   * Reading chunks; then ending (the source let go, the frames and fault of the end to
   * hand out); then done.
   */
  private phase: "reading" | "ending" | "done" = "reading";
  private fault: FramingFault | undefined;
  /** The source failing (a connection cut) ends the bytes too: what it cut off is reported before its error is thrown. */
  private failure: { readonly error: unknown } | undefined;
  /** How many calls are not answered yet; the last of them, which the next waits for. */
  private pending = 0;
  private last: Promise<unknown> = Promise.resolve();
  private readonly signal: AbortSignalLike | undefined;
  private readonly idleTimeout: number | undefined;
  /** Listening to the signal: from the first read until the reading is done. */
  private listening = false;
  /** The idle timer, while a call waits for an event. */
  private timer: unknown;
  /** The stop that ended the reading, until the call it answers takes it; then RETURNED. */
  private stop: Stop | undefined;
  /** Ends the wait on the source, where a call waits. */
  private wake: (() => void) | undefined;

  constructor(
    private readonly source: StreamSource,
    private readonly decode: (
      input: unknown,
      options?: DecodeOptions,
    ) => DecodeResult<T>,
    private readonly transport: Transport,
    options: ReadOptions,
    private readonly accepts: ((value: unknown) => value is T) | undefined,
  ) {
    this.framer = new Framer(
      options.framing ?? transport.framing,
      options.maxEventSize ?? MAX_EVENT_SIZE,
    );
    // What decoding takes of the options: the mode, and the limit of errors.
    this.decodeOptions = {
      ...(options.mode === undefined ? {} : { mode: options.mode }),
      ...(options.maxErrors === undefined
        ? {}
        : { maxErrors: options.maxErrors }),
    };
    this.signal = options.signal;
    this.idleTimeout = options.idleTimeout;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<Next<T>> {
    // Mostly a frame of the last chunk is there to hand out, at once.
    if (this.pending === 0 && this.at < this.frames.length) {
      try {
        return Promise.resolve({ value: this.result(), done: false });
      } catch (error) {
        return this.serve(() => this.fail(error));
      }
    }
    return this.serve(() => this.step());
  }

  return(value?: void | PromiseLike<void>): Promise<Next<T>> {
    if (this.pending > 0) this.interrupt(RETURNED);
    return this.serve(async () => {
      const returned = await value;
      await this.finish();
      return { value: returned, done: true };
    });
  }

  throw(error: unknown): Promise<Next<T>> {
    if (this.pending > 0) this.interrupt(RETURNED);
    return this.serve(async () => {
      await this.finish();
      throw error;
    });
  }

  /** Answers calls in turn: a call made while another is not answered waits for it. */
  private serve(call: () => Promise<Next<T>>): Promise<Next<T>> {
    const answering = async () => {
      try {
        return await call();
      } finally {
        this.pending--;
      }
    };
    const answer =
      ++this.pending === 1 ? answering() : this.last.then(answering, answering);
    this.last = answer.catch(() => undefined);
    return answer;
  }

  private result(): StreamResult<T> {
    return resultOf(
      this.frames[this.at++]!,
      this.index++,
      this.decode,
      this.transport,
      this.decodeOptions,
      this.accepts,
    );
  }

  /** The next result: of the frames there, or of the next chunk's, or of the end, or of a stop. */
  private async step(): Promise<Next<T>> {
    try {
      if (this.signal !== undefined && !this.listening) this.listen();
      while (true) {
        if (this.stop !== undefined) return this.halt();
        if (this.at < this.frames.length) {
          if (this.timer !== undefined) this.clearTimer();
          return { value: this.result(), done: false };
        }
        this.frames.length = 0;
        this.at = 0;
        if (this.phase === "done") return DONE;
        if (this.phase === "ending") {
          const fault = this.fault;
          this.fault = undefined;
          if (fault !== undefined)
            return { value: { ...fault, index: this.index }, done: false };
          void this.close();
          if (this.failure !== undefined) throw this.failure.error;
          return DONE;
        }
        if (this.fault !== undefined) {
          // A fault stops the reading once the frames before it are handed out.
          await this.end();
          continue;
        }
        this.pull ??= new Pull(this.source);
        if (this.idleTimeout !== undefined && this.timer === undefined)
          this.timer = timers.setTimeout(this.idle, this.idleTimeout);
        let chunk: Uint8Array | undefined | typeof STOPPED;
        try {
          chunk = await this.wait(this.pull.next());
        } catch (error) {
          this.failure = { error };
          await this.end();
          continue;
        }
        if (chunk === STOPPED) continue;
        if (chunk === undefined) await this.end();
        else this.fault = this.framer.push(chunk, this.frames);
      }
    } catch (error) {
      return this.fail(error);
    }
  }

  /** The source's answer, or STOPPED where a stop comes first. */
  private wait<V>(promise: Promise<V>): Promise<V | typeof STOPPED> {
    return new Promise<V | typeof STOPPED>((resolve, reject) => {
      const wake = () => resolve(STOPPED);
      this.wake = wake;
      promise.then(
        (value) => {
          if (this.wake === wake) this.wake = undefined;
          resolve(value);
        },
        (error: unknown) => {
          if (this.wake === wake) this.wake = undefined;
          reject(error);
        },
      );
    });
  }

  /**
   * The reading stops from outside: the source is cancelled (and not waited for, since
   * it may never answer a read it was asked for), and a call waiting on it is answered.
   */
  private interrupt(stop: Stop): void {
    if (this.phase === "done") return;
    this.stop = stop;
    void this.close(stop.kind === "abort" ? stop.reason : undefined);
    this.wake?.();
  }

  /** The answer to the call a stop ends: done, the idle timeout's fault, or the abort's reason thrown; the calls after it are done. */
  private halt(): Next<T> {
    const stop = this.stop!;
    this.stop = RETURNED;
    if (stop.kind === "abort") throw stop.reason;
    if (stop.kind === "idle") return { value: stop.fault, done: false };
    return DONE;
  }

  /** From the first read on, an abort stops the reading; already aborted, it stops before any. */
  private listen(): void {
    if (this.phase === "done") return;
    const signal = this.signal!;
    if (signal.aborted) {
      this.pull ??= new Pull(this.source);
      return this.interrupt({ kind: "abort", reason: signal.reason });
    }
    signal.addEventListener("abort", this.aborted);
    this.listening = true;
  }

  private readonly aborted = (): void =>
    this.interrupt({ kind: "abort", reason: this.signal!.reason });

  /**
   * No event came in time. The timer is not unref'd: it runs only while a call waits for
   * an event, and it is what answers that call, which an exit would leave unanswered.
   */
  private readonly idle = (): void => {
    this.timer = undefined;
    this.interrupt({
      kind: "idle",
      fault: {
        ok: false,
        fault: "idle-timeout",
        message: `no event came within ${this.idleTimeout} ms (idleTimeout): the reading stopped`,
        index: this.index,
        ...this.framer.place(),
      },
    });
  };

  private clearTimer(): void {
    timers.clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** The reading ends: the source let go, and the frames an unfinished event or line leaves. */
  private async end(): Promise<void> {
    if (this.timer !== undefined) this.clearTimer();
    // Where the source ended or failed, it is let go already; after a fault, it is cancelled.
    if (this.pull !== undefined) await this.wait(this.pull.cancel());
    if (this.stop !== undefined) return;
    this.fault ??= this.framer.end(this.frames);
    this.phase = "ending";
  }

  /**
   * The reading is done: the source cancelled (unless it ended), the timer cleared, the
   * signal let go, the frames dropped. Settles once the source has.
   */
  private close(reason?: unknown): Promise<void> {
    const cancelled =
      this.phase === "reading" && this.pull !== undefined
        ? this.pull.cancel(reason)
        : Promise.resolve();
    this.phase = "done";
    this.frames.length = 0;
    this.at = 0;
    if (this.timer !== undefined) this.clearTimer();
    if (this.listening) {
      this.signal!.removeEventListener("abort", this.aborted);
      this.listening = false;
    }
    return cancelled;
  }

  /** What a generator does on return() or throw(): lets the source go, unless the reading ended. */
  private async finish(): Promise<void> {
    if (this.phase !== "done") await this.close();
  }

  /** An error thrown while reading (by a decoder) ends it, and is thrown. */
  private async fail(error: unknown): Promise<never> {
    await this.finish();
    throw error;
  }
}

/** Whether a frame is the transport's error report, as the protocol's facts name it. */
function isErrorReport(frame: Frame, transport: Transport): boolean {
  return (
    transport.errorEvent !== undefined && frame.name === transport.errorEvent
  );
}

function resultOf<T>(
  frame: Frame,
  index: number,
  decode: (input: unknown, options?: DecodeOptions) => DecodeResult<T>,
  transport: Transport,
  options: DecodeOptions,
  accepts: ((value: unknown) => value is T) | undefined,
): StreamResult<T> {
  if (frame.unknownField !== undefined) {
    const field = frame.unknownField;
    const named = field.length > 40 ? `${field.slice(0, 40)}…` : field;
    return {
      ok: false,
      fault: "unknown-field",
      message: /^[[{]/.test(frame.text)
        ? 'a line of JSON with no "data:" before it, which server-sent events ignore'
        : `an unknown field ${JSON.stringify(named)}, which server-sent events ignore: theirs are data, event, id and retry`,
      data: detached(frame.text),
      index,
      offset: frame.offset,
      line: frame.line,
    };
  }
  let json: unknown;
  try {
    json = JSON.parse(frame.text);
  } catch (error) {
    const place = { index, offset: frame.offset, line: frame.line };
    const text = detached(frame.text);
    if (frame.unended === true)
      return {
        ok: false,
        fault: "cut-off",
        message: `the stream ended inside an event, before the line end that ends it`,
        data: text,
        ...place,
      };
    if (isErrorReport(frame, transport))
      return {
        ok: false,
        fault: "transport-error",
        message: text,
        data: text,
        ...place,
      };
    return {
      ok: false,
      fault: "not-json",
      message: `not JSON: ${(error as Error).message}`,
      data: text,
      ...place,
    };
  }
  if (isErrorReport(frame, transport))
    return {
      ok: false,
      fault: "transport-error",
      message: errorMessage(json),
      data: json,
      index,
      offset: frame.offset,
      line: frame.line,
    };
  if (transport.jsonRpc && isObject(json) && json["jsonrpc"] === "2.0") {
    if ("error" in json)
      return {
        ok: false,
        fault: "transport-error",
        message: errorMessage(json["error"]),
        data: json,
        index,
        offset: frame.offset,
        line: frame.line,
      };
    if ("result" in json) json = json["result"];
    else if ("method" in json) {
      const { jsonrpc: _, ...notification } = json;
      json = notification;
    }
  }
  if (accepts?.(json) === true)
    return {
      index,
      offset: frame.offset,
      line: frame.line,
      ok: true,
      value: json,
    };
  // The place as the literal's own properties and the result spread after them: V8 builds
  // that on its fast path, where properties after a spread (or a second spread) cost about
  // a microsecond an event, more than the decoding (bench/stream.bench.js).
  return {
    index,
    offset: frame.offset,
    line: frame.line,
    ...decode(json, options),
  };
}

/**
 * A copy of a text that a fault carries, which the consumer may keep: lines are cut from
 * their chunk's text, and a string cut from another keeps all of it in memory.
 */
function detached(text: string): string {
  return utf8.decode(encoder.encode(text));
}

function isObject(
  value: unknown,
): value is { readonly [key: string]: unknown } {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The words of an error report: its `message`, or the report itself. */
function errorMessage(report: unknown): string {
  if (isObject(report) && typeof report["message"] === "string")
    return report["message"];
  return typeof report === "string" ? report : JSON.stringify(report);
}

// ---------------------------------------------------------------------------------------
// Verifying: the ordering rules the protocol's prose states, compiled from its stream facts.

/** A rule an event broke: the fact's name, what was expected, and the event's index. */
export interface Violation {
  readonly rule: string;
  readonly message: string;
  readonly index: number;
}

/** Checks events one at a time, in order, and the end of the stream. */
export interface Verifier<T> {
  /** The first rule this event breaks, if any; the verifier's state moves on either way. */
  push(event: T): Violation | undefined;
  /**
   * An event of the stream that it is not given: one the reader could not read or decode
   * (a fault, an invalid event), reported as that. It is counted, so that events keep their
   * indices in the stream, and not checked: the event after it is not the stream's first.
   */
  skip(): void;
  /**
   * What the end of the stream breaks: a span never closed, a required last event missing.
   * Give it the reader's last result: where that is the transport's error report (an SSE
   * `event: error`, a JSON-RPC error response), the stream ended with the failure it reports,
   * and what did not come is no violation.
   */
  end(last?: StreamResult<T>): Violation | undefined;
}

export interface VerifyOptions {
  /** The stream resumes a run after a reconnection: its first event may be what the facts allow then. */
  readonly resumed?: boolean;
  /**
   * The request that opened the stream (AG-UI's RunAgentInput), where the facts say what
   * it carries (a refers rule's `request`): the tool calls of its messages, which a result
   * may answer. Given, the conversation is shown from the start.
   */
  readonly request?: unknown;
  /**
   * The most the verifier keeps for one stream, in bytes as it counts them (16 MiB unless
   * given; `Infinity` for no bound). What grows with a stream is the keys it holds: the
   * instances of spans still open, the keys a `once` span has ended (a span implicit in the
   * stream: every key it has ended), and the keys a `refers` rule may name. Each costs 64,
   * and 2 a UTF-16 code unit of the key (and of its opener's, where a span checks
   * attribution): some 120,000 ids of 36 characters. The event that would pass the bound
   * is a `max-memory` violation, whatever else it breaks, and the verifier checks nothing
   * after it, nor the end: to go on it would have to forget keys, and could then be wrong
   * either way.
   */
  readonly maxMemory?: number;
}

/** A JSON value at a path of the event must be one of these values. */
export interface Condition {
  readonly path: readonly string[];
  readonly values: readonly unknown[];
}

/** Events of one kind (a tag's value, or a keyed union's member), where conditions hold. */
export interface Selector {
  readonly event: string;
  readonly where?: readonly Condition[];
  readonly unless?: readonly Condition[];
}

/** Per event kind, the path of its key: `{ "TOOL_CALL_ARGS": ["toolCallId"] }`; `"*"` for any other. */
export type KeyPaths = Readonly<Record<string, readonly string[]>>;

interface RuleBase {
  readonly name: string;
  /** Where the protocol's prose states the rule. */
  readonly because: string;
}

/** The events the stream may start with, and those a resumed stream may start with instead. */
export interface FirstRule extends RuleBase {
  readonly kind: "first";
  readonly events: readonly Selector[];
  readonly resumed?: readonly Selector[];
}

/** Events that may only come first. */
export interface OnlyFirstRule extends RuleBase {
  readonly kind: "only-first";
  readonly events: readonly Selector[];
}

/** Events nothing may follow; when required, the stream must end with one. */
export interface TerminalRule extends RuleBase {
  readonly kind: "terminal";
  readonly events: readonly Selector[];
  readonly required: boolean;
}

/** Every event, but those excepted, comes while a span is open. */
export interface InsideRule extends RuleBase {
  readonly kind: "inside";
  readonly span: string;
  readonly except: readonly Selector[];
}

/**
 * A span, opened by one event and closed by another, per key (one at a time without a
 * key): what may only come while it is open, what it must be inside, whether it may be
 * implicit (continued or closed without being opened), or so in a resumed stream only,
 * whether a key that ended may open again, and whether opening an open key restarts it
 * (an artifact resent from its start).
 */
export interface SpanRule extends RuleBase {
  readonly kind: "span";
  readonly opens: readonly Selector[];
  readonly continues: readonly Selector[];
  readonly closes: readonly Selector[];
  /** Events that close it and every span inside it, open or not: a failure. */
  readonly aborts: readonly Selector[];
  readonly key?: KeyPaths;
  /**
   * Where an instance's owner is (a subagent), absent meaning the stream's own: one key
   * may be open once an owner, and only its owner closes it.
   */
  readonly owner?: KeyPaths;
  /**
   * Where an event names whose an instance is (a subagent): one that continues or closes
   * an instance and names an owner there must name its opener's, absent meaning the
   * stream's own.
   */
  readonly attribution?: KeyPaths;
  readonly within?: string;
  readonly implicit: boolean;
  /**
   * Implicit in a resumed stream (`VerifyOptions.resumed`): its first event carries what
   * came before the reconnection, instances still going among it.
   */
  readonly resumable: boolean;
  readonly once: boolean;
  readonly reopens: boolean;
}

/** An event's key names one an earlier event carried (a tool result, the call it answers). */
export interface RefersRule extends RuleBase {
  readonly kind: "refers";
  readonly events: readonly Selector[];
  readonly key: KeyPaths;
  readonly to: readonly Selector[];
  readonly toKey: KeyPaths;
  /**
   * Per kind, where an event shows every key there is (a run's conversation): until one
   * has, or the verifier was given the request, a key no event carried may be one the
   * stream never showed, and is no violation.
   */
  readonly shownBy?: KeyPaths;
  /** Where the request that opened the stream holds keys (`VerifyOptions.request`). */
  readonly request?: readonly string[];
}

/**
 * A shorthand event that stands for a span's opening, content and closing: a chunk with a
 * new key opens the span, one with its key or none continues it, and the span closes at
 * the next event that is neither such a chunk nor one that passes through.
 */
export interface ChunkRule extends RuleBase {
  readonly kind: "chunk";
  readonly events: readonly Selector[];
  readonly span: string;
  readonly key: KeyPaths;
  readonly passThrough: readonly Selector[];
  /** The events a chunk stands for (templates: see `assemble.ts`), which the assembler reads. */
  readonly standsFor?: {
    readonly opens: unknown;
    readonly continues: unknown;
    readonly closes: unknown;
  };
}

export type StreamRule =
  | FirstRule
  | OnlyFirstRule
  | TerminalRule
  | InsideRule
  | SpanRule
  | RefersRule
  | ChunkRule;

/** The open and the closed keys of a span. */
interface SpanState {
  readonly rule: SpanRule;
  /** Whether it may be continued or closed without being opened, in this stream. */
  readonly implicit: boolean;
  readonly open: Map<string, number>;
  /**
   * A key known to be open, the last one asked: events mostly continue the span the last
   * one did, and comparing their key with it costs less than hashing it, a new string each
   * time (bench/stream.bench.js). Forgotten when it closes.
   */
  known: string | undefined;
  /** Per open key, the owner its opener named (rules with an attribution). */
  readonly openers: Map<string, string | undefined>;
  readonly closed: Set<string>;
  /** Where the last instance closed, for messages. */
  lastClosed: number;
  /** The spans inside this one, in the order of the rules. */
  readonly inner: SpanState[];
}

/**
 * A verifier of events against compiled stream rules. Each event is looked at by the
 * rules that name its kind, so a push costs O(1) apart from the spans it closes.
 */
export function verifier<T>(
  rules: readonly StreamRule[],
  kindOf: (event: T) => string,
  options: VerifyOptions = {},
): Verifier<T> {
  const { maxMemory } = options;
  if (maxMemory !== undefined && !(maxMemory >= 0))
    throw new RangeError(
      `maxMemory is a number of bytes, 0 or more (Infinity for no bound), not ${maxMemory}`,
    );
  return new RuleVerifier(
    rules,
    kindOf as (event: unknown) => string,
    options,
  ) as Verifier<T>;
}

/** No event's index. */
const NONE = -2;

const MAX_MEMORY = 16 * 1024 * 1024;

/** What a key (or an opener's key) costs of maxMemory: its entry, and its text. */
function sizeOf(key: string | undefined): number {
  return 64 + 2 * (key === undefined ? 0 : key.length);
}

class RuleVerifier implements Verifier<unknown> {
  private index = -1;
  private terminal:
    | { readonly kind: string; readonly index: number; readonly rule: string }
    | undefined;
  /** Per span rule, in their order, its state. */
  private readonly spans: SpanState[];
  /** Per refers rule, whether every key there is has been shown, so that one not seen is a violation. */
  private readonly shown: boolean[];
  /** Per refers rule, whether it was given the request's keys. */
  private readonly requested: readonly boolean[];
  /** Per refers rule, in their order, the keys seen. */
  private readonly seen: Set<string>[];
  private readonly lanes = new Map<ChunkRule, string>();
  private violation: Violation | undefined;
  private readonly plans: Plans;
  private lastKind: string | undefined;
  private lastPlan: Plan;
  /** The last event that found all in order and changed nothing (see Plan.repeats), and its keys. */
  private repeated = NONE;
  private readonly repeatedKeys: (string | undefined)[] = [];
  /** What the keys held cost, as maxMemory counts it; past the bound, the verifier is full, and checks nothing. */
  private kept = 0;
  private readonly maxMemory: number;
  private full = false;

  constructor(
    private readonly rules: readonly StreamRule[],
    private readonly kindOf: (event: unknown) => string,
    private readonly options: VerifyOptions,
  ) {
    this.plans = plansOf(rules);
    this.lastPlan = this.plans.unnamed;
    this.spans = rules
      .filter((rule) => rule.kind === "span")
      .map((rule) => ({
        rule,
        implicit: rule.implicit || (options.resumed === true && rule.resumable),
        open: new Map(),
        known: undefined,
        openers: new Map(),
        closed: new Set(),
        lastClosed: -1,
        inner: [],
      }));
    for (const state of this.spans)
      for (const inner of this.spans)
        if (inner.rule.within === state.rule.name) state.inner.push(inner);
    this.maxMemory = options.maxMemory ?? MAX_MEMORY;
    const refersRules = rules.filter(
      (rule): rule is RefersRule => rule.kind === "refers",
    );
    this.seen = refersRules.map(() => new Set());
    const { request } = options;
    this.requested = refersRules.map(
      (rule) => request !== undefined && rule.request !== undefined,
    );
    this.shown = refersRules.map(
      (rule, i) => rule.shownBy === undefined || this.requested[i]!,
    );
    refersRules.forEach((rule, i) => {
      if (!this.requested[i]) return;
      for (const key of keysAt(rule.request, request))
        if (!this.seen[i]!.has(key) && this.keep(sizeOf(key)))
          this.seen[i]!.add(key);
    });
  }

  push(event: unknown): Violation | undefined {
    const index = ++this.index;
    if (this.full) return undefined;
    this.violation = undefined;
    const kind = this.kindOf(event);
    if (this.terminal !== undefined)
      return this.report(
        this.terminal.rule,
        `${kind} came after ${this.terminal.kind} (event ${this.terminal.index}), which ends the stream`,
      );
    // Mostly the kind of the event before (deltas come in runs), which is compared, not hashed.
    if (kind !== this.lastKind) {
      this.lastKind = kind;
      this.lastPlan = this.plans.byKind.get(kind) ?? this.plans.unnamed;
      this.repeated = NONE;
    }
    const plan = this.lastPlan;
    const { repeats } = plan;
    // Mostly the next delta of the same span as the event before: in order as that was.
    if (repeats !== undefined && this.repeated === index - 1) {
      let same = true;
      for (let i = 0; i < repeats.length && same; i++)
        same = keyAt(repeats[i], event) === this.repeatedKeys[i];
      if (same) {
        this.repeated = index;
        return undefined;
      }
    }
    // In phases, whatever order the facts come in: chunks stand for events that the others
    // then see; what may come where is asked before spans open and close; terminals last.
    // A chunk rule with no lane open does nothing for an event that is no chunk.
    if (plan.chunked || this.lanes.size > 0)
      for (const step of plan.chunks) this.chunk(step, event, kind);
    for (const check of plan.checks) {
      if (check.kind === "first") {
        const { rule } = check;
        const allowed =
          this.options.resumed === true && rule.resumed !== undefined
            ? rule.resumed
            : rule.events;
        if (index === 0 && !matchesAny(allowed, event, kind)) {
          // A reconnected stream starts in the run's state, which the facts may allow then.
          const resumed =
            this.options.resumed !== true && rule.resumed !== undefined
              ? `; a stream that resumes a run may start with ${describe(rule.resumed)} (the verifier's resumed option, verify --resumed)`
              : "";
          this.report(
            rule.name,
            `the stream starts with ${found(allowed, event, kind)}; its first event must be ${describe(allowed)}${resumed}`,
          );
        }
      } else if (check.kind === "only-first") {
        if (index > 0 && matchesKind(check.events, event, kind))
          this.report(
            check.rule.name,
            `${kind} may only be the first event, and this is event ${index}`,
          );
      } else {
        const span = this.spans[check.span]!;
        if (span.open.size === 0 && !matchesKind(check.except, event, kind))
          this.report(
            check.rule.name,
            `${kind} must come inside a ${words(check.rule.span)}, and none is open` +
              (span.lastClosed === -1
                ? ""
                : ` (the last one ended at event ${span.lastClosed})`),
          );
      }
    }
    for (const step of plan.spans) {
      if (step.kind === "span") this.span(step, event, kind, index);
      else this.refers(step, event, kind);
    }
    for (const terminal of plan.terminals)
      if (matchesKind(terminal.events, event, kind))
        this.terminal = { kind, index, rule: terminal.rule.name };
    // Not the first event, which is asked more than the next. A chunk's lane this one ended
    // stays ended: the next finds the spans as this one left them.
    if (repeats !== undefined && index > 0 && this.violation === undefined) {
      this.repeated = index;
      for (let i = 0; i < repeats.length; i++)
        this.repeatedKeys[i] = keyAt(repeats[i], event);
    }
    return this.violation;
  }

  skip(): void {
    this.index++;
  }

  end(last?: StreamResult<unknown>): Violation | undefined {
    const index = this.index + 1;
    this.violation = undefined;
    if (
      this.full ||
      (last !== undefined &&
        "fault" in last &&
        last.fault === "transport-error")
    )
      return undefined;
    if (this.index === -1) {
      const first = this.rules.find(
        (rule): rule is FirstRule => rule.kind === "first",
      );
      if (first !== undefined)
        return {
          rule: first.name,
          message: `the stream has no events; its first must be ${describe(first.events)}`,
          index,
        };
    }
    // The innermost span left open: the one no other open span is inside.
    const open = this.spans.filter(
      (state) => !state.implicit && state.open.size > 0,
    );
    for (const { rule, open: keys } of open) {
      if (open.some((inner) => inner.rule.within === rule.name)) continue;
      for (const [key, opened] of keys)
        return {
          rule: rule.name,
          message: `${this.instance(rule, key)} (opened at event ${opened}) was never closed: the stream ended before ${describe(rule.closes)}`,
          index,
        };
    }
    const terminal = this.rules.find(
      (rule): rule is TerminalRule => rule.kind === "terminal" && rule.required,
    );
    if (terminal !== undefined && this.terminal === undefined)
      return {
        rule: terminal.name,
        message: `the stream ended before ${describe(terminal.events)}, which must end it`,
        index,
      };
    return undefined;
  }

  private report(rule: string, message: string): Violation {
    this.violation ??= { rule, message, index: this.index };
    return this.violation;
  }

  /**
   * Takes on what a key costs; false where that passes the bound: the event is then a
   * max-memory violation, whatever else it broke, and the verifier is full.
   */
  private keep(size: number): boolean {
    if (this.full) return false;
    if (this.kept + size <= this.maxMemory) {
      this.kept += size;
      return true;
    }
    this.full = true;
    this.violation = {
      rule: "max-memory",
      message: `event ${this.index} would make the verifier hold more than ${this.maxMemory} bytes of keys for this stream (maxMemory): it checks nothing after it`,
      index: this.index,
    };
    return false;
  }

  /** What it holds of the stream, all rules together: what maxMemory bounds (for tests; not of the Verifier interface). */
  held(): { readonly keys: number; readonly size: number } {
    let keys = 0;
    for (const state of this.spans)
      keys += state.open.size + state.openers.size + state.closed.size;
    for (const seen of this.seen) keys += seen.size;
    return { keys, size: this.kept };
  }

  /** Opens a span's key, with the opener's owner where the rule asks; false where the bound is passed. */
  private open(
    state: SpanState,
    key: string,
    index: number,
    attributed: boolean,
    opener?: string,
  ): boolean {
    const size = sizeOf(key) + (attributed ? sizeOf(opener) : 0);
    // A key that reopens (see SpanRule.reopens) replaces its entry.
    const was = state.open.has(key) ? this.openSize(state, key) : 0;
    if (!this.keep(size - was)) return false;
    state.open.set(key, index);
    if (attributed) state.openers.set(key, opener);
    return true;
  }

  private openSize(state: SpanState, key: string): number {
    return (
      sizeOf(key) +
      (state.openers.has(key) ? sizeOf(state.openers.get(key)) : 0)
    );
  }

  /** Closes a span's key, where it is open. */
  private forget(state: SpanState, key: string): void {
    if (!state.open.has(key)) return;
    this.kept -= this.openSize(state, key);
    state.open.delete(key);
    state.openers.delete(key);
    if (key === state.known) state.known = undefined;
  }

  private span(
    step: SpanStep,
    event: unknown,
    kind: string,
    index: number,
  ): void {
    const { rule } = step;
    const state = this.spans[step.span]!;
    const opens = matchesKind(step.opens, event, kind);
    const continues = matchesKind(step.continues, event, kind);
    const closes = matchesKind(step.closes, event, kind);
    const aborts = matchesKind(step.aborts, event, kind);
    if (!opens && !continues && !closes && !aborts) return;
    const own = rule.key === undefined ? "" : keyAt(step.key, event);
    if (own === undefined) return; // the event's own check reports a missing key
    // An owner's instance: the owner's key and its own, as a string a Map can hold.
    const key =
      step.owner === undefined
        ? own
        : JSON.stringify([keyAt(step.owner, event) ?? null, own]);
    if (opens) {
      const outer =
        rule.within === undefined
          ? undefined
          : this.spans.find((other) => other.rule.name === rule.within)!;
      if (state.open.has(key) && !rule.reopens)
        return void this.report(
          rule.name,
          `${kind} opens ${this.instance(rule, key)}, which is already open (since event ${state.open.get(key)}): close it with ${describe(rule.closes)} first`,
        );
      if (rule.once && state.closed.has(key))
        return void this.report(
          rule.name,
          `${kind} opens ${this.instance(rule, key)} again; it already ended, and its id may not be reused`,
        );
      if (outer !== undefined && outer.open.size === 0)
        return void this.report(
          rule.name,
          `${kind} opens ${this.instance(rule, key)} outside any ${words(outer.rule.name)}`,
        );
      const attributed = step.attribution !== undefined;
      if (
        !this.open(
          state,
          key,
          index,
          attributed,
          attributed ? keyAt(step.attribution, event) : undefined,
        )
      )
        return;
      if (!closes) return;
    }
    if (!isOpen(state, key)) {
      if (state.implicit && !state.closed.has(key)) {
        if (closes || aborts) this.close(state, key, index, kind, aborts);
        return;
      }
      const why = state.closed.has(key)
        ? "which has already ended"
        : "which is not open";
      return void this.report(
        rule.name,
        `${kind} for ${this.instance(rule, key)}, ${why}: open it with ${describe(rule.opens)} first`,
      );
    }
    if (step.attribution !== undefined && state.openers.has(key)) {
      const named = keyAt(step.attribution, event);
      const opener = state.openers.get(key);
      if (named !== undefined && named !== opener)
        this.report(
          rule.name,
          `${kind} for ${this.instance(rule, key)} names ${JSON.stringify(named)} as its owner, and the event that opened it (event ${state.open.get(key)}) named ${opener === undefined ? "none, the stream's own" : JSON.stringify(opener)}`,
        );
    }
    if (closes || aborts) this.close(state, key, index, kind, aborts);
  }

  /** Closes a span's key, and the spans inside it; those still open are violations unless it aborts. */
  private close(
    state: SpanState,
    key: string,
    index: number,
    kind: string,
    aborts: boolean,
  ): void {
    this.forget(state, key);
    if (
      (state.implicit || state.rule.once) &&
      !state.closed.has(key) &&
      this.keep(sizeOf(key))
    )
      state.closed.add(key);
    state.lastClosed = index;
    if (state.open.size > 0) return;
    for (const inner of state.inner) {
      if (inner.open.size === 0) continue;
      if (!aborts) {
        const [openKey, opened] = inner.open.entries().next().value as [
          string,
          number,
        ];
        this.report(
          inner.rule.name,
          `${kind} came while ${this.instance(inner.rule, openKey)} (opened at event ${opened}) is still open: close it with ${describe(inner.rule.closes)} first`,
        );
      }
      for (const openKey of [...inner.open.keys()])
        this.close(inner, openKey, index, kind, true);
    }
  }

  private refers(step: RefersStep, event: unknown, kind: string): void {
    const { rule } = step;
    const seen = this.seen[step.refers]!;
    if (matchesKind(step.to, event, kind))
      for (const key of keysAt(step.toKey, event)) {
        if (seen.has(key)) continue;
        if (!this.keep(sizeOf(key))) return;
        seen.add(key);
      }
    if (
      step.shownBy !== undefined &&
      valueAt(event, step.shownBy) !== undefined
    )
      this.shown[step.refers] = true;
    if (!matchesKind(step.events, event, kind) || !this.shown[step.refers])
      return;
    const key = keyAt(step.key, event);
    if (key !== undefined && !seen.has(key))
      this.report(
        rule.name,
        `${kind} refers to ${JSON.stringify(key)}, which no earlier ${describe(rule.to)} carried${this.requested[step.refers] ? ", nor the request" : ""}`,
      );
  }

  /** A chunk opens, continues or ends its lane; any other event but those passing through ends it. */
  private chunk(step: ChunkStep, event: unknown, kind: string): void {
    const { rule } = step;
    const state = this.spans[step.span]!;
    const lane = this.lanes.get(rule);
    if (!matchesKind(step.events, event, kind)) {
      if (lane !== undefined && !matchesKind(step.passThrough, event, kind)) {
        this.lanes.delete(rule);
        this.forget(state, lane);
        state.lastClosed = this.index;
      }
      return;
    }
    const key = keyAt(step.key, event);
    if (lane !== undefined && (key === undefined || key === lane)) return;
    if (lane !== undefined) {
      this.lanes.delete(rule);
      this.forget(state, lane);
    }
    if (key === undefined)
      return void this.report(
        rule.name,
        `${kind} has no ${rule.key["*"]?.join("/") ?? "key"} and continues no open ${words(rule.span)}: the first chunk must name it`,
      );
    if (state.open.has(key))
      return void this.report(
        rule.name,
        `${kind} opens ${this.instance(state.rule, key)}, which is already open (since event ${state.open.get(key)})`,
      );
    if (this.open(state, key, this.index, false)) this.lanes.set(rule, key);
  }

  private instance(rule: SpanRule, key: string): string {
    const named = (own: string) =>
      rule.key === undefined
        ? `the ${words(rule.name)}`
        : `${words(rule.name)} ${JSON.stringify(own)}`;
    if (rule.owner === undefined) return named(key);
    const [owner, own] = JSON.parse(key) as [string | null, string];
    return owner === null
      ? named(own)
      : `${named(own)} of ${JSON.stringify(owner)}`;
  }
}

/** Whether a span's key is open. */
function isOpen(state: SpanState, key: string): boolean {
  if (key === state.known) return true;
  if (!state.open.has(key)) return false;
  state.known = key;
  return true;
}

// ---------------------------------------------------------------------------------------
// The rules compiled, once per rule set: per event kind, the rules that can say anything
// of its events, in their order, each with what it asks of that kind resolved (which of
// its selectors can match, the path of the key), so that a push reads no rule it need not.

/**
 * Whether an event of one kind is among those selectors name: always, never, or where
 * the conditions of these selectors (those of its kind) hold.
 */
type KindMatch = boolean | readonly Selector[];

function kindMatch(
  selectors: readonly Selector[],
  kind: string | undefined,
): KindMatch {
  const named = selectors.filter((selector) => selector.event === kind);
  if (named.length === 0) return false;
  return named.some(
    ({ where, unless }) => where === undefined && unless === undefined,
  )
    ? true
    : named;
}

function matchesKind(match: KindMatch, event: unknown, kind: string): boolean {
  return typeof match === "boolean" ? match : matchesAny(match, event, kind);
}

/** A path of a kind's key: its own, or the default; undefined where it has neither. */
function keyPathOf(
  paths: KeyPaths,
  kind: string | undefined,
): readonly string[] | undefined {
  return kind === undefined ? paths["*"] : (paths[kind] ?? paths["*"]);
}

/** The key at a path, where it leads to a string or a number. */
function keyAt(
  path: readonly string[] | undefined,
  event: unknown,
): string | undefined {
  if (path === undefined) return undefined;
  const key = valueAt(event, path);
  return typeof key === "string"
    ? key
    : typeof key === "number"
      ? String(key)
      : undefined;
}

/**
 * The keys at a path where `*` stands for every element of an array (a snapshot's
 * messages, each with its tool calls): each a string or a number, as keyAt takes one.
 */
function keysAt(path: readonly string[] | undefined, event: unknown): string[] {
  if (path === undefined) return [];
  const many = path.indexOf("*");
  if (many === -1) {
    const key = keyAt(path, event);
    return key === undefined ? [] : [key];
  }
  const at = valueAt(event, path.slice(0, many));
  const rest = path.slice(many + 1);
  // Where no array is, "*" is the name of a property.
  return Array.isArray(at)
    ? at.flatMap((element) => keysAt(rest, element))
    : keysAt(rest, valueAt(at, ["*"]));
}

interface ChunkStep {
  readonly rule: ChunkRule;
  /** The span's place among the span rules. */
  readonly span: number;
  readonly events: KindMatch;
  readonly passThrough: KindMatch;
  readonly key: readonly string[] | undefined;
}

type Check =
  | { readonly kind: "first"; readonly rule: FirstRule }
  | {
      readonly kind: "only-first";
      readonly rule: OnlyFirstRule;
      readonly events: KindMatch;
    }
  | {
      readonly kind: "inside";
      readonly rule: InsideRule;
      readonly span: number;
      readonly except: KindMatch;
    };

interface SpanStep {
  readonly kind: "span";
  readonly rule: SpanRule;
  readonly span: number;
  readonly opens: KindMatch;
  readonly continues: KindMatch;
  readonly closes: KindMatch;
  readonly aborts: KindMatch;
  readonly key: readonly string[] | undefined;
  readonly owner: readonly string[] | undefined;
  readonly attribution: readonly string[] | undefined;
}

interface RefersStep {
  readonly kind: "refers";
  readonly rule: RefersRule;
  /** Its place among the refers rules. */
  readonly refers: number;
  readonly events: KindMatch;
  readonly to: KindMatch;
  readonly key: readonly string[] | undefined;
  readonly toKey: readonly string[] | undefined;
  /** Where an event of the kind shows every key there is. */
  readonly shownBy: readonly string[] | undefined;
}

/** What a push asks of an event of one kind, by phase. */
interface Plan {
  /** Events of the kind are chunks of some rule. */
  readonly chunked: boolean;
  readonly chunks: readonly ChunkStep[];
  readonly checks: readonly Check[];
  readonly spans: readonly (SpanStep | RefersStep)[];
  readonly terminals: readonly {
    readonly rule: TerminalRule;
    readonly events: KindMatch;
  }[];
  /**
   * Where an event of the kind changes nothing (it only continues spans, and no selector
   * looks past its kind): the key paths its span steps read. An event that found all in
   * order finds the next of its kind with the same keys in order too; undefined where an
   * event of the kind may change what the next one finds.
   */
  readonly repeats: readonly (readonly string[])[] | undefined;
}

interface Plans {
  readonly byKind: ReadonlyMap<string, Plan>;
  /** For a kind no rule names. */
  readonly unnamed: Plan;
}

/**
 * The plan of a kind (undefined: a kind no rule names): the rules that look at every
 * event (what comes first, what must come inside a span, a chunk's lane, which any other
 * event ends), and those that name the kind. A rule that does not name a kind lets its
 * events pass.
 */
function planOf(rules: readonly StreamRule[], kind: string | undefined): Plan {
  const spanRules = rules.filter((rule) => rule.kind === "span");
  const spanIndex = (name: string) =>
    spanRules.findIndex((rule) => rule.name === name);
  const refersRules = rules.filter((rule) => rule.kind === "refers");
  const names = (rule: StreamRule) =>
    selectorsOf(rule).some((selector) => selector.event === kind);
  const asked = rules.filter(
    (rule) =>
      rule.kind === "first" ||
      rule.kind === "inside" ||
      rule.kind === "chunk" ||
      names(rule),
  );
  const chunks: ChunkStep[] = [];
  const checks: Check[] = [];
  const spans: (SpanStep | RefersStep)[] = [];
  const terminals: Plan["terminals"][number][] = [];
  for (const rule of asked)
    switch (rule.kind) {
      case "chunk":
        chunks.push({
          rule,
          span: spanIndex(rule.span),
          events: kindMatch(rule.events, kind),
          passThrough: kindMatch(rule.passThrough, kind),
          key: keyPathOf(rule.key, kind),
        });
        break;
      case "first":
        checks.push({ kind: "first", rule });
        break;
      case "only-first":
        checks.push({
          kind: "only-first",
          rule,
          events: kindMatch(rule.events, kind),
        });
        break;
      case "inside":
        checks.push({
          kind: "inside",
          rule,
          span: spanIndex(rule.span),
          except: kindMatch(rule.except, kind),
        });
        break;
      case "span":
        spans.push({
          kind: "span",
          rule,
          span: spanIndex(rule.name),
          opens: kindMatch(rule.opens, kind),
          continues: kindMatch(rule.continues, kind),
          closes: kindMatch(rule.closes, kind),
          aborts: kindMatch(rule.aborts, kind),
          key: rule.key === undefined ? undefined : keyPathOf(rule.key, kind),
          owner:
            rule.owner === undefined ? undefined : keyPathOf(rule.owner, kind),
          attribution:
            rule.attribution === undefined
              ? undefined
              : keyPathOf(rule.attribution, kind),
        });
        break;
      case "refers":
        spans.push({
          kind: "refers",
          rule,
          refers: refersRules.indexOf(rule),
          events: kindMatch(rule.events, kind),
          to: kindMatch(rule.to, kind),
          key: keyPathOf(rule.key, kind),
          toKey: keyPathOf(rule.toKey, kind),
          shownBy: kind === undefined ? undefined : rule.shownBy?.[kind],
        });
        break;
      case "terminal":
        terminals.push({ rule, events: kindMatch(rule.events, kind) });
        break;
    }
  const chunked = chunks.some(({ events }) => events !== false);
  const changesNothing =
    !chunked &&
    terminals.length === 0 &&
    checks.every(
      (check) =>
        check.kind === "first" ||
        typeof (check.kind === "inside" ? check.except : check.events) ===
          "boolean",
    ) &&
    spans.every(
      (step) =>
        step.kind === "span" &&
        step.continues === true &&
        step.opens === false &&
        step.closes === false &&
        step.aborts === false,
    );
  return {
    chunked,
    chunks,
    checks,
    spans,
    terminals,
    repeats: changesNothing
      ? spans.flatMap((step) =>
          (step.kind === "span"
            ? [step.key, step.owner, step.attribution]
            : [step.key]
          ).filter((path) => path !== undefined),
        )
      : undefined,
  };
}

const plans = new WeakMap<readonly StreamRule[], Plans>();

function plansOf(rules: readonly StreamRule[]): Plans {
  let compiled = plans.get(rules);
  if (compiled !== undefined) return compiled;
  const byKind = new Map<string, Plan>();
  for (const rule of rules)
    for (const { event: kind } of selectorsOf(rule))
      if (!byKind.has(kind)) byKind.set(kind, planOf(rules, kind));
  compiled = { byKind, unnamed: planOf(rules, undefined) };
  plans.set(rules, compiled);
  return compiled;
}

/** Every selector of a rule: the kinds it names. */
function selectorsOf(rule: StreamRule): readonly Selector[] {
  switch (rule.kind) {
    case "first":
      return [...rule.events, ...(rule.resumed ?? [])];
    case "only-first":
    case "terminal":
      return rule.events;
    case "inside":
      return rule.except;
    case "span":
      return [...rule.opens, ...rule.continues, ...rule.closes, ...rule.aborts];
    case "refers":
      return [
        ...rule.events,
        ...rule.to,
        ...Object.keys(rule.shownBy ?? {}).map((event) => ({ event })),
      ];
    case "chunk":
      return [...rule.events, ...rule.passThrough];
  }
}

function words(name: string): string {
  return name.replaceAll("-", " ");
}

/** Whether an event is one the selectors name. */
export function matchesAny(
  selectors: readonly Selector[],
  event: unknown,
  kind: string,
): boolean {
  for (const selector of selectors)
    if (matches(selector, event, kind)) return true;
  return false;
}

function matches(selector: Selector, event: unknown, kind: string): boolean {
  if (selector.event !== kind) return false;
  if (
    selector.where !== undefined &&
    !selector.where.every((condition) => holds(condition, event))
  )
    return false;
  if (
    selector.unless !== undefined &&
    selector.unless.some((condition) => holds(condition, event))
  )
    return false;
  return true;
}

function holds(condition: Condition, event: unknown): boolean {
  const value = valueAt(event, condition.path);
  return value !== undefined && condition.values.includes(value);
}

/** The value at a path of property names, or undefined where it leads nowhere. */
export function valueAt(value: unknown, path: readonly string[]): unknown {
  let at = value;
  for (const token of path) {
    if (!isObject(at)) return undefined;
    const next = at[token];
    // One lookup, mostly: what a plain object inherits is a function or, as `__proto__`,
    // the prototype itself, and only then is it asked whose the value is.
    if (
      next === undefined ||
      ((typeof next === "function" || next === Object.prototype) &&
        !Object.hasOwn(at, token))
    )
      return undefined;
    at = next;
  }
  return at;
}

/** An event's key, where its kind's path (or the default) leads to a string or a number. */
export function keyOf(
  paths: KeyPaths,
  event: unknown,
  kind: string,
): string | undefined {
  return keyAt(keyPathOf(paths, kind), event);
}

/** Selectors in words: `RUN_STARTED`, `task (where status/state is "TASK_STATE_SUBMITTED")`, `A or B`. */
/**
 * An event as the selectors it fails would say it: its kind, and where one of them is of
 * that kind, the values found at the paths it asks about.
 */
function found(
  selectors: readonly Selector[],
  event: unknown,
  kind: string,
): string {
  const paths = selectors
    .filter((selector) => selector.event === kind)
    .flatMap(({ where, unless }) => [...(where ?? []), ...(unless ?? [])])
    .map(({ path }) => path);
  const seen = new Set<string>();
  const values: string[] = [];
  for (const path of paths) {
    const named = path.join("/");
    if (seen.has(named)) continue;
    seen.add(named);
    const value = valueAt(event, path);
    const shown =
      value === undefined
        ? "absent"
        : typeof value === "object" && value !== null
          ? Array.isArray(value)
            ? "an array"
            : "an object"
          : JSON.stringify(value);
    values.push(`${named} is ${shown}`);
  }
  return withConditions(kind, values);
}

function describe(selectors: readonly Selector[]): string {
  return selectors
    .map(({ event, where, unless }) => {
      const conditions = [
        ...(where ?? []).map(
          ({ path, values }) =>
            `${path.join("/")} is ${values.map((value) => JSON.stringify(value)).join(" or ")}`,
        ),
        ...(unless ?? []).map(
          ({ path, values }) =>
            `${path.join("/")} is not ${values.map((value) => JSON.stringify(value)).join(" or ")}`,
        ),
      ];
      return withConditions(event, conditions);
    })
    .join(" or ");
}

/** An event's kind, and what holds of it where anything is said: "task (where task/status/state is …)". */
function withConditions(kind: string, conditions: readonly string[]): string {
  return conditions.length === 0
    ? kind
    : `${kind} (where ${conditions.join(" and ")})`;
}
