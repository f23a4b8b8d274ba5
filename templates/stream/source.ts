// Where a stream's bytes come from, pulled one chunk at a time. Copied from
// templates/stream/source.ts by agentwire.

import { encoder } from "./frame.js";

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

const ignore = (): undefined => undefined;

/**
 * A source's chunks as bytes, pulled one at a time, and let go at the end. A string that
 * ends inside a surrogate pair keeps its half for the next one, which would otherwise be
 * encoded as U+FFFD.
 */
export class Pull {
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
  next(): Promise<Uint8Array | undefined> {
    if (this.reader === undefined)
      return this.fromIterator(this.iterator!).then(this.took, this.failed);
    // A reader's read, continued where it settles: two async functions in between cost
    // more than the framing of a small chunk (bench/stream.bench.js).
    try {
      return this.reader.read().then(this.read, this.failed);
    } catch (error) {
      this.letGo();
      return Promise.reject(error);
    }
  }

  /** What a reader's read gives: a chunk, the end, or nothing yet (read again). */
  private readonly read = (next: {
    done: boolean;
    value?: Uint8Array | undefined;
  }): Uint8Array | undefined | Promise<Uint8Array | undefined> => {
    if (next.done) return this.took(undefined);
    return next.value ?? this.next();
  };

  private readonly took = (
    chunk: Uint8Array | undefined,
  ): Uint8Array | undefined => {
    if (chunk === undefined) this.letGo();
    return chunk;
  };

  /** The source failed: it is let go, and the error thrown on. */
  private readonly failed = (error: unknown): never => {
    this.letGo();
    throw error;
  };

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
