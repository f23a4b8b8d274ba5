// Stream benchmark: bytes of a recorded AG-UI server-sent-event stream to decoded, verified
// and assembled events (the pipeline), side by side in one process with the floor
// (eventsource-parser and JSON.parse) and with @ag-ui/client's own pipeline
// (HttpAgent.runAgent on the same bytes), each stage's share beside; then the reader and
// verifier's time per event from ten thousand to a million events, and a gigabyte stream
// read with flat memory (without assembly, which keeps what it builds).
//
//   node --expose-gc bench/stream.bench.js    # all three parts, about a minute
//   node --expose-gc bench/stream.bench.js --only=throughput|linear|gigabyte
//
// BENCH_ROUNDS (5) sets the passes, BENCH_STREAM_MB (16) the recording's size, and
// BENCH_BASELINE the generated/dist folder of another build (a copy made before a change,
// beside a node_modules that resolves its imports): the throughput part then measures ours
// against it, pipeline by pipeline, for a before/after ratio (--only=baseline: that
// alone). The recording is made here, deterministically: runs as an agent sends them (RUN_STARTED, a
// state snapshot, then four steps of a streamed text message, a tool call with streamed
// arguments, its result and a state delta; RUN_FINISHED), each run one HTTP response, its
// bytes cut in 16 KiB chunks as a fetch body delivers them. @ag-ui/client reads each
// response as HttpAgent does, through a `fetch` that returns it. Part of `npm run bench`.
import path from "node:path";
import { createParser } from "eventsource-parser";
import { HttpAgent, enforceEvents, transformChunks, verifyEvents } from "@ag-ui/client";
import { random } from "./random.js";

const REPO = path.resolve(import.meta.dirname, "..");
const dist = (file) => import(path.join(REPO, "generated/dist", file));
const ours = await dist("ag-ui/stream.js");
const { readEvents } = await dist("stream/read.js");
const BASELINE = process.env.BENCH_BASELINE;
const baseline = BASELINE === undefined ? undefined : await import(path.resolve(BASELINE, "ag-ui/stream.js"));

const ONLY = process.argv
  .slice(2)
  .find((arg) => arg.startsWith("--only="))
  ?.slice("--only=".length);
const RUNS_OF = (part) => ONLY === undefined || ONLY === part;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const CHUNK = 16 * 1024;
const encoder = new TextEncoder();

// ---------------------------------------------------------------------------------------
// The recording.

// Tokens as a model streams them: mostly a word with its leading space, some punctuation,
// line breaks and characters outside ASCII (which chunk boundaries then cut inside).
const WORDS = (
  "the of and to in a is that for it as was with be by on not he this are or his from at which but have an they you were " +
  "her she there been one all we their has would when if so no will more can said who what about its into than them only " +
  "state agent stream event message tool call result search query document summary request response protocol server client " +
  "café naïve déjà façade résumé Zürich São Paulo 東京 데이터 — “quoted” ‘single’ … 🚀 ✅"
).split(" ");
const PUNCTUATION = [",", ".", ":", ";", "!", "?", "\n", "\n\n", " (", ")", " `", "`", ' "', '"'];

function tokens(next, count) {
  const out = [];
  for (let i = 0; i < count; i++)
    out.push(next() < 0.12 ? PUNCTUATION[Math.floor(next() * PUNCTUATION.length)] : ` ${WORDS[Math.floor(next() * WORDS.length)]}`);
  return out;
}

/** An id of the length real ones have (a ULID-like tail). */
function id(prefix, next) {
  const alphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
  let tail = "";
  for (let i = 0; i < 26; i++) tail += alphabet[Math.floor(next() * alphabet.length)];
  return `${prefix}_${tail}`;
}

/** Fragments of a text as a model streams a tool call's arguments: a few characters each. */
function fragments(text, next) {
  const out = [];
  for (let at = 0; at < text.length;) {
    const size = 2 + Math.floor(next() * 9);
    out.push(text.slice(at, at + size));
    at += size;
  }
  return out;
}

/** The events of one run: `steps` steps, each a streamed text message, a tool call with its result, a state delta. */
function runEvents(seed, steps = 4) {
  const next = random(seed);
  const threadId = id("thread", next);
  const runId = id("run", next);
  const events = [
    { type: "RUN_STARTED", threadId, runId, timestamp: 1_767_225_600_000 + seed },
    {
      type: "STATE_SNAPSHOT",
      snapshot: {
        goal: tokens(next, 12).join("").trim(),
        plan: Array.from({ length: steps }, (_, i) => ({ step: i + 1, title: tokens(next, 5).join("").trim(), done: false })),
        progress: 0,
        documents: [],
      },
    },
  ];
  for (let step = 0; step < steps; step++) {
    const stepName = `step-${step + 1}`;
    const messageId = id("msg", next);
    const toolCallId = id("call", next);
    events.push({ type: "STEP_STARTED", stepName });
    events.push({ type: "TEXT_MESSAGE_START", messageId, role: "assistant" });
    for (const delta of tokens(next, 250 + Math.floor(next() * 250))) events.push({ type: "TEXT_MESSAGE_CONTENT", messageId, delta });
    events.push({ type: "TEXT_MESSAGE_END", messageId });
    const args = JSON.stringify({
      query: tokens(next, 8).join("").trim(),
      filters: { year: 2020 + Math.floor(next() * 6), tags: tokens(next, 3).map((token) => token.trim()), language: "en" },
      limit: 10,
    });
    events.push({ type: "TOOL_CALL_START", toolCallId, toolCallName: "search_documents", parentMessageId: messageId });
    for (const delta of fragments(args, next)) events.push({ type: "TOOL_CALL_ARGS", toolCallId, delta });
    events.push({ type: "TOOL_CALL_END", toolCallId });
    const hits = Array.from({ length: 5 }, () => ({
      id: id("doc", next),
      title: tokens(next, 6).join("").trim(),
      snippet: tokens(next, 30).join("").trim(),
      score: Math.round(next() * 1000) / 1000,
    }));
    events.push({ type: "TOOL_CALL_RESULT", messageId: id("msg", next), toolCallId, content: JSON.stringify(hits), role: "tool" });
    events.push({
      type: "STATE_DELTA",
      delta: [
        { op: "replace", path: "/progress", value: (step + 1) / steps },
        { op: "replace", path: `/plan/${step}/done`, value: true },
        { op: "add", path: "/documents/-", value: { id: hits[0].id, title: hits[0].title } },
      ],
    });
    events.push({ type: "STEP_FINISHED", stepName });
  }
  events.push({ type: "RUN_FINISHED", threadId, runId, timestamp: 1_767_225_600_000 + seed + 1 });
  return events;
}

const sse = (events) => events.map((event) => `data: ${JSON.stringify(event)}\n\n`).join("");

/** A response's bytes cut as a fetch body delivers them. */
function chunked(bytes, size = CHUNK) {
  const chunks = [];
  for (let at = 0; at < bytes.length; at += size) chunks.push(bytes.slice(at, at + size));
  return chunks;
}

/** The bytes of chunks, one after another. */
function concatenated(chunks) {
  const bytes = new Uint8Array(chunks.reduce((size, chunk) => size + chunk.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return bytes;
}

/** The run of a seed: the bytes of one response in chunks, and how many events it holds. */
function recordedRun(seed) {
  const events = runEvents(seed);
  const bytes = encoder.encode(sse(events));
  return { chunks: chunked(bytes), bytes: bytes.length, events: events.length, steps: 4 };
}

/** A fetch response over chunks, pulled one at a time as a network body is. */
function response(chunks) {
  let at = 0;
  const body = new ReadableStream({
    pull(controller) {
      if (at < chunks.length) controller.enqueue(chunks[at++]);
      else controller.close();
    },
  });
  return new Response(body, { headers: { "content-type": "text/event-stream" } });
}

/** Chunks of `size` bytes, fresh each, cut from the pieces as they come; `sample` is called every 64 chunks. */
async function* cut(pieces, size, sample = () => {}) {
  let chunk = new Uint8Array(size);
  let filled = 0;
  let count = 0;
  for (const piece of pieces)
    for (let at = 0; at < piece.length;) {
      const taken = Math.min(size - filled, piece.length - at);
      chunk.set(piece.subarray(at, at + taken), filled);
      filled += taken;
      at += taken;
      if (filled === size) {
        yield chunk;
        chunk = new Uint8Array(size);
        filled = 0;
        if (++count % 64 === 0) sample();
      }
    }
  if (filled > 0) yield chunk.subarray(0, filled);
  sample();
}

// ---------------------------------------------------------------------------------------
// The pipelines: each reads one response and returns how many events it saw.

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Every event of a stream, or the first fault or violation, thrown: a pipeline that fails measures nothing. */
async function readAndVerify(source, options, { readStream, createVerifier } = ours) {
  const verifier = createVerifier();
  let count = 0;
  for await (const result of readStream(source, options)) {
    if (!result.ok) throw new Error(`event ${result.index}: ${result.fault ?? JSON.stringify(result.errors)}`);
    const violation = verifier.push(result.value);
    if (violation !== undefined) throw new Error(`${violation.rule} at ${violation.index}: ${violation.message}`);
    count++;
  }
  const violation = verifier.end();
  if (violation !== undefined) throw new Error(`${violation.rule}: ${violation.message}`);
  return count;
}

/** As readAndVerify, each event assembled too; throws unless the snapshot is what the run builds. */
async function readVerifyAndAssemble(run, { readStream, createVerifier, createAssembler } = ours) {
  const verifier = createVerifier();
  const assembler = createAssembler();
  let count = 0;
  for await (const result of readStream(response(run.chunks).body)) {
    if (!result.ok) throw new Error(`event ${result.index}: ${result.fault ?? JSON.stringify(result.errors)}`);
    const violation = verifier.push(result.value) ?? assembler.push(result.value);
    if (violation !== undefined) throw new Error(`${violation.rule} at ${violation.index}: ${violation.message}`);
    count++;
  }
  const violation = verifier.end();
  if (violation !== undefined) throw new Error(`${violation.rule}: ${violation.message}`);
  assembled(assembler.snapshot(), run, "ours");
  return count;
}

/**
 * As readVerifyAndAssemble, through TransformStreams: the body piped through decodeStream,
 * verifyStream and assembleStream, or through checkStream, the three in one.
 */
async function pipedVerifyAndAssemble(run, piped, { decodeStream, verifyStream, assembleStream, checkStream } = ours) {
  const assembly = piped ? assembleStream() : checkStream();
  const body = response(run.chunks).body;
  const items = piped ? body.pipeThrough(decodeStream()).pipeThrough(verifyStream()).pipeThrough(assembly) : body.pipeThrough(assembly);
  let count = 0;
  for await (const item of items) {
    if ("rule" in item) throw new Error(`${item.rule} at ${item.index}: ${item.message}`);
    if (!item.ok) throw new Error(`event ${item.index}: ${item.fault ?? JSON.stringify(item.errors)}`);
    count++;
  }
  assembled(assembly.snapshot(), run, "ours as TransformStreams");
  return count;
}

/** What a run of the recording builds: per step an assistant message with its tool call and the tool's result, the state patched. */
function assembled({ messages, state }, run, who) {
  if (messages.length !== run.steps * 2 || state.progress !== 1 || state.documents.length !== run.steps)
    throw new Error(`${who} assembled something else`);
}

async function readOnly(source, options, { readStream } = ours) {
  let count = 0;
  for await (const result of readStream(source, options)) {
    if (!result.ok) throw new Error(`event ${result.index}: ${result.fault ?? JSON.stringify(result.errors)}`);
    count++;
  }
  return count;
}

/** eventsource-parser over a fetch body, as its README reads one: decoded text fed in, one callback per event. */
async function eventsourceParser(body, parse) {
  let count = 0;
  const parser = createParser({
    onEvent(event) {
      if (parse) JSON.parse(event.data);
      count++;
    },
  });
  const decoder = new TextDecoder();
  const reader = body.getReader();
  while (true) {
    const { done, value } = await reader.read();
    if (done) break;
    parser.feed(decoder.decode(value, { stream: true }));
  }
  parser.feed(decoder.decode());
  return count;
}

const drain = (observable) =>
  new Promise((resolve, reject) => {
    let count = 0;
    observable.subscribe({ next: () => count++, error: reject, complete: () => resolve(count) });
  });

const RUN_INPUT = { threadId: "bench", runId: "bench", state: {}, messages: [], tools: [], context: [], forwardedProps: {} };
const agentOf = (run) => new HttpAgent({ url: "http://127.0.0.1/bench", fetch: async () => response(run.chunks) });
// Identity decoding: what readEvents costs without decodeEvent (framing, JSON.parse, the async generator).
const identity = (json) => ({ ok: true, value: json });
const SSE = { framing: "sse", jsonRpc: false };

const FLOOR = "floor: eventsource-parser + JSON.parse";
const OURS = "ours: readStream (strict) + createVerifier().push + createAssembler().push";
const PIPED = "ours as TransformStreams (decode + verify + assemble), piped: decodeStream, verifyStream, assembleStream";
const FUSED = "ours as TransformStreams (decode + verify + assemble), in one: checkStream";
const OURS_VERIFY = "ours without assembly: readStream (strict) + createVerifier().push";
const CLIENT_VERIFY = "@ag-ui/client: run + enforceEvents + transformChunks + verifyEvents";
const CLIENT = "@ag-ui/client: HttpAgent.runAgent (all of it)";
const PIPELINES = {
  "eventsource-parser alone, no JSON.parse": (run) => eventsourceParser(response(run.chunks).body, false),
  [FLOOR]: (run) => eventsourceParser(response(run.chunks).body, true),
  "readEvents, no decoding (our framer + JSON.parse)": async (run) => {
    let count = 0;
    for await (const _ of readEvents(response(run.chunks).body, identity, SSE)) count++;
    return count;
  },
  "readStream, tolerant": (run) => readOnly(response(run.chunks).body, { mode: "tolerant" }),
  "readStream, strict": (run) => readOnly(response(run.chunks).body),
  [OURS_VERIFY]: (run) => readAndVerify(response(run.chunks).body),
  [OURS]: (run) => readVerifyAndAssemble(run),
  [PIPED]: (run) => pipedVerifyAndAssemble(run, true),
  [FUSED]: (run) => pipedVerifyAndAssemble(run, false),
  "@ag-ui/client: HttpAgent.run (its SSE parsing)": (run) => drain(agentOf(run).run(RUN_INPUT)),
  [CLIENT_VERIFY]: (run) => drain(verifyEvents()(transformChunks()(enforceEvents()(agentOf(run).run(RUN_INPUT))))),
  [CLIENT]: async (run) => {
    const agent = agentOf(run);
    await agent.runAgent();
    assembled(agent, run, "@ag-ui/client");
    return run.events;
  },
};

/** One pass of a pipeline over the runs, in milliseconds. */
async function pass(pipeline, runs) {
  const started = performance.now();
  for (const run of runs) await pipeline(run);
  return performance.now() - started;
}

/**
 * The median pass of each pipeline, after one pass that checks what each saw, and each
 * round's passes. Rounds take the pipelines in turn, so that a machine busy for a while
 * slows them alike.
 */
async function medianPasses(pipelines, runs, rounds) {
  for (const pipeline of Object.values(pipelines))
    for (const run of runs) {
      const count = await pipeline(run);
      if (count !== run.events) throw new Error(`saw ${count} events of ${run.events}`);
    }
  const times = Object.fromEntries(Object.keys(pipelines).map((label) => [label, []]));
  for (let round = 0; round < rounds; round++)
    for (const [label, pipeline] of Object.entries(pipelines)) times[label].push(await pass(pipeline, runs));
  const medians = Object.fromEntries(Object.entries(times).map(([label, values]) => [label, median(values)]));
  // Beside the medians, not among them: the rounds, for speedup.
  return Object.defineProperty(medians, "rounds", { value: times });
}

/**
 * How much faster one pipeline is than another: the median over the rounds of the ratio
 * of their passes in the round. On a machine whose speed drifts from one round to the
 * next (this one's varies by a third within minutes), passes of the same round compare
 * like with like, where the ratio of two medians may set a fast round against a slow one.
 */
const speedup = (measured, slower, faster) => median(measured.rounds[slower].map((time, round) => time / measured.rounds[faster][round]));

const mb = (bytes) => `${(bytes / 1e6).toFixed(1)} MB`;
const perSecond = (value) => (value >= 1e6 ? `${(value / 1e6).toFixed(2)}M/s` : `${(value / 1e3).toFixed(0)}k/s`);

/** The recording: runs until BENCH_STREAM_MB, with their bytes and events counted. */
function recording() {
  const target = Number(process.env.BENCH_STREAM_MB ?? 16) * 1e6;
  const runs = [];
  let bytes = 0;
  let events = 0;
  for (let seed = 1; bytes < target; seed++) {
    const run = recordedRun(seed);
    runs.push(run);
    bytes += run.bytes;
    events += run.events;
  }
  return { runs, bytes, events };
}

if (RUNS_OF("throughput")) {
  const { runs, bytes, events } = recording();
  console.log(
    `\nThroughput: a recorded AG-UI stream of ${mb(bytes)}, ${events.toLocaleString("en")} events in ${runs.length} runs ` +
      `(one response each, in ${CHUNK / 1024} KiB chunks); the median of ${ROUNDS} passes\n`,
  );
  const measured = await medianPasses(PIPELINES, runs, ROUNDS);
  console.log("| pipeline | MB/s | events/s | ns per event | vs the floor | vs @ag-ui/client runAgent |");
  console.log("| --- | --: | --: | --: | --: | --: |");
  for (const [label, ms] of Object.entries(measured))
    console.log(
      `| ${label} | ${(bytes / 1e3 / ms).toFixed(1)} | ${perSecond((events / ms) * 1e3)} | ${((ms * 1e6) / events).toFixed(0)} | ` +
        `${(measured[FLOOR] / ms).toFixed(2)}× | ${(measured[CLIENT] / ms).toFixed(1)}× |`,
    );
  const goals = [
    ["ours ≥ 5× @ag-ui/client's pipeline (HttpAgent.runAgent)", speedup(measured, CLIENT, OURS), 5],
    ["ours ≥ 0.5× the floor (eventsource-parser + JSON.parse)", speedup(measured, FLOOR, OURS), 0.5],
    // The same stages as web streams, within 15% of the async iterable's speed in one stage;
    // piped, each stage costs a pipe's read and write per event (some 2 µs in Node 20).
    ["ours in one TransformStream (checkStream) ≥ 0.87× ours as an async iterable (readStream)", speedup(measured, OURS, FUSED), 0.87],
    ["ours in three TransformStreams piped vs ours as an async iterable", speedup(measured, OURS, PIPED)],
    // For reference: both pipelines without assembly (@ag-ui/client's apply stage, our assembler).
    ["ours without assembly vs @ag-ui/client without its apply stage", speedup(measured, CLIENT_VERIFY, OURS_VERIFY)],
    ["ours without assembly vs the floor", speedup(measured, FLOOR, OURS_VERIFY)],
  ];
  console.log("\n| goal (the median of the rounds' ratios) | measured | |\n| --- | --: | --- |");
  for (const [goal, value, bound] of goals)
    console.log(`| ${goal} | ${value.toFixed(2)}× | ${bound === undefined ? "–" : value >= bound ? "met" : "missed"} |`);
}

// Before and after: each of our pipelines against the same one of the baseline build, in
// pairs whose order alternates by round (a pass that runs second finds the first's garbage
// and warmed code), four times the rounds, as the ratio's noise is most of a small change.
if ((RUNS_OF("throughput") || ONLY === "baseline") && baseline !== undefined) {
  const { runs, events } = recording();
  // An agent that flushes each event sends about one a chunk: the same runs in 128-byte
  // chunks, where what the reader does per chunk weighs as much as what it does per event.
  const small = new Map(runs.map((run) => [run, chunked(concatenated(run.chunks), 128)]));
  const pairs = {
    "readStream, strict": [(run) => readOnly(response(run.chunks).body), (run) => readOnly(response(run.chunks).body, undefined, baseline)],
    "readStream, strict, in 128-byte chunks": [
      (run) => readOnly(response(small.get(run)).body),
      (run) => readOnly(response(small.get(run)).body, undefined, baseline),
    ],
    [OURS_VERIFY]: [
      (run) => readAndVerify(response(run.chunks).body),
      (run) => readAndVerify(response(run.chunks).body, undefined, baseline),
    ],
    [OURS]: [(run) => readVerifyAndAssemble(run), (run) => readVerifyAndAssemble(run, baseline)],
  };
  const rounds = ROUNDS * 4;
  console.log(`\nBefore and after: ours against BENCH_BASELINE (${BASELINE}), the median of ${rounds} rounds' ratios\n`);
  console.log("| pipeline | ours, ns per event | baseline, ns per event | baseline time / ours |\n| --- | --: | --: | --: |");
  for (const [label, [after, before]] of Object.entries(pairs)) {
    for (const pipeline of [after, before])
      for (const run of runs) if ((await pipeline(run)) !== run.events) throw new Error(`${label} saw another count of events`);
    const times = { after: [], before: [] };
    for (let round = 0; round < rounds; round++)
      for (const side of round % 2 === 0 ? ["after", "before"] : ["before", "after"])
        times[side].push(await pass(side === "after" ? after : before, runs));
    const ratio = median(times.before.map((time, round) => time / times.after[round]));
    const ns = (side) => ((median(times[side]) * 1e6) / events).toFixed(0);
    console.log(`| ${label} | ${ns("after")} | ${ns("before")} | ${ratio.toFixed(3)}× |`);
  }
}

// How the size of a run weighs: @ag-ui/client's apply stage clones the messages it has
// assembled on every event, so its time per event grows with the run, and the recording's
// runs of four steps (about 170 kB) are a kind setting for it.
if (RUNS_OF("throughput")) {
  console.log(
    `\nOne run of n steps, read by ours and by @ag-ui/client's HttpAgent.runAgent: time per event, the median of ${ROUNDS} reads\n`,
  );
  console.log("| steps | kB | events | ours | @ag-ui/client | ratio |");
  console.log("| --: | --: | --: | --: | --: | --: |");
  for (const steps of [1, 4, 16, 64]) {
    const events = runEvents(1, steps);
    const bytes = encoder.encode(sse(events));
    const run = { chunks: chunked(bytes), bytes: bytes.length, events: events.length, steps };
    const measured = await medianPasses({ ours: PIPELINES[OURS], client: PIPELINES[CLIENT] }, [run], ROUNDS);
    const ns = (label) => (measured[label] * 1e6) / run.events;
    console.log(
      `| ${steps} | ${(run.bytes / 1e3).toFixed(0)} | ${run.events.toLocaleString("en")} | ${ns("ours").toFixed(0)} ns | ` +
        `${ns("client").toFixed(0)} ns | ${(measured.client / measured.ours).toFixed(1)}× |`,
    );
  }
}

// ---------------------------------------------------------------------------------------
// Linear time and flat memory.

/**
 * The highest resident set and heap seen, sampled as the source is read (a loop of
 * promises that settle at once leaves no turn to timers). The heap used counts garbage
 * not yet collected; run with --expose-gc (as `npm run bench` does), and a memory
 * pass collects first at every fourth sample, which gives the most the heap really holds.
 */
function memoryPeaks({ collect = false } = {}) {
  const peaks = { rss: 0, heap: 0, live: 0 };
  let samples = 0;
  return {
    peaks,
    sample() {
      const { rss, heapUsed } = process.memoryUsage();
      peaks.rss = Math.max(peaks.rss, rss);
      peaks.heap = Math.max(peaks.heap, heapUsed);
      if (collect && globalThis.gc !== undefined && samples++ % 4 === 0) {
        globalThis.gc();
        peaks.live = Math.max(peaks.live, process.memoryUsage().heapUsed);
      }
    },
  };
}
const live = (peaks) => (globalThis.gc === undefined ? "– (run with --expose-gc)" : mb(peaks.live));

/** One run of a single text message of `n` deltas, made as it is read, in 16 KiB chunks. */
function* deltaRun(n) {
  const next = random(7);
  const messageId = id("msg", next);
  const block = 1000;
  const deltas = tokens(next, block).map((delta) => ({ type: "TEXT_MESSAGE_CONTENT", messageId, delta }));
  yield encoder.encode(
    sse([
      { type: "RUN_STARTED", threadId: "thread_1", runId: "run_1" },
      { type: "TEXT_MESSAGE_START", messageId, role: "assistant" },
    ]),
  );
  const full = encoder.encode(sse(deltas));
  for (let i = 0; i < Math.floor(n / block); i++) yield full;
  yield encoder.encode(sse(deltas.slice(0, n % block)));
  yield encoder.encode(
    sse([
      { type: "TEXT_MESSAGE_END", messageId },
      { type: "RUN_FINISHED", threadId: "thread_1", runId: "run_1" },
    ]),
  );
}

if (RUNS_OF("linear")) {
  console.log(
    `\nLinear time: one run of a text message of n TEXT_MESSAGE_CONTENT deltas, read and verified; the median of ${ROUNDS} reads ` +
      `(${Math.min(ROUNDS, 3)} of a million); RSS ${mb(process.memoryUsage().rss)} before\n`,
  );
  console.log("| n | MB | per event | MB/s | peak RSS | peak heap used | peak heap after collection |");
  console.log("| --: | --: | --: | --: | --: | --: | --: |");
  await readAndVerify(cut(deltaRun(100_000), CHUNK)); // warm-up
  const perEvent = [];
  for (const n of [10_000, 100_000, 1_000_000]) {
    let bytes = 0;
    for (const piece of deltaRun(n)) bytes += piece.length;
    const times = [];
    const memory = memoryPeaks();
    for (let round = 0; round < (n < 1_000_000 ? ROUNDS : Math.min(ROUNDS, 3)); round++) {
      const started = performance.now();
      const count = await readAndVerify(cut(deltaRun(n), CHUNK, memory.sample));
      times.push(performance.now() - started);
      if (count !== n + 4) throw new Error(`saw ${count} events of ${n + 4}`);
    }
    const ms = median(times);
    perEvent.push((ms * 1e6) / (n + 4));
    const collected = memoryPeaks({ collect: true });
    await readAndVerify(cut(deltaRun(n), CHUNK, collected.sample));
    memory.peaks.live = collected.peaks.live;
    console.log(
      `| ${n.toLocaleString("en")} | ${(bytes / 1e6).toFixed(1)} | ${perEvent.at(-1).toFixed(0)} ns | ${(bytes / 1e3 / ms).toFixed(1)} | ` +
        `${mb(memory.peaks.rss)} | ${mb(memory.peaks.heap)} | ${live(memory.peaks)} |`,
    );
  }
  console.log(`\nTime per event at a million deltas: ${(perEvent.at(-1) / perEvent[0]).toFixed(2)}× its time at ten thousand.`);
}

/**
 * A gigabyte of runs as the recording's, made as it is read: one run's bytes, each id's
 * last eight characters rewritten with the run's number, so that no two runs share an id.
 */
function* gigabyte(total) {
  const template = encoder.encode(sse(runEvents(1)));
  const text = new TextDecoder().decode(template);
  const places = [];
  for (const match of text.matchAll(/(?:thread|run|msg|call|doc)_[0-9A-Z]{26}/g))
    places.push(encoder.encode(text.slice(0, match.index)).length + match[0].length - 8);
  for (let serial = 0, made = 0; made < total; serial++, made += template.length) {
    const run = template.slice();
    const digits = encoder.encode(serial.toString(32).toUpperCase().padStart(8, "0"));
    for (const place of places) run.set(digits, place);
    yield run;
  }
}

if (RUNS_OF("gigabyte")) {
  const total = 2 ** 30;
  const size = 64 * 1024;
  const template = runEvents(1).length;
  const runBytes = encoder.encode(sse(runEvents(1))).length;
  const events = Math.ceil(total / runBytes) * template;
  const bytes = Math.ceil(total / runBytes) * runBytes;
  console.log(`\nA stream of ${mb(bytes)} (${events.toLocaleString("en")} events) made as it is read, in 64 KiB chunks\n`);
  const before = process.memoryUsage();
  // One pass only: the collections it makes every 16 MB (with --expose-gc) cost about a second.
  const memory = memoryPeaks({ collect: true });
  let started = performance.now();
  const count = await readAndVerify(cut(gigabyte(total), size, memory.sample));
  const ms = performance.now() - started;
  started = performance.now();
  for await (const _ of cut(gigabyte(total), size));
  const making = performance.now() - started;
  if (count !== events) throw new Error(`saw ${count} events of ${events}`);
  console.log(
    "| read and verified in | MB/s | events/s | making the chunks alone | RSS before → peak | heap used before → peak | peak heap after collection |",
  );
  console.log("| --: | --: | --: | --: | --: | --: | --: |");
  console.log(
    `| ${(ms / 1e3).toFixed(1)} s | ${(bytes / 1e3 / ms).toFixed(1)} | ${perSecond((events / ms) * 1e3)} | ${(making / 1e3).toFixed(1)} s | ` +
      `${mb(before.rss)} → ${mb(memory.peaks.rss)} | ${mb(before.heapUsed)} → ${mb(memory.peaks.heap)} | ${live(memory.peaks)} |`,
  );
}
