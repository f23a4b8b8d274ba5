// Type-level tests of the generated match helpers: they pass when this file compiles.
import type { Part, StreamResponse, Task, Message as A2aMessage } from "../../generated/src/a2a/index.js";
import { matchPart, matchStreamResponse, matchStreamResponsePartial } from "../../generated/src/a2a/index.js";
import type { Event, EventHandlers, InputContent, Message, RunErrorEvent, TextMessageContentEvent } from "../../generated/src/ag-ui/index.js";
import { assertNever, matchEventPartial, matchInputContent, matchMessage } from "../../generated/src/ag-ui/index.js";
import type { ServerNotification } from "../../generated/src/app-server/index.js";
import { matchServerNotificationPartial } from "../../generated/src/app-server/index.js";
import type { Equal } from "./assert.js";
import { expectTrue } from "./assert.js";

declare const event: Event;
declare const message: Message;
declare const content: InputContent;
declare const response: StreamResponse;
declare const part: Part;
declare const notification: ServerNotification;

// The handlers are exactly one per tag.
expectTrue<Equal<keyof EventHandlers, Event["type"]>>();

// Each handler gets its member, narrowed; the result is the union of what the handlers return.
const kind = matchMessage(message, {
  developer: (m) => m.content,
  system: (m) => m.content,
  assistant: (m) => m.toolCalls?.length ?? 0,
  user: (m) => (typeof m.content === "string" ? m.content : m.content.length),
  tool: (m) => m.toolCallId,
  activity: (m) => m.activityType,
  reasoning: (m) => m.role,
});
expectTrue<Equal<typeof kind, string | number>>();

const text = matchInputContent(content, {
  text: (c) => c.text,
  image: (c) => c.source.type,
  audio: (c) => c.source.value,
  video: () => null,
  document: () => true,
});
expectTrue<Equal<typeof text, string | null | boolean>>();

// A missing handler does not compile...
// @ts-expect-error no handler for "reasoning"
matchMessage(message, {
  developer: () => 1,
  system: () => 1,
  assistant: () => 1,
  user: () => 1,
  tool: () => 1,
  activity: () => 1,
});
// ...nor does a handler for a tag the union does not have.
matchInputContent(content, {
  text: () => 1,
  image: () => 1,
  audio: () => 1,
  video: () => 1,
  document: () => 1,
  // @ts-expect-error no such member
  spreadsheet: () => 1,
});
// A handler gets the member of its own tag, not another's.
matchInputContent(content, {
  // @ts-expect-error an image content has no text
  image: (c) => c.text,
  text: (c) => c.text,
  audio: () => 1,
  video: () => 1,
  document: () => 1,
});

// The partial form takes any handlers and a fallback, which gets the union.
const delta = matchEventPartial(
  event,
  {
    TEXT_MESSAGE_CONTENT: (e) => {
      expectTrue<Equal<typeof e, TextMessageContentEvent>>();
      return e.delta;
    },
    RUN_ERROR: (e: RunErrorEvent) => e.code === undefined,
  },
  (e) => {
    expectTrue<Equal<typeof e, Event>>();
    return undefined;
  },
);
expectTrue<Equal<typeof delta, string | boolean | undefined>>();
// @ts-expect-error the fallback is required
matchEventPartial(event, { RUN_ERROR: () => 1 });
// @ts-expect-error handlers of the partial form are still only the union's
matchEventPartial(event, { RUN_EXPLODED: () => 1 }, () => 0);
// Tags that are not identifiers are handler keys all the same.
const method = matchServerNotificationPartial(notification, { "thread/started": (n) => n.method }, () => "other" as const);
expectTrue<Equal<typeof method, "thread/started" | "other">>();

// Keyed unions match on which member is set: the handler gets the member and the whole value.
const id = matchStreamResponse(response, {
  task: (task, whole) => {
    expectTrue<Equal<typeof task, Task>>();
    expectTrue<Equal<typeof whole.message, undefined>>();
    return task.id;
  },
  message: (m: A2aMessage) => m.messageId,
  statusUpdate: (update) => update.taskId,
  artifactUpdate: (update) => update.artifact.artifactId,
});
// a2a.proto requires every one of these ids.
expectTrue<Equal<typeof id, string>>();
// @ts-expect-error no handler for artifactUpdate
matchStreamResponse(response, { task: () => 1, message: () => 1, statusUpdate: () => 1 });
const isTask = matchStreamResponsePartial(response, { task: () => true }, () => false);
expectTrue<Equal<typeof isTask, boolean>>();
const size = matchPart(part, {
  text: (text) => text.length,
  raw: (raw) => raw.length,
  url: (url) => url.length,
  data: () => 0,
});
expectTrue<Equal<typeof size, number>>();

// assertNever compiles only where every case is handled.
export function label(e: Event): string {
  switch (e.type) {
    case "RUN_STARTED":
    case "RUN_FINISHED":
    case "RUN_ERROR":
      return "run";
    default:
      // @ts-expect-error the other event types are not handled
      return assertNever(e);
  }
}
export function role(m: Message): string {
  switch (m.role) {
    case "developer":
    case "system":
    case "assistant":
    case "user":
    case "tool":
    case "activity":
    case "reasoning":
      return m.role;
    default:
      return assertNever(m);
  }
}
