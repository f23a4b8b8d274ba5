import { createReadStream } from "node:fs";
import path from "node:path";
import { PROTOCOL_NAME } from "../load/config.js";
import type { Io } from "./io.js";
import { UsageError } from "./io.js";
import type { Arguments, ProjectLookup } from "./main.js";
import type { Framing } from "./recording.js";
import { MAX_EVENT_SIZE, openRecording } from "./recording.js";
import { loadStreamModule } from "./stream-module.js";

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
  createVerifier(options: { readonly resumed: boolean; readonly maxMemory?: number }): {
    push(event: unknown): Violation | undefined;
    /** Given the transport's error report that ended the stream, what did not come is no violation. */
    end(ending?: StreamResult): Violation | undefined;
  };
  /** Present where the facts say what the stream builds: a patch that does not apply is a violation too. */
  createAssembler?(): { push(event: unknown): Violation | undefined };
}

/** How events are decoded: as the schema says, or as its receivers read them (unknown properties dropped, what is newer unrecognized). */
type Mode = "strict" | "tolerant";

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
interface Finding {
  readonly rule: string;
  readonly message: string;
  readonly index: number;
  readonly line: number | undefined;
}

/**
 * What the tolerant reading did, which is no violation: an event unrecognized (newer than
 * the schema), skipped; unknown properties of an event dropped.
 */
interface Note {
  readonly note: "unrecognized" | "dropped";
  readonly message: string;
  readonly index: number;
  readonly line: number;
}

/** The most pointers a note of dropped properties lists. */
const LISTED = 5;

/**
 * `agentwire verify NAME [FILE|-]`: reads a recorded stream of protocol NAME, decodes
 * every event (strictly, unless --mode tolerant) and runs the protocol's verifier over
 * them, and its assembler, where it has one (a patch that does not apply is a violation
 * too). Exit 0 when clean, 1 when something is wrong, 2 on an error of use or input.
 */
export async function runVerify(args: Arguments, io: Io, project: ProjectLookup): Promise<number> {
  const [name, file = "-", ...extra] = args.positionals;
  if (name === undefined) throw new UsageError("name the protocol: agentwire verify NAME [FILE|-]");
  if (extra.length > 0) throw new UsageError(`unexpected argument "${extra[0]}"`);
  // The name becomes a path into generated/dist, and the module there is run: a protocol's name alone.
  if (!PROTOCOL_NAME.test(name)) throw new UsageError(`${JSON.stringify(name)} is not a protocol name, lowercase words joined by "-"`);
  const framing = args.values["framing"] as string | undefined;
  if (framing !== undefined && framing !== "sse" && framing !== "jsonl" && framing !== "json")
    throw new UsageError(`--framing is sse, jsonl or json, not "${framing}"`);
  const mode = (args.values["mode"] as string | undefined) ?? "strict";
  if (mode !== "strict" && mode !== "tolerant") throw new UsageError(`--mode is strict or tolerant, not "${mode}"`);
  const idleTimeout = wholeNumber(args, "idle-timeout", 1, 2 ** 31 - 1);
  const maxMemory = wholeNumber(args, "max-memory", 0, Number.MAX_SAFE_INTEGER);
  const module = await loadStreamModule<StreamModule>(project, name);
  const source = file === "-" ? io.stdin : createReadStream(path.resolve(io.cwd, file));
  if (source === undefined) throw new UsageError("no standard input to read: give a FILE");
  const where = file === "-" ? "<stdin>" : file;
  const recording = await openRecording(source, framing as Framing | undefined, where);
  const verifier = module.createVerifier({
    resumed: args.values["resumed"] === true,
    ...(maxMemory === undefined ? {} : { maxMemory }),
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
    // Of this event, by its index in the stream: the verifier counts only the events it is given.
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
  if (args.values["json"] === true)
    io.out(
      JSON.stringify(
        {
          file: where,
          protocol: name,
          events,
          framing: recording.framing,
          mode,
          ...(ended === undefined ? {} : { transportError: ended.message }),
          violations: findings,
          ...(mode === "tolerant" ? { notes } : {}),
        },
        null,
        2,
      ),
    );
  else {
    const at = (index: number) => (index === events ? "at the end" : `event ${index}`);
    // Violations and notes in the order of the stream, a violation first where both are of one event.
    const lines = [
      ...findings.map((finding) => ({
        index: finding.index,
        text: `${where}${finding.line === undefined ? "" : `:${finding.line}`}: ${at(finding.index)}: ${finding.rule}: ${finding.message}`,
      })),
      ...notes.map((note) => ({
        index: note.index,
        text: `${where}:${note.line}: ${at(note.index)}: note: ${note.message}`,
      })),
    ];
    for (const line of lines.sort((a, b) => a.index - b.index)) io.out(line.text);
    if (ended !== undefined) io.out(`${where}: the stream ended with the transport's error report: ${ended.message}`);
    io.out(
      `${where}: ${findings.length === 0 ? "no violations" : `${findings.length} ${findings.length === 1 ? "violation" : "violations"}`} in ${events} ${events === 1 ? "event" : "events"} (${recording.framing}${mode === "tolerant" ? `, tolerant${tolerated(notes)}` : ""})`,
    );
  }
  return findings.length === 0 ? 0 : 1;
}

/** What the tolerant reading did, counted: ": 1 event unrecognized and skipped, 2 with unknown properties dropped". */
function tolerated(notes: readonly Note[]): string {
  const unrecognized = notes.filter((note) => note.note === "unrecognized").length;
  const dropped = notes.length - unrecognized;
  const counts = [
    ...(unrecognized === 0 ? [] : [`${unrecognized} ${unrecognized === 1 ? "event" : "events"} unrecognized and skipped`]),
    ...(dropped === 0 ? [] : [`${dropped} with unknown properties dropped`]),
  ];
  return counts.length === 0 ? "" : `: ${counts.join(", ")}`;
}

/** An option that is a whole number from `least` to `most`, where given. */
function wholeNumber(args: Arguments, name: string, least: number, most: number): number | undefined {
  const text = args.values[name] as string | undefined;
  if (text === undefined) return undefined;
  const value = /^[0-9]+$/.test(text) ? Number(text) : Number.NaN;
  if (!(value >= least && value <= most)) throw new UsageError(`--${name} is a whole number from ${least} to ${most}, not "${text}"`);
  return value;
}
