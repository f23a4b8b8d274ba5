import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { beforeAll, describe, expect, it } from "vitest";
import type { StandardJSONSchemaV1 } from "@standard-schema/spec";
import { builderName, matchName, partialMatchName, standardSchemaName } from "../generator/name/rules.js";
import type { Ir } from "../generator/ir/model.js";
import type { JsonObject } from "../generator/json.js";
import { loadSchemas } from "../generator/load/index.js";
import { intermediate } from "../generator/pipeline.js";
import { compareWithReference, referenceValidator } from "./helpers/differential.js";
import { modulesOf } from "./helpers/generated.js";
import { generateInto, fixtureProject, strictTsc } from "./helpers/project.js";

/** What the fixture's texts try to run, everywhere they can. */
const CANARY = "__agentwirePwned";

/**
 * Nothing from a schema becomes code: test/fixtures/hostile holds a schema whose
 * descriptions, property names, definition names, enum and const values, tags and
 * patterns try to break out of comments, strings, identifiers and regexes. Its package
 * compiles, is what prettier prints, agrees with the reference validator on documents
 * that use those names, and runs none of that text.
 */
let root = "";
let ir: Ir;
let index: Record<string, (...args: unknown[]) => unknown>;
beforeAll(async () => {
  root = fixtureProject(path.join(import.meta.dirname, "fixtures/hostile"));
  await generateInto(root);
  const schemas = loadSchemas(root);
  ir = intermediate(schemas, schemas.protocols[0]!);
  expect((globalThis as Record<string, unknown>)[CANARY]).toBeUndefined();
  index = (await import(path.join(root, "generated/src/hostile/index.ts"))) as typeof index;
}, 60_000);

describe("a schema that tries to break out of the generated code", () => {
  it("generates a package that compiles under strict tsc", () => {
    expect(strictTsc(root)).toEqual({ output: "", status: 0 });
  });

  it("writes no invisible character raw in any file: no bidirectional control, zero-width character or control (Trojan Source)", () => {
    const files = readdirSync(path.join(root, "generated"), { recursive: true, encoding: "utf8" }).filter(
      (file) => !file.startsWith("node_modules") && statSync(path.join(root, "generated", file)).isFile(),
    );
    expect(files).toEqual(expect.arrayContaining(["src/hostile/types.ts", "src/hostile/validate.ts", "src/hostile/schema.json"]));
    for (const file of files) {
      const text = readFileSync(path.join(root, "generated", file), "utf8");
      const raw = [...text.matchAll(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/gu)].map(([char]) => char).filter((char) => char !== "\n");
      expect(
        raw.map((char) => `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`),
        file,
      ).toEqual([]);
    }
    // Each is there, written as an escape that names it: in code, in comments and in JSON.
    const types = readFileSync(path.join(root, "generated/src/hostile/types.ts"), "utf8");
    expect(types).toContain('"admin\\u202e\\u2066"');
    expect(types).toContain("Trojan Source: \\u202e } \\u2066if (isAdmin)\\u2069");
    expect(readFileSync(path.join(root, "generated/src/hostile/guards.ts"), "utf8")).toContain(
      "/^a\\u{202e}[\\u{200b}\\u{e0041}-\\u{e0043}]*b\\u{0}?$/u",
    );
    expect(readFileSync(path.join(root, "generated/src/hostile/schema.json"), "utf8")).toContain('"zero\\u200bwidth\\ufeff"');
  });

  it("means by each escape the character the schema has", () => {
    const bidi = "\u202E\u2066 } if (isAdmin) {\u2069\u2066";
    expect(index["isBidiName"]!(bidi)).toBe(true);
    expect(index["isBidiName"]!(" } if (isAdmin) {")).toBe(false);
    for (const value of ["\u202Eabc\u2066", "a\u200Db", "\u0000", "\u001b[31m", "\u{E0061}", "\u2028"])
      expect(index["isDefault"]!(value), value).toBe(true);
    expect(index["isDefault"]!("abc")).toBe(false);
    // Parsed, so that "__proto__" is a property, as JSON.parse makes it.
    const record = JSON.parse(
      '{ "record": { "__proto__": "", "constructor": "", "say \\"hi\\"": "", "": "", "admin\\u202e\\u2066": "" } }',
    ) as object;
    expect(index["isEnvelope"]!(record)).toBe(true);
    expect(index["isEnvelope"]!({ ...record, hidden: "a\u202E\u200B\u{E0042}b\u0000" })).toBe(true);
    expect(index["isEnvelope"]!({ ...record, hidden: "ab" })).toBe(false);
    expect(index["isEnvelope"]!({ ...record, tagged: { "x\u200B\u2066y": 1 } })).toBe(true);
    expect(index["isEnvelope"]!({ ...record, tagged: { xy: 1 } })).toBe(false);
    expect(index[builderName("else")]!({})).toEqual({ type: "\u202Ertl\u2066\u0000" });
  });

  it("keeps every hostile text inside a comment or a literal", () => {
    const dir = path.join(root, "generated/src/hostile");
    for (const file of readdirSync(dir).filter((name) => name.endsWith(".ts"))) {
      const source = readFileSync(path.join(dir, file), "utf8");
      // The canary may appear in comments and string literals only: outside them, nowhere.
      // One pass, whichever starts first: a string may hold "/*" (a description in
      // standard.ts's definitions does), and a comment a quote.
      const code = source.replace(/\/\*[\s\S]*?\*\/|\/\/.*$|"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`/gm, (token) =>
        token.startsWith("/") ? "" : '""',
      );
      expect(code, file).not.toContain(CANARY);
    }
  });

  it("agrees with the reference validator on documents that use every hostile name", () => {
    const effective = JSON.parse(readFileSync(path.join(root, "generated/src/hostile/schema.json"), "utf8")) as JsonObject;
    const reference = referenceValidator(effective, new Ajv2020({ strict: false, validateFormats: false }));
    const found = compareWithReference(ir, modulesOf(index, "hostile").functions, reference, 100);
    expect(found.disagreements.slice(0, 20)).toEqual([]);
    expect(found.tooFew).toEqual([]);
    expect(found.referenceFaults).toBe(0);
  }, 120_000);

  it("gives each type's JSON Schema as its Standard Schema, every hostile key an own property, for ajv to compile", () => {
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    for (const type of ir.types) {
      const standard = index[standardSchemaName(type.name)] as unknown as StandardJSONSchemaV1;
      const schema = standard["~standard"].jsonSchema.input({ target: "draft-2020-12" });
      expect(Object.getPrototypeOf(schema), type.name).toBe(Object.prototype);
      expect(() => ajv.compile(schema), type.name).not.toThrow();
    }
    const envelope = (index[standardSchemaName("Envelope")] as unknown as StandardJSONSchemaV1)["~standard"].jsonSchema;
    const record = JSON.stringify(envelope.output({ target: "draft-07" }));
    expect(record).toContain('"__proto__":');
    expect(({} as Record<string, unknown>)[CANARY]).toBeUndefined();
  });

  it("builds and matches with hostile tags and keys, and runs none of the texts", () => {
    const tag = "a\"b'c\n`${d}`*/";
    const built = index[builderName("if")]!({ payload: "${x}" });
    expect(built).toEqual({ type: tag, payload: "${x}" });
    expect(index["isFunction"]!(built)).toBe(true);
    const handlers = { [tag]: () => "if", __proto__: () => "while", toString: () => "constructor" };
    const own = Object.fromEntries(Object.entries(handlers));
    Object.defineProperty(own, "__proto__", { value: () => "while", enumerable: true });
    expect(index[matchName("function")]!(built, own)).toBe("if");
    expect(index[matchName("function")]!({ type: "__proto__" }, own)).toBe("while");
    expect(index[matchName("function")]!({ type: "toString" }, own)).toBe("constructor");
    expect(index[partialMatchName("function")]!({ type: "toString" }, {}, () => "fallback")).toBe("fallback");
    const choice = JSON.parse('{"__proto__": true}') as unknown;
    expect(index["isChoice"]!(choice)).toBe(true);
    expect(index[matchName("Choice")]!(choice, { "a b": () => 1, 'c"d': () => 2, ["__proto__"]: () => 3 })).toBe(3);
    expect((globalThis as Record<string, unknown>)[CANARY]).toBeUndefined();
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
  });
});
