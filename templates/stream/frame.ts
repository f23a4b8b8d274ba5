// Cutting a stream's bytes into frames, one event's text each: server-sent events or JSON
// lines. Copied from templates/stream/frame.ts by agentwire.

import type { Framing } from "./tables.js";
import type { StreamFault } from "./result.js";

interface TextCodecs {
  TextDecoder: new (
    label: string,
    options: { fatal: boolean; ignoreBOM: boolean },
  ) => { decode(bytes: Uint8Array, options?: { stream: boolean }): string };
  TextEncoder: new () => { encode(text: string): Uint8Array };
}
const { TextDecoder, TextEncoder } = globalThis as unknown as TextCodecs;
export const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
export const encoder = new TextEncoder();

/** One event's text as framed, before JSON: where it starts, and its SSE event name. */
export interface Frame {
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
export type FramingFault = StreamFault & {
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
export class Framer {
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
      // chunk, and so is the next: they are framed here, as the lines would frame them, in
      // one step each, the place kept in locals until the run ends (the framer's time per
      // event 6% less than one event a turn of the outer loop, bench/stream.bench.js).
      if (
        i === lf &&
        text.charCodeAt(i + 1) === 0x0a &&
        this.eventOffset === -1 &&
        this.tailSize === 0 &&
        this.framing === "sse" &&
        isDataLine(text, at)
      ) {
        const max = this.maxEventSize;
        let lineOffset = this.lineOffset;
        let line = this.line;
        let framed = false;
        // Where the data line ends, in the text (`lineEnd`) and in the bytes (`stop`).
        for (let lineEnd = i; stop - from <= max;) {
          frames.push({
            text: text.slice(
              at + (text.charCodeAt(at + 5) === 0x20 ? 6 : 5),
              lineEnd,
            ),
            name: undefined,
            offset: lineOffset,
            line,
            unended: false,
          });
          framed = true;
          lineOffset += stop - from + 2;
          line += 2;
          at = lineEnd + 2;
          from = stop + 2;
          lf = text.indexOf("\n", at);
          if (cr !== -1 && cr < at) cr = text.indexOf("\r", at);
          if (
            lf === -1 ||
            (cr !== -1 && cr < lf) ||
            text.charCodeAt(lf + 1) !== 0x0a ||
            !isDataLine(text, at)
          )
            break;
          lineEnd = lf;
          stop = from + (lineEnd - at);
          while (stop < size && bytes[stop] !== 0x0a) stop++;
        }
        if (framed) {
          this.line = line;
          this.offset = this.lineOffset = lineOffset;
          continue;
        }
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

/** Whether the line at `at` is a `data` field's (`data:`), read a character at a time, as no call is as fast. */
function isDataLine(text: string, at: number): boolean {
  return (
    text.charCodeAt(at) === 0x64 &&
    text.charCodeAt(at + 1) === 0x61 &&
    text.charCodeAt(at + 2) === 0x74 &&
    text.charCodeAt(at + 3) === 0x61 &&
    text.charCodeAt(at + 4) === 0x3a
  );
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

/**
 * A copy of a text that a fault carries, which the consumer may keep: lines are cut from
 * their chunk's text, and a string cut from another keeps all of it in memory.
 */
export function detached(text: string): string {
  return utf8.decode(encoder.encode(text));
}
