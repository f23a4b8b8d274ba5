// Assembler benchmark: the cost of one event as the history behind it grows. An AG-UI
// assembler holds a history of h events (h = 1,000, 8,000, 64,000), then takes more events
// of one kind, timed: one-operation STATE_DELTAs on the state that h deltas built, and tool
// calls (TOOL_CALL_START, three TOOL_CALL_ARGS, TOOL_CALL_END, each call in a message of its
// own) after h messages that each made one. The engine's goal is a cost per event that does
// not grow with h. Then a recording of what streams mostly carry, assembled, to see that the
// rest costs what it did; and the issue's two figures: 8,000 one-operation deltas, and 8,000
// tool calls, from nothing.
//
//   node bench/assemble.bench.js
//   BENCH_BASELINE=/path/to/other/generated/dist node bench/assemble.bench.js
//
// BENCH_BASELINE names another build of the generated package (its dist folder, whose own
// imports resolve from where it lies), measured beside this one in the same rounds, as
// ratios: how the engine compares with an older one on this machine, today. The history is
// given to both engines as the snapshots it builds (a STATE_SNAPSHOT, a MESSAGES_SNAPSHOT),
// so that an engine whose cost grows with it can still be asked at 64,000; the first event
// after it, where an engine may make its indexes, is timed apart. The issue's figures are
// built event by event. BENCH_ROUNDS (3) sets the rounds, each a fresh
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
    first: (h) => stateDeltas(h, 1),
    timed: (h) => stateDeltas(h, 20_000),
  },
  "a tool call (start, 3 args, end) after h messages with a tool call each": {
    history: (h) => [{ type: "MESSAGES_SNAPSHOT", messages: messagesOf(h) }],
    first: (h) => toolCalls(h + 100, 1),
    timed: (h) => toolCalls(h, 400),
  },
};

/** Pushes timed events until they run out or a fifth of a second has passed: the nanoseconds per event pushed. */
function timePerEvent(assembler, events) {
  const started = performance.now();
  let pushed = 0;
  while (pushed < events.length) {
    const until = Math.min(pushed + 10, events.length);
    pushAll(assembler, events.slice(pushed, until));
    pushed = until;
    if (performance.now() - started > 200) break;
  }
  return ((performance.now() - started) * 1e6) / pushed;
}

/**
 * Per engine, the median over the rounds of: the first events after the history (where
 * an engine makes what it looks things up with, once per snapshot), and the time per
 * timed event after them; the engines take turns in each round.
 */
function measure(history, first, timed) {
  const times = Object.fromEntries(Object.keys(engines).map((name) => [name, { first: [], timed: [] }]));
  for (let round = 0; round < ROUNDS; round++)
    for (const [name, engine] of Object.entries(engines)) {
      const assembler = engine.createAssembler();
      pushAll(assembler, history);
      const started = performance.now();
      pushAll(assembler, first);
      times[name].first.push(performance.now() - started);
      times[name].timed.push(timePerEvent(assembler, timed));
    }
  return Object.fromEntries(
    Object.entries(times).map(([name, { first, timed }]) => [name, { first: median(first), timed: median(timed) }]),
  );
}

const ns = (value) =>
  value >= 1e6 ? `${(value / 1e6).toFixed(2)} ms` : value >= 1e3 ? `${(value / 1e3).toFixed(1)} µs` : `${value.toFixed(0)} ns`;
const names = Object.keys(engines);

// Warmed up first, so that the first history measured is not also the first code compiled.
for (const { history, first, timed } of Object.values(SCENARIOS)) measure(history(1_000), first(1_000), timed(1_000));
console.log(
  `\nCost per event as the history grows (the median of ${ROUNDS} rounds, each timing events for a fifth of a second or ` +
    `until they run out; engines: ${names.join(", ")})\n`,
);
for (const [scenario, { history, first, timed }] of Object.entries(SCENARIOS)) {
  console.log(`${scenario}, per event after the first:\n`);
  console.log(
    `| engine | ${HISTORIES.map((h) => `h = ${h.toLocaleString("en")}`).join(" | ")} | ${HISTORIES.at(-1) / 1000}k / 1k | first event, h = 1k / 8k / 64k |`,
  );
  console.log(`| --- | ${HISTORIES.map(() => "--:").join(" | ")} | --: | --: |`);
  const results = HISTORIES.map((h) => measure(history(h), first(h), timed(h)));
  for (const name of names) {
    const row = results.map((result) => result[name].timed);
    const firsts = results.map((result) => `${result[name].first.toFixed(1)} ms`).join(" / ");
    console.log(`| ${name} | ${row.map(ns).join(" | ")} | ${(row.at(-1) / row[0]).toFixed(2)}× | ${firsts} |`);
  }
  if (engines.baseline !== undefined)
    console.log(
      `| baseline / ours | ${results.map((result) => `${(result.baseline.timed / result.ours.timed).toFixed(1)}×`).join(" | ")} | | |`,
    );
  console.log();
}

// What a stream mostly is, as bench/stream.bench.js records it: runs of four steps, each a
// text message of a few hundred deltas, a tool call with streamed arguments, its result and
// a state delta of three operations. Events parsed, so that this times assembly alone.
function recordedRun(run) {
  const events = [
    { type: "RUN_STARTED", threadId: "thread", runId: `run${run}` },
    {
      type: "STATE_SNAPSHOT",
      snapshot: { goal: "find the papers", plan: [1, 2, 3, 4].map((step) => ({ step, done: false })), progress: 0, documents: [] },
    },
  ];
  for (let step = 0; step < 4; step++) {
    const messageId = `msg${run}_${step}`;
    const toolCallId = `call${run}_${step}`;
    events.push({ type: "TEXT_MESSAGE_START", messageId, role: "assistant" });
    for (let i = 0; i < 300 + ((run * 7 + step * 13) % 200); i++)
      events.push({ type: "TEXT_MESSAGE_CONTENT", messageId, delta: ` word${i % 17}` });
    events.push({ type: "TEXT_MESSAGE_END", messageId });
    events.push({ type: "TOOL_CALL_START", toolCallId, toolCallName: "search_documents", parentMessageId: messageId });
    for (let i = 0; i < 12; i++) events.push({ type: "TOOL_CALL_ARGS", toolCallId, delta: `{"q${i}":` });
    events.push({ type: "TOOL_CALL_END", toolCallId });
    events.push({ type: "TOOL_CALL_RESULT", messageId: `result${run}_${step}`, toolCallId, content: "[]", role: "tool" });
    events.push({
      type: "STATE_DELTA",
      delta: [
        { op: "replace", path: "/progress", value: (step + 1) / 4 },
        { op: "replace", path: `/plan/${step}/done`, value: true },
        { op: "add", path: "/documents/-", value: { id: `doc${run}_${step}`, title: "a paper" } },
      ],
    });
  }
  events.push({ type: "RUN_FINISHED", threadId: "thread", runId: `run${run}` });
  return events;
}

{
  const runs = Array.from({ length: 100 }, (_, run) => recordedRun(run));
  const count = runs.reduce((sum, events) => sum + events.length, 0);
  const times = Object.fromEntries(names.map((name) => [name, []]));
  for (let round = 0; round < ROUNDS * 3; round++)
    for (const name of names) {
      const started = performance.now();
      for (const events of runs) pushAll(engines[name].createAssembler(), events);
      times[name].push(((performance.now() - started) * 1e6) / count);
    }
  console.log(
    `A recording as bench/stream.bench.js's: ${count.toLocaleString("en")} events in ${runs.length} runs, assembled; the median of ${ROUNDS * 3} rounds\n`,
  );
  console.log(`| engine | ns per event |${engines.baseline === undefined ? "" : " baseline / ours, the median of the rounds' ratios |"}`);
  console.log(`| --- | --: |${engines.baseline === undefined ? "" : " --: |"}`);
  for (const name of names) {
    const ratio =
      engines.baseline === undefined ? "" : ` ${median(times.baseline.map((time, round) => time / times.ours[round])).toFixed(2)}× |`;
    console.log(`| ${name} | ${median(times[name]).toFixed(0)} |${name === "ours" ? ratio : engines.baseline === undefined ? "" : " |"}`);
  }
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
