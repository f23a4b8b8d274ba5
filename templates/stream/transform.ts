// The stream as web TransformStreams, for `pipeThrough`: bytes in, results out; results in,
// checked or assembled, out. Copied from templates/stream/transform.ts by agentwire; each
// protocol's module binds it to its reader, verifier and assembler.

import type { DecodeOptions, DecodeResult } from "../decode.js";
import type { Assembler } from "./assemble.js";
import type { Frame, Framer } from "./frame.js";
import type { ReadOptions } from "./read.js";
import { decodeOptionsOf, framerOf, resultOf } from "./read.js";
import type { StreamResult, Violation } from "./result.js";
import type { Transport } from "./tables.js";
import type { Verifier, VerifyOptions } from "./verify.js";

// ---------------------------------------------------------------------------------------
// Types. The package compiles with lib es2022 and no DOM or Node types, yet a consumer's
// `pipeThrough` (lib.dom's, or Node's stream/web) takes a pair of its own ReadableStream
// and WritableStream, every member of them: no interface of ours, however complete, is
// one. So the types are the consumer's: `typeof globalThis` is looked at where the
// declarations are read, not where they are written, and where it has a TransformStream
// constructor (lib.dom, webworker, @types/node's global, Deno's, Bun's, workers-types'),
// its instance type for <I, O> is taken with an instantiation expression; where it has
// none (the package's own build), the structural fallback below stands in. Nothing is
// declared globally, and no lib is referenced: a consumer's globals stay its own (an empty
// `interface ReadableStream<R>` merged into them would type the pair as well, and add the
// names to every consumer's globals; `/// <reference lib="dom" />`, the whole DOM). Tested
// as a consumer under lib dom, under @types/node and under neither, by tsc and ts-morph's
// TypeScript (test/generated/typecheck.test.ts).

/** The readable side where the host's types declare no web streams: the members a reader uses. */
export interface ReadableLike<O> {
  readonly locked: boolean;
  getReader(): {
    read(): Promise<{ done: boolean; value?: O | undefined }>;
    cancel(reason?: unknown): Promise<void>;
    releaseLock(): void;
  };
  cancel(reason?: unknown): Promise<void>;
}

/** The writable side where the host's types declare no web streams: the members a writer uses. */
export interface WritableLike<I> {
  readonly locked: boolean;
  getWriter(): {
    readonly ready: Promise<void>;
    write(chunk: I): Promise<void>;
    close(): Promise<void>;
    abort(reason?: unknown): Promise<void>;
    releaseLock(): void;
  };
  abort(reason?: unknown): Promise<void>;
}

/** The TransformStream constructor the consumer's types declare, else the fallback's shape. */
type HostTransformStream = typeof globalThis extends {
  TransformStream: infer C;
}
  ? C
  : new <I, O>() => {
      readonly readable: ReadableLike<O>;
      readonly writable: WritableLike<I>;
    };

/** Never a value: it exists only for its type (see Types above). */
declare const HostTransformStream: HostTransformStream;

/** The consumer's `TransformStream<I, O>` (lib.dom's, Node's, …), or the fallback's shape. */
type WebTransformStream<I, O> = InstanceType<typeof HostTransformStream<I, O>>;

/**
 * A `{ readable, writable }` pair, as `pipeThrough` takes one: what is written to
 * `writable` comes out of `readable`, transformed. Its sides are the host's
 * `ReadableStream<O>` and `WritableStream<I>` as the consumer's types declare them (see
 * above), so `for await`, `getReader()`, `pipeTo` and `pipeThrough` are typed there.
 */
export interface TransformPair<I, O> {
  readonly readable: WebTransformStream<I, O>["readable"];
  readonly writable: WebTransformStream<I, O>["writable"];
}

/**
 * What a checking stage passes on: every result as it came, and after the result of an
 * event that broke a rule, or that the assembler refused, that violation; the verifier's
 * violation of the end (a span never closed) comes last. Tell them apart with `"rule" in`.
 */
export type Checked<T> = StreamResult<T> | Violation;

/** An assembling stage: the pair, and what the events that passed through it have built. */
export interface AssemblyStream<I, T, S> extends TransformPair<I, Checked<T>> {
  /** What the events so far have built. The live value: read it, do not change it. */
  snapshot(): S;
}

/**
 * What {@link decoding} reads as `readStream` does, less what a pipe does itself: a signal
 * is `pipeThrough`'s own (`{ signal }`), which cancels the source and errors the stream
 * with its reason. No idle timeout: a stage does not know when its reader waits.
 */
export type DecodeStreamOptions = Omit<ReadOptions, "signal" | "idleTimeout">;

/** As {@link DecodeStreamOptions}, and the verifier's options. */
export interface CheckStreamOptions extends DecodeStreamOptions {
  readonly verify?: VerifyOptions;
}

// ---------------------------------------------------------------------------------------
// The host's TransformStream, by the members used, taken when a stream is made (so that
// the module loads where there is none, and a polyfill installed later takes part).

interface Controller<O> {
  enqueue(chunk: O): void;
  terminate(): void;
}

type HostConstructor = new <I, O>(transformer: {
  transform(chunk: I, controller: Controller<O>): void;
  flush?(controller: Controller<O>): void;
}) => { readonly readable: unknown; readonly writable: unknown };

function transformStream<I, O>(transformer: {
  transform(chunk: I, controller: Controller<O>): void;
  flush?(controller: Controller<O>): void;
}): TransformPair<I, O> {
  const { TransformStream } = globalThis as unknown as {
    TransformStream?: HostConstructor;
  };
  if (typeof TransformStream !== "function")
    throw new TypeError(
      "TransformStream is not defined here (browsers, Node 18 and later, Deno, Bun and Workers define it): read with readStream",
    );
  // Default queuing strategies: the writable side holds one chunk, the readable side none
  // but what a chunk makes, so that a writer waits for the reader (backpressure).
  return new TransformStream<I, O>(transformer) as TransformPair<I, O>;
}

// ---------------------------------------------------------------------------------------
// Stages: what a verifier or an assembler finds of each result, and of the end.

/** Looks at each result, and at the end; what it finds comes after the result. */
interface Stage<T> {
  push(result: StreamResult<T>): Violation | undefined;
  end(): Violation | undefined;
}

/** The verifier, given every result: one that is not ok counted (`skip()`); at the end, the last. */
function verification<T>(verifier: Verifier<T>): Stage<T> {
  let last: StreamResult<T> | undefined;
  return {
    push(result) {
      last = result;
      if (result.ok) return verifier.push(result.value);
      verifier.skip();
      return undefined;
    },
    end: () => verifier.end(last),
  };
}

/** The assembler, given the events that are ok; a refusal at the result's index (it counts only what it is given). */
function assembly<T, S>(assembler: Assembler<T, S>): Stage<T> {
  return {
    push(result) {
      if (!result.ok) return undefined;
      const violation = assembler.push(result.value);
      if (violation === undefined || violation.index === result.index)
        return violation;
      return { ...violation, index: result.index };
    },
    end: () => undefined,
  };
}

/** A violation is told from a result by its rule. */
function isViolation<T>(item: Checked<T>): item is Violation {
  return "rule" in item;
}

/**
 * A result, and what the stages find of it, in the order the stages piped one after the
 * other pass them on: each stage's after the later stages' (which pass it through).
 */
function passOn<T>(
  result: StreamResult<T>,
  stages: readonly Stage<T>[],
  controller: Controller<Checked<T>>,
): void {
  controller.enqueue(result);
  // Mostly one stage or two: no array made for what they find.
  const first = stages[0]?.push(result);
  if (stages.length === 2) {
    const second = stages[1]!.push(result);
    if (second !== undefined) controller.enqueue(second);
  } else if (stages.length > 2) {
    const found = stages.slice(1).map((stage) => stage.push(result));
    for (let i = found.length - 1; i >= 0; i--)
      if (found[i] !== undefined) controller.enqueue(found[i]!);
  }
  if (first !== undefined) controller.enqueue(first);
}

/** What the stages find of the end, in their order (each one's end comes after the earlier ones'). */
function passEnd<T>(
  stages: readonly Stage<T>[],
  controller: Controller<Checked<T>>,
): void {
  for (const stage of stages) {
    const violation = stage.end();
    if (violation !== undefined) controller.enqueue(violation);
  }
}

/** A stage of results in, results and what it finds out; violations coming in passed on. */
function staged<T>(stage: Stage<T>): TransformPair<Checked<T>, Checked<T>> {
  const stages = [stage];
  return transformStream<Checked<T>, Checked<T>>({
    transform(item, controller) {
      if (isViolation(item)) controller.enqueue(item);
      else passOn(item, stages, controller);
    },
    flush: (controller) => passEnd(stages, controller),
  });
}

// ---------------------------------------------------------------------------------------
// The streams.

/**
 * Bytes in, results out, as `readEvents` reads them: framed by the same Framer, each
 * frame's result made by the same function, at the same index, offset and line; the
 * stages' findings after each (see {@link passOn}). A chunk's results are passed on as
 * the chunk is read, which the TransformStream's queuing then holds: the writer waits for
 * the reader, so no chunk is taken before the last one's results are read but the one
 * the writable side holds. A fault that stops the reading (too large, not UTF-8) ends the
 * readable side and errors the writable one, which cancels the source of a pipe. The
 * source's error (a pipe aborting the writable side) errors the readable side at once:
 * the event it cut off is not reported, as readStream reports it.
 */
export function decoding<T>(
  decode: (input: unknown, options?: DecodeOptions) => DecodeResult<T>,
  transport: Transport,
  options: DecodeStreamOptions = {},
): TransformPair<Uint8Array, StreamResult<T>> {
  // With no stage, nothing but results comes out.
  return decodingWith(decode, transport, options, []) as TransformPair<
    Uint8Array,
    StreamResult<T>
  >;
}

/** {@link decoding}, each result given to the stages. */
function decodingWith<T>(
  decode: (input: unknown, options?: DecodeOptions) => DecodeResult<T>,
  transport: Transport,
  options: DecodeStreamOptions,
  stages: readonly Stage<T>[],
): TransformPair<Uint8Array, Checked<T>> {
  const framer = framerOf(options, transport);
  const decodeOptions = decodeOptionsOf(options);
  const frames: Frame[] = [];
  let index = 0;
  /** Passes on the frames the framer made, then its fault; whether that ends the reading. */
  const passFrames = (
    fault: ReturnType<Framer["push"]>,
    controller: Controller<Checked<T>>,
  ): boolean => {
    for (const frame of frames) {
      const result = resultOf(frame, index++, decode, transport, decodeOptions);
      passOn(result, stages, controller);
    }
    frames.length = 0;
    if (fault === undefined) return false;
    passOn({ ...fault, index }, stages, controller);
    return true;
  };
  return transformStream<Uint8Array, Checked<T>>({
    transform(chunk, controller) {
      if (!passFrames(framer.push(chunk, frames), controller)) return;
      // The reading stops, as readStream's does; its end is the stream's.
      passEnd(stages, controller);
      controller.terminate();
    },
    flush(controller) {
      passFrames(framer.end(frames), controller);
      passEnd(stages, controller);
    },
  });
}

/**
 * Decoding with the verifier and the assembler (where the stream is assembled) as its
 * stages: what `decoding`, `verifying` and `assembling` piped give, in one stage.
 */
export function checking<T, S>(
  decode: (input: unknown, options?: DecodeOptions) => DecodeResult<T>,
  transport: Transport,
  createVerifier: (options?: VerifyOptions) => Verifier<T>,
  createAssembler: () => Assembler<T, S>,
  options: CheckStreamOptions = {},
): AssemblyStream<Uint8Array, T, S> {
  const assembler = createAssembler();
  const { verify, ...read } = options;
  const stages = [verification(createVerifier(verify)), assembly(assembler)];
  const { readable, writable } = decodingWith(decode, transport, read, stages);
  return { readable, writable, snapshot: () => assembler.snapshot() };
}

/**
 * Results in, each passed on as it came and checked by the verifier (one that is not ok
 * counted, as `skip()` does), a violation after its result; at the end, the violation of
 * the end, given the last result (a transport's error report ends the stream without
 * breaking anything by ending it). Violations coming in are passed on.
 */
export function verifying<T>(
  verifier: Verifier<T>,
): TransformPair<Checked<T>, Checked<T>> {
  return staged(verification(verifier));
}

/**
 * Results in, each passed on as it came and its event (where it is ok) pushed to the
 * assembler, a refusal after its result, at the result's index. Violations coming in are
 * passed on. `snapshot()` is the assembler's.
 */
export function assembling<T, S>(
  assembler: Assembler<T, S>,
): AssemblyStream<Checked<T>, T, S> {
  const { readable, writable } = staged(assembly(assembler));
  return { readable, writable, snapshot: () => assembler.snapshot() };
}
