// Type-level tests of the generated builders: they pass when this file compiles (strict,
// exactOptionalPropertyTypes, noUncheckedIndexedAccess; see tsconfig.json here).
import type { AgentStreamEvent, AgentTask, Member as GtmMember } from "../../generated/src/gtm-agent/index.js";
import { createAgentFileContentUri, createAgentStreamEventTask } from "../../generated/src/gtm-agent/index.js";
import type { Part, StreamResponse, Task } from "../../generated/src/a2a/index.js";
import { createPartText, createStreamResponseTask } from "../../generated/src/a2a/index.js";
import type {
  AddOperation,
  Fields,
  RunFinishedSuccessOutcome,
  RunStartedEvent,
  TextMessageStartEvent,
  ToolCallResultEvent,
} from "../../generated/src/ag-ui/index.js";
import {
  createAddOperation,
  createReasoningMessageStartEvent,
  createRunFinishedSuccessOutcome,
  createRunStartedEvent,
  createTextMessageStartEvent,
  createToolCallResultEvent,
  createUserMessage,
} from "../../generated/src/ag-ui/index.js";
import { createThreadStartedNotification } from "../../generated/src/app-server/index.js";
import type { AppThread, ThreadStartedNotification } from "../../generated/src/app-server/index.js";
import type { Equal } from "./assert.js";
import { expectTrue } from "./assert.js";

declare const maybeRole: TextMessageStartEvent["role"] | undefined;
declare const task: Task;
declare const agentTask: AgentTask;

// A builder returns its type, with the tag filled in.
const start = createTextMessageStartEvent({ messageId: "m1" });
expectTrue<Equal<typeof start, TextMessageStartEvent>>();
expectTrue<Equal<ReturnType<typeof createRunStartedEvent>, RunStartedEvent>>();

// Its parameter is the type without its tags; optional fields also take undefined.
expectTrue<Equal<Parameters<typeof createTextMessageStartEvent>[0], Fields<TextMessageStartEvent, "type">>>();
createTextMessageStartEvent({ messageId: "m1", role: maybeRole, name: undefined });
createRunStartedEvent({ threadId: "t", runId: "r" }, { stamp: true });

// Required fields are required.
// @ts-expect-error messageId is required
createTextMessageStartEvent({});
// @ts-expect-error toolCallId and content are required
createToolCallResultEvent({ messageId: "m1" });
// @ts-expect-error a required field does not take undefined
createToolCallResultEvent({ messageId: "m1", toolCallId: undefined, content: "ok" });

// The tag is not accepted: it is the builder's to fill in.
// @ts-expect-error type is filled in
createTextMessageStartEvent({ type: "TEXT_MESSAGE_START", messageId: "m1" });
// @ts-expect-error role is a tag of the reasoning message start
createReasoningMessageStartEvent({ messageId: "m1", role: "reasoning" });
// @ts-expect-error not even on an open object, whose other properties are free
createAddOperation({ op: "add", path: "/a", value: 1 });
const add: AddOperation = createAddOperation({ path: "/a", value: 1, comment: "open objects keep extra members" });
declare const thread: AppThread;
createThreadStartedNotification({ params: { thread } });
// @ts-expect-error method is filled in
createThreadStartedNotification({ method: "thread/started", params: { thread } });
expectTrue<Equal<ReturnType<typeof createThreadStartedNotification>, ThreadStartedNotification>>();

// Fields a closed type does not have are refused; wrong types too.
// @ts-expect-error closed: no such field
createTextMessageStartEvent({ messageId: "m1", colour: "red" });
// @ts-expect-error role is one of the text message roles
createTextMessageStartEvent({ messageId: "m1", role: "tool" });
// @ts-expect-error the options are a producer's, not arbitrary
createRunStartedEvent({ threadId: "t", runId: "r" }, { stamp: "now" });
// @ts-expect-error only builders of types with a stamped field take options
createUserMessage({ id: "u1", content: "hi" }, { stamp: true });

// A type with nothing but its tag needs no fields.
expectTrue<Equal<ReturnType<typeof createRunFinishedSuccessOutcome>, RunFinishedSuccessOutcome>>();
createRunFinishedSuccessOutcome();
expectTrue<Equal<ReturnType<typeof createToolCallResultEvent>, ToolCallResultEvent>>();

// A keyed union's constructor sets one member and returns that variant, which narrows.
const frame = createAgentStreamEventTask(agentTask);
expectTrue<Equal<typeof frame, GtmMember<AgentStreamEvent, "task">>>();
expectTrue<Equal<typeof frame.task, AgentTask>>();
expectTrue<Equal<typeof frame.message, undefined>>();
const response: StreamResponse = createStreamResponseTask(task);
const part: Part = createPartText("hello", { mediaType: "text/plain", filename: undefined });
// @ts-expect-error the other members cannot be set alongside
createPartText("hello", { raw: "aGk=" });
// @ts-expect-error the member's value has its type
createPartText(42);
createAgentFileContentUri("https://example.com/a.png", { mimeType: "image/png" });
// @ts-expect-error the member's value is a Task
createStreamResponseTask("t");

export { add, part, response, start };
