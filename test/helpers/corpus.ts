import { readFileSync } from "node:fs";
import path from "node:path";
import type { JsonValue } from "../../generator/json.js";
import { REPO } from "./project.js";

/** The real documents of test/fixtures/corpus, copied from upstream repositories (see its SOURCES.md). */
export const CORPUS = path.join(REPO, "test/fixtures/corpus");

export interface CorpusDocument {
  /** `<protocol>/<file>`, as in SOURCES.md and ajv-verdicts.json. */
  readonly file: string;
  readonly protocol: string;
  /** The type the document is meant to be. */
  readonly definition: string;
  /** The reference validator's verdict against the vendored schema. */
  readonly seedValid: boolean;
  /** The verdict against the effective schema: the seed's, unless an overlay's constraint rejects it. */
  readonly valid: boolean;
  readonly document: JsonValue;
}

/**
 * A2A documents the seed accepts that leave out fields a2a.proto marks REQUIRED, which
 * the overlay's `required` facts require: each with the JSON Pointers of those fields.
 * All but one come from the A2A specification (docs/specification.md), most of them
 * fragments of an agent card; the last is an empty SendMessage request from a2a-js's tests.
 */
export const MISSING_REQUIRED: Readonly<Record<string, readonly string[]>> = {
  "a2a/AgentCard__spec-docs__1.json": ["/version"],
  "a2a/AgentCard__spec-docs__2.json": [
    "/name",
    "/description",
    "/version",
    "/capabilities",
    "/defaultInputModes",
    "/defaultOutputModes",
    "/skills",
  ],
  "a2a/AgentCard__spec-docs__3.json": [
    "/name",
    "/description",
    "/supportedInterfaces",
    "/version",
    "/defaultInputModes",
    "/defaultOutputModes",
    "/skills",
  ],
  "a2a/AgentCard__spec-docs__4.json": [
    "/description",
    "/supportedInterfaces",
    "/version",
    "/capabilities",
    "/defaultInputModes",
    "/defaultOutputModes",
  ],
  "a2a/AgentCard__spec-docs__5.json": ["/supportedInterfaces", "/version", "/defaultInputModes", "/defaultOutputModes"],
  "a2a/AgentCard__spec-docs__6.json": ["/supportedInterfaces", "/version", "/defaultInputModes", "/defaultOutputModes"],
  "a2a/AgentCard__spec-docs__8.json": [
    "/name",
    "/description",
    "/supportedInterfaces/0/protocolVersion",
    "/version",
    "/capabilities",
    "/defaultInputModes",
    "/defaultOutputModes",
    "/skills",
  ],
  "a2a/AgentCard__spec-docs__10.json": [
    "/name",
    "/description",
    "/supportedInterfaces",
    "/version",
    "/defaultInputModes",
    "/defaultOutputModes",
    "/skills",
  ],
  "a2a/AgentCard__spec-docs__11.json": [
    "/name",
    "/description",
    "/version",
    "/capabilities",
    "/defaultInputModes",
    "/defaultOutputModes",
    "/skills",
  ],
  "a2a/AgentCard__spec-docs__13.json": [
    "/description",
    "/version",
    "/capabilities",
    "/defaultInputModes",
    "/defaultOutputModes",
    "/skills",
  ],
  "a2a/AgentCard__spec-docs__14.json": [
    "/description",
    "/version",
    "/capabilities",
    "/defaultInputModes",
    "/defaultOutputModes",
    "/skills",
  ],
  "a2a/AgentCard__spec-docs__15.json": [
    "/description",
    "/version",
    "/capabilities",
    "/defaultInputModes",
    "/defaultOutputModes",
    "/skills",
  ],
  "a2a/Message__spec-docs__1.json": ["/messageId"],
  "a2a/Message__spec-docs__3.json": ["/messageId"],
  "a2a/SendMessageRequest__spec-docs__1.json": ["/message/messageId"],
  "a2a/SendMessageRequest__spec-docs__9.json": ["/message/messageId"],
  "a2a/SendMessageResponse__spec-docs__2.json": ["/task/status/message/messageId"],
  "a2a/StreamResponse__spec-docs__2.json": ["/artifactUpdate/artifact/artifactId"],
  "a2a/TaskArtifactUpdateEvent__spec-docs__1.json": ["/artifact/artifactId"],
  "a2a/Task__spec-docs__2.json": ["/id"],
  "a2a/Task__spec-docs__4.json": ["/status/message/messageId"],
  "a2a/SendMessageRequest__a2a-js-tests__2.json": ["/message"],
};

/**
 * Documents the seed accepts and the effective schema rejects, each because an overlay
 * states a constraint the seed's schema could not, with the reason.
 */
export const STRICTER_BY_OVERLAY: Readonly<Record<string, string>> = Object.fromEntries([
  ...[
    "gtm-agent/AgentStreamEvent__a2a-spec-as-gtm__8.json",
    "gtm-agent/AgentStreamEvent__a2a-spec-as-gtm__12.json",
    "gtm-agent/AgentStreamEvent__a2a-spec-as-gtm__13.json",
    "gtm-agent/AgentTask__a2a-spec-as-gtm__6.json",
    "gtm-agent/AgentTask__a2a-spec-as-gtm__8.json",
    "gtm-agent/AgentTask__a2a-spec-as-gtm__9.json",
  ].map((file) => [
    file,
    "an A2A document reused as a GTM frame: its artifact part is a raw or url part, neither of GTM's text, file and data, of which exactly one must be set",
  ]),
  ...Object.entries(MISSING_REQUIRED).map(([file, fields]) => [file, `leaves out what a2a.proto marks REQUIRED: ${fields.join(", ")}`]),
]);

export function corpusDocuments(): CorpusDocument[] {
  const verdicts = JSON.parse(readFileSync(path.join(CORPUS, "ajv-verdicts.json"), "utf8")) as Record<
    string,
    { definition: string; valid: boolean }
  >;
  return Object.entries(verdicts).map(([file, { definition, valid }]) => ({
    file,
    protocol: file.split("/")[0]!,
    definition,
    seedValid: valid,
    valid: valid && !(file in STRICTER_BY_OVERLAY),
    document: JSON.parse(readFileSync(path.join(CORPUS, file), "utf8")) as JsonValue,
  }));
}
