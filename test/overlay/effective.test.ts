import { readFileSync } from "node:fs";
import path from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { beforeAll, describe, expect, it } from "vitest";
import type { JsonObject } from "../../generator/json.js";
import { InputError } from "../../generator/errors.js";
import { readConfig } from "../../generator/load/config.js";
import { readFacts } from "../../generator/overlay/facts.js";
import { readStreamFacts } from "../../generator/stream/facts.js";
import { load } from "../../generator/load/index.js";
import { applyOverlays } from "../../generator/overlay/index.js";
import { resolve } from "../../generator/resolve/index.js";
import { corpusDocuments, STRICTER_BY_OVERLAY } from "../helpers/corpus.js";
import { CONFIG_FILE, REPO } from "../helpers/project.js";

const readJson = (file: string) => JSON.parse(readFileSync(file, "utf8")) as JsonObject;
const reference = () => new Ajv2020({ strict: false, validateFormats: false, allErrors: true });

describe("overlay: the effective schemas", () => {
  const effective = new Map<string, JsonObject>();
  beforeAll(async () => {
    const project = load(REPO);
    for (const protocol of project.protocols) effective.set(protocol.config.name, applyOverlays(resolve(project, protocol)).schema);
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

describe("the config and overlays", () => {
  it("match the JSON Schemas that document them", () => {
    const ajv = reference();
    const config = readJson(path.join(REPO, CONFIG_FILE));
    expect(ajv.validate(readJson(path.join(REPO, "schemas/config.schema.json")), config), ajv.errorsText()).toBe(true);
    const overlaySchema = ajv.compile(readJson(path.join(REPO, "schemas/overlay.schema.json")));
    for (const entry of config["protocols"] as { overlays?: string[] }[])
      for (const overlay of entry.overlays ?? [])
        expect(overlaySchema(readJson(path.join(REPO, overlay))), `${overlay}: ${ajv.errorsText(overlaySchema.errors)}`).toBe(true);
  });

  it("the config's schema accepts the configs agentwire reads, and refuses those it refuses", () => {
    const validate = reference().compile(readJson(path.join(REPO, "schemas/config.schema.json")));
    const protocols = [{ name: "demo", schema: "schemas/demo.schema.json" }];
    const accepts = (config: object) => {
      const read = (() => {
        try {
          readConfig(config, CONFIG_FILE);
          return true;
        } catch (error) {
          if (error instanceof InputError) return false;
          throw error;
        }
      })();
      expect(validate(config), JSON.stringify(config)).toBe(read);
      return read;
    };
    for (const output of [
      { folder: "generated", package: { name: "@acme/protocols", version: "0.1.0" } },
      { folder: "src/protocols" },
      { folder: "out", package: { name: "acme", version: "1.0.0-rc.1+build.5", description: "Acme's.", license: "MIT OR Apache-2.0" } },
    ])
      expect(accepts({ protocols, output }), JSON.stringify(output)).toBe(true);
    for (const output of [
      undefined,
      {},
      { folder: "" },
      { folder: "out", extra: true },
      { folder: "out", package: { name: "acme" } },
      { folder: "out", package: { version: "1.0.0" } },
      { folder: "out", package: { name: "Acme", version: "1.0.0" } },
      { folder: "out", package: { name: "acme", version: "v1" } },
      { folder: "out", package: { name: "acme", version: "1.0.0", private: true } },
      { folder: "out", package: { name: "acme", version: "1.0.0", license: "" } },
    ])
      expect(accepts({ protocols, ...(output === undefined ? {} : { output }) }), JSON.stringify(output)).toBe(false);
    expect(accepts({ protocols: [{ name: "Demo", schema: "x.json" }], output: { folder: "out" } })).toBe(false);
    const output = { folder: "out" };
    expect(accepts({ protocols, output, remotes: { "https://example.com/schemas/": "vendor/" } })).toBe(true);
    for (const remotes of [
      [],
      { "file:///tmp/": "vendor/" },
      { "FILE:///tmp/": "vendor/" },
      { "https://example.com": "vendor/" },
      { "https://example.com/?v=1/": "vendor/" },
      { "https://example.com/": "" },
    ])
      expect(accepts({ protocols, output, remotes }), JSON.stringify(remotes)).toBe(false);
  });

  it("the overlay's schema accepts the facts agentwire reads, and refuses those it refuses", () => {
    const validate = reference().compile(readJson(path.join(REPO, "schemas/overlay.schema.json")));
    const accepts = (fact: object) => {
      const overlay = { facts: [{ at: "/$defs/A", because: "the prose", ...fact }] };
      let read = true;
      try {
        readFacts(overlay, "overlay.json");
      } catch (error) {
        if (!(error instanceof InputError)) throw error;
        read = false;
      }
      expect(validate(overlay), JSON.stringify(fact)).toBe(read);
      return read;
    };
    for (const fact of [
      { rename: "A" },
      { enumNumbers: { A: 1 } },
      { nameMembers: { tag: "type", suffix: "Event" } },
      { nullIsAbsent: true, at: "" },
    ])
      expect(accepts(fact), JSON.stringify(fact)).toBe(true);
    for (const fact of [
      { rename: "A", because: " " },
      { enumNumbers: { A: 2 ** 60 } },
      { nameMembers: { tag: "type", sufix: "Event" } },
      { rename: "A", at: "/~2" },
      { nullIsAbsent: false, at: "" },
    ])
      expect(accepts(fact), JSON.stringify(fact)).toBe(false);
  });

  it("the overlay's schema accepts the stream sections agentwire reads, and refuses those it refuses", () => {
    const validate = reference().compile(readJson(path.join(REPO, "schemas/overlay.schema.json")));
    const because = "the prose";
    const accepts = (rule: object, assembly?: object) => {
      const stream = { framing: "sse", because, rules: [{ name: "r", because, ...rule }], ...(assembly === undefined ? {} : { assembly }) };
      let read = true;
      try {
        readStreamFacts(stream as JsonObject, "overlay.json", "/stream");
      } catch (error) {
        if (!(error instanceof InputError)) throw error;
        read = false;
      }
      expect(validate({ stream }), JSON.stringify(stream)).toBe(read);
      return read;
    };
    const steps = (step: object) => ({ snapshot: {}, steps: [{ name: "s", because, on: ["A"], value: 1, ...step }] });
    const refers = { events: ["A"], key: "/id", to: ["B"] };
    for (const [rule, assembly] of [
      [{ first: ["A"], resumed: ["B"] }],
      [{ refers: { ...refers, shownBy: { B: "/ids" }, request: "/ids/*" } }],
      [{ first: ["A"] }, steps({ add: ["list"], key: "id" })],
    ])
      expect(accepts(rule!, assembly), JSON.stringify(rule)).toBe(true);
    for (const [rule, assembly] of [
      [{ first: ["A"], because: " " }],
      [{ terminal: ["A"], resumed: ["B"] }],
      [{ first: ["A"], required: true }],
      [{ first: ["A"], except: ["B"] }],
      [{ inside: " " }],
      [{ refers: { ...refers, shownBy: { B: "ids" } } }],
      [{ refers: { ...refers, request: "ids" } }],
      [{ chunk: { events: ["A"], span: "s", key: "/id", standsFor: { opens: {}, continues: "A", closes: {} } } }],
      [{ first: ["A"] }, steps({ add: ["list"] })],
      [{ first: ["A"] }, steps({ set: ["field"], key: "id" })],
    ])
      expect(accepts(rule!, assembly), JSON.stringify(rule)).toBe(false);
  });
});
