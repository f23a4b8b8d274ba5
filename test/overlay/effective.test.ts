import { readFileSync } from "node:fs";
import path from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { beforeAll, describe, expect, it } from "vitest";
import type { JsonObject } from "../../generator/json.js";
import { load } from "../../generator/load/index.js";
import { applyOverlays } from "../../generator/overlay/index.js";
import { resolve } from "../../generator/resolve/index.js";
import { corpusDocuments, STRICTER_BY_OVERLAY } from "../helpers/corpus.js";
import { REPO } from "../helpers/project.js";

const readJson = (file: string) => JSON.parse(readFileSync(file, "utf8")) as JsonObject;
const reference = () => new Ajv2020({ strict: false, validateFormats: false, allErrors: true });

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
    const validators = new Map(
      [...effective].map(([name, schema]) => {
        const ajv = reference();
        ajv.addSchema(schema, name);
        return [name, ajv] as const;
      }),
    );
    const disagreements = corpusDocuments()
      .filter(
        ({ protocol, definition, document, valid }) =>
          validators.get(protocol)!.validate({ $ref: `${protocol}#/$defs/${definition}` }, document) !== valid,
      )
      .map(({ file }) => file);
    expect(disagreements).toEqual([]);
    for (const file of Object.keys(STRICTER_BY_OVERLAY))
      expect(corpusDocuments().find((document) => document.file === file)?.seedValid, file).toBe(true);
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
      for (const overlay of entry.overlays ?? [])
        expect(overlaySchema(readJson(path.join(REPO, "schemas", overlay))), `${overlay}: ${ajv.errorsText(overlaySchema.errors)}`).toBe(
          true,
        );
  });
});
