// Type-level tests of the generated app-server types: they pass when this file compiles.
import type {
  AppThread,
  AppTurn,
  ItemAgentMessageDeltaNotification,
  ServerNotification,
  ThreadStartedNotification,
} from "../../generated/src/app-server/index.js";
import type { Equal, NarrowsOn } from "./assert.js";
import { expectTrue } from "./assert.js";

// The notifications narrow on their method.
expectTrue<NarrowsOn<ServerNotification, "method">>();
expectTrue<Equal<Extract<ServerNotification, { method: "item/agentMessage/delta" }>, ItemAgentMessageDeltaNotification>>();

export function handle(notification: ServerNotification): string {
  switch (notification.method) {
    case "thread/started":
      return notification.params.thread.title ?? notification.params.thread.id;
    case "item/agentMessage/delta":
      return notification.params.delta;
    case "turn/completed":
      return String(notification.params.turn.tokenUsage?.totalTokens ?? 0);
    case "error/warning":
      return notification.params.code ?? notification.params.message;
    default:
      return notification.method;
  }
}

// Valid values build; null is a value where the schema says so.
const thread: AppThread = { id: "th1", status: "idle", archived: false, ephemeral: false, createdAtMs: 1, updatedAtMs: 2, title: null, cwd: null };
export const started: ThreadStartedNotification = { method: "thread/started", params: { thread } };
export const turn: AppTurn = { id: "tu1", threadId: "th1", runId: "r1", status: "running", input: [{ text: "go" }], tokenUsage: null, completedAtMs: null };
export const toolDelta: ServerNotification = { method: "item/toolCall/delta", params: { threadId: "th1", turnId: "tu1", itemId: "i1", delta: { any: "json" } } };

// Misuse does not compile.
// @ts-expect-error the params of another method
export const wrongParams: ThreadStartedNotification = { method: "thread/started", params: { threadId: "th1" } };
// @ts-expect-error not a method of this version
export const unknownMethod: ServerNotification = { method: "thread/forked", params: { threadId: "th1" } };
// @ts-expect-error null only where the schema allows it
export const nullId: AppThread = { ...thread, id: null };
