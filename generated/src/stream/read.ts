// Reading a protocol's events from a stream of bytes: framed, parsed, unwrapped from
// JSON-RPC and decoded, one result a call. Copied from templates/stream/read.ts by
// agentwire; each protocol's module binds it to its decoder and transport.

import type { DecodeOptions, DecodeResult } from "../decode.js";
import { isRecord } from "../runtime.js";
import type { Frame, FramingFault } from "./frame.js";
import { detached, Framer } from "./frame.js";
import type { StreamFault, StreamPlace, StreamResult } from "./result.js";
import type { StreamSource } from "./source.js";
import { Pull } from "./source.js";
import type { Framing, Transport } from "./tables.js";

/** The host's timers, called as its own each time (so that fake timers or a polyfill installed later take part). */
const timers = globalThis as unknown as {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(timer: unknown): void;
};

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

const MAX_EVENT_SIZE = 16 * 1024 * 1024;

/** The longest a timer waits: longer ones fire at once. */
const MAX_TIMEOUT = 2 ** 31 - 1;

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
 * Each event is given to the decoder as JSON.parse made it: the decoder asks the event's
 * guard first and returns a value it accepts itself, new since JSON.parse made it.
 */
export function readEvents<T>(
  source: StreamSource,
  decode: (input: unknown, options?: DecodeOptions) => DecodeResult<T>,
  transport: Transport,
  options: ReadOptions = {},
): AsyncGenerator<StreamResult<T>, void, undefined> {
  const { idleTimeout } = options;
  if (
    idleTimeout !== undefined &&
    !(idleTimeout > 0 && idleTimeout <= MAX_TIMEOUT)
  )
    throw new RangeError(
      `idleTimeout is a number of milliseconds, more than 0 and at most ${MAX_TIMEOUT}, not ${idleTimeout}`,
    );
  return new EventReader(source, decode, transport, options);
}

/** The framer a reading uses: the options' framing, else the transport's, and their largest event. */
export function framerOf(
  options: Pick<ReadOptions, "framing" | "maxEventSize">,
  transport: Transport,
): Framer {
  return new Framer(
    options.framing ?? transport.framing,
    options.maxEventSize ?? MAX_EVENT_SIZE,
  );
}

/** What decoding takes of a reading's options: the mode, and the limit of errors. */
export function decodeOptionsOf(options: DecodeOptions): DecodeOptions {
  return {
    ...(options.mode === undefined ? {} : { mode: options.mode }),
    ...(options.maxErrors === undefined
      ? {}
      : { maxErrors: options.maxErrors }),
  };
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
  ) {
    this.framer = framerOf(options, transport);
    this.decodeOptions = decodeOptionsOf(options);
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

  /**
   * Answers calls in turn: a call made while another is not answered waits for it. A call
   * is counted answered as it settles, by a reaction registered before its caller can
   * await it, and so run first; an async function around each call cost a promise and a
   * turn more (bench/stream.bench.js). `call` is an async function: it never throws.
   */
  private serve(call: () => Promise<Next<T>>): Promise<Next<T>> {
    const answer = ++this.pending === 1 ? call() : this.last.then(call, call);
    this.last = answer.then(this.answered, this.answered);
    return answer;
  }

  private readonly answered = (): void => {
    this.pending--;
  };

  private result(): StreamResult<T> {
    return resultOf(
      this.frames[this.at++]!,
      this.index++,
      this.decode,
      this.transport,
      this.decodeOptions,
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

export function resultOf<T>(
  frame: Frame,
  index: number,
  decode: (input: unknown, options?: DecodeOptions) => DecodeResult<T>,
  transport: Transport,
  options: DecodeOptions,
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
  if (transport.jsonRpc && isRecord(json) && json["jsonrpc"] === "2.0") {
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
  const decoded = decode(json, options);
  // A plain success as a literal of its own: spreading it cost about 40 ns an event.
  if (decoded.ok && decoded.ignored === undefined)
    return {
      index,
      offset: frame.offset,
      line: frame.line,
      ok: true,
      value: decoded.value,
    };
  // The place as the literal's own properties and the result spread after them: V8 builds
  // that on its fast path, where properties after a spread (or a second spread) cost about
  // a microsecond an event, more than the decoding (bench/stream.bench.js).
  return {
    index,
    offset: frame.offset,
    line: frame.line,
    ...decoded,
  };
}

/** The words of an error report: its `message`, or the report itself. */
function errorMessage(report: unknown): string {
  if (isRecord(report) && typeof report["message"] === "string")
    return report["message"];
  return typeof report === "string" ? report : JSON.stringify(report);
}
