import { createReadStream, existsSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { InputError } from "../errors.js";
import { PROTOCOL_NAME } from "../load/config.js";
import type { Io } from "./io.js";
import { UsageError } from "./io.js";
import type { Arguments } from "./main.js";

/**
 * The parts of a protocol's generated stream module that `verify` runs: the code its
 * consumers run, loaded from the project's built package.
 */
interface StreamModule {
  readStream(
    source: AsyncIterable<Uint8Array>,
    options: {
      readonly framing?: Framing;
      readonly mode: Mode;
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

type Framing = "sse" | "jsonl";

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
export async function runVerify(args: Arguments, io: Io, root: string): Promise<number> {
  const [name, file = "-", ...extra] = args.positionals;
  if (name === undefined) throw new UsageError("name the protocol: agentwire verify NAME [FILE|-]");
  if (extra.length > 0) throw new UsageError(`unexpected argument "${extra[0]}"`);
  // The name becomes a path into generated/dist, and the module there is run: a protocol's name alone.
  if (!PROTOCOL_NAME.test(name)) throw new UsageError(`${JSON.stringify(name)} is not a protocol name, lowercase words joined by "-"`);
  const framing = args.values["framing"] as string | undefined;
  if (framing !== undefined && framing !== "sse" && framing !== "jsonl")
    throw new UsageError(`--framing is sse or jsonl, not "${framing}"`);
  const mode = (args.values["mode"] as string | undefined) ?? "strict";
  if (mode !== "strict" && mode !== "tolerant") throw new UsageError(`--mode is strict or tolerant, not "${mode}"`);
  const idleTimeout = wholeNumber(args, "idle-timeout", 1, 2 ** 31 - 1);
  const maxMemory = wholeNumber(args, "max-memory", 0, Number.MAX_SAFE_INTEGER);
  const module = await streamModule(root, name);
  const source = file === "-" ? io.stdin : createReadStream(path.resolve(io.cwd, file));
  if (source === undefined) throw new UsageError("no standard input to read: give a FILE");
  const bytes = await sniffed(source, framing as Framing | undefined, file);
  const verifier = module.createVerifier({
    resumed: args.values["resumed"] === true,
    ...(maxMemory === undefined ? {} : { maxMemory }),
  });
  const assembler = module.createAssembler?.();
  const findings: Finding[] = [];
  const notes: Note[] = [];
  let events = 0;
  let ended: (StreamResult & { readonly fault: string; readonly message: string }) | undefined;
  const reading = {
    framing: bytes.framing,
    mode,
    ...(idleTimeout === undefined ? {} : { idleTimeout }),
  } as const;
  for await (const result of module.readStream(bytes.chunks, reading)) {
    const { line } = result;
    events = result.index + 1;
    if ("fault" in result) {
      if (result.fault === "transport-error") {
        ended = result;
        events = result.index;
        break;
      }
      findings.push({ rule: result.fault, message: result.message, index: result.index, line });
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
  const end = verifier.end(ended);
  if (end !== undefined) findings.push({ ...end, index: events, line: undefined });
  const where = file === "-" ? "<stdin>" : file;
  if (args.values["json"] === true)
    io.out(
      JSON.stringify(
        {
          file: where,
          protocol: name,
          events,
          framing: bytes.framing,
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
      `${where}: ${findings.length === 0 ? "no violations" : `${findings.length} ${findings.length === 1 ? "violation" : "violations"}`} in ${events} ${events === 1 ? "event" : "events"} (${bytes.framing}${mode === "tolerant" ? `, tolerant${tolerated(notes)}` : ""})`,
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

/** The protocol's stream module from the project's built package, `generated/dist/NAME/stream.js`. */
async function streamModule(root: string, name: string): Promise<StreamModule> {
  const file = path.join(root, "generated", "dist", name, "stream.js");
  if (!existsSync(file)) {
    if (!existsSync(path.join(root, "generated", "src", name)))
      throw new InputError({ file: "schemas/protocols.json" }, `no protocol "${name}" has been generated`);
    throw new InputError(
      { file: path.relative(root, file) },
      existsSync(path.join(root, "generated", "src", name, "stream.ts"))
        ? "the package is not built: run `npm run generate`, which builds generated/dist"
        : `protocol "${name}" has no stream facts, so no stream module (see the "stream" section of its overlay)`,
    );
  }
  return (await import(pathToFileURL(file).href)) as StreamModule;
}

/**
 * The bytes, with their framing: the one asked for, or the one the content shows (a
 * first line that is a JSON document is JSON lines; anything else, server-sent events).
 */
async function sniffed(
  source: AsyncIterable<Uint8Array | string>,
  framing: Framing | undefined,
  file: string,
): Promise<{ readonly framing: Framing; readonly chunks: AsyncIterable<Uint8Array> }> {
  const iterator = source[Symbol.asyncIterator]();
  const head: Uint8Array[] = [];
  let first: number | undefined;
  try {
    while (framing === undefined && first === undefined) {
      const next = await iterator.next();
      if (next.done === true) break;
      const chunk = typeof next.value === "string" ? Buffer.from(next.value) : next.value;
      head.push(chunk);
      first = chunk.find(
        (byte) => byte !== 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d && byte !== 0xef && byte !== 0xbb && byte !== 0xbf,
      );
    }
  } catch (error) {
    throw new InputError({ file }, `cannot read it: ${(error as Error).message}`);
  }
  const chunks = Object.assign(
    (async function* () {
      yield* head;
      for (let next = await iterator.next(); next.done !== true; next = await iterator.next())
        yield typeof next.value === "string" ? Buffer.from(next.value) : next.value;
    })(),
    {
      // The reader stops a Node stream by destroying it (its iterator answers return() only
      // after the read it waits on): so it stops this one's source, which the idle timeout
      // may stop while standard input is still open.
      destroy: () => (source as { destroy?: () => void }).destroy?.(),
    },
  );
  return { framing: framing ?? (first === 0x7b ? "jsonl" : "sse"), chunks };
}
