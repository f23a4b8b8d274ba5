import { defaultApplyEvents, transformChunks } from "@ag-ui/client";
import type { AbstractAgent, RunAgentInput } from "@ag-ui/client";
import fc from "fast-check";
import { from, lastValueFrom, toArray } from "rxjs";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { decodeStreamResponse, isTask } from "../../generated/src/a2a/index.js";
import type { StreamResponse } from "../../generated/src/a2a/index.js";
import { createAssembler as assembleA2a } from "../../generated/src/a2a/stream.js";
import { decodeEvent, isMessage } from "../../generated/src/ag-ui/index.js";
import type { Event, Message } from "../../generated/src/ag-ui/index.js";
import { createAssembler as assembleAgUi } from "../../generated/src/ag-ui/stream.js";
import type { Snapshot as AgUiSnapshot } from "../../generated/src/ag-ui/stream.js";
import { decodeServerNotification } from "../../generated/src/app-server/index.js";
import type { ServerNotification } from "../../generated/src/app-server/index.js";
import { createAssembler as assembleAppServer } from "../../generated/src/app-server/stream.js";
import { isAgentTask } from "../../generated/src/gtm-agent/index.js";
import type { AgentStreamEvent } from "../../generated/src/gtm-agent/index.js";
import { createAssembler as assembleGtm } from "../../generated/src/gtm-agent/stream.js";
import type { DecodeResult } from "../../generated/src/decode.js";
import { assembler as assemblerOf } from "../../generated/src/stream/assemble.js";
import { planAssembly } from "../../generator/stream/assembly.js";
import type { AssemblyStep } from "../../generator/stream/assembly.js";
import type { Violation } from "../../generated/src/stream/result.js";
import { loadTraces } from "../helpers/streams.js";

/**
 * The assembler of the generated package (templates/stream/assemble.ts, bound to each protocol's
 * assembly facts as `createAssembler`): what the recorded traces build, held to
 * `@ag-ui/client`'s own apply pipeline; and each thing an event does to the snapshot,
 * through the facts that say it.
 */

interface Assembler<T, S> {
  push(event: T): Violation | undefined;
  snapshot(): S;
}

/** Pushes each event and keeps the violations. */
function run<T, S>(assembler: Assembler<T, S>, events: readonly NoInfer<T>[]): { snapshot: S; violations: Violation[] } {
  const violations: Violation[] = [];
  for (const event of events) {
    const violation = assembler.push(event);
    if (violation !== undefined) violations.push(violation);
  }
  return { snapshot: assembler.snapshot(), violations };
}

const agUi = (events: readonly Event[]) => run(assembleAgUi(), events);

/** A copy, so that a later push cannot change what a test compares. */
const copy = <T>(value: T): T => structuredClone(value);

// ---------------------------------------------------------------------------------------
// The recorded traces

const TRACES = loadTraces();

/** The traces of a protocol that the corpus says are valid, by file (`<protocol>/<name>.json`). */
function validTraces(protocol: string): { file: string; events: readonly unknown[] }[] {
  return TRACES.filter((trace) => trace.protocol === protocol && trace.expect === "valid").map(({ file, events }) => ({ file, events }));
}

/** What the schema reads from each event, tolerantly; the event as it is where the schema refuses it. */
function decoded<T>(events: readonly unknown[], decode: (input: unknown, options: { mode: "tolerant" }) => DecodeResult<T>): T[] {
  return events.map((event) => {
    const result = decode(event, { mode: "tolerant" });
    return result.ok ? result.value : (event as T);
  });
}

/** Violations a valid trace gives, each with its reason: the source's data, not the engine's fault. */
const EXPECTED_VIOLATIONS: Readonly<Record<string, readonly Pick<Violation, "rule" | "index">[]>> = {
  // MESSAGES_SNAPSHOT declares msg_09 a user message whose content is a list of parts
  // (UserMessage.content: "either plain text, or an ordered list of parts"); the run then
  // opens a text message under the same id (BaseMessage.id "Identifies the message within
  // the conversation"), and its text cannot be appended to a list: refused, and msg_09 kept.
  "ag-ui/dart-fixture__messages-snapshot.json": [{ rule: "text-message-content", index: 3 }],
  // The specification's example sends an artifact without its artifactId (the trace's own
  // notes say so; Artifact.artifact_id "must be unique within a task"): it has no key to be
  // assembled under.
  "a2a/spec-doc__section-6-2-streaming-rest.json": [{ rule: "artifact-starts", index: 1 }],
};

/** Assembled values that fail their type's guard, each because the source's own event does. */
const EXPECTED_NOT_OF_TYPE: Readonly<Record<string, string>> = {
  // A test object of @ag-ui/client's verify tests: its MESSAGES_SNAPSHOT declares a message
  // with no id (the corpus: "judge their ordering, not their shape").
  "ag-ui/verify-test__events__should-allow-state-related-events-in-appropriate-contexts.json":
    "the MESSAGES_SNAPSHOT's message has no id",
};

describe("the recorded traces", () => {
  function check(file: string, violations: readonly Violation[], notOfType: readonly unknown[]): void {
    expect(
      violations.map(({ rule, index }) => ({ rule, index })),
      violations.map((violation) => violation.message).join("\n"),
    ).toEqual(EXPECTED_VIOLATIONS[file] ?? []);
    if (EXPECTED_NOT_OF_TYPE[file] === undefined) expect(notOfType).toEqual([]);
    else expect(notOfType).not.toEqual([]);
  }

  const agUiTraces = validTraces("ag-ui");
  it("are the corpus's valid traces: 60 AG-UI, 1 A2A, 5 app-server (and no GTM one)", () => {
    expect(agUiTraces).toHaveLength(60);
    expect(validTraces("a2a")).toHaveLength(1);
    expect(validTraces("app-server")).toHaveLength(5);
    expect(validTraces("gtm-agent")).toHaveLength(0);
  });

  it.each(agUiTraces)("$file assembles without a violation into messages of the schema", ({ file, events }) => {
    const { snapshot, violations } = run(assembleAgUi(), decoded(events, decodeEvent));
    check(
      file,
      violations,
      snapshot.messages.filter((message) => !isMessage(message)),
    );
  });

  it.each(validTraces("a2a"))("$file assembles into a Task", ({ file, events }) => {
    const { snapshot, violations } = run(assembleA2a(), decoded(events, decodeStreamResponse));
    expect(snapshot.task).not.toBeNull();
    check(file, violations, [snapshot.task].filter((task) => !isTask(task)));
  });

  // Their notifications are vv-agent's own projection (params.itemId, no params.item), not
  // the vendored schema's shape (see the traces' README): most carry nothing the steps read,
  // which then do nothing; none may be refused.
  it.each(validTraces("app-server"))("$file assembles without a violation", ({ file, events }) => {
    const { violations } = run(assembleAppServer(), decoded(events, decodeServerNotification));
    check(file, violations, []);
  });

  it("a GTM stream (the specification's example read as GTM frames) assembles into an AgentTask", () => {
    // The corpus has no valid GTM trace (its copies are invalid for ordering reasons), so
    // this one is written from the A2A example with the artifactId GTM requires.
    const events: AgentStreamEvent[] = [
      { task: { id: "task-uuid", contextId: "context-uuid", status: { state: "TASK_STATE_SUBMITTED" } } },
      { artifactUpdate: { taskId: "task-uuid", artifact: { artifactId: "report", parts: [{ text: "# Climate Change Report\n\n" }] } } },
      { statusUpdate: { taskId: "task-uuid", status: { state: "TASK_STATE_COMPLETED" } } },
    ];
    const { snapshot, violations } = run(assembleGtm(), events);
    expect(violations).toEqual([]);
    expect(isAgentTask(snapshot.task)).toBe(true);
    expect(snapshot.task?.status.state).toBe("TASK_STATE_COMPLETED");
  });
});

// ---------------------------------------------------------------------------------------
// @ag-ui/client's apply pipeline as an oracle

/**
 * What `@ag-ui/client` builds from the events, as its own agent does: `transformChunks`
 * first (its apply throws on a chunk), then `defaultApplyEvents`, from no messages and an
 * empty state; the last messages and state its mutations carry.
 */
async function clientApply(events: readonly unknown[]): Promise<{ messages: unknown; state: unknown }> {
  const input: RunAgentInput = { threadId: "thread", runId: "run", state: {}, messages: [], tools: [], context: [], forwardedProps: {} };
  const agent = { messages: [], pendingInterrupts: [] } as unknown as AbstractAgent;
  const source = from(events as Parameters<typeof from>[0]) as Parameters<ReturnType<typeof transformChunks>>[0];
  const mutations = await lastValueFrom(defaultApplyEvents(input, source.pipe(transformChunks()), agent, []).pipe(toArray()), {
    defaultValue: [],
  });
  let built: { messages: unknown; state: unknown } = { messages: [], state: {} };
  for (const mutation of mutations) {
    if (mutation.messages !== undefined) built = { ...built, messages: mutation.messages };
    if (mutation.state !== undefined) built = { ...built, state: mutation.state };
  }
  return built;
}

/**
 * Where `@ag-ui/client` builds something else from a valid trace: what it builds, and why
 * ours is what the prose says.
 */
const CLIENT_DIFFERS: Readonly<Record<string, { readonly messages: readonly unknown[]; readonly because: string }>> = {
  "ag-ui/dart-fixture__messages-snapshot.json": {
    because:
      "the client reopens msg_09, a user message whose content MESSAGES_SNAPSHOT gave as a list of parts, and replaces the parts with the text while it stays a user message; " +
      'ours refuses to append text to a list (TextMessageContentEvent "Appends a fragment to a streamed text message"; UserMessage.content "either plain text, or an ordered list of parts") and keeps what the snapshot declared',
    messages: [
      { id: "msg_06", role: "user", content: "What is the weather?" },
      {
        id: "msg_07",
        role: "assistant",
        content: "I'll check the weather for you.",
        toolCalls: [{ id: "call_01", type: "function", function: { name: "get_weather", arguments: '{"location": "New York"}' } }],
      },
      { id: "msg_08", role: "tool", content: "72°F and sunny", toolCallId: "call_01" },
      { id: "msg_09", role: "user", content: "The weather in New York is 72°F and sunny." },
    ],
  },
};

describe("@ag-ui/client's apply pipeline, on every valid AG-UI trace", () => {
  beforeAll(() => {
    // The client warns on the console where it ignores an event; the comparison says what matters.
    vi.spyOn(console, "warn").mockImplementation(() => undefined);
  });
  afterAll(() => {
    vi.restoreAllMocks();
  });

  it.each(validTraces("ag-ui"))("builds the messages and state we build from $file", async ({ file, events }) => {
    const ours = run(assembleAgUi(), decoded(events, decodeEvent)).snapshot;
    const theirs = await clientApply(events);
    const differs = CLIENT_DIFFERS[file];
    expect(theirs.state).toEqual(ours.state);
    if (differs === undefined) expect(theirs.messages).toEqual(ours.messages);
    else {
      expect(theirs.messages).toEqual(differs.messages);
      expect(ours.messages).not.toEqual(differs.messages);
    }
  });
});

// ---------------------------------------------------------------------------------------
// AG-UI: what each event does

const RUN: Event = { type: "RUN_STARTED", threadId: "t1", runId: "r1" };
const FINISHED: Event = { type: "RUN_FINISHED", threadId: "t1", runId: "r1" };

describe("AG-UI messages", () => {
  it("a text message is its start's id and role, with its deltas appended in order", () => {
    const { snapshot, violations } = agUi([
      RUN,
      { type: "TEXT_MESSAGE_START", messageId: "m1", role: "assistant", name: "helper" },
      { type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: "Hel" },
      { type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: "" },
      { type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: "lo" },
      { type: "TEXT_MESSAGE_END", messageId: "m1" },
      FINISHED,
    ]);
    expect(violations).toEqual([]);
    expect(snapshot.messages).toEqual([{ id: "m1", role: "assistant", name: "helper", content: "Hello" }]);
  });

  it("a message opened by a subagent's event belongs to that subagent", () => {
    const { snapshot } = agUi([
      RUN,
      { type: "TEXT_MESSAGE_START", messageId: "m1", subagentRunId: "sub-1" },
      { type: "TOOL_CALL_START", toolCallId: "c1", toolCallName: "search", subagentRunId: "sub-1" },
      { type: "TOOL_CALL_RESULT", messageId: "m2", toolCallId: "c1", content: "found", subagentRunId: "sub-1" },
      { type: "REASONING_MESSAGE_START", messageId: "m3", role: "reasoning", subagentRunId: "sub-1" },
    ]);
    expect(snapshot.messages.map((message) => [message.id, message.subagentRunId])).toEqual([
      ["m1", "sub-1"],
      ["c1", "sub-1"],
      ["m2", "sub-1"],
      ["m3", "sub-1"],
    ]);
  });

  it("a delta for a message never started is refused, naming the step, and changes nothing", () => {
    const { snapshot, violations } = agUi([RUN, { type: "TEXT_MESSAGE_CONTENT", messageId: "nowhere", delta: "lost" }]);
    expect(violations).toEqual([{ rule: "text-message-content", index: 1, message: expect.stringContaining("nowhere") }]);
    expect(snapshot.messages).toEqual([]);
  });

  it("a tool call's arguments are its deltas concatenated, inside the parent message", () => {
    const { snapshot, violations } = agUi([
      RUN,
      { type: "TEXT_MESSAGE_START", messageId: "m1", role: "assistant" },
      { type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: "Searching." },
      { type: "TEXT_MESSAGE_END", messageId: "m1" },
      { type: "TOOL_CALL_START", toolCallId: "c1", toolCallName: "search", parentMessageId: "m1" },
      { type: "TOOL_CALL_ARGS", toolCallId: "c1", delta: '{"que' },
      { type: "TOOL_CALL_ARGS", toolCallId: "c1", delta: 'ry": "ag' },
      { type: "TOOL_CALL_ARGS", toolCallId: "c1", delta: '-ui"}' },
      { type: "TOOL_CALL_END", toolCallId: "c1" },
      FINISHED,
    ]);
    expect(violations).toEqual([]);
    expect(snapshot.messages).toEqual([
      {
        id: "m1",
        role: "assistant",
        content: "Searching.",
        toolCalls: [{ id: "c1", type: "function", function: { name: "search", arguments: '{"query": "ag-ui"}' } }],
      },
    ]);
    expect(snapshot.messages.every((message) => isMessage(message))).toBe(true);
  });

  it("a tool call with no parentMessageId gets an assistant message of its own, under the call's id", () => {
    const { snapshot, violations } = agUi([
      RUN,
      { type: "TOOL_CALL_START", toolCallId: "c1", toolCallName: "search" },
      { type: "TOOL_CALL_ARGS", toolCallId: "c1", delta: "{}" },
      { type: "TOOL_CALL_END", toolCallId: "c1" },
    ]);
    expect(violations).toEqual([]);
    expect(snapshot.messages).toEqual([
      { id: "c1", role: "assistant", toolCalls: [{ id: "c1", type: "function", function: { name: "search", arguments: "{}" } }] },
    ]);
  });

  it("an empty parentMessageId names no message: parallel calls each get their own, as @ag-ui/client's apply gives them", async () => {
    // As the .NET Agent Framework sends parallel calls.
    const events: Event[] = [
      RUN,
      { type: "TOOL_CALL_START", toolCallId: "c1", toolCallName: "weather", parentMessageId: "" },
      { type: "TOOL_CALL_START", toolCallId: "c2", toolCallName: "time", parentMessageId: "" },
      { type: "TOOL_CALL_END", toolCallId: "c1" },
      { type: "TOOL_CALL_END", toolCallId: "c2" },
      FINISHED,
    ];
    const { snapshot, violations } = agUi(events);
    expect(violations).toEqual([]);
    expect(snapshot.messages.map((message) => message.id)).toEqual(["c1", "c2"]);
    expect((await clientApply(events)).messages).toEqual(snapshot.messages);
  });

  it("TOOL_CALL_RESULT mints a tool message whatever the messages hold: an id made up for a call cannot swallow it", async () => {
    // The call's assistant message took the call's id; the result's message has that id too.
    const events: Event[] = [
      RUN,
      { type: "TOOL_CALL_START", toolCallId: "c1", toolCallName: "search" },
      { type: "TOOL_CALL_END", toolCallId: "c1" },
      { type: "TOOL_CALL_RESULT", messageId: "c1", toolCallId: "c1", content: "found" },
      FINISHED,
    ];
    const { snapshot, violations } = agUi(events);
    expect(violations).toEqual([]);
    expect(snapshot.messages.map((message) => message.role)).toEqual(["assistant", "tool"]);
    expect(snapshot.messages[1]).toEqual({ id: "c1", role: "tool", toolCallId: "c1", content: "found" });
    expect((await clientApply(events)).messages).toEqual(snapshot.messages);
  });

  it("a second start of a call already there names it anew, as @ag-ui/client does, and its arguments go on", () => {
    const { snapshot } = agUi([
      { type: "TOOL_CALL_START", toolCallId: "c1", toolCallName: "calculator" },
      { type: "TOOL_CALL_ARGS", toolCallId: "c1", delta: "[1]" },
      { type: "TOOL_CALL_START", toolCallId: "c1", toolCallName: "weather" },
      { type: "TOOL_CALL_ARGS", toolCallId: "c1", delta: "[2]" },
    ]);
    expect(snapshot.messages).toEqual([
      { id: "c1", role: "assistant", toolCalls: [{ id: "c1", type: "function", function: { name: "weather", arguments: "[1][2]" } }] },
    ]);
  });

  it("TOOL_CALL_RESULT mints a tool message that answers the call", () => {
    const { snapshot, violations } = agUi([
      RUN,
      { type: "TOOL_CALL_START", toolCallId: "c1", toolCallName: "search" },
      { type: "TOOL_CALL_END", toolCallId: "c1" },
      { type: "TOOL_CALL_RESULT", messageId: "r1", toolCallId: "c1", content: '{"hits": 3}' },
      FINISHED,
    ]);
    expect(violations).toEqual([]);
    expect(snapshot.messages[1]).toEqual({ id: "r1", role: "tool", toolCallId: "c1", content: '{"hits": 3}' });
    expect(isMessage(snapshot.messages[1])).toBe(true);
  });

  it("arguments for a call never started are refused", () => {
    const { violations } = agUi([RUN, { type: "TOOL_CALL_ARGS", toolCallId: "ghost", delta: "{}" }]);
    expect(violations).toEqual([{ rule: "tool-call-args", index: 1, message: expect.stringContaining("ghost") }]);
  });

  it("a reasoning message is its start with its deltas appended", () => {
    const { snapshot } = agUi([
      RUN,
      { type: "REASONING_START", messageId: "r1" },
      { type: "REASONING_MESSAGE_START", messageId: "rm1", role: "reasoning" },
      { type: "REASONING_MESSAGE_CONTENT", messageId: "rm1", delta: "Think" },
      { type: "REASONING_MESSAGE_CONTENT", messageId: "rm1", delta: "ing." },
      { type: "REASONING_MESSAGE_END", messageId: "rm1" },
      { type: "REASONING_END", messageId: "r1" },
    ]);
    expect(snapshot.messages).toEqual([{ id: "rm1", role: "reasoning", content: "Thinking." }]);
  });

  it("REASONING_ENCRYPTED_VALUE is stored on the message or the tool call its subtype names", () => {
    const { snapshot, violations } = agUi([
      RUN,
      { type: "REASONING_MESSAGE_START", messageId: "rm1", role: "reasoning" },
      { type: "REASONING_MESSAGE_END", messageId: "rm1" },
      { type: "TOOL_CALL_START", toolCallId: "c1", toolCallName: "search" },
      { type: "REASONING_ENCRYPTED_VALUE", subtype: "message", entityId: "rm1", encryptedValue: "b3BhcXVl" },
      { type: "REASONING_ENCRYPTED_VALUE", subtype: "tool-call", entityId: "c1", encryptedValue: "c2VjcmV0" },
    ]);
    expect(violations).toEqual([]);
    expect(snapshot.messages).toEqual([
      { id: "rm1", role: "reasoning", content: "", encryptedValue: "b3BhcXVl" },
      {
        id: "c1",
        role: "assistant",
        toolCalls: [{ id: "c1", type: "function", function: { name: "search", arguments: "" }, encryptedValue: "c2VjcmV0" }],
      },
    ]);
  });

  it("REASONING_ENCRYPTED_VALUE for a tool call there is none of is refused", () => {
    const { violations } = agUi([{ type: "REASONING_ENCRYPTED_VALUE", subtype: "tool-call", entityId: "c9", encryptedValue: "eA==" }]);
    expect(violations).toEqual([{ rule: "tool-call-encrypted-value", index: 0, message: expect.any(String) }]);
  });

  it("MESSAGES_SNAPSHOT replaces the messages, and later events build on it", () => {
    const declared: Message[] = [
      { id: "u1", role: "user", content: "Hi" },
      { id: "a1", role: "assistant", content: "Hello" },
    ];
    const { snapshot, violations } = agUi([
      RUN,
      { type: "TEXT_MESSAGE_START", messageId: "gone", role: "assistant" },
      { type: "MESSAGES_SNAPSHOT", messages: declared },
      { type: "TEXT_MESSAGE_CONTENT", messageId: "a1", delta: " again" },
    ]);
    expect(violations).toEqual([]);
    expect(snapshot.messages).toEqual([declared[0], { id: "a1", role: "assistant", content: "Hello again" }]);
    expect(declared[1]).toEqual({ id: "a1", role: "assistant", content: "Hello" });
  });
});

describe("AG-UI deltas in runs: the object a delta appended to is found again, until the messages change", () => {
  it("deltas of messages interleaved each reach their own message", () => {
    const { snapshot, violations } = agUi([
      RUN,
      { type: "TEXT_MESSAGE_START", messageId: "a", role: "assistant" },
      { type: "TEXT_MESSAGE_START", messageId: "b", role: "assistant" },
      { type: "TEXT_MESSAGE_CONTENT", messageId: "a", delta: "a1" },
      { type: "TEXT_MESSAGE_CONTENT", messageId: "a", delta: "a2" },
      { type: "TEXT_MESSAGE_CONTENT", messageId: "b", delta: "b1" },
      { type: "TEXT_MESSAGE_CONTENT", messageId: "a", delta: "a3" },
    ]);
    expect(violations).toEqual([]);
    expect(snapshot.messages.map((message) => message.content)).toEqual(["a1a2a3", "b1"]);
  });

  it("a delta after MESSAGES_SNAPSHOT goes to the snapshot's message of its id, or is refused where there is none", () => {
    const assembler = assembleAgUi();
    const { violations } = run(assembler, [
      RUN,
      { type: "TEXT_MESSAGE_START", messageId: "a", role: "assistant" },
      { type: "TEXT_MESSAGE_CONTENT", messageId: "a", delta: "old" },
      { type: "MESSAGES_SNAPSHOT", messages: [{ id: "a", role: "assistant", content: "new" }] },
      { type: "TEXT_MESSAGE_CONTENT", messageId: "a", delta: "+" },
    ]);
    expect(violations).toEqual([]);
    expect(assembler.snapshot().messages).toEqual([{ id: "a", role: "assistant", content: "new+" }]);
    expect(assembler.push({ type: "MESSAGES_SNAPSHOT", messages: [] })).toBeUndefined();
    expect(assembler.push({ type: "TEXT_MESSAGE_CONTENT", messageId: "a", delta: "lost" })).toEqual({
      rule: "text-message-content",
      index: 6,
      message: expect.stringContaining("a"),
    });
    expect(assembler.snapshot().messages).toEqual([]);
  });

  it("a delta that is no text, after text deltas, is refused as it would be first", () => {
    const { snapshot, violations } = agUi([
      RUN,
      { type: "TEXT_MESSAGE_START", messageId: "a", role: "assistant" },
      { type: "TEXT_MESSAGE_CONTENT", messageId: "a", delta: "x" },
      { type: "TEXT_MESSAGE_CONTENT", messageId: "a", delta: 7 } as unknown as Event,
      { type: "TEXT_MESSAGE_CONTENT", messageId: "a", delta: "y" },
    ]);
    expect(violations).toEqual([{ rule: "text-message-content", index: 3, message: expect.stringContaining("cannot append 7") }]);
    expect(snapshot.messages.map((message) => message.content)).toEqual(["xy"]);
  });

  it("a refusal says what kind of value the snapshot holds, not all of it, which may have grown large", () => {
    const parts = Array.from({ length: 1000 }, (_, i) => ({ type: "text" as const, text: `part ${i}` }));
    const { violations } = agUi([
      { type: "MESSAGES_SNAPSHOT", messages: [{ id: "u", role: "user", content: parts }] },
      { type: "TEXT_MESSAGE_CONTENT", messageId: "u", delta: "more" },
      { type: "STATE_SNAPSHOT", snapshot: { notes: "x".repeat(100_000) } },
      { type: "STATE_DELTA", delta: [{ op: "add", path: "/notes/first", value: 1 }] },
    ]);
    expect(violations.map(({ message }) => message)).toEqual([
      'TEXT_MESSAGE_CONTENT: cannot append "more" to messages[id="u"].content, which is a list',
      'STATE_DELTA: operation 0 of the patch ({"op":"add","path":"/notes/first","value":1}) does not apply to state: /notes is text, which has no members or elements',
    ]);
  });
});

describe("AG-UI chunks stand for the events they shorten", () => {
  it("text chunks open a message with their id and role, and chunks without an id continue it", () => {
    const { snapshot, violations } = agUi([
      RUN,
      { type: "TEXT_MESSAGE_CHUNK", messageId: "m1", role: "assistant", delta: "Hel" },
      { type: "TEXT_MESSAGE_CHUNK", delta: "lo" },
      { type: "TEXT_MESSAGE_CHUNK", messageId: "m1", delta: "!" },
      FINISHED,
    ]);
    expect(violations).toEqual([]);
    expect(snapshot.messages).toEqual([{ id: "m1", role: "assistant", content: "Hello!" }]);
  });

  it("a text chunk with no role is the assistant's", () => {
    const { snapshot } = agUi([{ type: "TEXT_MESSAGE_CHUNK", messageId: "m1", delta: "x" }]);
    expect(snapshot.messages).toEqual([{ id: "m1", role: "assistant", content: "x" }]);
  });

  it("tool call chunks open a call with their name and parent, and the rest are its arguments", () => {
    const { snapshot, violations } = agUi([
      RUN,
      { type: "TEXT_MESSAGE_START", messageId: "m1", role: "assistant" },
      { type: "TEXT_MESSAGE_END", messageId: "m1" },
      { type: "TOOL_CALL_CHUNK", toolCallId: "c1", toolCallName: "search", parentMessageId: "m1", delta: '{"q":' },
      { type: "TOOL_CALL_CHUNK", delta: '"x"}' },
      FINISHED,
    ]);
    expect(violations).toEqual([]);
    expect(snapshot.messages).toEqual([
      { id: "m1", role: "assistant", content: "", toolCalls: [{ id: "c1", type: "function", function: { name: "search", arguments: '{"q":"x"}' } }] },
    ]);
  });

  it("reasoning chunks open a reasoning message and continue it", () => {
    const { snapshot } = agUi([
      RUN,
      { type: "REASONING_MESSAGE_CHUNK", messageId: "rm1", delta: "a" },
      { type: "REASONING_MESSAGE_CHUNK", delta: "b" },
    ]);
    expect(snapshot.messages).toEqual([{ id: "rm1", role: "reasoning", content: "ab" }]);
  });

  it("a chunk with another id closes the open message and opens its own", () => {
    const { snapshot } = agUi([
      { type: "TEXT_MESSAGE_CHUNK", messageId: "m1", delta: "one" },
      { type: "TEXT_MESSAGE_CHUNK", messageId: "m2", delta: "two" },
      { type: "TEXT_MESSAGE_CHUNK", delta: "+" },
    ]);
    expect(snapshot.messages).toEqual([
      { id: "m1", role: "assistant", content: "one" },
      { id: "m2", role: "assistant", content: "two+" },
    ]);
  });

  it("another event closes the chunked message: a chunk after it without an id continues nothing", () => {
    const { snapshot } = agUi([
      { type: "TEXT_MESSAGE_CHUNK", messageId: "m1", delta: "one" },
      { type: "STEP_STARTED", stepName: "s" },
      { type: "TEXT_MESSAGE_CHUNK", delta: "lost" },
    ]);
    expect(snapshot.messages).toEqual([{ id: "m1", role: "assistant", content: "one" }]);
  });

  it("a chunk of another kind closes the open chunked message, whichever kind it is", () => {
    // Reasoning's lane comes after text's in the facts: a text chunk must close it all the same.
    const { snapshot } = agUi([
      { type: "REASONING_MESSAGE_CHUNK", messageId: "rm1", delta: "think" },
      { type: "TEXT_MESSAGE_CHUNK", messageId: "m1", delta: "say" },
      { type: "REASONING_MESSAGE_CHUNK", delta: " more" },
      { type: "TOOL_CALL_CHUNK", toolCallId: "c1", toolCallName: "search", delta: "{" },
      { type: "TEXT_MESSAGE_CHUNK", delta: " more" },
    ]);
    expect(snapshot.messages).toEqual([
      { id: "rm1", role: "reasoning", content: "think" },
      { id: "m1", role: "assistant", content: "say" },
      { id: "c1", role: "assistant", toolCalls: [{ id: "c1", type: "function", function: { name: "search", arguments: "{" } }] },
    ]);
  });

  it("RAW, activity and encrypted values pass through an open chunked message", () => {
    const { snapshot, violations } = agUi([
      { type: "TEXT_MESSAGE_CHUNK", messageId: "m1", delta: "a" },
      { type: "RAW", event: { provider: "native" } },
      { type: "REASONING_ENCRYPTED_VALUE", subtype: "message", entityId: "m1", encryptedValue: "eA==" },
      { type: "ACTIVITY_SNAPSHOT", messageId: "act", activityType: "progress", content: {} },
      { type: "TEXT_MESSAGE_CHUNK", delta: "b" },
    ]);
    expect(violations).toEqual([]);
    expect(snapshot.messages).toEqual([
      { id: "m1", role: "assistant", content: "ab", encryptedValue: "eA==" },
      { id: "act", role: "activity", activityType: "progress", content: {} },
    ]);
  });

  it("agrees with @ag-ui/client's transformChunks and apply on chunks of every kind", async () => {
    const events: Event[] = [
      RUN,
      { type: "TEXT_MESSAGE_CHUNK", messageId: "m1", delta: "a" },
      { type: "RAW", event: {} },
      { type: "TEXT_MESSAGE_CHUNK", delta: "b" },
      { type: "TOOL_CALL_CHUNK", toolCallId: "c1", toolCallName: "f", parentMessageId: "m1", delta: "[" },
      { type: "TOOL_CALL_CHUNK", delta: "]" },
      { type: "REASONING_MESSAGE_CHUNK", messageId: "rm1", delta: "c" },
      { type: "TEXT_MESSAGE_CHUNK", messageId: "m2", delta: "d" },
      FINISHED,
    ];
    vi.spyOn(console, "warn").mockImplementation(() => undefined);
    try {
      expect((await clientApply(events)).messages).toEqual(agUi(events).snapshot.messages);
    } finally {
      vi.restoreAllMocks();
    }
  });
});

describe("AG-UI state: snapshots and RFC 6902 deltas", () => {
  const SNAPSHOT: Event = { type: "STATE_SNAPSHOT", snapshot: { count: 0, items: ["a"], user: { name: "Ada" } } };

  it("STATE_SNAPSHOT replaces the state, and each operation of a delta applies in order", () => {
    const { snapshot, violations } = agUi([
      SNAPSHOT,
      {
        type: "STATE_DELTA",
        delta: [
          { op: "test", path: "/count", value: 0 },
          { op: "replace", path: "/count", value: 1 },
          { op: "add", path: "/items/-", value: "b" },
          { op: "copy", from: "/user/name", path: "/owner" },
          { op: "move", from: "/user", path: "/author" },
          { op: "remove", path: "/items/0" },
        ],
      },
    ]);
    expect(violations).toEqual([]);
    expect(snapshot.state).toEqual({ count: 1, items: ["b"], owner: "Ada", author: { name: "Ada" } });
  });

  it.each([
    ["a test that fails", [{ op: "replace", path: "/count", value: 5 }, { op: "test", path: "/count", value: 0 }], "not the one it tests for"],
    ["a remove of a path that is not there", [{ op: "add", path: "/new", value: 1 }, { op: "remove", path: "/missing" }], "there is no /missing"],
    ["an operation RFC 6902 does not have", [{ op: "replace", path: "/count", value: 5 }, { op: "merge", path: "/count" }], "not an operation of RFC 6902"],
    ["a path that is not a JSON Pointer", [{ op: "replace", path: "/count", value: 5 }, { op: "add", path: "count", value: 1 }], "JSON Pointer"],
    // An index is 0 or digits without a leading zero (RFC 6901), and "-" names the end only for add, move and copy.
    ["a replace of an element whose index is 01", [{ op: "replace", path: "/count", value: 5 }, { op: "replace", path: "/items/01", value: "b" }], "index"],
    ["a replace of the element after the last (-)", [{ op: "replace", path: "/count", value: 5 }, { op: "replace", path: "/items/-", value: "b" }], "names no element"],
    ["a remove of the whole state", [{ op: "replace", path: "/count", value: 5 }, { op: "remove", path: "" }], "whole"],
  ] as const)("a patch with %s midway is refused, naming the step, and the state stays exactly as it was", (_, delta, why) => {
    const assembler = assembleAgUi();
    assembler.push(SNAPSHOT);
    const before = copy(assembler.snapshot().state);
    const violation = assembler.push({ type: "STATE_DELTA", delta } as unknown as Event);
    expect(violation).toEqual({ rule: "state-delta", index: 1, message: expect.stringContaining("operation 1") });
    expect(violation?.message).toContain(why);
    expect(assembler.snapshot().state).toEqual(before);
  });

  it("a patch on the root path replaces the whole state", () => {
    const { snapshot, violations } = agUi([SNAPSHOT, { type: "STATE_DELTA", delta: [{ op: "replace", path: "", value: { fresh: true } }] }]);
    expect(violations).toEqual([]);
    expect(snapshot.state).toEqual({ fresh: true });
  });

  it("a delta before any snapshot applies to the empty state", () => {
    const { snapshot } = agUi([{ type: "STATE_DELTA", delta: [{ op: "add", path: "/x", value: 1 }] }]);
    expect(snapshot.state).toEqual({ x: 1 });
  });

  it("the state does not share values with the events that built it", () => {
    const event = { type: "STATE_SNAPSHOT", snapshot: { list: [1] } } satisfies Event;
    const assembler = assembleAgUi();
    assembler.push(event);
    assembler.push({ type: "STATE_DELTA", delta: [{ op: "add", path: "/list/-", value: 2 }] });
    expect(event.snapshot.list).toEqual([1]);
  });
});

describe("AG-UI activity", () => {
  const STARTED: Event = { type: "ACTIVITY_SNAPSHOT", messageId: "act", activityType: "progress", content: { done: 0, files: [] } };

  it("ACTIVITY_SNAPSHOT makes an activity message, and another replaces its content", () => {
    const { snapshot } = agUi([
      STARTED,
      { type: "ACTIVITY_SNAPSHOT", messageId: "act", activityType: "progress", content: { done: 1 } },
    ]);
    expect(snapshot.messages).toEqual([{ id: "act", role: "activity", activityType: "progress", content: { done: 1 } }]);
    expect(isMessage(snapshot.messages[0])).toBe(true);
  });

  it("ACTIVITY_SNAPSHOT with replace: false leaves an existing activity as it is, and makes a new one", () => {
    const { snapshot } = agUi([
      STARTED,
      { type: "ACTIVITY_SNAPSHOT", messageId: "act", activityType: "progress", content: { done: 9 }, replace: false },
      { type: "ACTIVITY_SNAPSHOT", messageId: "act2", activityType: "other", content: { x: 1 }, replace: false },
    ]);
    expect(snapshot.messages).toEqual([
      { id: "act", role: "activity", activityType: "progress", content: { done: 0, files: [] } },
      { id: "act2", role: "activity", activityType: "other", content: { x: 1 } },
    ]);
  });

  it("ACTIVITY_DELTA patches the activity's content and takes its activityType", () => {
    const { snapshot, violations } = agUi([
      STARTED,
      {
        type: "ACTIVITY_DELTA",
        messageId: "act",
        activityType: "indexing",
        patch: [
          { op: "replace", path: "/done", value: 1 },
          { op: "add", path: "/files/-", value: "a.ts" },
        ],
      },
    ]);
    expect(violations).toEqual([]);
    expect(snapshot.messages).toEqual([{ id: "act", role: "activity", activityType: "indexing", content: { done: 1, files: ["a.ts"] } }]);
  });

  it("an ACTIVITY_DELTA that does not apply changes neither content nor activityType", () => {
    const { snapshot, violations } = agUi([
      STARTED,
      { type: "ACTIVITY_DELTA", messageId: "act", activityType: "indexing", patch: [{ op: "remove", path: "/nothing" }] },
      { type: "ACTIVITY_DELTA", messageId: "none", activityType: "indexing", patch: [] },
    ]);
    expect(violations.map(({ rule, index }) => [rule, index])).toEqual([
      ["activity-delta", 1],
      ["activity-delta", 2],
    ]);
    expect(snapshot.messages).toEqual([{ id: "act", role: "activity", activityType: "progress", content: { done: 0, files: [] } }]);
  });

  it("an ACTIVITY_DELTA of no operations changes nothing: a message with no content gets none, not an undefined one", () => {
    // A tool call's message has no content; an empty patch for it is a patch that applies.
    const { snapshot, violations } = agUi([
      { type: "TOOL_CALL_START", toolCallId: "call", toolCallName: "search" },
      { type: "ACTIVITY_DELTA", messageId: "call", activityType: "indexing", patch: [] },
    ]);
    expect(violations).toEqual([]);
    expect(Object.keys(snapshot.messages[0]!)).toEqual(["id", "role", "toolCalls", "activityType"]);
    expect(JSON.parse(JSON.stringify(snapshot))).toStrictEqual(snapshot);
  });
});

describe("the engine, whatever it is given", () => {
  it("never throws, and keeps what it built JSON, for any sequence of JSON values pushed as events", () => {
    const known = fc.constantFrom(
      ...["TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_CHUNK", "TOOL_CALL_START", "TOOL_CALL_ARGS", "TOOL_CALL_CHUNK"],
      ...["STATE_SNAPSHOT", "STATE_DELTA", "MESSAGES_SNAPSHOT", "ACTIVITY_SNAPSHOT", "ACTIVITY_DELTA", "REASONING_ENCRYPTED_VALUE"],
    );
    const ids = fc.constantFrom("a", "b", "", "__proto__", "constructor");
    const pointer = fc.constantFrom("", "/a", "/a/0", "/a/-", "/a/01", "/a/0/b", "/__proto__/x", "a");
    const operation = fc.record(
      { op: fc.constantFrom("add", "remove", "replace", "move", "copy", "test"), path: pointer, from: pointer, value: fc.jsonValue() },
      { requiredKeys: ["op", "path"] },
    );
    const patch = fc.oneof(fc.jsonValue(), fc.array(operation, { maxLength: 3 }));
    const event = fc.oneof(
      fc.jsonValue(),
      fc.record(
        {
          type: known,
          messageId: ids,
          toolCallId: ids,
          parentMessageId: ids,
          entityId: ids,
          subtype: fc.constantFrom("message", "tool-call"),
          delta: fc.oneof(fc.string(), patch),
          snapshot: fc.oneof(fc.jsonValue(), fc.constant({ a: [{ b: 1 }, 2] })),
          messages: fc.jsonValue(),
          content: fc.jsonValue(),
          patch,
          replace: fc.boolean(),
        },
        { requiredKeys: ["type"] },
      ),
    );
    // Events as they arrive: parsed from JSON text, which JSON.stringify writes without a -0.
    const arrived = fc.array(event, { maxLength: 12 }).map((events) => JSON.parse(JSON.stringify(events)) as unknown[]);
    fc.assert(
      fc.property(arrived, (events) => {
        const assembler = assembleAgUi();
        for (const each of events) assembler.push(each as Event);
        const built = assembler.snapshot();
        expect(JSON.parse(JSON.stringify(built))).toStrictEqual(built);
      }),
      { seed: 0x45_5e4b, numRuns: 300 },
    );
  });

  it("an event that is not an object is of no kind: it changes nothing and does not throw", () => {
    for (const assemble of [assembleAgUi, assembleGtm, assembleA2a, assembleAppServer]) {
      const assembler = (assemble as () => Assembler<unknown, unknown>)();
      const before = copy(assembler.snapshot());
      for (const value of [null, 42, "text", [], true]) expect(assembler.push(value)).toBeUndefined();
      expect(assembler.snapshot()).toEqual(before);
    }
  });

  it("a value with a __proto__ property merged into the snapshot stays a property: no prototype changes", () => {
    const assembler = assembleGtm();
    assembler.push({ task: { id: "t", status: { state: "TASK_STATE_WORKING" } } });
    assembler.push({ artifactUpdate: { taskId: "t", artifact: { artifactId: "a", parts: [] } } });
    const hostile = JSON.parse('{"artifactUpdate":{"taskId":"t","artifact":{"artifactId":"a","parts":[],"__proto__":{"polluted":true}}}}');
    assembler.push(hostile as AgentStreamEvent);
    const artifact = assembler.snapshot().task?.artifacts?.[0];
    expect(Object.getPrototypeOf(artifact)).toBe(Object.prototype);
    expect((artifact as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it("keeps a copy of what an event carries: changing the event later changes nothing built, and a __proto__ property stays one", () => {
    const assembler = assembleAgUi();
    const snapshot = JSON.parse('{"type":"STATE_SNAPSHOT","snapshot":{"plan":[{"step":1}],"__proto__":{"polluted":true}}}') as Event;
    expect(assembler.push(snapshot)).toBeUndefined();
    (snapshot as { snapshot: { plan: { step: number }[] } }).snapshot.plan[0]!.step = 2;
    const state = assembler.snapshot().state as { plan: unknown; polluted?: unknown };
    expect(state.plan).toEqual([{ step: 1 }]);
    expect(Object.getPrototypeOf(state)).toBe(Object.prototype);
    expect(state.polluted).toBeUndefined();
    expect(Object.getOwnPropertyDescriptor(state, "__proto__")?.value).toEqual({ polluted: true });
  });

  it("refuses a value nested deeper than the guards follow, and keeps the state it had", () => {
    const nested = (depth: number): unknown => (depth === 0 ? {} : { inner: nested(depth - 1) });
    const assembler = assembleAgUi();
    expect(assembler.push({ type: "STATE_SNAPSHOT", snapshot: nested(400) })).toBeUndefined();
    const before = assembler.snapshot().state;
    expect(assembler.push({ type: "STATE_SNAPSHOT", snapshot: nested(5000) })).toEqual({
      rule: "state-snapshot",
      message: "STATE_SNAPSHOT: the value nests deeper than 500 levels",
      index: 1,
    });
    expect(assembler.snapshot().state).toBe(before);
  });

  it("appends more items than a call can take arguments without throwing", () => {
    const parts = Array.from({ length: 300_000 }, (_, i) => ({ text: String(i) }));
    const { snapshot, violations } = run(assembleGtm(), [
      { task: { id: "t", status: { state: "TASK_STATE_WORKING" } } },
      { artifactUpdate: { taskId: "t", artifact: { artifactId: "a", parts: [{ text: "first" }] } } },
      { artifactUpdate: { taskId: "t", artifact: { artifactId: "a", parts }, append: true } },
    ]);
    expect(violations).toEqual([]);
    expect(snapshot.task?.artifacts?.[0]?.parts).toHaveLength(300_001);
  });
});

describe("AG-UI patches apply to the JSON value only", () => {
  const delta = (...operations: unknown[]) => ({ type: "STATE_DELTA", delta: operations }) as unknown as Event;
  const STATE = { items: ["a", "b"], user: { name: "Ada" } };
  /** An assembler whose state is STATE, and what each of the events returns. */
  const patched = (...events: Event[]) => {
    const assembler = assembleAgUi();
    assembler.push({ type: "STATE_SNAPSHOT", snapshot: STATE });
    return { assembler, violations: events.map((event) => assembler.push(event)) };
  };

  it("add /__proto__ adds a member named __proto__, as JSON.parse makes one: the state's prototype stays Object.prototype", () => {
    const { assembler, violations } = patched(delta({ op: "add", path: "/__proto__", value: { isAdmin: true } }));
    expect(violations).toEqual([undefined]);
    const state = assembler.snapshot().state as { isAdmin?: unknown };
    expect(state.isAdmin).toBeUndefined();
    expect(Object.getPrototypeOf(state)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(state, "__proto__")?.value).toEqual({ isAdmin: true });
    expect(JSON.parse(JSON.stringify(state))).toStrictEqual(state);
  });

  it.each([
    ["/__proto__/x, where the state has no member __proto__", { op: "add", path: "/__proto__/x", value: 1 }],
    ["/constructor/prototype/x", { op: "add", path: "/constructor/prototype/x", value: 1 }],
    ["a move from /__proto__", { op: "move", from: "/__proto__", path: "/loop" }],
    ["a remove of /items/length", { op: "remove", path: "/items/length" }],
    ["a replace of /user/toString", { op: "replace", path: "/user/toString", value: "x" }],
    ["an add at /items/01", { op: "add", path: "/items/01", value: "x" }],
  ])("%s is refused and changes nothing", (_, operation) => {
    const { assembler, violations } = patched(delta({ op: "add", path: "/first", value: 1 }, operation), delta({ op: "add", path: "/later", value: 2 }));
    expect(violations).toEqual([{ rule: "state-delta", index: 1, message: expect.stringContaining("operation 1 of the patch") }, undefined]);
    expect(assembler.snapshot().state).toStrictEqual({ ...STATE, later: 2 });
    expect(Object.getPrototypeOf(assembler.snapshot().state)).toBe(Object.prototype);
  });

  it("an ACTIVITY_DELTA through an inherited name is refused alike", () => {
    const assembler = assembleAgUi();
    assembler.push({ type: "ACTIVITY_SNAPSHOT", messageId: "act", activityType: "progress", content: { done: 0 } });
    const violation = assembler.push({
      type: "ACTIVITY_DELTA",
      messageId: "act",
      activityType: "progress",
      patch: [{ op: "add", path: "/constructor/prototype/polluted", value: true }],
    });
    expect(violation).toEqual({ rule: "activity-delta", index: 1, message: expect.stringContaining("there is no /constructor") });
    expect(assembler.snapshot().messages).toEqual([{ id: "act", role: "activity", activityType: "progress", content: { done: 0 } }]);
  });

  it("copies that would double the state again and again are refused once they add more than the events brought and a megabyte", () => {
    const assembler = assembleAgUi();
    assembler.push({ type: "STATE_SNAPSHOT", snapshot: { list: Array.from({ length: 10_000 }, (_, i) => i) } });
    const doubling = Array.from({ length: 8 }, (_, i) => ({ op: "copy", from: "", path: `/copy${i}` }));
    expect(assembler.push(delta(...doubling))).toEqual({
      rule: "state-delta",
      index: 1,
      message: expect.stringContaining("its copies would add more than the stream's events brought in"),
    });
    expect(Object.keys(assembler.snapshot().state as object)).toEqual(["list"]);
  });

  it("after any events, with pointers through inherited names, lengths, numbers, escapes and ends: no prototype changes, the snapshot is a tree of JSON, and what is refused changes nothing", () => {
    const TOKENS = ["__proto__", "constructor", "prototype", "length", "toString", "valueOf", "hasOwnProperty"];
    const token = fc.constantFrom(...TOKENS, "0", "1", "01", "00", "-", "1e0", "~0", "~1", "~01", "~2", "~", "", "a", "b");
    const pointer = fc.array(token, { maxLength: 3 }).map((tokens) => tokens.map((each) => `/${each}`).join(""));
    const hostile = fc.constantFrom(
      JSON.parse('{"__proto__":{"isAdmin":true}}'),
      JSON.parse('{"constructor":{"prototype":{"polluted":true}}}'),
      { length: 1, 0: "zero" },
      [[], {}],
    );
    const value = fc.oneof(fc.jsonValue({ maxDepth: 2 }), hostile, fc.dictionary(token, fc.jsonValue({ maxDepth: 1 }), { maxKeys: 4 }));
    const operation = fc.record(
      { op: fc.constantFrom("add", "remove", "replace", "move", "copy", "test"), path: pointer, from: pointer, value },
      { requiredKeys: ["op", "path"] },
    );
    const operations = fc.array(operation, { minLength: 1, maxLength: 4 });
    const event = fc.oneof(
      fc.record({ type: fc.constant("STATE_SNAPSHOT"), snapshot: value }),
      fc.record({ type: fc.constant("STATE_DELTA"), delta: operations }),
      fc.record({ type: fc.constant("ACTIVITY_SNAPSHOT"), messageId: fc.constant("act"), activityType: fc.constant("a"), content: value }),
      fc.record({ type: fc.constant("ACTIVITY_DELTA"), messageId: fc.constant("act"), activityType: fc.constant("b"), patch: operations }),
    );
    // As they arrive: JSON text parsed, which keeps a "__proto__" member a member.
    const arrived = fc.array(event, { minLength: 1, maxLength: 8 }).map((events) => JSON.parse(JSON.stringify(events)) as Event[]);
    const prototypes = () => [Object.prototype, Array.prototype].map((prototype) => Object.getOwnPropertyNames(prototype).join());
    const before = prototypes();
    let refused = 0;
    fc.assert(
      fc.property(arrived, (events) => {
        const assembler = assembleAgUi();
        for (const each of events) {
          const text = JSON.stringify(assembler.snapshot());
          const violation = assembler.push(each);
          const snapshot = assembler.snapshot();
          expect(prototypes()).toEqual(before);
          expect(({} as { isAdmin?: unknown; polluted?: unknown }).isAdmin ?? ({} as { polluted?: unknown }).polluted).toBeUndefined();
          expect(notJsonTree(snapshot)).toBeUndefined();
          // toEqual: toStrictEqual takes a member named "constructor" for the object's class.
          expect(JSON.parse(JSON.stringify(snapshot))).toEqual(snapshot);
          if (violation !== undefined) {
            refused++;
            expect(JSON.stringify(snapshot), violation.message).toBe(text);
          }
        }
      }),
      { seed: 0x20_0001, numRuns: 200 },
    );
    expect(refused).toBeGreaterThan(200);
  });
});

/** Why a value is not a tree of JSON (plain objects and arrays, each reached once, holding own enumerable data only); undefined where it is. */
function notJsonTree(value: unknown): string | undefined {
  const seen = new Set<object>();
  const problem = (at: unknown, where: string): string | undefined => {
    if (at === null || typeof at === "string" || typeof at === "boolean") return undefined;
    if (typeof at === "number") return Number.isFinite(at) ? undefined : `${where} is ${at}`;
    if (typeof at !== "object") return `${where} is a ${typeof at}`;
    if (seen.has(at)) return `${where} is reached twice`;
    seen.add(at);
    const names = Object.getOwnPropertyNames(at);
    if (Array.isArray(at)) {
      if (Object.getPrototypeOf(at) !== Array.prototype) return `${where} has another prototype`;
      if (names.length !== at.length + 1 || !names.every((name, i) => name === (i < at.length ? String(i) : "length")))
        return `${where} has ${JSON.stringify(names)}`;
    } else {
      if (Object.getPrototypeOf(at) !== Object.prototype) return `${where} has another prototype`;
      if (names.join() !== Object.keys(at).join() || Object.getOwnPropertySymbols(at).length > 0) return `${where} has hidden properties`;
    }
    for (const name of Object.keys(at)) {
      const descriptor = Object.getOwnPropertyDescriptor(at, name)!;
      if (!("value" in descriptor) || !descriptor.writable || !descriptor.configurable) return `${where}/${name} is no plain member`;
      const found = problem(descriptor.value, `${where}/${name}`);
      if (found !== undefined) return found;
    }
    return undefined;
  };
  return problem(value, "");
}

describe("the indexes stay exact where a step changes what they hold", () => {
  // Steps no protocol has: a set of the field elements are found by, a set that replaces
  // the list an element holds, a patch over such a list. The first and last make the
  // assembler forget its indexes; the second replaces one list's entries.
  const step = (name: string, event: string, action: AssemblyStep["action"]): AssemblyStep => ({ name, because: "a test", on: [{ event }], action });
  const from = (pointer: string) => ({ $from: pointer });
  const STEPS: AssemblyStep[] = [
    step("group", "group", { verb: "add", path: ["groups"], key: "id", value: { id: from("/id"), items: [] } }),
    step("item", "item", { verb: "add", path: ["groups", { id: from("/group") }, "items"], key: "id", value: { id: from("/id"), text: "" } }),
    step("text", "text", { verb: "append", path: ["groups", "*", "items", { id: from("/id") }, "text"], value: from("/text") }),
    step("rename", "rename", { verb: "set", path: ["groups", "*", "items", { id: from("/id") }, "id"], value: from("/to") }),
    step("regroup", "regroup", { verb: "set", path: ["groups", { id: from("/group") }, "items"], value: from("/items") }),
    step("patch", "patch", { verb: "patch", path: ["groups", { id: from("/group") }, "items"], value: from("/patch") }),
    // Text appended to the field looked for, in a run (which looks nothing up after the first).
    step("suffix", "suffix", { verb: "append", path: ["groups", { id: from("/group") }, "items", { text: from("/text") }, "id"], value: from("/suffix") }),
  ];
  type Built = { groups: { id: string; items: { id: string; text: string }[] }[] };

  it("a lookup after each finds what a walk of every element would", () => {
    const assembler = assemblerOf<{ type: string }, Built>(planAssembly(STEPS, []), (event) => event.type, { groups: [] });
    const events = [
      { type: "group", id: "g1" },
      { type: "group", id: "g2" },
      { type: "item", group: "g1", id: "a" },
      { type: "item", group: "g2", id: "b" },
      { type: "text", id: "a", text: "x" },
      { type: "rename", id: "a", to: "c" },
      { type: "text", id: "c", text: "y" },
      { type: "text", id: "a", text: "refused" },
      { type: "regroup", group: "g2", items: [{ id: "d", text: "" }] },
      { type: "text", id: "d", text: "w" },
      { type: "text", id: "b", text: "refused" },
      { type: "patch", group: "g1", patch: [{ op: "add", path: "/-", value: { id: "e", text: "" } }] },
      { type: "text", id: "e", text: "v" },
      { type: "patch", group: "g1", patch: [{ op: "remove", path: "/0" }] },
      { type: "text", id: "c", text: "refused" },
      { type: "item", group: "g2", id: "c" },
      { type: "text", id: "c", text: "again" },
      { type: "text", id: "c", text: "and again" },
      { type: "suffix", group: "g2", text: "w", suffix: "1" },
      { type: "suffix", group: "g2", text: "w", suffix: "2" },
      { type: "text", id: "d", text: "refused" },
      { type: "text", id: "d12", text: "!" },
    ];
    const refused = events.flatMap((event, index) => (assembler.push(event) === undefined ? [] : [index]));
    expect(refused).toEqual([7, 10, 14, 20]);
    expect(assembler.snapshot()).toStrictEqual({
      groups: [
        { id: "g1", items: [{ id: "e", text: "v" }] },
        {
          id: "g2",
          items: [
            { id: "d12", text: "w!" },
            { id: "c", text: "againand again" },
          ],
        },
      ],
    });
  });
});

describe("an event costs the same whatever the history behind it", () => {
  /**
   * The calls to Array.isArray the events make, after the history: every step of a walk
   * and of a copy asks it, so it counts the work an event does (an engine that walked the
   * messages, or copied the state, would ask it for each one).
   */
  function workOf(history: readonly Event[], events: readonly Event[]): { work: number; refused: number } {
    const assembler = assembleAgUi();
    for (const event of history) assembler.push(event);
    const isArray = vi.spyOn(Array, "isArray");
    let refused = 0;
    try {
      for (const event of events) if (assembler.push(event) !== undefined) refused++;
      return { work: isArray.mock.calls.length, refused };
    } finally {
      isArray.mockRestore();
    }
  }

  /**
   * h messages that each made a tool call, and h members of the state; then an event that
   * looks a call up and one that looks a message up, which make the indexes, once for
   * each MESSAGES_SNAPSHOT (and in proportion to it).
   */
  const history = (h: number): Event[] => [
    {
      type: "MESSAGES_SNAPSHOT",
      messages: Array.from({ length: h }, (_, i) => ({
        id: `msg${i}`,
        role: "assistant" as const,
        toolCalls: [{ id: `call${i}`, type: "function" as const, function: { name: "search", arguments: "" } }],
      })),
    },
    { type: "STATE_SNAPSHOT", snapshot: Object.fromEntries(Array.from({ length: h }, (_, i) => [`note${i}`, { done: false }])) },
    { type: "TOOL_CALL_ARGS", toolCallId: "call0", delta: "{" },
    { type: "TEXT_MESSAGE_START", messageId: "first", role: "assistant" },
  ];

  // Lookups of calls there are and are not, between events that add messages and calls,
  // merge into a message, patch under one, and patch the state.
  const events: Event[] = [];
  for (let i = 0; i < 20; i++)
    events.push(
      { type: "TEXT_MESSAGE_START", messageId: `new${i}`, role: "assistant" },
      { type: "TOOL_CALL_ARGS", toolCallId: `missing${i}`, delta: "x" },
      { type: "ACTIVITY_SNAPSHOT", messageId: `msg${i}`, activityType: "progress", content: { step: i } },
      { type: "ACTIVITY_DELTA", messageId: `msg${i}`, activityType: "progress", patch: [{ op: "replace", path: "/step", value: -i }] },
      { type: "TOOL_CALL_START", toolCallId: `late${i}`, toolCallName: "search", parentMessageId: `msg${i + 1}` },
      { type: "TOOL_CALL_ARGS", toolCallId: `late${i}`, delta: "{}" },
      { type: "TOOL_CALL_ARGS", toolCallId: `call${i + 2}`, delta: "{}" },
      { type: "REASONING_ENCRYPTED_VALUE", subtype: "tool-call", entityId: `call${i + 3}`, encryptedValue: "e" },
      { type: "REASONING_ENCRYPTED_VALUE", subtype: "tool-call", entityId: `missing${i}`, encryptedValue: "e" },
      { type: "STATE_DELTA", delta: [{ op: "replace", path: `/note${i}/done`, value: true }] },
    );

  it("for tool calls among many messages, lookups of ids there are not, and one-operation state deltas on a large state", () => {
    const small = workOf(history(64), events);
    const large = workOf(history(2048), events);
    expect(small.refused).toBe(40);
    expect(large).toEqual(small);
  });
});

// ---------------------------------------------------------------------------------------
// GTM and A2A: a task from its snapshot, status updates and artifact chunks

describe("GTM tasks", () => {
  const TASK: AgentStreamEvent = { task: { id: "t1", contextId: "c1", status: { state: "TASK_STATE_SUBMITTED" } } };
  const chunk = (parts: string[], flags: { append?: boolean; lastChunk?: boolean } = {}): AgentStreamEvent => ({
    artifactUpdate: { taskId: "t1", artifact: { artifactId: "report", name: "Report", parts: parts.map((text) => ({ text })) }, ...flags },
  });

  it("artifact chunks sharing an artifactId are concatenated in arrival order, up to the last chunk", () => {
    const { snapshot, violations } = run(assembleGtm(), [
      TASK,
      { statusUpdate: { taskId: "t1", status: { state: "TASK_STATE_WORKING" } } },
      chunk(["# Title\n"]),
      chunk(["Para 1\n"], { append: true }),
      chunk(["Para 2\n", "Para 3\n"], { append: true, lastChunk: true }),
      { statusUpdate: { taskId: "t1", status: { state: "TASK_STATE_COMPLETED" } } },
    ]);
    expect(violations).toEqual([]);
    expect(snapshot.task).toEqual({
      id: "t1",
      contextId: "c1",
      status: { state: "TASK_STATE_COMPLETED" },
      artifacts: [{ artifactId: "report", name: "Report", parts: ["# Title\n", "Para 1\n", "Para 2\n", "Para 3\n"].map((text) => ({ text })) }],
    });
    expect(isAgentTask(snapshot.task)).toBe(true);
  });

  it("an explicit append: false mid-stream restarts the artifact: what had accumulated is discarded", () => {
    const { snapshot } = run(assembleGtm(), [
      TASK,
      chunk(["draft "]),
      chunk(["more draft"], { append: true }),
      chunk(["final"], { append: false }),
      chunk([" text"], { append: true, lastChunk: true }),
    ]);
    expect(snapshot.task?.artifacts).toEqual([{ artifactId: "report", name: "Report", parts: [{ text: "final" }, { text: " text" }] }]);
  });

  it("an appended chunk for an artifact never started is refused", () => {
    const other: AgentStreamEvent = { artifactUpdate: { taskId: "t1", artifact: { artifactId: "other", parts: [] } } };
    const { snapshot, violations } = run(assembleGtm(), [TASK, chunk(["orphan"], { append: true }), other, chunk(["orphan"], { append: true })]);
    expect(violations).toEqual([
      { rule: "artifact-appends", index: 1, message: "artifactUpdate: there is no task.artifacts yet" },
      { rule: "artifact-appends", index: 3, message: 'artifactUpdate: there is no task.artifacts element whose artifactId is "report"' },
    ]);
    expect(snapshot.task?.artifacts).toEqual([{ artifactId: "other", parts: [] }]);
  });

  it("two artifacts keep their own parts", () => {
    const { snapshot } = run(assembleGtm(), [
      TASK,
      { artifactUpdate: { taskId: "t1", artifact: { artifactId: "a", parts: [{ text: "a1" }] } } },
      { artifactUpdate: { taskId: "t1", artifact: { artifactId: "b", parts: [{ text: "b1" }] } } },
      { artifactUpdate: { taskId: "t1", artifact: { artifactId: "a", parts: [{ text: "a2" }] }, append: true } },
    ]);
    expect(snapshot.task?.artifacts?.map(({ artifactId, parts }) => [artifactId, parts.length])).toEqual([
      ["a", 2],
      ["b", 1],
    ]);
  });

  it("a status update before any task frame has no task to update", () => {
    const { snapshot, violations } = run(assembleGtm(), [{ statusUpdate: { taskId: "t1", status: { state: "TASK_STATE_WORKING" } } }]);
    expect(violations).toEqual([{ rule: "task-status", index: 0, message: expect.any(String) }]);
    expect(snapshot.task).toBeNull();
  });
});

describe("A2A streams", () => {
  it("in message mode, the stream's one message is the answer, and there is no task", () => {
    const message: StreamResponse = { message: { messageId: "m1", role: "ROLE_AGENT", parts: [{ text: "Hello" }] } };
    const { snapshot, violations } = run(assembleA2a(), [message]);
    expect(violations).toEqual([]);
    expect(snapshot).toEqual({ task: null, message: { messageId: "m1", role: "ROLE_AGENT", parts: [{ text: "Hello" }] } });
  });

  it("in task mode, the task is its snapshot with its status and artifacts as they arrive", () => {
    const { snapshot, violations } = run(assembleA2a(), [
      { task: { id: "t1", contextId: "c1", status: { state: "TASK_STATE_SUBMITTED" } } },
      { statusUpdate: { taskId: "t1", contextId: "c1", status: { state: "TASK_STATE_WORKING" } } },
      { artifactUpdate: { taskId: "t1", contextId: "c1", artifact: { artifactId: "a", parts: [{ text: "one" }] } } },
      { artifactUpdate: { taskId: "t1", contextId: "c1", artifact: { artifactId: "a", parts: [{ text: "two" }] }, append: true, lastChunk: true } },
      { statusUpdate: { taskId: "t1", contextId: "c1", status: { state: "TASK_STATE_COMPLETED" } } },
    ]);
    expect(violations).toEqual([]);
    expect(snapshot.task).toEqual({
      id: "t1",
      contextId: "c1",
      status: { state: "TASK_STATE_COMPLETED" },
      artifacts: [{ artifactId: "a", parts: [{ text: "one" }, { text: "two" }] }],
    });
    expect(isTask(snapshot.task)).toBe(true);
  });

  it("an artifact without its artifactId is refused rather than merged into another keyless one", () => {
    const keyless = (text: string) => JSON.parse(`{"artifactUpdate":{"taskId":"t1","contextId":"c1","artifact":{"parts":[{"text":"${text}"}]}}}`);
    const { snapshot, violations } = run(assembleA2a(), [
      { task: { id: "t1", contextId: "c1", status: { state: "TASK_STATE_WORKING" } } },
      keyless("first") as StreamResponse,
      keyless("second") as StreamResponse,
    ]);
    expect(violations.map(({ rule, index, message }) => [rule, index, message])).toEqual([
      ["artifact-starts", 1, expect.stringContaining("artifactId")],
      ["artifact-starts", 2, expect.stringContaining("artifactId")],
    ]);
    expect(snapshot.task?.artifacts).toBeUndefined();
  });
});

// ---------------------------------------------------------------------------------------
// app-server: threads, turns and items

describe("app-server items", () => {
  const item = (content: unknown, status: "inProgress" | "completed" = "completed") => ({
    id: "i1",
    runEventId: "e1",
    type: "agentMessage" as const,
    status,
    createdAtMs: 100,
    content,
  });

  it("deltas without an item/started make the item known by its id, and item/completed replaces its content", () => {
    const assembler = assembleAppServer();
    const deltas: ServerNotification[] = [
      { method: "item/agentMessage/delta", params: { threadId: "th", turnId: "tu", itemId: "i1", delta: "Hel" } },
      { method: "item/agentMessage/delta", params: { threadId: "th", turnId: "tu", itemId: "i1", delta: "lo" } },
    ];
    expect(run(assembler, deltas).violations).toEqual([]);
    expect(assembler.snapshot().items).toEqual([{ id: "i1", content: "Hello" }]);
    assembler.push({ method: "item/completed", params: { threadId: "th", turnId: "tu", item: item("Hello, world") } });
    expect(assembler.snapshot().items).toEqual([item("Hello, world")]);
  });

  it("tool call deltas are kept in order, whatever JSON they are", () => {
    const { snapshot } = run(assembleAppServer(), [
      { method: "item/started", params: { threadId: "th", turnId: "tu", item: { ...item(undefined, "inProgress"), type: "toolCall" } } },
      { method: "item/toolCall/delta", params: { threadId: "th", turnId: "tu", itemId: "i1", delta: { path: "a" } } },
      { method: "item/toolCall/delta", params: { threadId: "th", turnId: "tu", itemId: "i1", delta: ["b", 2] } },
    ] as ServerNotification[]);
    expect(snapshot.items[0]?.content).toEqual([{ path: "a" }, ["b", 2]]);
    expect(snapshot.items[0]?.status).toBe("inProgress");
  });

  it("threads and turns are kept by id, as each notification carries them", () => {
    const thread = { id: "th", status: { type: "idle" }, archived: false, ephemeral: false, createdAtMs: 1, updatedAtMs: 1 };
    const { snapshot, violations } = run(assembleAppServer(), [
      { method: "thread/started", params: { thread } },
      { method: "turn/started", params: { threadId: "th", turn: { id: "tu", status: "inProgress" } } },
      { method: "turn/completed", params: { threadId: "th", turn: { id: "tu", status: "completed" } } },
      { method: "thread/archived", params: { threadId: "th" } },
    ] as unknown as ServerNotification[]);
    expect(violations).toEqual([]);
    expect(snapshot.threads).toEqual([{ ...thread, archived: true }]);
    expect(snapshot.turns).toEqual([{ id: "tu", status: "completed" }]);
  });
});

// ---------------------------------------------------------------------------------------
// A million deltas

describe("a long stream", () => {
  it("a million TEXT_MESSAGE_CONTENT deltas assemble into the whole text", () => {
    const assembler = assembleAgUi();
    assembler.push({ type: "TEXT_MESSAGE_START", messageId: "m1", role: "assistant" });
    const delta: Event = { type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: "ab" };
    let violations = 0;
    for (let i = 0; i < 1_000_000; i++) if (assembler.push(delta) !== undefined) violations++;
    expect(violations).toBe(0);
    const text = (assembler.snapshot() as AgUiSnapshot).messages[0]?.content;
    expect(typeof text === "string" && text.length).toBe(2_000_000);
    expect(text).toBe("ab".repeat(1_000_000));
  });
});
