// Assembler benchmark: the cost of one event as the history behind it grows. An AG-UI
// assembler holds a history of h events (h = 1,000, 8,000, 64,000), then takes more events
// of one kind, timed: one-operation STATE_DELTAs on the state that h deltas built, and tool
// calls (TOOL_CALL_START, three TOOL_CALL_ARGS, TOOL_CALL_END, each call in a message of its
// own) after h messages that each made one. The engine's goal is a cost per event that does
// not grow with h. Then the issue's two figures: 8,000 one-operation deltas, and 8,000 tool
// calls, from nothing.
//
//   node bench/assemble.bench.js
//   BENCH_BASELINE=/path/to/other/generated/dist node bench/assemble.bench.js
//
// BENCH_BASELINE names another build of the generated package (its dist folder, whose own
// imports resolve from where it lies), measured beside this one in the same rounds, as
// ratios: how the engine compares with an older one on this machine, today. The history is
// given to both engines as the snapshots it builds (a STATE_SNAPSHOT, a MESSAGES_SNAPSHOT),
// so that an engine whose cost grows with it can still be asked at 64,000; the issue's
// figures are built event by event. BENCH_ROUNDS (3) sets the rounds, each a fresh
// assembler per engine, the engines in turn. Part of `npm run bench`.
import path from "node:path";

const REPO = path.resolve(import.meta.dirname, "..");
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const HISTORIES = [1_000, 8_000, 64_000];

const engines = { ours: await import(path.join(REPO, "generated/dist/ag-ui/stream.js")) };
if (process.env.BENCH_BASELINE !== undefined)
  engines.baseline = await import(path.join(path.resolve(process.env.BENCH_BASELINE), "ag-ui/stream.js"));

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Pushes the events, throwing at the first violation: an engine that refuses measures nothing. */
function pushAll(assembler, events) {
  for (const event of events) {
    const violation = assembler.push(event);
    if (violation !== undefined) throw new Error(`${violation.rule} at ${violation.index}: ${violation.message}`);
  }
}

/** The state h one-operation deltas build: a member each, as an agent's plan or notes grow. */
const stateOf = (h) =>
  Object.fromEntries(Array.from({ length: h }, (_, i) => [`note${i}`, { step: i, title: `step ${i} of the plan`, done: false }]));

/** One-operation deltas on that state: each marks a note done, the state's size unchanged. */
const stateDeltas = (h, count) =>
  Array.from({ length: count }, (_, i) => ({
    type: "STATE_DELTA",
    delta: [{ op: "replace", path: `/note${(i * 7919) % h}/done`, value: true }],
  }));

/** The messages h tool calls made: an assistant message each, holding its call. */
const messagesOf = (h) =>
  Array.from({ length: h }, (_, i) => ({
    id: `msg${i}`,
    role: "assistant",
    toolCalls: [{ id: `call${i}`, type: "function", function: { name: "search", arguments: '{"query":"x"}' } }],
  }));

/** `count` tool calls after the history, each in a message of its own: start, three argument fragments, end. */
function toolCalls(from, count) {
  const events = [];
  for (let i = from; i < from + count; i++) {
    const toolCallId = `call${i}`;
    events.push({ type: "TOOL_CALL_START", toolCallId, toolCallName: "search", parentMessageId: `msg${i}` });
    for (const delta of ['{"query":', '"agent', ' streams"}']) events.push({ type: "TOOL_CALL_ARGS", toolCallId, delta });
    events.push({ type: "TOOL_CALL_END", toolCallId });
  }
  return events;
}

const SCENARIOS = {
  "one-operation STATE_DELTA on the state h deltas built": {
    history: (h) => [{ type: "STATE_SNAPSHOT", snapshot: stateOf(h) }],
    timed: (h) => stateDeltas(h, 400),
  },
  "a tool call (start, 3 args, end) after h messages with a tool call each": {
    history: (h) => [{ type: "MESSAGES_SNAPSHOT", messages: messagesOf(h) }],
    timed: (h) => toolCalls(h, 100),
  },
};

/** Nanoseconds per timed event, the median of the rounds, per engine; the engines take turns in each round. */
function measure(history, timed) {
  const times = Object.fromEntries(Object.keys(engines).map((name) => [name, []]));
  for (let round = 0; round < ROUNDS; round++)
    for (const [name, engine] of Object.entries(engines)) {
      const assembler = engine.createAssembler();
      pushAll(assembler, history);
      const started = performance.now();
      pushAll(assembler, timed);
      times[name].push(((performance.now() - started) * 1e6) / timed.length);
    }
  return Object.fromEntries(Object.entries(times).map(([name, values]) => [name, median(values)]));
}

const ns = (value) =>
  value >= 1e6 ? `${(value / 1e6).toFixed(2)} ms` : value >= 1e3 ? `${(value / 1e3).toFixed(1)} µs` : `${value.toFixed(0)} ns`;
const names = Object.keys(engines);

console.log(`\nCost per event as the history grows (the median of ${ROUNDS} rounds; engines: ${names.join(", ")})\n`);
for (const [scenario, { history, timed }] of Object.entries(SCENARIOS)) {
  console.log(`${scenario}:\n`);
  console.log(`| engine | ${HISTORIES.map((h) => `h = ${h.toLocaleString("en")}`).join(" | ")} | ${HISTORIES.at(-1) / 1000}k / 1k |`);
  console.log(`| --- | ${HISTORIES.map(() => "--:").join(" | ")} | --: |`);
  const results = HISTORIES.map((h) => measure(history(h), timed(h)));
  for (const name of names) {
    const row = results.map((result) => result[name]);
    console.log(`| ${name} | ${row.map(ns).join(" | ")} | ${(row.at(-1) / row[0]).toFixed(2)}× |`);
  }
  if (engines.baseline !== undefined)
    console.log(`| baseline / ours | ${results.map((result) => `${(result.baseline / result.ours).toFixed(1)}×`).join(" | ")} | |`);
  console.log();
}

// The issue's figures, event by event from an empty assembler: once per engine.
const ISSUE = {
  "8,000 one-operation STATE_DELTAs, each adding a member": Array.from({ length: 8_000 }, (_, i) => ({
    type: "STATE_DELTA",
    delta: [{ op: "add", path: `/note${i}`, value: { step: i, title: `step ${i} of the plan`, done: false } }],
  })),
  "8,000 tool calls (start, 3 args, end), each in a message of its own": toolCalls(0, 8_000),
};
console.log(`| from nothing | ${names.join(" | ")} |`);
console.log(`| --- | ${names.map(() => "--:").join(" | ")} |`);
for (const [label, events] of Object.entries(ISSUE)) {
  const row = names.map((name) => {
    const assembler = engines[name].createAssembler();
    const started = performance.now();
    pushAll(assembler, events);
    return `${((performance.now() - started) / 1e3).toFixed(3)} s`;
  });
  console.log(`| ${label} | ${row.join(" | ")} |`);
}
