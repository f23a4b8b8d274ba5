// What reading and checking a stream report: a result per event, with its place, and a
// rule an event broke. Copied from templates/stream/result.ts by agentwire.

import type { DecodeResult } from "../decode.js";

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

/** A rule an event broke: the fact's name, what was expected, and the event's index. */
export interface Violation {
  readonly rule: string;
  readonly message: string;
  readonly index: number;
}
