import path from "node:path";
import { Ajv } from "ajv";
import { describe, expect, it } from "vitest";
import { run } from "../helpers/cli.js";
import { CONFIG_FILE, configFor, generateInto, makeProject } from "../helpers/project.js";

/**
 * A schema's draft ignores some assertions its author meant: `const` in draft 4, keywords
 * beside a `$ref` up to draft 7. The draft's reading is the default, which generate warns
 * of, once a place; `"compatibleWith": "ajv"` reads the schema as ajv 8 does.
 */

/** Branches told apart by `const`, which draft 4 does not have: as draft 4 reads it, each branch takes any kind. */
const draft4 = {
  $schema: "http://json-schema.org/draft-04/schema#",
  title: "Shape",
  oneOf: [
    { type: "object", properties: { kind: { const: "circle" }, r: { type: "number" } }, required: ["kind", "r"] },
    { type: "object", properties: { kind: { const: "square" }, side: { type: "number" } }, required: ["kind", "side"] },
  ],
};
/** `required` beside a `$ref`, which draft 7 ignores. */
const draft7 = {
  $schema: "http://json-schema.org/draft-07/schema#",
  title: "Named",
  $ref: "#/definitions/base",
  required: ["name"],
  definitions: { base: { type: "object", properties: { name: { type: "string" } } } },
};

async function guard(name: string, schema: object, compatibleWith?: "ajv"): Promise<(value: unknown) => boolean> {
  const root = makeProject({
    [CONFIG_FILE]: configFor([
      { name, schema: `schemas/${name}.schema.json`, ...(compatibleWith === undefined ? {} : { compatibleWith }) },
    ]),
    [`schemas/${name}.schema.json`]: schema,
  });
  await generateInto(root);
  const index = (await import(path.join(root, `generated/src/${name}/index.ts`))) as Record<string, unknown>;
  return index[`is${schema === draft4 ? "Shape" : "Named"}`] as (value: unknown) => boolean;
}

describe('"compatibleWith": "ajv"', () => {
  const circle = { kind: "circle", r: 1 };
  const both = { kind: "circle", r: 1, side: 2 };

  it("reads draft 4's const and draft 7's keywords beside $ref as ajv 8 does; without it, as the draft does", async () => {
    const ajv = new Ajv({ strict: false });
    const asAjv = ajv.compile(draft7);
    const drafts = { shape: await guard("shape", draft4), named: await guard("named", draft7) };
    const ajvs = { shape: await guard("shape", draft4, "ajv"), named: await guard("named", draft7, "ajv") };
    // Draft 4: the const is ignored, so a circle with a side matches both branches, which oneOf
    // refuses, and a "square" with a radius is a circle.
    expect([drafts.shape(circle), drafts.shape(both), drafts.shape({ kind: "square", r: 1 })]).toEqual([true, false, true]);
    expect([ajvs.shape(circle), ajvs.shape(both), ajvs.shape({ kind: "square", r: 1 })]).toEqual([true, true, false]);
    // Draft 7: required beside the $ref is ignored; ajv applies it.
    expect([drafts.named({}), ajvs.named({}), asAjv({})]).toEqual([true, false, false]);
    expect([drafts.named({ name: "x" }), ajvs.named({ name: "x" })]).toEqual([true, true]);
  });

  it("is what generate's warnings name, once a place, where the draft ignores an assertion", async () => {
    const root = makeProject({
      [CONFIG_FILE]: configFor([
        { name: "named", schema: "schemas/named.schema.json" },
        { name: "shape", schema: "schemas/shape.schema.json" },
      ]),
      "schemas/named.schema.json": draft7,
      "schemas/shape.schema.json": draft4,
    });
    const { code, err } = await run(root, "generate");
    expect(code).toBe(0);
    expect(err).toBe(
      [
        'warning: schemas/named.schema.json: "required" beside "$ref" is ignored in draft7, where a $ref replaces its schema',
        '  ajv 8 applies keywords beside a $ref: to read the schema as ajv does, set "compatibleWith": "ajv" on the protocol in the config',
        'warning: schemas/shape.schema.json#/oneOf/0/properties/kind: "const" is not a keyword of draft4, so it is ignored',
        '  ajv 8 applies "const": to read the schema as ajv does, set "compatibleWith": "ajv" on the protocol in the config',
        'warning: schemas/shape.schema.json#/oneOf/1/properties/kind: "const" is not a keyword of draft4, so it is ignored',
        '  ajv 8 applies "const": to read the schema as ajv does, set "compatibleWith": "ajv" on the protocol in the config',
        "",
      ].join("\n"),
    );
    // Set, the schema is read as ajv reads it, and nothing is ignored to warn of.
    const config = configFor([
      { name: "named", schema: "schemas/named.schema.json", compatibleWith: "ajv" },
      { name: "shape", schema: "schemas/shape.schema.json", compatibleWith: "ajv" },
    ]);
    const again = makeProject({ [CONFIG_FILE]: config, "schemas/named.schema.json": draft7, "schemas/shape.schema.json": draft4 });
    expect(await run(again, "generate")).toMatchObject({ code: 0, err: "" });
  });

  it("is the only value the option takes", async () => {
    const root = makeProject({
      [CONFIG_FILE]: configFor([{ name: "named", schema: "schemas/named.schema.json", compatibleWith: "hyperjump" }]),
      "schemas/named.schema.json": draft7,
    });
    expect(await run(root, "generate")).toEqual({
      code: 2,
      out: "",
      err: 'agentwire generate: agentwire.config.json#/protocols/0/compatibleWith: "compatibleWith" is "ajv", not "hyperjump"\n  "ajv" reads the schema as ajv 8 does where its draft says otherwise\n',
    });
  });
});
