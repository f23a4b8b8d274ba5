import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, symlinkSync } from "node:fs";
import path from "node:path";
import { Ajv } from "ajv";
import { beforeAll, describe, expect, it } from "vitest";
import { writeGeneration } from "../generator/api/write.js";
import type { Ir } from "../generator/ir/model.js";
import type { JsonObject, JsonValue } from "../generator/json.js";
import { loadSchemas } from "../generator/load/index.js";
import { generate, intermediate } from "../generator/pipeline.js";
import { compareWithReference, referenceValidator } from "./helpers/differential.js";
import type { TypeFunctions } from "./helpers/generated.js";
import { modulesOf } from "./helpers/generated.js";
import { breaches, spoiled } from "./helpers/javascript.js";
import { fixtureProject, REPO } from "./helpers/project.js";
import { Random, SampleMaker } from "./helpers/samples.js";

const FIXTURES = path.join(import.meta.dirname, "fixtures/any-schema");
const NAMES = ["json-resume", "json-resume-nulls", "json-schema-draft-07", "lsp-meta-model", "lsp-meta-model-nulls"] as const;

interface Generated {
  readonly ir: Ir;
  readonly effective: JsonObject;
  readonly functions: (type: string) => TypeFunctions;
}

/**
 * Any schema, not four: three real-world schemas of other styles (test/fixtures/any-schema)
 * go through the whole pipeline into a package that compiles under strict tsc, and the
 * generated code agrees with the reference validator as the four protocols' does.
 */
let root = "";
const generated = new Map<string, Generated>();
beforeAll(async () => {
  root = fixtureProject(FIXTURES);
  writeGeneration(path.join(root, "generated"), (await generate(root)).files);
  symlinkSync(path.join(REPO, "node_modules"), path.join(root, "generated", "node_modules"));
  const schemas = loadSchemas(root);
  for (const protocol of schemas.protocols) {
    const ir = intermediate(schemas, protocol);
    const name = protocol.config.name;
    const index = (await import(path.join(root, "generated/src", name, "index.ts"))) as Record<string, unknown>;
    const effective = JSON.parse(readFileSync(path.join(root, "generated/src", name, "schema.json"), "utf8")) as JsonObject;
    generated.set(name, { ir, effective, functions: modulesOf(index, name).functions });
  }
}, 60_000);

/** The reference validator for a draft-07 effective schema: ajv's default class. */
function referenceFor(effective: JsonObject): (type: string) => (document: unknown) => boolean {
  return referenceValidator(effective, new Ajv({ strict: false, validateFormats: false }));
}

describe("any schema", () => {
  it("generates a package that compiles under strict tsc", () => {
    expect([...generated.keys()].sort()).toEqual([...NAMES]);
    const result = spawnSync(path.join(REPO, "node_modules/.bin/tsc"), ["-p", path.join(root, "generated/tsconfig.json"), "--noEmit"], {
      encoding: "utf8",
    });
    expect(result.stdout + result.stderr).toBe("");
    expect(result.status).toBe(0);
  });

  it.each(NAMES)(
    "%s: the generated code agrees with the reference validator",
    (name) => {
      const { ir, effective, functions } = generated.get(name)!;
      expect(effective["$schema"]).toBe("http://json-schema.org/draft-07/schema#");
      const found = compareWithReference(ir, functions, referenceFor(effective), 100);
      expect(found.disagreements.slice(0, 20)).toEqual([]);
      expect(found.tooFew).toEqual(ACCEPTS_EVERYTHING[name] ?? []);
      // With nullIsAbsent, a null for a field absent is a wire form: the reference and decodeT accept it, isT does not.
      if (name.endsWith("-nulls")) expect(found.wireForms).toBeGreaterThan(40);
      else expect(found.wireForms + found.unnamedNumbers).toBe(0);
      // Pinned: ajv accepts two "__proto__" strings where uniqueItems forbids it (see hasRepeatedProtoItem).
      if (name === "json-schema-draft-07") expect(found.referenceFaults).toBeGreaterThan(0);
      else expect(found.referenceFaults).toBe(0);
    },
    120_000,
  );

  it.each(NAMES)(
    "%s: the generated code agrees with the wire on JavaScript values JSON writes differently",
    (name) => {
      const { ir, effective, functions } = generated.get(name)!;
      const reference = referenceFor(effective);
      const random = new Random(0xa11);
      const maker = new SampleMaker(ir, random);
      const problems: string[] = [];
      for (const type of ir.types) {
        const check = reference(type.name);
        for (let i = 0; i < 20; i++) {
          const made = maker.valid(type.shape);
          if (made === undefined) continue;
          const [how, value] = spoiled(JSON.parse(JSON.stringify(made)) as JsonValue, random);
          const found = breaches(functions(type.name), check, value);
          if (found.length > 0) problems.push(`${type.name} with ${how}: ${found.join("; ")}`);
        }
      }
      expect(problems.slice(0, 10)).toEqual([]);
    },
    60_000,
  );

  it("json-resume: reads the package's own example résumés as the reference does", () => {
    const { ir, effective, functions } = generated.get("json-resume")!;
    const check = referenceFor(effective)(ir.root!);
    const { is, validate, decode } = functions(ir.root!);
    const documents = readdirSync(path.join(FIXTURES, "documents/json-resume"));
    expect(documents.length).toBe(4);
    for (const file of documents) {
      const document = JSON.parse(readFileSync(path.join(FIXTURES, "documents/json-resume", file), "utf8")) as unknown;
      expect(check(document), file).toBe(true);
      expect([is(document), validate(document).ok, decode(document).ok], file).toEqual([true, true, true]);
    }
  });

  it("json-schema-draft-07: judges real schemas as the reference does", () => {
    const { ir, effective, functions } = generated.get("json-schema-draft-07")!;
    const check = referenceFor(effective)(ir.root!);
    const { is } = functions(ir.root!);
    const schemas = [
      ...readdirSync(path.join(FIXTURES, "schemas"))
        .filter((file) => file.endsWith(".schema.json"))
        .map((file) => path.join(FIXTURES, "schemas", file)),
      ...readdirSync(path.join(REPO, "schemas"))
        .filter((file) => file.endsWith(".schema.json"))
        .map((file) => path.join(REPO, "schemas", file)),
    ];
    for (const file of schemas) {
      const document = JSON.parse(readFileSync(file, "utf8")) as unknown;
      expect(is(document), file).toBe(check(document));
    }
    // And what no schema may be.
    for (const document of [{ type: "strnig" }, { minLength: -1 }, { required: ["a", "a"] }, { enum: [] }, 7])
      expect(is(document), JSON.stringify(document)).toBe(check(document));
  });

  it("json-schema-draft-07: a recursive type is a recursive type, and its checks stop at any depth", () => {
    const { ir, functions } = generated.get("json-schema-draft-07")!;
    const types = readFileSync(path.join(root, "generated/src/json-schema-draft-07/types.ts"), "utf8");
    expect(types).toContain("additionalItems?: CoreSchemaMetaSchema;");
    const { is, validate, decode } = functions(ir.root!);
    const nested = (depth: number) => {
      let schema: unknown = { type: "string" };
      for (let i = 0; i < depth; i++) schema = { items: schema };
      return schema;
    };
    expect([is(nested(200)), validate(nested(200)).ok, decode(nested(200)).ok]).toEqual([true, true, true]);
    expect(is(nested(10_000))).toBe(false);
    expect(validate(nested(10_000)).ok).toBe(false);
    expect(decode(nested(10_000)).ok).toBe(false);
  });
});

/** Types every JSON value is a value of: no document is invalid for them. */
const ACCEPTS_EVERYTHING: Partial<Record<string, string[]>> = {};
