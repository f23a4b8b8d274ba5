// Type-level tests of the generated AG-UI types: they pass when this file compiles.
import type {
  Event,
  EventType,
  InputContent,
  InputContentSource,
  JsonPatchOperation,
  Message,
  Metadata,
  RunFinishedEvent,
  RunFinishedOutcome,
  RunStartedEvent,
  StateDeltaEvent,
  SubagentFinishedOutcome,
  TextMessageEndEvent,
  TextMessageStartEvent,
  UserMessage,
} from "../../generated/src/ag-ui/index.js";
import { EventTypeValues } from "../../generated/src/ag-ui/index.js";
import type { Equal, NarrowsOn } from "./assert.js";
import { expectTrue } from "./assert.js";

// Every tagged union narrows on its tag, member by member.
expectTrue<NarrowsOn<Event, "type">>();
expectTrue<NarrowsOn<Message, "role">>();
expectTrue<NarrowsOn<InputContent, "type">>();
expectTrue<NarrowsOn<InputContentSource, "type">>();
expectTrue<NarrowsOn<JsonPatchOperation, "op">>();
expectTrue<NarrowsOn<RunFinishedOutcome, "type">>();
expectTrue<NarrowsOn<SubagentFinishedOutcome, "type">>();

// The events' tags are exactly the schema's event types, and so are the listed values.
expectTrue<Equal<Event["type"], EventType>>();
expectTrue<Equal<(typeof EventTypeValues)[number], EventType>>();

// Composition is flattened: an event has BaseEvent's and Attributable's fields, and its tag is a literal.
expectTrue<Equal<TextMessageStartEvent["type"], "TEXT_MESSAGE_START">>();
expectTrue<Equal<TextMessageStartEvent["timestamp"], number | undefined>>();
expectTrue<Equal<TextMessageStartEvent["subagentRunId"], string | undefined>>();
expectTrue<Equal<UserMessage["content"], string | InputContent[]>>();

export function describeEvent(event: Event): string {
  switch (event.type) {
    case "TEXT_MESSAGE_CONTENT":
      return event.delta;
    case "RUN_ERROR":
      return `${event.code ?? "error"}: ${event.message}`;
    case "TOOL_CALL_START":
      return event.toolCallName;
    case "STATE_DELTA":
      return event.delta.map((operation) => (operation.op === "move" ? operation.from : operation.path)).join(",");
    default:
      return event.type;
  }
}

export function describeMessage(message: Message): string {
  switch (message.role) {
    case "user":
      return typeof message.content === "string" ? message.content : message.content.map((part) => (part.type === "text" ? part.text : part.source.type)).join("");
    case "assistant":
      return message.toolCalls?.map((call) => call.function.name).join(",") ?? message.content ?? "";
    case "activity":
      return message.activityType;
    default:
      return message.content;
  }
}

// Valid values build.
const metadata: Metadata = { "ag-ui": { trace: null }, retries: 2 };
const start: TextMessageStartEvent = { type: "TEXT_MESSAGE_START", messageId: "m1", role: "assistant", metadata };
const input: RunStartedEvent["input"] = {
  threadId: "t1",
  runId: "r1",
  state: ["any", { json: true }],
  messages: [
    { id: "1", role: "user", content: [{ type: "text", text: "hi" }, { type: "image", source: { type: "url", value: "https://example.com/a.png" } }] },
    { id: "2", role: "assistant", toolCalls: [{ id: "c1", type: "function", function: { name: "search", arguments: "{}" } }] },
    { id: "3", role: "tool", content: "ok", toolCallId: "c1" },
    { id: "4", role: "reasoning", content: "thinking" },
  ],
  tools: [{ name: "search", description: "Searches.", parameters: { type: "object" } }],
};
const started: RunStartedEvent = { type: "RUN_STARTED", threadId: "t1", runId: "r1", input };
const delta: StateDeltaEvent = {
  type: "STATE_DELTA",
  delta: [
    { op: "add", path: "/a", value: null },
    { op: "remove", path: "/b" },
    { op: "move", from: "/a", path: "/c" },
  ],
};
const finished: RunFinishedEvent = {
  type: "RUN_FINISHED",
  threadId: "t1",
  runId: "r1",
  outcome: { type: "interrupt", interrupts: [{ id: "i1", reason: "approval", responseSchema: { type: "object" } }] },
  usage: [{ provider: "p", inputTokens: 10 }],
};
export const events: Event[] = [start, started, delta, finished];

// Misuse does not compile.
// @ts-expect-error messageId is required
export const missingField: TextMessageStartEvent = { type: "TEXT_MESSAGE_START" };
// @ts-expect-error a closed object has no other properties
export const unknownProperty: TextMessageEndEvent = { type: "TEXT_MESSAGE_END", messageId: "m1", extra: 1 };
// @ts-expect-error the tag belongs to another event
export const wrongTag: TextMessageStartEvent = { type: "TEXT_MESSAGE_END", messageId: "m1" };
// @ts-expect-error not an event type of this version
export const unknownEvent: Event = { type: "THINKING_START" };
// @ts-expect-error an absent optional field is absent, not undefined
export const undefinedField: TextMessageStartEvent = { type: "TEXT_MESSAGE_START", messageId: "m1", name: undefined };
// @ts-expect-error a streamed text message cannot be from the tool role
export const wrongRole: TextMessageStartEvent = { type: "TEXT_MESSAGE_START", messageId: "m1", role: "tool" };
// @ts-expect-error content is a string or a list of parts
export const wrongContent: UserMessage = { id: "u", role: "user", content: 42 };
// @ts-expect-error an interrupt outcome lists what the run waits for
export const missingInterrupts: RunFinishedOutcome = { type: "interrupt" };
