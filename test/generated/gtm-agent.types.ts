// Type-level tests of the generated GTM Agent API types: they pass when this file compiles.
import type {
  AgentArtifactPart,
  AgentFileContent,
  AgentStreamEvent,
  AgentTask,
  AgentTaskState,
  AgentTaskStatusUpdateEvent,
} from "../../generated/src/gtm-agent/index.js";
import { AgentTaskStateValues } from "../../generated/src/gtm-agent/index.js";
import type { Equal, Variant } from "./assert.js";
import { expectTrue } from "./assert.js";

// Checking one member of a keyed union narrows to the frame that has it.
export function frameKind(frame: AgentStreamEvent): string {
  if (frame.task !== undefined) {
    expectTrue<Equal<typeof frame, Variant<AgentStreamEvent, "task">>>();
    expectTrue<Equal<typeof frame.statusUpdate, undefined>>();
    return frame.task.status.state;
  }
  if (frame.statusUpdate !== undefined) return frame.statusUpdate.status.state;
  if (frame.artifactUpdate !== undefined) return frame.artifactUpdate.artifact.artifactId;
  expectTrue<Equal<typeof frame, Variant<AgentStreamEvent, "message">>>();
  return frame.message.role;
}

export function partText(part: AgentArtifactPart): string {
  if (part.text !== undefined) return part.text;
  if (part.file !== undefined) return part.file.uri ?? part.file.name ?? "";
  return JSON.stringify(part.data);
}

expectTrue<Equal<(typeof AgentTaskStateValues)[number], AgentTaskState>>();

// Valid values build.
const task: AgentTask = {
  id: "run-1",
  contextId: "ctx",
  status: { state: "TASK_STATE_SUBMITTED", timestamp: "2026-11-30T10:00:00Z" },
  artifacts: [{ artifactId: "a1", parts: [{ text: "hello" }, { data: { rows: 3 }, metadata: { kind: "table" } }, { file: { uri: "https://x.test/doc", name: "doc.pdf" } }] }],
};
const statusUpdate: AgentTaskStatusUpdateEvent = { taskId: "run-1", status: { state: "TASK_STATE_WORKING" } };
export const frames: AgentStreamEvent[] = [{ task }, { statusUpdate }];
const bytes: AgentFileContent = { bytes: "aGk=", mimeType: "text/plain" };
export const parts: AgentArtifactPart[] = [{ file: bytes }];

// Misuse does not compile.
// @ts-expect-error two members of a frame at once
export const twoMembers: AgentStreamEvent = { task, statusUpdate };
// @ts-expect-error a frame has one member
export const noMember: AgentStreamEvent = {};
// @ts-expect-error exactly one of text, file and data
export const twoParts: AgentArtifactPart = { text: "hi", data: {} };
// @ts-expect-error exactly one of uri and bytes
export const twoSources: AgentFileContent = { uri: "https://x.test", bytes: "aGk=" };
// @ts-expect-error states are the schema's names
export const wrongState: AgentTaskState = "WORKING";
// @ts-expect-error a task has a status
export const missingStatus: AgentTask = { id: "run-1" };
