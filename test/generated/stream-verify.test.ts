import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Event } from "../../generated/src/ag-ui/index.js";
import type { AgentStreamEvent } from "../../generated/src/gtm-agent/index.js";
import { createAssembler as createGtmAssembler, createVerifier as createGtmVerifier } from "../../generated/src/gtm-agent/stream.js";
import { decodeEvent } from "../../generated/src/ag-ui/index.js";
import { createVerifier as createAgUiVerifier, readStream as readAgUi } from "../../generated/src/ag-ui/stream.js";
import { readEvents } from "../../generated/src/stream/read.js";
import { verifier } from "../../generated/src/stream/verify.js";
import { plansOf } from "../../generator/stream/plan.js";
import type { StreamResult } from "../../generated/src/stream/result.js";
import type { StreamRule } from "../../generated/src/stream/tables.js";
import { clientVerdict, loadTraces, STREAM_PROTOCOLS, TRACES, verifyTrace } from "../helpers/streams.js";

/** An entry of test/fixtures/traces/verdicts.json. */
interface Verdict {
  readonly rule: string;
  readonly index: number;
  readonly differs?: readonly ("expect" | "@ag-ui/client")[];
  readonly why?: string;
  readonly note?: string;
}

const VERDICTS = (JSON.parse(readFileSync(path.join(TRACES, "verdicts.json"), "utf8")) as { traces: Record<string, Verdict> }).traces;
const traces = loadTraces();
const verdictOf = (valid: boolean) => (valid ? "valid" : "invalid");

describe("the vendored traces", () => {
  it("are the shared corpus's 112, every one with its source, license and verdict", () => {
    expect(traces).toHaveLength(112);
    expect(Object.fromEntries(STREAM_PROTOCOLS.map((protocol) => [protocol, traces.filter((trace) => trace.protocol === protocol).length]))).toEqual({
      "ag-ui": 95,
      a2a: 6,
      "gtm-agent": 6,
      "app-server": 5,
    });
    for (const trace of traces) {
      expect(trace.source, trace.file).toMatch(/^github:[\w.-]+\/[\w.-]+@[0-9a-f]{40}:\S+$/);
      expect(trace.license, trace.file).toMatch(/^(MIT|Apache-2\.0)\b/);
      expect(["valid", "invalid"], trace.file).toContain(trace.expect);
      expect(trace.events.length, trace.file).toBeGreaterThan(0);
    }
  });

  it("verdicts.json names only vendored traces, and says why wherever it records a difference", () => {
    const files = new Set(traces.map((trace) => trace.file));
    for (const [file, verdict] of Object.entries(VERDICTS)) {
      expect(files.has(file), file).toBe(true);
      if (verdict.differs !== undefined) expect(verdict.why, file).toMatch(/"/);
    }
  });
});

describe("createVerifier on every vendored trace", () => {
  it.each(traces.map((trace) => [trace.file, trace] as const))("%s: the recorded verdict, and the trace's own unless verdicts.json says why not", (file, trace) => {
    const violation = verifyTrace(trace.protocol, trace.events);
    const recorded = VERDICTS[file];
    expect(violation === undefined ? undefined : { rule: violation.rule, index: violation.index }).toEqual(
      recorded === undefined ? undefined : { rule: recorded.rule, index: recorded.index },
    );
    const ours = verdictOf(violation === undefined);
    // A difference recorded must still be one: a stale entry fails here.
    if (recorded?.differs?.includes("expect")) expect(ours).not.toBe(trace.expect);
    else expect(ours).toBe(trace.expect);
  });
});

describe("@ag-ui/client as the oracle, on every AG-UI trace", () => {
  const aguiTraces = traces.filter((trace) => trace.protocol === "ag-ui");

  it.each(aguiTraces.map((trace) => [trace.file, trace] as const))("%s: its verdict is ours unless verdicts.json says why not", (file, trace) => {
    const error = clientVerdict(trace.events);
    // The client's own verify tests say what its message contains: proof the harness runs it as its tests do.
    for (const substring of trace.expectedErrorSubstrings) expect(error).toContain(substring);
    const client = verdictOf(error === undefined);
    const ours = verdictOf(verifyTrace("ag-ui", trace.events) === undefined);
    if (VERDICTS[file]?.differs?.includes("@ag-ui/client")) expect(client).not.toBe(ours);
    else expect(client).toBe(ours);
  });

  it("differs from us on exactly the three traces the table records, all of them its lifecycle leniencies", () => {
    const differing = aguiTraces
      .filter((trace) => verdictOf(clientVerdict(trace.events) === undefined) !== verdictOf(verifyTrace("ag-ui", trace.events) === undefined))
      .map((trace) => trace.file);
    expect(differing).toEqual([
      "ag-ui/verify-test__events__should-allow-state-snapshot-events.json",
      "ag-ui/verify-test__lifecycle__should-allow-run-error-after-run-finished.json",
      "ag-ui/verify-test__lifecycle__should-allow-run-error-at-any-time-even-as-first-event.json",
    ]);
  });
});

/**
 * The decisions docs/streams.md lists (Where the AG-UI anchors disagree), each on its smallest stream: what we
 * report, and whether @ag-ui/client refuses it. ag-ui-validate cannot run here; its side is
 * the document's, from its rule catalog.
 */
const started = { type: "RUN_STARTED", threadId: "t1", runId: "r1" };
const finished = { type: "RUN_FINISHED", threadId: "t1", runId: "r1" };
const startedAgain = { type: "RUN_STARTED", threadId: "t1", runId: "r2" };
const finishedAgain = { type: "RUN_FINISHED", threadId: "t1", runId: "r2" };
const textStart = { type: "TEXT_MESSAGE_START", messageId: "m1" };
const textEnd = { type: "TEXT_MESSAGE_END", messageId: "m1" };
const callStart = { type: "TOOL_CALL_START", toolCallId: "c1", toolCallName: "search" };
const callEnd = { type: "TOOL_CALL_END", toolCallId: "c1" };
const result = { type: "TOOL_CALL_RESULT", messageId: "m9", toolCallId: "c1", content: "found" };
const subagentStarted = { type: "SUBAGENT_STARTED", subagentRunId: "s1", name: "researcher" };
const subagentFinished = { type: "SUBAGENT_FINISHED", subagentRunId: "s1" };
const chunkOpening = { type: "TEXT_MESSAGE_CHUNK", messageId: "m1", delta: "a" };
const chunkContinuing = { type: "TEXT_MESSAGE_CHUNK", delta: "b" };

const DECISIONS: readonly { name: string; events: readonly object[]; ours?: { rule: string; index: number }; clientRefuses: boolean }[] = [
  { name: "1. a stream that ends inside its run", events: [started], ours: { rule: "run", index: 1 }, clientRefuses: false },
  { name: "2. RUN_ERROR after RUN_FINISHED", events: [started, finished, { type: "RUN_ERROR", message: "x" }], ours: { rule: "in-run", index: 2 }, clientRefuses: false },
  { name: "3. RUN_ERROR as the first event", events: [{ type: "RUN_ERROR", message: "x" }], ours: { rule: "first-event", index: 0 }, clientRefuses: false },
  { name: "4. an event after RUN_ERROR", events: [started, { type: "RUN_ERROR", message: "x" }, textStart], ours: { rule: "in-run", index: 2 }, clientRefuses: true },
  { name: "5. a second run after the first ended, reusing its message id", events: [started, textStart, textEnd, finished, startedAgain, textStart, textEnd, finishedAgain], clientRefuses: false },
  {
    name: "6. a subagent id started again in a later run",
    events: [started, subagentStarted, subagentFinished, finished, startedAgain, subagentStarted, subagentFinished, finishedAgain],
    ours: { rule: "subagent", index: 5 },
    clientRefuses: false,
  },
  { name: "7. a message id reused after its message ended, in one run", events: [started, textStart, textEnd, textStart, textEnd, finished], clientRefuses: false },
  {
    name: "8. a step opened twice under one name",
    events: [started, { type: "STEP_STARTED", stepName: "a" }, { type: "STEP_STARTED", stepName: "a" }, { type: "STEP_FINISHED", stepName: "a" }, { type: "STEP_FINISHED", stepName: "a" }, finished],
    ours: { rule: "step", index: 2 },
    clientRefuses: true,
  },
  {
    name: "9. a subagent's step named as its parent's open step",
    events: [
      started,
      { type: "STEP_STARTED", stepName: "tools" },
      subagentStarted,
      { type: "STEP_STARTED", stepName: "tools", subagentRunId: "s1" },
      { type: "STEP_FINISHED", stepName: "tools", subagentRunId: "s1" },
      subagentFinished,
      { type: "STEP_FINISHED", stepName: "tools" },
      finished,
    ],
    clientRefuses: false,
  },
  {
    name: "9b. a subagent finishing its parent's step",
    events: [
      started,
      { type: "STEP_STARTED", stepName: "tools" },
      subagentStarted,
      { type: "STEP_FINISHED", stepName: "tools", subagentRunId: "s1" },
      subagentFinished,
      { type: "STEP_FINISHED", stepName: "tools" },
      finished,
    ],
    ours: { rule: "step", index: 3 },
    clientRefuses: true,
  },
  {
    name: "9c. a text message continued under another owner than its opener's",
    events: [
      started,
      subagentStarted,
      { type: "TEXT_MESSAGE_START", messageId: "m1", subagentRunId: "s1" },
      { type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: "a" },
      { type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: "b", subagentRunId: "s1" },
      { type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: "c", subagentRunId: "s2" },
      { type: "TEXT_MESSAGE_END", messageId: "m1", subagentRunId: "s1" },
      subagentFinished,
      finished,
    ],
    ours: { rule: "text-message", index: 5 },
    clientRefuses: true,
  },
  {
    name: "9d. a reasoning message of the parent's ended under a subagent",
    events: [
      started,
      subagentStarted,
      { type: "REASONING_MESSAGE_START", messageId: "r1", role: "reasoning" },
      { type: "REASONING_MESSAGE_CONTENT", messageId: "r1", delta: "a" },
      { type: "REASONING_MESSAGE_END", messageId: "r1", subagentRunId: "s1" },
      subagentFinished,
      finished,
    ],
    ours: { rule: "reasoning-message", index: 4 },
    clientRefuses: true,
  },
  { name: "10. spans left open when the run fails", events: [started, textStart, callStart, { type: "RUN_ERROR", message: "x" }], clientRefuses: false },
  { name: "11. a reasoning span open at RUN_FINISHED", events: [started, { type: "REASONING_START", messageId: "r" }, finished], ours: { rule: "reasoning", index: 2 }, clientRefuses: true },
  { name: "12. a reasoning message outside a reasoning span", events: [started, { type: "REASONING_MESSAGE_START", messageId: "r", role: "reasoning" }, { type: "REASONING_MESSAGE_END", messageId: "r" }, finished], clientRefuses: false },
  // RUN_STARTED's input is optional: a later turn answers a call its request's messages made (a real .NET recording).
  { name: "13. a tool result for a call the stream never made, in a run that did not show its conversation", events: [started, result, finished], clientRefuses: false },
  {
    name: "13b. a tool result for a call neither the stream nor the conversation RUN_STARTED echoes made",
    events: [{ ...started, input: { threadId: "t1", runId: "r1", state: {}, messages: [], tools: [], context: [], forwardedProps: {} } }, result, finished],
    ours: { rule: "tool-result", index: 1 },
    clientRefuses: false,
  },
  {
    name: "14. a tool result for a call a MESSAGES_SNAPSHOT carries",
    events: [
      started,
      { type: "MESSAGES_SNAPSHOT", messages: [{ id: "m0", role: "assistant", toolCalls: [{ id: "c1", type: "function", function: { name: "search", arguments: "{}" } }] }] },
      result,
      finished,
    ],
    clientRefuses: false,
  },
  {
    name: "14b. a tool result for a call the request RUN_STARTED echoes carries",
    events: [
      {
        ...started,
        input: {
          threadId: "t1",
          runId: "r1",
          state: {},
          messages: [{ id: "m0", role: "assistant", toolCalls: [{ id: "c1", type: "function", function: { name: "search", arguments: "{}" } }] }],
          tools: [],
          context: [],
          forwardedProps: {},
        },
      },
      result,
      finished,
    ],
    clientRefuses: false,
  },
  { name: "15. a tool result in a later run than its call", events: [started, callStart, callEnd, finished, startedAgain, result, finishedAgain], clientRefuses: false },
  { name: "16. a tool result before its call's TOOL_CALL_END", events: [started, callStart, result, callEnd, finished], clientRefuses: false },
  { name: "17. a chunk naming a message a TEXT_MESSAGE_START opened", events: [started, textStart, chunkOpening, textEnd, finished], ours: { rule: "text-message-chunk", index: 2 }, clientRefuses: true },
  { name: "18. RAW inside a chunk shorthand", events: [started, chunkOpening, { type: "RAW", event: {} }, chunkContinuing, finished], clientRefuses: false },
  {
    name: "19. a subagent's end inside a chunk shorthand",
    events: [started, chunkOpening, subagentStarted, subagentFinished, chunkContinuing, finished],
    ours: { rule: "text-message-chunk", index: 4 },
    clientRefuses: false,
  },
  { name: "20. an event type this version does not know, inside a chunk shorthand", events: [started, chunkOpening, { type: "THINKING_START" }, chunkContinuing, finished], ours: { rule: "text-message-chunk", index: 3 }, clientRefuses: false },
  { name: "21. an event type this version does not know, inside a run", events: [started, { type: "THINKING_START" }, finished], clientRefuses: false },
  { name: "22. an empty content delta", events: [started, textStart, { type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: "" }, textEnd, finished], clientRefuses: false },
  { name: "23. RUN_FINISHED naming another run than RUN_STARTED", events: [started, { ...finished, runId: "r2" }], clientRefuses: false },
  { name: "24. a second RUN_STARTED inside a run", events: [started, startedAgain, finished], ours: { rule: "run", index: 1 }, clientRefuses: true },
  { name: "25. a text message open at RUN_FINISHED", events: [started, textStart, finished], ours: { rule: "text-message", index: 2 }, clientRefuses: true },
];

describe("the decisions docs/streams.md lists, each on its smallest stream", () => {
  it.each(DECISIONS.map((decision) => [decision.name, decision] as const))("%s", (_, decision) => {
    const violation = verifyTrace("ag-ui", decision.events);
    expect(violation === undefined ? undefined : { rule: violation.rule, index: violation.index }).toEqual(decision.ours);
    expect(clientVerdict(decision.events) !== undefined).toBe(decision.clientRefuses);
  });
});

describe("a run of events of one kind: each is asked what the first was, unless it carries the same keys", () => {
  const violations = (events: readonly object[]) => {
    const verifier = createAgUiVerifier();
    return events.flatMap((event) => verifier.push(event as Event) ?? []).map(({ rule, index }) => ({ rule, index }));
  };
  const content = (messageId: string) => ({ type: "TEXT_MESSAGE_CONTENT", messageId, delta: "x" });

  it("a delta for another message, after deltas in order, is refused where that message is not open", () => {
    expect(violations([started, textStart, content("m1"), content("m1"), content("m2"), content("m1"), content("m2")])).toEqual([
      { rule: "text-message", index: 4 },
      { rule: "text-message", index: 6 },
    ]);
  });

  it("deltas after the message ended, or after the run finished, are refused each", () => {
    expect(violations([started, textStart, content("m1"), textEnd, content("m1"), content("m1")])).toEqual([
      { rule: "text-message", index: 4 },
      { rule: "text-message", index: 5 },
    ]);
    expect(violations([started, content("m1"), content("m1")])).toEqual([
      { rule: "text-message", index: 1 },
      { rule: "text-message", index: 2 },
    ]);
  });

  it("the first event is asked what comes first, and the second what comes inside a run", () => {
    expect(violations([{ type: "RAW", event: {} }, { type: "RAW", event: {} }, { type: "RAW", event: {} }])).toEqual([
      { rule: "first-event", index: 0 },
      { rule: "in-run", index: 1 },
      { rule: "in-run", index: 2 },
    ]);
  });

  it("a delta that ends a chunk's lane changes the spans, and the next delta is asked again", () => {
    expect(violations([started, chunkOpening, content("m1"), content("m1")])).toEqual([
      { rule: "text-message", index: 2 },
      { rule: "text-message", index: 3 },
    ]);
  });
});

describe("the end of a stream", () => {
  // AG-UI's events over a transport whose `event: error` is its error report, as a protocol's facts may name one.
  const transport = { framing: "sse", jsonRpc: false, errorEvent: "error" } as const;
  const read = async (text: string) => {
    const results: StreamResult<Event>[] = [];
    for await (const result of readEvents((async function* () { yield text; })(), decodeEvent, transport)) results.push(result);
    return results;
  };
  const verifiedUpTo = (results: readonly StreamResult<Event>[]) => {
    const verifier = createAgUiVerifier();
    for (const result of results) if (result.ok) expect(verifier.push(result.value)).toBeUndefined();
    return verifier;
  };
  const opened = 'data: {"type":"RUN_STARTED","threadId":"t","runId":"r"}\n\n';

  it("given the transport's error report as the last result, is no violation: the report says why the run did not finish", async () => {
    const results = await read(`${opened}event: error\ndata: {"message":"upstream timed out"}\n\n`);
    expect(results.at(-1)).toMatchObject({ ok: false, fault: "transport-error", message: "upstream timed out" });
    expect(verifiedUpTo(results).end(results.at(-1))).toBeUndefined();
    expect(verifiedUpTo(results).end()).toMatchObject({ rule: "run", index: 1 });
  });

  it("given another last result, a fault or an event, says what the end breaks", async () => {
    const cut = await read(`${opened}data: {"type":"RUN_FINI`);
    expect(cut.at(-1)).toMatchObject({ ok: false, fault: "cut-off" });
    expect(verifiedUpTo(cut).end(cut.at(-1))).toMatchObject({ rule: "run", index: 1 });
    const clean = await read(opened);
    expect(verifiedUpTo(clean).end(clean.at(-1))).toMatchObject({ rule: "run", index: 1 });
  });
});

describe("a refers rule whose keys come in many to an event", () => {
  const rules: StreamRule[] = [
    {
      kind: "refers",
      name: "answer",
      because: "the prose says so",
      events: [{ event: "ANSWER" }],
      key: { "*": ["id"] },
      to: [{ event: "ASK" }],
      toKey: { "*": ["calls", "*", "id"] },
    },
  ];
  const answers = (...events: object[]) => {
    const verifying = verifier<{ type: string }>(rules, plansOf(rules), (event) => event.type);
    return events.flatMap((event) => verifying.push(event as { type: string }) ?? []).map(({ index }) => index);
  };

  it("takes in the key of every element, numbers as their digits, and refuses an answer to none of them", () => {
    const ask = { type: "ASK", calls: [{ id: "a" }, { id: 2 }, { name: "no id" }, "not an object"] };
    expect(answers(ask, { type: "ANSWER", id: "a" }, { type: "ANSWER", id: "2" }, { type: "ANSWER", id: "b" })).toEqual([3]);
  });

  it("reads * as a property's name where no array is, and takes in nothing where the path leads nowhere", () => {
    expect(answers({ type: "ASK", calls: { "*": { id: "c" } } }, { type: "ANSWER", id: "c" })).toEqual([]);
    expect(answers({ type: "ASK" }, { type: "ASK", calls: [] }, { type: "ANSWER", id: "c" })).toEqual([2]);
  });
});

describe("a resumed GTM stream", () => {
  const working = {
    task: {
      id: "run-1",
      contextId: "ctx-1",
      status: { state: "TASK_STATE_WORKING" },
      artifacts: [{ artifactId: "a1", parts: [{ text: "Hel" }] }],
    },
  };
  const chunk = (text: string, flags: object) => ({ artifactUpdate: { taskId: "run-1", contextId: "ctx-1", artifact: { artifactId: "a1", parts: [{ text }] }, ...flags } });
  const events = [working, chunk("lo", { append: true }), chunk("!", { append: true, lastChunk: true }), { statusUpdate: { taskId: "run-1", contextId: "ctx-1", status: { state: "TASK_STATE_COMPLETED" } } }];
  const violations = (resumed: boolean) => {
    const verifying = createGtmVerifier({ resumed });
    return [...events.flatMap((event) => verifying.push(event as AgentStreamEvent) ?? []), ...[verifying.end() ?? []].flat()].map(({ rule, index }) => ({ rule, index }));
  };

  it("goes on appending to an artifact its first task frame carries, and ends it", () => {
    expect(violations(true)).toEqual([]);
    const assembler = createGtmAssembler();
    for (const event of events) expect(assembler.push(event as AgentStreamEvent)).toBeUndefined();
    expect(assembler.snapshot().task?.artifacts?.[0]?.parts).toEqual([{ text: "Hel" }, { text: "lo" }, { text: "!" }]);
  });

  it("is, read as a stream from its start, one whose first frame is late and whose chunks continue an artifact it never opened", () => {
    expect(violations(false)).toEqual([
      { rule: "first-frame", index: 0 },
      { rule: "artifact", index: 1 },
      { rule: "artifact", index: 2 },
    ]);
  });
});

describe("a span with an owner", () => {
  it("names the owner of an instance in what it says", () => {
    const verifier = createAgUiVerifier();
    for (const event of [started, subagentStarted, { type: "STEP_STARTED", stepName: "tools", subagentRunId: "s1" }])
      expect(verifier.push(event as Event)).toBeUndefined();
    expect(verifier.push({ type: "STEP_STARTED", stepName: "tools", subagentRunId: "s1" })).toEqual({
      rule: "step",
      index: 3,
      message: 'STEP_STARTED opens step "tools" of "s1", which is already open (since event 2): close it with STEP_FINISHED first',
    });
    expect(verifier.push({ type: "STEP_FINISHED", stepName: "tools" })).toEqual({
      rule: "step",
      index: 4,
      message: 'STEP_FINISHED for step "tools", which is not open: open it with STEP_STARTED first',
    });
  });
});

describe("a span with an attribution", () => {
  it("says whose the opener said the instance is", () => {
    const verifier = createAgUiVerifier();
    for (const event of [started, { type: "TEXT_MESSAGE_START", messageId: "m1" }]) expect(verifier.push(event as Event)).toBeUndefined();
    expect(verifier.push({ type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: "x", subagentRunId: "s1" })).toEqual({
      rule: "text-message",
      index: 2,
      message: `TEXT_MESSAGE_CONTENT for text message "m1" names "s1" as its owner, and the event that opened it (event 1) named none, the stream's own`,
    });
    expect(verifier.push({ type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: "y" })).toBeUndefined();
    // Right after a delta in order: the run's next delta is asked again where its owner differs.
    expect(verifier.push({ type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: "z", subagentRunId: "s1" })).toMatchObject({
      rule: "text-message",
      index: 4,
    });
  });
});
