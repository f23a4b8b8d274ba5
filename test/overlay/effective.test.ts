import { readFileSync } from "node:fs";
import path from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { beforeAll, describe, expect, it } from "vitest";
import type { JsonObject } from "../../generator/json.js";
import { load } from "../../generator/load/index.js";
import { applyOverlays } from "../../generator/overlay/index.js";
import { resolve } from "../../generator/resolve/index.js";
import { REPO } from "../helpers/project.js";

const CORPUS = path.join(REPO, "test/fixtures/corpus");
const readJson = (file: string) => JSON.parse(readFileSync(file, "utf8")) as JsonObject;
const reference = () => new Ajv2020({ strict: false, validateFormats: false, allErrors: true });

/**
 * Documents the seed accepts and the effective schema rejects, each because an overlay
 * states a constraint the seed's schema could not. Every other verdict must be the seed's.
 */
const STRICTER_BY_OVERLAY: Readonly<Record<string, string>> = Object.fromEntries(
  [
    "gtm-agent/AgentStreamEvent__a2a-spec-as-gtm__8.json",
    "gtm-agent/AgentStreamEvent__a2a-spec-as-gtm__12.json",
    "gtm-agent/AgentStreamEvent__a2a-spec-as-gtm__13.json",
    "gtm-agent/AgentTask__a2a-spec-as-gtm__6.json",
    "gtm-agent/AgentTask__a2a-spec-as-gtm__8.json",
    "gtm-agent/AgentTask__a2a-spec-as-gtm__9.json",
  ].map((file) => [file, "an A2A document reused as a GTM frame: its artifact part is a `url`, which is none of GTM's text | file | data, and exactly one must be set"]),
);

describe("overlay: the effective schemas", () => {
  const effective = new Map<string, JsonObject>();
  beforeAll(async () => {
    const project = load(REPO);
    for (const protocol of project.protocols) effective.set(protocol.config.name, applyOverlays(await resolve(project, protocol)).schema);
  });

  it("are valid JSON Schema 2020-12", () => {
    for (const [name, schema] of effective) {
      const ajv = reference();
      expect(ajv.validateSchema(schema), `${name}: ${ajv.errorsText()}`).toBe(true);
      expect(() => ajv.compile(schema)).not.toThrow();
    }
  });

  it("judge the real corpus as the vendored schemas do, except where an overlay adds a stated constraint", () => {
    const verdicts = readJson(path.join(CORPUS, "ajv-verdicts.json")) as Record<string, { definition: string; valid: boolean }>;
    const validators = new Map(
      [...effective].map(([name, schema]) => {
        const ajv = reference();
        ajv.addSchema(schema, name);
        return [name, ajv] as const;
      }),
    );
    const disagreements: string[] = [];
    for (const [file, { definition, valid }] of Object.entries(verdicts)) {
      const protocol = file.split("/")[0]!;
      const ok = validators.get(protocol)!.validate({ $ref: `${protocol}#/$defs/${definition}` }, readJson(path.join(CORPUS, file)));
      const expected = file in STRICTER_BY_OVERLAY ? false : valid;
      if (ok !== expected) disagreements.push(`${file}: seed says ${valid}, effective says ${ok}`);
    }
    expect(disagreements).toEqual([]);
    for (const file of Object.keys(STRICTER_BY_OVERLAY)) expect(verdicts[file]?.valid, file).toBe(true);
  });

  it("use only $defs names for refs", () => {
    for (const [name, schema] of effective) {
      const refs = JSON.stringify(schema).match(/"\$ref":"[^"]*"/g) ?? [];
      for (const ref of refs) expect(ref, name).toMatch(/^"\$ref":"#\/\$defs\/[A-Za-z0-9_$]+(\/[^"]*)?"$/);
    }
  });
});

describe("schemas/: config and overlays", () => {
  it("match the JSON Schemas that document them", () => {
    const ajv = reference();
    const config = readJson(path.join(REPO, "schemas/protocols.json"));
    expect(ajv.validate(readJson(path.join(REPO, "schemas/protocols.schema.json")), config), ajv.errorsText()).toBe(true);
    const overlaySchema = ajv.compile(readJson(path.join(REPO, "schemas/overlay.schema.json")));
    for (const entry of config["protocols"] as { overlays?: string[] }[])
      for (const overlay of entry.overlays ?? []) expect(overlaySchema(readJson(path.join(REPO, "schemas", overlay))), `${overlay}: ${ajv.errorsText(overlaySchema.errors)}`).toBe(true);
  });
});
