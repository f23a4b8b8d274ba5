// An app that uses the installed package as a user would: every kind of export, two
// protocols, a JSON import of an effective schema. The test compiles it under strict tsc
// with nodenext and with bundler resolution, runs it, and reads the report it prints.
import agUiSchema from "@agentwire/protocols/ag-ui/schema.json" with { type: "json" };
import {
  assertNever,
  createInputContentUrlSource,
  createRunStartedEvent,
  createTextMessageContentEvent,
  decodeEvent,
  EventTypeValues,
  isEvent,
  matchEventPartial,
  matchInputContentSource,
  UnmatchedError,
  validateEvent,
} from "@agentwire/protocols/ag-ui";
import type {
  BuildOptions,
  DecodeOptions,
  DecodeResult,
  Event,
  EventType,
  Fields,
  InputContentSource,
  RunStartedEvent,
  ValidationError,
  ValidationResult,
} from "@agentwire/protocols/ag-ui";
import {
  createStreamResponseTask,
  decodeStreamResponse,
  isTask,
  matchStreamResponse,
  matchStreamResponsePartial,
} from "@agentwire/protocols/a2a";
import type { Member, StreamResponse, Task } from "@agentwire/protocols/a2a";
import { createAssembler, createVerifier, readStream } from "@agentwire/protocols/ag-ui/stream";
import type { Violation } from "@agentwire/protocols/ag-ui/stream";

// Builders, with the stamp option and the fields type.
const now: BuildOptions = { stamp: true };
const fields: Fields<RunStartedEvent, "type"> = { threadId: "t1", runId: "r1" };
const events: Event[] = [createRunStartedEvent(fields, now), createTextMessageContentEvent({ messageId: "m1", delta: "Hello" })];

// Guards, validators and decoders.
const checked: ValidationResult<Event> = validateEvent({ type: "RUN_STARTED", threadId: 1, runId: "r1" });
const errors: readonly ValidationError[] = checked.ok ? [] : checked.errors;
const options: DecodeOptions = { mode: "tolerant" };
const decoded: DecodeResult<Event> = decodeEvent({ type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: "!", extra: 1 }, options);

// Enum values, partial and exhaustive matches, and assertNever in a hand-written switch.
const types: readonly EventType[] = EventTypeValues;
const text = events.map((event) => matchEventPartial(event, { TEXT_MESSAGE_CONTENT: (content) => content.delta }, () => "")).join("");
const source: InputContentSource = createInputContentUrlSource({ value: "https://example.com/a.png" });
const where = matchInputContentSource(source, { data: (data) => data.mimeType, url: (url) => url.value });
function kind(value: InputContentSource): string {
  switch (value.type) {
    case "data":
      return "inline";
    case "url":
      return "linked";
    default:
      return assertNever(value);
  }
}
let unmatched = "";
try {
  matchInputContentSource({ type: "file" } as unknown as InputContentSource, { data: () => "", url: () => "" });
} catch (error) {
  if (error instanceof UnmatchedError) unmatched = error.message;
}

// A2A: a keyed union, its member type, its constructors, and a snake_case wire form.
const task: Task = { id: "task-1", contextId: "ctx-1", status: { state: "TASK_STATE_WORKING" } };
const member: Member<StreamResponse, "task"> = createStreamResponseTask(task);
const wire = decodeStreamResponse({ task: { id: "task-2", context_id: "ctx-1", status: { state: 3 } } });
const frames: StreamResponse[] = [member, ...(wire.ok ? [wire.value] : [])];
const described = frames.map((frame) =>
  matchStreamResponse(frame, {
    task: (value) => `task ${value.id} ${String(value.status?.state)}`,
    message: (value) => `message ${value.messageId}`,
    statusUpdate: (value) => `status ${value.taskId}`,
    artifactUpdate: (value) => `artifact ${value.taskId}`,
  }),
);
const partial = matchStreamResponsePartial(member, { message: () => "message" }, () => "other");

// The stream subpath: read server-sent events in two chunks, verify and assemble them.
const body = [events[0]!, { type: "TEXT_MESSAGE_START", messageId: "m1" }, events[1]!, { type: "TEXT_MESSAGE_END", messageId: "m1" }]
  .map((event) => `data: ${JSON.stringify(event)}\n\n`)
  .join("");
async function* chunks(): AsyncGenerator<string> {
  yield body.slice(0, 50);
  yield body.slice(50);
}
const verifier = createVerifier();
const assembler = createAssembler();
const violations: Violation[] = [];
for await (const result of readStream(chunks())) {
  if (!result.ok) continue;
  const broken = verifier.push(result.value);
  const refused = assembler.push(result.value);
  violations.push(...[broken, refused].filter((violation) => violation !== undefined));
}
const end = verifier.end();

process.stdout.write(
  JSON.stringify({
    guards: [events.every(isEvent), isTask(task), isEvent({ type: "RUN_STARTED" })],
    stamped: typeof events[0]?.timestamp,
    errors: errors.map((error) => error.path),
    decoded: decoded.ok ? { value: decoded.value, ignored: decoded.ignored } : decoded.errors,
    types: types.length,
    text,
    where,
    kind: kind(source),
    unmatched,
    described,
    partial,
    schemaDefs: Object.keys(agUiSchema.$defs).length > 0,
    stream: {
      violations: [...violations, ...(end === undefined ? [] : [end])].map((violation) => violation.rule),
      messages: assembler.snapshot().messages,
    },
  }),
);
