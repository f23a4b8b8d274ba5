import { InputError } from "../errors.js";
import { BACKSLASH, CLOSE_ARRAY, CLOSE_OBJECT, COMMA, OPEN_ARRAY, OPEN_OBJECT, QUOTE } from "../json.js";

/**
 * What `verify` reads: a recording's bytes, with their framing, as the protocol's stream
 * reader (`readStream`) reads them. A JSON array of events is read by it too, as JSON lines:
 * its items, one a line (see ArrayLines).
 */

/** How a recording is framed: as the stream reader frames a stream, or a JSON array of its events. */
export type Framing = "sse" | "jsonl" | "json";

/**
 * The largest event read, in bytes: the stream reader's own default (`maxEventSize`), which
 * `verify` gives it so that the two agree, and the most read of a first line to tell JSON
 * lines from one document over several lines.
 */
export const MAX_EVENT_SIZE = 16 * 1024 * 1024;

/** A recording, ready for the stream reader. */
export interface Recording {
  /** As the content shows it, or as asked for. */
  readonly framing: Framing;
  /** How the stream reader frames `chunks`: a JSON array's items come one a line. */
  readonly readAs: "sse" | "jsonl";
  readonly chunks: AsyncIterable<Uint8Array>;
  /** The line of the file that a line of `chunks` comes from, asked in order: the same, but for an array. */
  lineOf(line: number): number;
  /** Where the file ended inside a JSON array, before the `]` that closes it, if it did. */
  unclosed(): { readonly line: number } | undefined;
}

const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;
const SPACE = 0x20;

/** Blank before the first event: JSON's white space, and the bytes of a byte order mark. */
const isBlank = (byte: number) =>
  byte === SPACE || byte === TAB || byte === LF || byte === CR || byte === 0xef || byte === 0xbb || byte === 0xbf;

/**
 * Where a JSON text is, byte by byte: inside a string (after a backslash there) or not, and
 * how many objects and arrays deep. Enough to find where a document or an item ends; what
 * is JSON is the stream reader's to say (it parses each event with JSON.parse). Every byte
 * that matters is ASCII, and no byte of a UTF-8 character is, so bytes are read as they come.
 */
class Depth {
  depth = 0;
  inString = false;
  private escaped = false;

  take(byte: number): void {
    if (this.inString) {
      if (this.escaped) this.escaped = false;
      else if (byte === BACKSLASH) this.escaped = true;
      else if (byte === QUOTE) this.inString = false;
    } else if (byte === QUOTE) this.inString = true;
    else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) this.depth++;
    // A closing bracket too many is the item's fault, for JSON.parse to find.
    else if ((byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) && this.depth > 0) this.depth--;
  }
}

/**
 * Where a byte is in a file: its line and column, from 1. Lines end as the stream reader
 * ends them (a CR, an LF or a CRLF); a column counts a UTF-8 character once, at its first byte.
 */
class Place {
  line = 1;
  column = 1;
  private afterCr = false;

  /** Moves past a byte. */
  pass(byte: number): void {
    if (byte === LF && this.afterCr) this.afterCr = false;
    else if (byte === LF || byte === CR) {
      this.line++;
      this.column = 1;
      this.afterCr = byte === CR;
    } else {
      this.afterCr = false;
      if ((byte & 0xc0) !== 0x80) this.column++;
    }
  }
}

/**
 * The recording's bytes and their framing: the one asked for, or the one its content shows.
 * A `[` first is a JSON array of events; a first line that is a JSON document, JSON lines;
 * anything else, server-sent events. One JSON document over several lines is refused: it is
 * no stream, and read as JSON lines each of its lines would be a violation, not JSON.
 */
export async function openRecording(
  source: AsyncIterable<Uint8Array | string>,
  asked: Framing | undefined,
  where: string,
): Promise<Recording> {
  const iterator = source[Symbol.asyncIterator]();
  const head: Uint8Array[] = [];
  const bytes = (value: Uint8Array | string) => (typeof value === "string" ? Buffer.from(value) : value);
  // The first byte that is not blank, and where it is.
  let first: number | undefined;
  const place = new Place();
  try {
    sniffing: while (asked !== "sse" && asked !== "jsonl") {
      const next = await iterator.next();
      if (next.done === true) break;
      const chunk = bytes(next.value);
      head.push(chunk);
      for (const byte of chunk) {
        if (!isBlank(byte)) {
          first = byte;
          break sniffing;
        }
        place.pass(byte);
      }
    }
  } catch (error) {
    throw new InputError({ file: where }, `cannot read it: ${(error as Error).message}`);
  }
  if (asked === "json" && first !== OPEN_ARRAY)
    throw new InputError(
      { file: where, ...(first === undefined ? {} : { line: place.line, column: place.column }) },
      `--framing json reads a JSON array of events, and ${first === undefined ? "this is empty" : `this starts with ${JSON.stringify(String.fromCharCode(first))}, not [`}`,
    );
  const framing = asked ?? (first === OPEN_ARRAY ? "json" : first === OPEN_OBJECT ? "jsonl" : "sse");
  // The reader stops a Node stream by destroying it (its iterator answers return() only
  // after the read it waits on): so it stops this one's source, which the idle timeout may
  // stop while standard input is still open.
  const destroy = () => (source as { destroy?: () => void }).destroy?.();
  const chunks = (async function* () {
    yield* head;
    for (let next = await iterator.next(); next.done !== true; next = await iterator.next()) yield bytes(next.value);
  })();
  if (framing === "json") {
    const array = new ArrayLines(where);
    return {
      framing,
      readAs: "jsonl",
      chunks: Object.assign(array.read(chunks), { destroy }),
      lineOf: (at) => array.lineOf(at),
      unclosed: () => array.unclosed(),
    };
  }
  return {
    framing,
    readAs: framing,
    // Told by the content, JSON lines must be: its first line must hold its first document.
    chunks: Object.assign(asked === undefined && framing === "jsonl" ? firstLineWhole(chunks, where) : chunks, { destroy }),
    lineOf: (at) => at,
    unclosed: () => undefined,
  };
}

/**
 * The bytes of what the content says are JSON lines, as they pass to the stream reader
 * (whose idle timeout then applies, where a live stream sends its first line slowly), with
 * its first document scanned for a line end: one before the document ends is refused, the
 * whole reading with it. A first line past the size limit is the reader's to refuse, as
 * too large.
 */
async function* firstLineWhole(chunks: AsyncIterable<Uint8Array>, where: string): AsyncGenerator<Uint8Array> {
  const place = new Place();
  let document: { readonly scan: Depth; readonly line: number; readonly column: number } | undefined;
  let read = 0;
  let checking = true;
  for await (const chunk of chunks) {
    for (let i = 0; checking && i < chunk.length; i++) {
      const byte = chunk[i]!;
      if (document === undefined) {
        if (isBlank(byte)) {
          place.pass(byte);
          continue;
        }
        document = { scan: new Depth(), line: place.line, column: place.column };
      }
      if (byte === LF || byte === CR) {
        const file = where === "<stdin>" ? "FILE" : where;
        throw new InputError(
          { file: where, line: document.line, column: document.column },
          "one JSON document over several lines, which is no stream: verify reads JSON lines (an event a line), a JSON array of events, or server-sent events",
          `for JSON lines, \`jq -c . ${file}\`; for an array of events, \`jq -s . ${file}\`; --framing jsonl reads it as JSON lines as it is`,
        );
      }
      document.scan.take(byte);
      if (document.scan.depth === 0 || ++read > MAX_EVENT_SIZE) checking = false;
    }
    yield chunk;
  }
}

/**
 * A JSON array of events as JSON lines, byte for byte, so that the stream reader reads its
 * items as it reads any stream, a line each: parsed, decoded and limited in size
 * (`maxEventSize`) one at a time, and never the whole file held. The comma or `]` after
 * each item becomes a line end, and what comes before the first item (the `[` too) spaces;
 * a line end between tokens becomes a space, and one inside a string (which JSON refuses) a
 * tab, which JSON refuses as well. Each item is on a line of its own, so its line in the
 * file is kept by the line it is on ({@link lineOf}). What makes the file no JSON array is
 * refused where it is: an item missing between commas, text after the `]`. Where the file
 * ends before the `]`, the reader finds an item cut off, or {@link unclosed} says so.
 */
class ArrayLines {
  private phase: "before" | "items" | "after" = "before";
  private readonly scan = new Depth();
  /** The item being read has begun: a byte of it that is not white space has come. */
  private inItem = false;
  /** Commas read so far: a `]` right after one closes an array whose last item is missing. */
  private commas = 0;
  /** Where the file is read to. */
  private readonly place = new Place();
  private ended = false;
  /** The file's line of each item, from the item of line `base` of the lines given on. */
  private starts: number[] = [];
  private at = 0;
  private base = 1;

  constructor(private readonly where: string) {}

  async *read(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
    for await (const chunk of chunks) yield this.lines(chunk);
    this.ended = true;
  }

  /** The file's line of the item on line `at` of the lines given; of the place read to, past the last item. */
  lineOf(at: number): number {
    // Asked in order: the items before are forgotten, so that what is kept is a chunk's.
    while (this.base < at && this.at < this.starts.length) {
      this.at++;
      this.base++;
    }
    if (this.at > 4096) {
      this.starts = this.starts.slice(this.at);
      this.at = 0;
    }
    return this.base === at && this.at < this.starts.length ? this.starts[this.at]! : this.place.line;
  }

  unclosed(): { readonly line: number } | undefined {
    return this.ended && this.phase !== "after" ? { line: this.place.line } : undefined;
  }

  private lines(chunk: Uint8Array): Uint8Array {
    const out = new Uint8Array(chunk.length);
    for (let i = 0; i < chunk.length; i++) {
      const byte = chunk[i]!;
      out[i] = this.map(byte);
      this.place.pass(byte);
    }
    return out;
  }

  /** A byte of the file as a byte of the lines. */
  private map(byte: number): number {
    const { scan } = this;
    if (this.phase === "before") {
      // Blank up to the `[` that the content begins with (a byte order mark too), and the
      // `[` itself: the first item's line is the first line.
      if (byte === OPEN_ARRAY) this.phase = "items";
      return SPACE;
    }
    if (this.phase === "after") {
      if (byte === SPACE || byte === TAB || byte === LF || byte === CR) return SPACE;
      throw this.refuse("text after the `]` that closes the JSON array: a file holds one array of events");
    }
    if (scan.depth === 0 && !scan.inString) {
      if (byte === SPACE || byte === TAB || byte === LF || byte === CR) return SPACE;
      if (byte === COMMA || byte === CLOSE_ARRAY) {
        if (!this.inItem && (byte === COMMA || this.commas > 0))
          throw this.refuse(
            `an item missing in the JSON array: ${byte === COMMA ? "nothing before this comma" : "a comma just before its closing ]"}`,
          );
        if (byte === COMMA) this.commas++;
        else this.phase = "after";
        this.inItem = false;
        return LF;
      }
      if (!this.inItem) {
        this.inItem = true;
        this.starts.push(this.place.line);
      }
    }
    const inString = scan.inString;
    scan.take(byte);
    if (byte === LF || byte === CR) return inString ? TAB : SPACE;
    return byte;
  }

  private refuse(problem: string): InputError {
    return new InputError({ file: this.where, line: this.place.line, column: this.place.column }, problem);
  }
}
