// Valid event sequences built from the stream facts, for property tests of the verifiers:
// each generator returns the events with, for every event, the span instance it opens,
// continues or closes, so that a test can break a chosen rule on purpose.

import fc from "fast-check";
import type { Event } from "../../generated/src/ag-ui/types.js";
import type { ServerNotification } from "../../generated/src/app-server/types.js";
import type { AgentStreamEvent } from "../../generated/src/gtm-agent/types.js";

/** What an event does to a span instance: the span's rule name, the instance's key, the part it plays. */
export interface Role {
  readonly span: string;
  readonly key: string;
  readonly part: "opens" | "continues" | "closes" | "aborts";
}

export interface Item<E> {
  readonly event: E;
  readonly role?: Role;
  /** An event of a chunk shorthand block, or one passing through it: the block must stay contiguous. */
  readonly inChunkBlock?: true;
}

/** An opener and the closer of the same span instance, by position. */
export interface Pair {
  readonly span: string;
  readonly opener: number;
  readonly closer: number;
}

export function pairs<E>(items: readonly Item<E>[]): Pair[] {
  const found: Pair[] = [];
  items.forEach((item, opener) => {
    if (item.role?.part !== "opens") return;
    const { span, key } = item.role;
    const closer = items.findLastIndex((other) => other.role?.span === span && other.role.key === key);
    if (closer > opener && items[closer]!.role!.part === "closes") found.push({ span, opener, closer });
  });
  return found;
}

/** Interleaves queues of units (an event, or a block that stays together), each queue kept in order. */
function interleave<T>(queues: readonly (readonly T[])[], choices: readonly number[]): T[] {
  const pending = queues.map((queue) => [...queue]).filter((queue) => queue.length > 0);
  const out: T[] = [];
  for (let step = 0; pending.length > 0; step++) {
    const at = (choices[step % Math.max(choices.length, 1)] ?? 0) % pending.length;
    out.push(pending[at]!.shift()!);
    if (pending[at]!.length === 0) pending.splice(at, 1);
  }
  return out;
}

// ---------------------------------------------------------------------------------------
// AG-UI: runs of interleaved text messages, tool calls (with arguments and results), steps,
// reasoning, subagents, chunk shorthands and free events.

type AguiItem = Item<Event>;

const delta = fc.string({ maxLength: 6 });

const aguiThread = fc.oneof(
  fc.record({ kind: fc.constant("text" as const), deltas: fc.array(delta, { maxLength: 3 }) }),
  fc.record({
    kind: fc.constant("tool" as const),
    query: fc.string({ maxLength: 8 }),
    pieces: fc.integer({ min: 1, max: 3 }),
    result: fc.boolean(),
  }),
  fc.record({ kind: fc.constant("step" as const) }),
  fc.record({ kind: fc.constant("reasoning" as const), messages: fc.array(fc.array(delta, { maxLength: 2 }), { maxLength: 2 }) }),
  fc.record({ kind: fc.constant("subagent" as const), fails: fc.boolean() }),
  fc.record({
    kind: fc.constant("free" as const),
    which: fc.constantFrom(
      "STATE_SNAPSHOT",
      "STATE_DELTA",
      "CUSTOM",
      "RAW",
      "ACTIVITY_SNAPSHOT",
      "MESSAGES_SNAPSHOT",
      "REASONING_ENCRYPTED_VALUE",
    ),
  }),
  fc.record({
    kind: fc.constant("chunks" as const),
    of: fc.constantFrom("text" as const, "tool" as const, "reasoning" as const),
    deltas: fc.array(delta, { minLength: 1, maxLength: 4 }),
    // Whether each continuation repeats the id, which the shorthand allows.
    named: fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }),
    // Where a RAW event passes through the block, if anywhere.
    raw: fc.option(fc.nat({ max: 3 }), { nil: undefined }),
  }),
);

const aguiRun = fc.record({
  threads: fc.array(aguiThread, { minLength: 1, maxLength: 6 }),
  choices: fc.array(fc.nat(), { maxLength: 24 }),
  // A run that fails is cut after `keep` of its events (at least one) and ends with RUN_ERROR.
  fails: fc.option(fc.nat(), { freq: 4, nil: undefined }),
});

export const aguiStreamSpec = fc.array(aguiRun, { minLength: 1, maxLength: 3 });
export type AguiStreamSpec = typeof aguiStreamSpec extends fc.Arbitrary<infer T> ? T : never;
type AguiThreadSpec = AguiStreamSpec[number]["threads"][number];

export interface AguiStream {
  readonly items: AguiItem[];
  /** Each run's RUN_STARTED and terminal positions, and how it ended. */
  readonly runs: { readonly start: number; readonly end: number; readonly terminal: "RUN_FINISHED" | "RUN_ERROR" }[];
}

/** A valid AG-UI stream: every id fresh, so that runs and threads never collide. */
export function buildAguiStream(spec: AguiStreamSpec): AguiStream {
  const items: AguiItem[] = [];
  const runs: AguiStream["runs"][number][] = [];
  spec.forEach((run, r) => {
    const threadId = "thread-1";
    const runId = `run-${r}`;
    const queues = run.threads.map((thread, t) => aguiUnits(thread, `${r}.${t}`));
    let body = interleave(queues, run.choices).flat();
    if (run.fails !== undefined) body = body.slice(0, 1 + (run.fails % body.length));
    const start = items.length;
    items.push({ event: { type: "RUN_STARTED", threadId, runId }, role: { span: "run", key: "", part: "opens" } }, ...body);
    if (run.fails === undefined)
      items.push({ event: { type: "RUN_FINISHED", threadId, runId }, role: { span: "run", key: "", part: "closes" } });
    else items.push({ event: { type: "RUN_ERROR", message: "the model failed" }, role: { span: "run", key: "", part: "aborts" } });
    runs.push({ start, end: items.length - 1, terminal: run.fails === undefined ? "RUN_FINISHED" : "RUN_ERROR" });
  });
  return { items, runs };
}

/** One thread's units, in order: an event each, but a chunk block is one unit. */
function aguiUnits(thread: AguiThreadSpec, id: string): AguiItem[][] {
  const one = (event: Event, role?: Role): AguiItem[] => [role === undefined ? { event } : { event, role }];
  switch (thread.kind) {
    case "text": {
      const messageId = `msg-${id}`;
      const span = "text-message";
      return [
        one({ type: "TEXT_MESSAGE_START", messageId, role: "assistant" }, { span, key: messageId, part: "opens" }),
        ...thread.deltas.map((text) =>
          one({ type: "TEXT_MESSAGE_CONTENT", messageId, delta: text }, { span, key: messageId, part: "continues" }),
        ),
        one({ type: "TEXT_MESSAGE_END", messageId }, { span, key: messageId, part: "closes" }),
      ];
    }
    case "tool": {
      const toolCallId = `call-${id}`;
      const span = "tool-call";
      const args = JSON.stringify({ query: thread.query });
      const cut = Math.ceil(args.length / thread.pieces);
      const pieces = Array.from({ length: thread.pieces }, (_, i) => args.slice(i * cut, (i + 1) * cut));
      return [
        one({ type: "TOOL_CALL_START", toolCallId, toolCallName: "search" }, { span, key: toolCallId, part: "opens" }),
        ...pieces.map((piece) => one({ type: "TOOL_CALL_ARGS", toolCallId, delta: piece }, { span, key: toolCallId, part: "continues" })),
        one({ type: "TOOL_CALL_END", toolCallId }, { span, key: toolCallId, part: "closes" }),
        ...(thread.result ? [one({ type: "TOOL_CALL_RESULT", messageId: `result-${id}`, toolCallId, content: "found" })] : []),
      ];
    }
    case "step": {
      const stepName = `step-${id}`;
      return [
        one({ type: "STEP_STARTED", stepName }, { span: "step", key: stepName, part: "opens" }),
        one({ type: "STEP_FINISHED", stepName }, { span: "step", key: stepName, part: "closes" }),
      ];
    }
    case "reasoning": {
      const messageId = `reasoning-${id}`;
      return [
        one({ type: "REASONING_START", messageId }, { span: "reasoning", key: messageId, part: "opens" }),
        ...thread.messages.flatMap((deltas, m) => {
          const key = `thought-${id}.${m}`;
          const span = "reasoning-message";
          return [
            one({ type: "REASONING_MESSAGE_START", messageId: key, role: "reasoning" }, { span, key, part: "opens" }),
            ...deltas.map((text) =>
              one({ type: "REASONING_MESSAGE_CONTENT", messageId: key, delta: text }, { span, key, part: "continues" }),
            ),
            one({ type: "REASONING_MESSAGE_END", messageId: key }, { span, key, part: "closes" }),
          ];
        }),
        one({ type: "REASONING_END", messageId }, { span: "reasoning", key: messageId, part: "closes" }),
      ];
    }
    case "subagent": {
      const subagentRunId = `subagent-${id}`;
      const span = "subagent";
      return [
        one({ type: "SUBAGENT_STARTED", subagentRunId, name: "researcher" }, { span, key: subagentRunId, part: "opens" }),
        one(thread.fails ? { type: "SUBAGENT_ERROR", subagentRunId, message: "gave up" } : { type: "SUBAGENT_FINISHED", subagentRunId }, {
          span,
          key: subagentRunId,
          part: "closes",
        }),
      ];
    }
    case "free":
      return [one(freeEvent(thread.which, id))];
    case "chunks": {
      const block: AguiItem[] = thread.deltas.map((text, i) => ({
        event: chunk(thread.of, id, text, i === 0 || thread.named[i] === true),
        inChunkBlock: true,
      }));
      if (thread.raw !== undefined && thread.raw > 0 && thread.raw < block.length)
        block.splice(thread.raw, 0, { event: { type: "RAW", event: { passing: "through" } }, inChunkBlock: true });
      return [block];
    }
  }
}

function chunk(of: "text" | "tool" | "reasoning", id: string, text: string, named: boolean): Event {
  switch (of) {
    case "text":
      return named ? { type: "TEXT_MESSAGE_CHUNK", messageId: `chunked-${id}`, delta: text } : { type: "TEXT_MESSAGE_CHUNK", delta: text };
    case "tool":
      return named
        ? { type: "TOOL_CALL_CHUNK", toolCallId: `chunked-call-${id}`, toolCallName: "search", delta: text }
        : { type: "TOOL_CALL_CHUNK", delta: text };
    case "reasoning":
      return named
        ? { type: "REASONING_MESSAGE_CHUNK", messageId: `chunked-thought-${id}`, delta: text }
        : { type: "REASONING_MESSAGE_CHUNK", delta: text };
  }
}

function freeEvent(which: Extract<AguiThreadSpec, { kind: "free" }>["which"], id: string): Event {
  switch (which) {
    case "STATE_SNAPSHOT":
      return { type: "STATE_SNAPSHOT", snapshot: { step: id } };
    case "STATE_DELTA":
      return { type: "STATE_DELTA", delta: [{ op: "add", path: "/seen", value: id }] };
    case "CUSTOM":
      return { type: "CUSTOM", name: "acme.progress", value: id };
    case "RAW":
      return { type: "RAW", event: { provider: id } };
    case "ACTIVITY_SNAPSHOT":
      return { type: "ACTIVITY_SNAPSHOT", messageId: `activity-${id}`, activityType: "progress", content: { done: 1 } };
    case "MESSAGES_SNAPSHOT":
      return { type: "MESSAGES_SNAPSHOT", messages: [{ id: `history-${id}`, role: "user", content: "hello" }] };
    case "REASONING_ENCRYPTED_VALUE":
      return { type: "REASONING_ENCRYPTED_VALUE", subtype: "message", entityId: `sealed-${id}`, encryptedValue: "c2VhbGVk" };
  }
}

/** Kinds that do not end an open chunk shorthand (the facts' passThrough), and those that end only a subagent's. */
export const CHUNK_TRANSPARENT = new Set([
  "RAW",
  "ACTIVITY_SNAPSHOT",
  "ACTIVITY_DELTA",
  "REASONING_ENCRYPTED_VALUE",
  "SUBAGENT_STARTED",
  "SUBAGENT_FINISHED",
  "SUBAGENT_ERROR",
]);

export const isChunk = (event: Event): boolean =>
  event.type === "TEXT_MESSAGE_CHUNK" || event.type === "TOOL_CALL_CHUNK" || event.type === "REASONING_MESSAGE_CHUNK";

/**
 * Any AG-UI events at all, in any order, over two ids per kind: mostly invalid streams, each
 * beginning with RUN_STARTED so that they break more than the first rule.
 */
export const aguiEventSoup: fc.Arbitrary<Event[]> = (() => {
  const id = fc.constantFrom("a", "b");
  const maybe = fc.option(id, { nil: undefined });
  const event = fc.oneof(
    fc.constant<Event>({ type: "RUN_STARTED", threadId: "t", runId: "r" }),
    fc.constant<Event>({ type: "RUN_FINISHED", threadId: "t", runId: "r" }),
    fc.constant<Event>({ type: "RUN_ERROR", message: "failed" }),
    id.map((messageId): Event => ({ type: "TEXT_MESSAGE_START", messageId })),
    id.map((messageId): Event => ({ type: "TEXT_MESSAGE_CONTENT", messageId, delta: "d" })),
    id.map((messageId): Event => ({ type: "TEXT_MESSAGE_END", messageId })),
    id.map((toolCallId): Event => ({ type: "TOOL_CALL_START", toolCallId, toolCallName: "search" })),
    id.map((toolCallId): Event => ({ type: "TOOL_CALL_ARGS", toolCallId, delta: "d" })),
    id.map((toolCallId): Event => ({ type: "TOOL_CALL_END", toolCallId })),
    id.map((stepName): Event => ({ type: "STEP_STARTED", stepName })),
    id.map((stepName): Event => ({ type: "STEP_FINISHED", stepName })),
    id.map((messageId): Event => ({ type: "REASONING_START", messageId })),
    id.map((messageId): Event => ({ type: "REASONING_END", messageId })),
    id.map((messageId): Event => ({ type: "REASONING_MESSAGE_START", messageId, role: "reasoning" })),
    id.map((messageId): Event => ({ type: "REASONING_MESSAGE_CONTENT", messageId, delta: "d" })),
    id.map((messageId): Event => ({ type: "REASONING_MESSAGE_END", messageId })),
    maybe.map((messageId): Event =>
      messageId === undefined ? { type: "TEXT_MESSAGE_CHUNK", delta: "d" } : { type: "TEXT_MESSAGE_CHUNK", messageId, delta: "d" },
    ),
    maybe.map((toolCallId): Event =>
      toolCallId === undefined
        ? { type: "TOOL_CALL_CHUNK", delta: "d" }
        : { type: "TOOL_CALL_CHUNK", toolCallId, toolCallName: "search", delta: "d" },
    ),
    maybe.map((messageId): Event =>
      messageId === undefined
        ? { type: "REASONING_MESSAGE_CHUNK", delta: "d" }
        : { type: "REASONING_MESSAGE_CHUNK", messageId, delta: "d" },
    ),
    fc.constant<Event>({ type: "RAW", event: {} }),
    fc.constant<Event>({ type: "CUSTOM", name: "acme.note", value: 1 }),
    id.map((subagentRunId): Event => ({ type: "SUBAGENT_STARTED", subagentRunId, name: "researcher" })),
    id.map((subagentRunId): Event => ({ type: "SUBAGENT_FINISHED", subagentRunId })),
  );
  return fc
    .array(event, { minLength: 1, maxLength: 12 })
    .map((events): Event[] => [{ type: "RUN_STARTED", threadId: "t", runId: "r" }, ...events]);
})();

// ---------------------------------------------------------------------------------------
// GTM Agent API (and A2A, whose StreamResponse has the same members): the task frame, WORKING,
// artifacts in chunks with append and lastChunk, interleaved, and a terminal status update.

type GtmItem = Item<AgentStreamEvent>;

export const TERMINAL_STATES = ["TASK_STATE_COMPLETED", "TASK_STATE_FAILED", "TASK_STATE_CANCELED", "TASK_STATE_REJECTED"] as const;

export const gtmStreamSpec = fc.record({
  artifacts: fc.array(
    fc.record({
      chunks: fc.array(fc.string({ maxLength: 6 }), { minLength: 1, maxLength: 4 }),
      // "Omitted or false on the first chunk of an artifact".
      explicitFalse: fc.boolean(),
    }),
    { maxLength: 3 },
  ),
  working: fc.nat({ max: 2 }),
  choices: fc.array(fc.nat(), { maxLength: 16 }),
  terminal: fc.constantFrom(...TERMINAL_STATES),
});
export type GtmStreamSpec = typeof gtmStreamSpec extends fc.Arbitrary<infer T> ? T : never;

export const TASK_ID = "run-7f3a";
const CONTEXT_ID = "thread-1";

export function gtmStatus(state: string): AgentStreamEvent {
  return { statusUpdate: { taskId: TASK_ID, contextId: CONTEXT_ID, status: { state: state as (typeof TERMINAL_STATES)[number] } } };
}

export function gtmChunk(artifactId: string, text: string, flags: { append?: boolean; lastChunk?: boolean } = {}): AgentStreamEvent {
  return { artifactUpdate: { taskId: TASK_ID, contextId: CONTEXT_ID, artifact: { artifactId, parts: [{ text }] }, ...flags } };
}

export function gtmTask(state: string): AgentStreamEvent {
  return { task: { id: TASK_ID, contextId: CONTEXT_ID, status: { state: state as (typeof TERMINAL_STATES)[number] } } };
}

export function buildGtmStream(spec: GtmStreamSpec): GtmItem[] {
  const queues = spec.artifacts.map((artifact, a) => {
    const artifactId = `artifact-${a}`;
    const last = artifact.chunks.length - 1;
    return artifact.chunks.map((text, i): GtmItem => {
      const flags = {
        ...(i === 0 ? (artifact.explicitFalse ? { append: false } : {}) : { append: true }),
        ...(i === last ? { lastChunk: true } : {}),
      };
      const part = i === last ? "closes" : i === 0 ? "opens" : "continues";
      return { event: gtmChunk(artifactId, text, flags), role: { span: "artifact", key: artifactId, part } };
    });
  });
  const working = Array.from({ length: spec.working }, (): GtmItem[] => [{ event: gtmStatus("TASK_STATE_WORKING") }]);
  return [
    { event: gtmTask("TASK_STATE_SUBMITTED") },
    { event: gtmStatus("TASK_STATE_WORKING") },
    ...interleave([...queues, ...working], spec.choices),
    { event: gtmStatus(spec.terminal) },
  ];
}

// ---------------------------------------------------------------------------------------
// app-server: turns, one after another, each with items started, streamed and completed,
// some of them implicit (deltas and a completion without item/started), interleaved.

type AppItem = Item<ServerNotification>;

export const appServerStreamSpec = fc.array(
  fc.record({
    items: fc.array(
      fc.record({
        kind: fc.constantFrom("agentMessage" as const, "toolCall" as const),
        deltas: fc.array(fc.string({ maxLength: 6 }), { maxLength: 3 }),
        implicit: fc.boolean(),
      }),
      { minLength: 1, maxLength: 3 },
    ),
    choices: fc.array(fc.nat(), { maxLength: 12 }),
    warning: fc.boolean(),
  }),
  { minLength: 1, maxLength: 3 },
);
export type AppServerStreamSpec = typeof appServerStreamSpec extends fc.Arbitrary<infer T> ? T : never;

const THREAD_ID = "thread-1";

function appTurn(turnId: string, status: "running" | "completed") {
  return { id: turnId, threadId: THREAD_ID, runId: `run-of-${turnId}`, status, input: [{ text: "hello" }] };
}

export function appItem(itemId: string, kind: "agentMessage" | "toolCall", status: "inProgress" | "completed") {
  return { id: itemId, runEventId: `event-of-${itemId}`, type: kind, status, createdAtMs: 1_796_000_000_000 };
}

export function appDelta(turnId: string, itemId: string, kind: "agentMessage" | "toolCall", text: string): ServerNotification {
  return kind === "agentMessage"
    ? { method: "item/agentMessage/delta", params: { threadId: THREAD_ID, turnId, itemId, delta: text } }
    : { method: "item/toolCall/delta", params: { threadId: THREAD_ID, turnId, itemId, delta: { arguments: text } } };
}

export function buildAppServerStream(spec: AppServerStreamSpec): AppItem[] {
  return spec.flatMap((turn, t): AppItem[] => {
    const turnId = `turn-${t}`;
    const queues = turn.items.map((item, i): AppItem[] => {
      const itemId = `item-${t}.${i}`;
      const role = (part: Role["part"]): Role => ({ span: "item", key: itemId, part });
      return [
        ...(item.implicit
          ? []
          : [
              {
                event: { method: "item/started", params: { threadId: THREAD_ID, turnId, item: appItem(itemId, item.kind, "inProgress") } },
                role: role("opens"),
              } as AppItem,
            ]),
        ...item.deltas.map((text): AppItem => ({ event: appDelta(turnId, itemId, item.kind, text), role: role("continues") })),
        {
          event: { method: "item/completed", params: { threadId: THREAD_ID, turnId, item: appItem(itemId, item.kind, "completed") } },
          role: role("closes"),
        },
      ];
    });
    if (turn.warning) queues.push([{ event: { method: "error/warning", params: { message: "slow tool" } } } as AppItem]);
    return [
      {
        event: { method: "turn/started", params: { turn: appTurn(turnId, "running") } },
        role: { span: "turn", key: turnId, part: "opens" },
      },
      ...interleave(queues, turn.choices),
      {
        event: { method: "turn/completed", params: { turn: appTurn(turnId, "completed") } },
        role: { span: "turn", key: turnId, part: "closes" },
      },
    ];
  });
}
