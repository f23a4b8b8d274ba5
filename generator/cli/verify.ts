import { createReadStream, readFileSync } from "node:fs";
import path from "node:path";
import { PROTOCOL_NAME } from "../load/config.js";
import type { Io } from "./io.js";
import { UsageError } from "./io.js";
import type { ProjectLookup } from "../api/project.js";
import type { Arguments } from "./io.js";
import type { Framing, Note } from "../api/verify.js";
import { verifyRecording } from "../api/verify.js";
import { InputError } from "../errors.js";
import { describeFileError } from "../files/problem.js";
import type { JsonValue } from "../json.js";
import { readJson } from "../json.js";

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
  const request = requestOf(args, io);
  const idleTimeout = wholeNumber(args, "idle-timeout", 1, 2 ** 31 - 1);
  const maxMemory = wholeNumber(args, "max-memory", 0, Number.MAX_SAFE_INTEGER);
  const stdin = io.stdin;
  if (file === "-" && stdin === undefined) throw new UsageError("no standard input to read: give a FILE");
  const where = file === "-" ? "<stdin>" : file;
  const open = () => (file === "-" ? stdin! : createReadStream(path.resolve(io.cwd, file)));
  const report = await verifyRecording(project, name, open, {
    ...(framing === undefined ? {} : { framing: framing as Framing }),
    mode,
    resumed: args.values["resumed"] === true,
    ...(request === undefined ? {} : { request }),
    ...(idleTimeout === undefined ? {} : { idleTimeout }),
    ...(maxMemory === undefined ? {} : { maxMemory }),
    where,
  });
  const { events, violations: findings, notes } = report;
  if (args.values["json"] === true)
    io.out(
      JSON.stringify(
        {
          file: where,
          protocol: name,
          events,
          framing: report.framing,
          mode,
          ...(report.transportError === undefined ? {} : { transportError: report.transportError }),
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
    if (report.transportError !== undefined)
      io.out(`${where}: the stream ended with the transport's error report: ${report.transportError}`);
    io.out(
      `${where}: ${findings.length === 0 ? "no violations" : `${findings.length} ${findings.length === 1 ? "violation" : "violations"}`} in ${events} ${events === 1 ? "event" : "events"} (${report.framing}${mode === "tolerant" ? `, tolerant${tolerated(notes)}` : ""})`,
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

/** The request that opened the stream (`--input FILE`), a JSON document, where given. */
function requestOf(args: Arguments, io: Io): JsonValue | undefined {
  const file = args.values["input"] as string | undefined;
  if (file === undefined) return undefined;
  let bytes: Buffer;
  try {
    bytes = readFileSync(path.resolve(io.cwd, file));
  } catch (error) {
    throw new InputError({ file }, `cannot read the request: ${describeFileError(error)}`, "--input names the request's JSON file");
  }
  return readJson(bytes, file);
}

/** An option that is a whole number from `least` to `most`, where given. */
function wholeNumber(args: Arguments, name: string, least: number, most: number): number | undefined {
  const text = args.values[name] as string | undefined;
  if (text === undefined) return undefined;
  const value = /^[0-9]+$/.test(text) ? Number(text) : Number.NaN;
  if (!(value >= least && value <= most)) throw new UsageError(`--${name} is a whole number from ${least} to ${most}, not "${text}"`);
  return value;
}
