import type { ProjectLookup } from "./project.js";
import type { Framing } from "./recording.js";
import { MAX_EVENT_SIZE, openRecording } from "./recording.js";
import { loadStreamModule } from "./stream-module.js";

export type { Framing } from "./recording.js";

/**
 * The parts of a protocol's generated stream module that `verify` runs: the code its
 * consumers run, loaded from the project's built package.
 */
interface StreamModule {
  readStream(
    source: AsyncIterable<Uint8Array>,
    options: {
      readonly framing?: "sse" | "jsonl";
      readonly mode: Mode;
      readonly maxEventSize: number;
      readonly idleTimeout?: number;
    },
  ): AsyncIterable<StreamResult>;
  createVerifier(options: { readonly resumed: boolean; readonly maxMemory?: number; readonly request?: unknown }): {
    push(event: unknown): Violation | undefined;
    /** An event it is not given (a fault, an invalid event): counted, so that indices are the stream's, and not checked. */
    skip(): void;
    /** Given the transport's error report that ended the stream, what did not come is no violation. */
    end(ending?: StreamResult): Violation | undefined;
  };
  /** Present where the facts say what the stream builds: a patch that does not apply is a violation too. */
  createAssembler?(): { push(event: unknown): Violation | undefined };
}

/** How events are decoded: as the schema says, or as its receivers read them (unknown properties dropped, what is newer unrecognized). */
export type Mode = "strict" | "tolerant";

interface Violation {
  readonly rule: string;
  readonly message: string;
  readonly index: number;
}

type StreamResult = { readonly index: number; readonly offset: number; readonly line: number } & (
  | { readonly ok: true; readonly value: unknown; readonly ignored?: readonly string[] }
  | { readonly ok: false; readonly unrecognized: boolean; readonly errors: readonly { readonly path: string; readonly message: string }[] }
  | { readonly ok: false; readonly fault: string; readonly message: string }
);

/** A problem found in a recording: a rule broken, an event the schema refuses, a fault of the framing. */
export interface Finding {
  readonly rule: string;
  readonly message: string;
  readonly index: number;
  readonly line: number | undefined;
}

/**
 * What the tolerant reading did, which is no violation: an event unrecognized (newer than
 * the schema), skipped; unknown properties of an event dropped.
 */
export interface Note {
  readonly note: "unrecognized" | "dropped";
  readonly message: string;
  readonly index: number;
  readonly line: number;
}

/** The most pointers a note of dropped properties lists. */
const LISTED = 5;

/** How a recording is read and verified. */
export interface VerifyOptions {
  /** The framing, where the content should not decide: SSE, JSON lines, or a JSON array of events. */
  readonly framing?: Framing;
  readonly mode?: Mode;
  /** The recording starts mid-stream: rules about its start are not checked. */
  readonly resumed?: boolean;
  /** The request that opened the stream: what it carries counts (the tool calls of its messages, which a result may answer). */
  readonly request?: unknown;
  readonly idleTimeout?: number;
  readonly maxMemory?: number;
  /** How messages name the recording: its file, or "<stdin>". */
  readonly where: string;
}

/** What verifying a recording found. */
export interface VerifyReport {
  readonly events: number;
  /** The framing the recording was read with. */
  readonly framing: Framing;
  readonly mode: Mode;
  /** The transport's own error report that ended the stream, which is no violation. */
  readonly transportError?: string;
  readonly violations: readonly Finding[];
  /** What the tolerant reading dropped or skipped. */
  readonly notes: readonly Note[];
}

/**
 * Reads a recorded stream of protocol `name` (`open` opens it), decodes every event (strictly, unless
 * tolerant) and runs the protocol's verifier over them, and its assembler, where it has
 * one (a patch that does not apply is a violation too).
 */
export async function verifyRecording(
  project: ProjectLookup,
  name: string,
  open: () => AsyncIterable<Uint8Array | string>,
  options: VerifyOptions,
): Promise<VerifyReport> {
  const { framing, mode = "strict", idleTimeout, maxMemory, where } = options;
  const module = await loadStreamModule<StreamModule>(project, name);
  // Opened once the protocol's code is loaded: a file that cannot be read is then read, and refused, at once.
  const recording = await openRecording(open(), framing, where);
  const verifier = module.createVerifier({
    resumed: options.resumed === true,
    ...(maxMemory === undefined ? {} : { maxMemory }),
    ...(options.request === undefined ? {} : { request: options.request }),
  });
  const assembler = module.createAssembler?.();
  const findings: Finding[] = [];
  const notes: Note[] = [];
  let events = 0;
  let ended: (StreamResult & { readonly fault: string; readonly message: string }) | undefined;
  /** The reader found the last event cut off. */
  let cutOff = false;
  const reading = {
    framing: recording.readAs,
    mode,
    maxEventSize: MAX_EVENT_SIZE,
    ...(idleTimeout === undefined ? {} : { idleTimeout }),
  } as const;
  for await (const result of module.readStream(recording.chunks, reading)) {
    // The line in the file: a JSON array's items are read a line each.
    const line = recording.lineOf(result.line);
    events = result.index + 1;
    if ("fault" in result) {
      if (result.fault === "transport-error") {
        ended = result;
        events = result.index;
        break;
      }
      // An item of a JSON array is cut off where the file ends inside it, not before a line end.
      const message =
        result.fault === "cut-off" && recording.framing === "json"
          ? "the stream ended inside an event, an item of the JSON array"
          : result.message;
      findings.push({ rule: result.fault, message, index: result.index, line });
      verifier.skip();
      cutOff = result.fault === "cut-off";
      // A stream that stalled ended where it stalled, before an event.
      if (result.fault === "idle-timeout") events = result.index;
      continue;
    }
    if (!result.ok) {
      const [first] = result.errors;
      const why = first === undefined ? "" : `${first.path === "" ? "" : `${first.path} `}${first.message}`;
      // Read tolerantly, what is newer than the schema is skipped, as a receiver skips it: a note.
      if (mode === "tolerant" && result.unrecognized)
        notes.push({ note: "unrecognized", message: `unrecognized event, skipped: ${why}`, index: result.index, line });
      else
        findings.push({
          rule: "schema",
          message: `not a valid event${why === "" ? "" : `: ${why}`}`,
          index: result.index,
          line,
        });
      verifier.skip();
      continue;
    }
    if (result.ignored !== undefined && result.ignored.length > 0) {
      const more = result.ignored.length - LISTED;
      const listed = `${result.ignored.slice(0, LISTED).join(", ")}${more > 0 ? `, and ${more} more` : ""}`;
      notes.push({ note: "dropped", message: `unknown properties dropped: ${listed}`, index: result.index, line });
    }
    // Both see every event; what the assembler refuses of an event the verifier already faulted is the same fault.
    const broken = verifier.push(result.value);
    const refused = assembler?.push(result.value);
    const violation = broken ?? refused;
    if (violation !== undefined) findings.push({ ...violation, index: result.index, line });
  }
  // A JSON array the file ended in: where its last item was whole, nothing else says so.
  const unclosed = ended === undefined ? recording.unclosed() : undefined;
  if (unclosed !== undefined && !cutOff)
    findings.push({
      rule: "cut-off",
      message: "the stream ended inside the JSON array, before the ] that closes it",
      index: events,
      line: unclosed.line,
    });
  const end = verifier.end(ended);
  if (end !== undefined) findings.push({ ...end, index: events, line: undefined });
  return {
    events,
    framing: recording.framing,
    mode,
    ...(ended === undefined ? {} : { transportError: ended.message }),
    violations: findings,
    notes,
  };
}
