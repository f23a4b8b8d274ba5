import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { transformChunks, verifyEvents } from "@ag-ui/client";
import type { BaseEvent } from "@ag-ui/core";
// rxjs is @ag-ui/client's own dependency, pinned by the lockfile: the operators need its Observable.
import { from } from "rxjs";
import { decodeStreamResponse } from "../../generated/src/a2a/validate.js";
import { createVerifier as a2aVerifier } from "../../generated/src/a2a/stream.js";
import { decodeEvent } from "../../generated/src/ag-ui/validate.js";
import { createVerifier as aguiVerifier } from "../../generated/src/ag-ui/stream.js";
import { decodeServerNotification } from "../../generated/src/app-server/validate.js";
import { createVerifier as appServerVerifier } from "../../generated/src/app-server/stream.js";
import { decodeAgentStreamEvent } from "../../generated/src/gtm-agent/validate.js";
import { createVerifier as gtmVerifier } from "../../generated/src/gtm-agent/stream.js";
import type { DecodeResult } from "../../generated/src/decode.js";
import type { Violation } from "../../generated/src/stream/result.js";
import type { Verifier, VerifyOptions } from "../../generated/src/stream/verify.js";
import { REPO } from "./project.js";

/** The vendored traces of test/fixtures/traces (see its README). */
export const TRACES = path.join(REPO, "test/fixtures/traces");

export const STREAM_PROTOCOLS = ["ag-ui", "a2a", "gtm-agent", "app-server"] as const;
export type StreamProtocol = (typeof STREAM_PROTOCOLS)[number];

/** A protocol's decoder and verifier, typed loosely: the traces hold events of every shape. */
interface StreamBinding {
  readonly decode: (value: unknown, options: { mode: "tolerant" }) => DecodeResult<unknown>;
  readonly createVerifier: (options?: VerifyOptions) => Verifier<unknown>;
}

const BINDINGS: Readonly<Record<StreamProtocol, StreamBinding>> = {
  "ag-ui": { decode: decodeEvent, createVerifier: aguiVerifier as StreamBinding["createVerifier"] },
  a2a: { decode: decodeStreamResponse, createVerifier: a2aVerifier as StreamBinding["createVerifier"] },
  "gtm-agent": { decode: decodeAgentStreamEvent, createVerifier: gtmVerifier as StreamBinding["createVerifier"] },
  "app-server": { decode: decodeServerNotification, createVerifier: appServerVerifier as StreamBinding["createVerifier"] },
};

export interface Trace {
  /** `<protocol>/<file>`, as in verdicts.json. */
  readonly file: string;
  readonly protocol: StreamProtocol;
  readonly source: string;
  readonly license: string;
  readonly expect: "valid" | "invalid";
  readonly reason: string;
  readonly events: readonly unknown[];
  /** The AG-UI client's verify tests: what its error message must contain. */
  readonly expectedErrorSubstrings: readonly string[];
}

export function loadTraces(): Trace[] {
  return STREAM_PROTOCOLS.flatMap((protocol) =>
    readdirSync(path.join(TRACES, protocol))
      .filter((name) => name.endsWith(".json"))
      .sort()
      .map((name) => {
        const data = JSON.parse(readFileSync(path.join(TRACES, protocol, name), "utf8")) as Record<string, unknown>;
        return {
          file: `${protocol}/${name}`,
          protocol,
          source: data["source"] as string,
          license: data["license"] as string,
          expect: data["expect"] as "valid" | "invalid",
          reason: data["reason"] as string,
          events: data["events"] as unknown[],
          expectedErrorSubstrings: (data["expected_error_substrings"] as string[] | undefined) ?? [],
        };
      }),
  );
}

/**
 * Our verdict on a sequence: each event decoded tolerantly, as a consumer would; an event
 * the schema does not accept is pushed as it came, for the verifier reads only kinds and
 * keys. The first violation, of an event or of the end.
 */
export function verifyTrace(protocol: StreamProtocol, events: readonly unknown[], options?: VerifyOptions): Violation | undefined {
  const { pushed, ended } = pushAll(protocol, events, options);
  return pushed ?? ended;
}

/** The first violation an event brings, and what the end brings, apart. */
export function pushAll(
  protocol: StreamProtocol,
  events: readonly unknown[],
  options?: VerifyOptions,
): { pushed: Violation | undefined; ended: Violation | undefined } {
  const { decode, createVerifier } = BINDINGS[protocol];
  const verifier = createVerifier(options);
  let pushed: Violation | undefined;
  for (const event of events) {
    const decoded = decode(event, { mode: "tolerant" });
    pushed ??= verifier.push(decoded.ok ? decoded.value : event);
  }
  return { pushed, ended: verifier.end() };
}

/**
 * `@ag-ui/client`'s verdict: its error message, or undefined when it accepts. The events go
 * through `transformChunks` and then `verifyEvents`, as `AbstractAgent.runAgent` chains them
 * (its schema enforcement, `enforceEvents`, is left out: the client's own verify tests feed
 * schema-incomplete objects). With a synchronous source the pipeline settles in `subscribe`.
 */
export function clientVerdict(events: readonly unknown[]): string | undefined {
  let settled = false;
  let error: string | undefined;
  from(events as BaseEvent[])
    .pipe(transformChunks(false), verifyEvents(false))
    .subscribe({
      error: (reason: unknown) => {
        settled = true;
        error = reason instanceof Error ? reason.message : String(reason);
      },
      complete: () => {
        settled = true;
      },
    });
  if (!settled) throw new Error("@ag-ui/client's pipeline did not settle synchronously");
  return error;
}

/**
 * The index of the first event @ag-ui/client refuses, or -1: the shortest refused prefix,
 * found by bisection, for a refused prefix stays refused when it grows.
 */
export function clientFirstRefusal(events: readonly unknown[]): number {
  if (clientVerdict(events) === undefined) return -1;
  // The shortest refused prefix has at least `atLeast` events and at most `atMost`.
  let atLeast = 1;
  let atMost = events.length;
  while (atLeast < atMost) {
    const middle = (atLeast + atMost) >> 1;
    if (clientVerdict(events.slice(0, middle)) === undefined) atLeast = middle + 1;
    else atMost = middle;
  }
  return atLeast - 1;
}
