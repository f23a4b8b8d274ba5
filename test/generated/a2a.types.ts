// Type-level tests of the generated A2A types: they pass when this file compiles.
import type {
  AgentCard,
  GetTaskRequest,
  Message,
  OAuthFlows,
  Part,
  Role,
  SecurityScheme,
  SendMessageResponse,
  StreamResponse,
  Task,
  TaskState,
  TaskStatus,
} from "../../generated/src/a2a/index.js";
import { RoleValues, TaskStateValues } from "../../generated/src/a2a/index.js";
import type { Equal, Variant } from "./assert.js";
import { expectTrue } from "./assert.js";

// The proto enums' canonical form is their names; the integers are only the wire's.
expectTrue<Equal<(typeof TaskStateValues)[number], TaskState>>();
expectTrue<Equal<(typeof RoleValues)[number], Role>>();
// What a2a.proto marks REQUIRED is required; the rest stays optional, as proto3 fields are.
expectTrue<Equal<TaskStatus["state"], TaskState>>();
expectTrue<Equal<TaskStatus["timestamp"], string | undefined>>();
// int32 fields are numbers.
expectTrue<Equal<GetTaskRequest["historyLength"], number | undefined>>();

// Checking one member of a proto oneof narrows to it.
export function payload(response: StreamResponse): string {
  if (response.task !== undefined) return response.task.id;
  if (response.message !== undefined) return response.message.messageId;
  if (response.statusUpdate !== undefined) return response.statusUpdate.status.state;
  expectTrue<Equal<typeof response, Variant<StreamResponse, "artifactUpdate">>>();
  return response.artifactUpdate.artifact.artifactId;
}

export function content(part: Part): unknown {
  if (part.text !== undefined) return part.text;
  if (part.raw !== undefined) return part.raw;
  if (part.url !== undefined) return part.url;
  return part.data;
}

export function schemeName(scheme: SecurityScheme): string {
  if (scheme.apiKeySecurityScheme !== undefined) return scheme.apiKeySecurityScheme.location;
  if (scheme.oauth2SecurityScheme !== undefined) return scheme.oauth2SecurityScheme.flows.deviceCode?.tokenUrl ?? "";
  return "other";
}

// Valid values build.
export const card: AgentCard = {
  name: "Recipe Agent",
  description: "Helps with recipes.",
  version: "1.0.0",
  capabilities: { streaming: true, extensions: [{ uri: "https://x.test/ext", required: false }] },
  supportedInterfaces: [{ url: "https://api.x.test/a2a/v1", protocolBinding: "JSONRPC", protocolVersion: "1.0" }],
  securitySchemes: { key: { apiKeySecurityScheme: { name: "X-Key", location: "header" } } },
  securityRequirements: [{ schemes: { key: { list: [] } } }],
  defaultInputModes: ["text/plain"],
  defaultOutputModes: ["text/plain"],
  skills: [{ id: "cook", name: "Cook", description: "Cooks.", tags: ["food"] }],
};
export const task: Task = {
  id: "t1",
  status: { state: "TASK_STATE_WORKING", message: { messageId: "m1", role: "ROLE_AGENT", parts: [{ text: "working", mediaType: "text/plain" }] } },
  metadata: { anything: [1, "two"] },
};
export const responses: SendMessageResponse[] = [{ task }, { message: { messageId: "m2", role: "ROLE_USER", parts: [{ data: { k: "v" } }] } }];
export const flows: OAuthFlows = { authorizationCode: { authorizationUrl: "https://x.test/auth", tokenUrl: "https://x.test/token", scopes: { read: "Read." } } };

// Misuse does not compile.
// @ts-expect-error an enum's number is its wire form, not its canonical one
export const numberState: TaskStatus = { state: 2 };
// @ts-expect-error a snake_case alias is a wire form, not a field
export const snakeCase: Task = { id: "t1", status: { state: "TASK_STATE_WORKING" }, context_id: "c1" };
// @ts-expect-error a2a.proto requires messageId, role and parts
export const emptyMessage: Message = {};
// @ts-expect-error a required field's snake_case alias is its wire form: decodeMessage reads it, the type does not take it
export const snakeCaseMessageId: Message = { message_id: "m1", role: "ROLE_USER", parts: [] };
// @ts-expect-error a numeric string is the wire form of an int32
export const stringInteger: GetTaskRequest = { id: "t1", historyLength: "10" };
// @ts-expect-error two members of a proto oneof
export const twoMembers: Part = { text: "a", url: "https://x.test" };
// @ts-expect-error one of the five schemes
export const twoSchemes: SecurityScheme = { apiKeySecurityScheme: {}, mtlsSecurityScheme: {} };
// @ts-expect-error a closed object has no other properties
export const unknownProperty: TaskStatus = { state: "TASK_STATE_WORKING", progress: 0.5 };
