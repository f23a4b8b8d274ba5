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
 * Documents the seed accepts and the effective schema rejects, each because an overlay
 * states a constraint the seed's schema could not, with the reason.
 */
export const STRICTER_BY_OVERLAY: Readonly<Record<string, string>> = Object.fromEntries(
  [
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
);

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
