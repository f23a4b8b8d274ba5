import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { run, snapshot } from "../helpers/cli.js";
import { ERROR_LIMIT } from "../../generator/limits.js";
import { CONFIG_FILE, configFor, demoProject, protocolsProject } from "../helpers/project.js";

/**
 * The catalog of bad input: each case replaces files of a good project, and gets exactly
 * this error (the file, the JSON Pointer or line and column, what is wrong, what to do),
 * exit code 2, nothing on stdout, and the previous generated/ untouched.
 */

const C = (entry: object = {}, extra: Readonly<Record<string, unknown>> = {}) =>
  JSON.stringify(configFor([{ name: "demo", schema: "schemas/demo.schema.json", ...entry }], extra));
const S = (defs: object) => JSON.stringify({ $defs: defs });
const O = (facts: readonly object[]) => JSON.stringify({ facts });
const withOverlay = C({ overlays: ["schemas/overlays/demo.json"] });

const CASES: readonly (readonly [string, Readonly<Record<string, string | Uint8Array>>, string])[] = [
  [
    "invalid JSON in a schema, by line and column",
    { "schemas/demo.schema.json": '{\n  "$defs": {\n    "A": { "type": "string" },,\n  }\n}' },
    'agentwire generate: schemas/demo.schema.json:3:31: invalid JSON: expected a property name in double quotes, found ","\n',
  ],
  [
    "invalid JSON in the config",
    { [CONFIG_FILE]: '{ "protocols": [ { "name": "demo" ' },
    'agentwire generate: agentwire.config.json:1:35: invalid JSON: expected "," or "}", found end of input\n',
  ],
  [
    "a schema file that does not exist",
    { [CONFIG_FILE]: C({ schema: "schemas/missing.schema.json" }) },
    "agentwire generate: agentwire.config.json#/protocols/0/schema: cannot read schemas/missing.schema.json: no such file\n  vendor the file there, or correct the path\n",
  ],
  [
    "a config entry without schema",
    { [CONFIG_FILE]: JSON.stringify(configFor([{ name: "demo" }])) },
    'agentwire generate: agentwire.config.json#/protocols/0: missing "schema"\n  each entry names its schema file, relative to the config: "schema": "schemas/acme.schema.json"\n',
  ],
  [
    "two protocols with one name",
    {
      [CONFIG_FILE]: JSON.stringify(
        configFor([
          { name: "demo", schema: "schemas/demo.schema.json" },
          { name: "demo", schema: "schemas/demo.schema.json" },
        ]),
      ),
    },
    'agentwire generate: agentwire.config.json#/protocols/1/name: duplicate protocol name "demo", also at /protocols/0\n  each protocol needs its own name: it names a folder of the generated package\n',
  ],
  [
    "a protocol name that cannot name a folder",
    { [CONFIG_FILE]: C({ name: "Demo Protocol" }) },
    'agentwire generate: agentwire.config.json#/protocols/0/name: protocol name "Demo Protocol" must be lowercase words joined by "-"\n  it names a folder of the output and, in a package, its subpath export\n',
  ],
  [
    "a config key it does not know",
    { [CONFIG_FILE]: C({ colour: "red" }) },
    'agentwire generate: agentwire.config.json#/protocols/0/colour: unknown key "colour"\n  known keys: name, schema, overlays, externalSchemas, upstream, sha256, compatibleWith, formats\n',
  ],
  [
    "a formats option it does not know",
    { [CONFIG_FILE]: C({ formats: "validate" }) },
    'agentwire generate: agentwire.config.json#/protocols/0/formats: "formats" is "annotate" or "assert", not "validate"\n  "assert" checks the formats agentwire knows; "annotate", the default, checks none\n',
  ],
  [
    "a config path outside the project",
    { [CONFIG_FILE]: C({ schema: "../demo.schema.json" }) },
    'agentwire generate: agentwire.config.json#/protocols/0/schema: "../demo.schema.json" is outside the project\n  vendor the file into the project, the config\'s folder, and name it relative to the config\n',
  ],
  [
    "a config without an output",
    { [CONFIG_FILE]: JSON.stringify({ protocols: [{ name: "demo", schema: "schemas/demo.schema.json" }] }) },
    'agentwire generate: agentwire.config.json: missing "output", where the bindings go\n  e.g. "output": { "folder": "src/protocols" } for plain sources, or "output": { "folder": "generated", "package": { "name": "@acme/protocols", "version": "0.1.0" } }\n',
  ],
  [
    "an output folder that is the project itself",
    { [CONFIG_FILE]: C({}, { output: { folder: "." } }) },
    'agentwire generate: agentwire.config.json#/output/folder: "." is the project itself\n  name a folder of the project, such as src/protocols\n',
  ],
  [
    "an output folder outside the project",
    { [CONFIG_FILE]: C({}, { output: { folder: "../generated", package: { name: "@agentwire/protocols", version: "0.1.0" } } }) },
    'agentwire generate: agentwire.config.json#/output/folder: "../generated" is outside the project\n  agentwire reads and writes only inside the project, the config\'s folder: name a folder of it, relative to the config\n',
  ],
  [
    "a schema inside the output folder",
    { [CONFIG_FILE]: C({ schema: "generated/src/demo/schema.json" }) },
    'agentwire generate: agentwire.config.json#/protocols/0/schema: "generated/src/demo/schema.json" is inside the output folder generated/, which agentwire replaces\n  keep schemas and overlays out of the output folder\n',
  ],
  [
    "a pin that is not a sha256",
    { [CONFIG_FILE]: C({ sha256: "0BDB2FDB" }) },
    "agentwire generate: agentwire.config.json#/protocols/0/sha256: sha256 must be 64 lowercase hex digits\n",
  ],
  [
    "a $ref to nothing",
    { "schemas/demo.schema.json": S({ A: { $ref: "#/$defs/Nope" } }) },
    'agentwire generate: schemas/demo.schema.json#/$defs/A/$ref: $ref "#/$defs/Nope" points to nothing\n  "Nope" is not among the keys there\n',
  ],
  [
    "a $ref to a file that does not exist",
    { "schemas/demo.schema.json": S({ A: { $ref: "other.schema.json#/$defs/B" } }) },
    'agentwire generate: schemas/demo.schema.json#/$defs/A/$ref: $ref "other.schema.json#/$defs/B" points to a file that does not exist, and no definition of schemas/demo.schema.json is named "other"\n  vendor that file into schemas/, or ref a definition by its key or title\n',
  ],
  [
    "a $ref to an anchor no schema has",
    { "schemas/demo.schema.json": S({ A: { $ref: "#nowhere" } }) },
    'agentwire generate: schemas/demo.schema.json#/$defs/A/$ref: $ref "#nowhere" names the anchor "nowhere", which no $anchor defines\n  ref the definition by its JSON Pointer, #/$defs/<Name>\n',
  ],
  [
    "a $ref to https:",
    { "schemas/demo.schema.json": S({ A: { $ref: "https://example.com/schema.json#/$defs/B" } }) },
    'agentwire generate: schemas/demo.schema.json#/$defs/A/$ref: $ref "https://example.com/schema.json#/$defs/B" points to the network\n  agentwire never fetches schemas while generating: vendor the document into a folder of the project and map its base URL there in the config, "remotes": { "https://example.com/": "<folder>/" }\n',
  ],
  [
    "a $ref to http:",
    { "schemas/demo.schema.json": S({ A: { $ref: "http://example.com/schema.json" } }) },
    'agentwire generate: schemas/demo.schema.json#/$defs/A/$ref: $ref "http://example.com/schema.json" points to the network\n  agentwire never fetches schemas while generating: vendor the document into a folder of the project and map its base URL there in the config, "remotes": { "http://example.com/": "<folder>/" }\n',
  ],
  [
    "a $ref outside the project",
    { "schemas/demo.schema.json": S({ A: { $ref: "../../etc/passwd" } }) },
    'agentwire generate: schemas/demo.schema.json#/$defs/A/$ref: $ref "../../etc/passwd" points outside the project\n  vendor the file into the project and ref it by a relative path\n',
  ],
  [
    "definitions that are only names for each other",
    { "schemas/demo.schema.json": S({ A: { $ref: "#/$defs/B" }, B: { $ref: "#/$defs/A" } }) },
    'agentwire generate: schemas/demo.schema.json#/$defs/A: "A" is defined only in terms of itself (A → B → A)\n  a type may contain itself in a property or an array, not be another name for itself\n',
  ],
  [
    "a type composed of itself",
    { "schemas/demo.schema.json": S({ A: { type: "object", allOf: [{ $ref: "#/$defs/A" }] } }) },
    'agentwire generate: schemas/demo.schema.json#/$defs/A: "A" is defined only in terms of itself (A → A)\n  a type may contain itself in a property or an array, not be another name for itself\n',
  ],
  [
    "an empty oneOf",
    { "schemas/demo.schema.json": S({ A: { oneOf: [] } }) },
    'agentwire generate: schemas/demo.schema.json#/$defs/A/oneOf: "oneOf" must be a non-empty array of schemas\n  with no schemas it would accept no value: list the alternatives, or remove it\n',
  ],
  [
    "a pattern that is not a regular expression",
    { "schemas/demo.schema.json": S({ A: { type: "string", pattern: "([a-z]" } }) },
    'agentwire generate: schemas/demo.schema.json#/$defs/A/pattern: invalid pattern "([a-z]": Invalid regular expression: /([a-z]/u: Unterminated group\n  patterns are ECMAScript regular expressions with the u flag (draft 2020-12)\n',
  ],
  [
    "a dependent property list that is not of names",
    { "schemas/demo.schema.json": S({ A: { type: "object", dependentRequired: { a: "b" } } }) },
    "agentwire generate: schemas/demo.schema.json#/$defs/A/dependentRequired/a: a dependent property list must be an array of property names\n",
  ],
  [
    "a tuple spelled as before 2020-12 in a 2020-12 schema",
    { "schemas/demo.schema.json": S({ A: { type: "array", items: [{ type: "string" }] } }) },
    'agentwire generate: schemas/demo.schema.json#/$defs/A/items: unsupported: "items" as an array of schemas is the tuple of drafts before 2020-12\n  in 2020-12, a tuple is "prefixItems", and "items" the schema of the items after it\n',
  ],
  [
    "a pattern property that is not a u-flag RegExp",
    { "schemas/demo.schema.json": S({ A: { type: "object", patternProperties: { "^(x-": { type: "string" } } } }) },
    'agentwire generate: schemas/demo.schema.json#/$defs/A/patternProperties/^(x-: invalid pattern "^(x-": Invalid regular expression: /^(x-/u: Unterminated group\n  patterns are ECMAScript regular expressions with the u flag (draft 2020-12)\n',
  ],
  [
    "an enum that is not an array",
    { "schemas/demo.schema.json": S({ A: { enum: "a" } }) },
    'agentwire generate: schemas/demo.schema.json#/$defs/A/enum: "enum" must be an array\n',
  ],
  [
    "a key twice in one object",
    { "schemas/demo.schema.json": '{\n  "$defs": {\n    "A": { "type": "string" },\n    "A": { "type": "number" }\n  }\n}' },
    'agentwire generate: schemas/demo.schema.json:4:5: duplicate key "A" in the object at /$defs\n  JSON.parse would keep the last and drop the others without a word: remove or rename one\n',
  ],
  [
    "bytes that are not UTF-8",
    {
      "schemas/demo.schema.json": Buffer.concat([
        Buffer.from('{ "$defs": { "A": { "const": "'),
        Buffer.from([0xe9]),
        Buffer.from('t\u00e9" } } }'),
      ]),
    },
    "agentwire generate: schemas/demo.schema.json:1:31: not UTF-8: the byte 0xe9 at offset 30 is not part of a UTF-8 character\n  save the file as UTF-8, which JSON files are\n",
  ],
  [
    "a file nested deeper than agentwire reads",
    { "schemas/demo.schema.json": JSON.stringify({ $defs: { A: { const: JSON.parse("[".repeat(130) + "]".repeat(130)) as unknown } } }) },
    `agentwire generate: schemas/demo.schema.json:1:149: nested more than 128 objects and arrays deep, at /$defs/A/const${"/0".repeat(125)}\n  agentwire reads JSON nested at most that deep: move nested schemas into $defs and $ref them\n`,
  ],
  [
    "a root that is not a schema",
    { "schemas/demo.schema.json": '["not", "a", "schema"]' },
    "agentwire generate: schemas/demo.schema.json: the root of the file is not a schema: a schema must be an object or a boolean, not an array\n",
  ],
  [
    "$defs that is not an object",
    { "schemas/demo.schema.json": JSON.stringify({ $defs: [{ type: "string" }] }) },
    'agentwire generate: schemas/demo.schema.json#/$defs: "$defs" must be an object of schemas\n',
  ],
  [
    "a definition that is not a schema",
    { "schemas/demo.schema.json": S({ A: "string" }) },
    'agentwire generate: schemas/demo.schema.json#/$defs/A: a schema must be an object or a boolean, not a string ("string")\n',
  ],
  [
    "a length below zero",
    { "schemas/demo.schema.json": S({ A: { type: "string", minLength: -1 } }) },
    'agentwire generate: schemas/demo.schema.json#/$defs/A/minLength: "minLength" must be a non-negative integer, not a number (-1)\n',
  ],
  [
    "a count that is not an integer",
    { "schemas/demo.schema.json": S({ A: { type: "array", maxItems: 2.5 } }) },
    'agentwire generate: schemas/demo.schema.json#/$defs/A/maxItems: "maxItems" must be a non-negative integer, not a number (2.5)\n',
  ],
  [
    "a multipleOf of zero",
    { "schemas/demo.schema.json": S({ A: { type: "number", multipleOf: 0 } }) },
    'agentwire generate: schemas/demo.schema.json#/$defs/A/multipleOf: "multipleOf" must be a number greater than 0, not a number (0)\n',
  ],
  [
    "a list of properties that is not an object",
    { "schemas/demo.schema.json": S({ A: { type: "object", properties: [{ type: "string" }] } }) },
    'agentwire generate: schemas/demo.schema.json#/$defs/A/properties: "properties" must be an object of schemas\n',
  ],
  [
    "a subschema deep inside that is not a schema",
    { "schemas/demo.schema.json": S({ A: { type: "array", items: { anyOf: [{ type: "string" }, 5] } } }) },
    "agentwire generate: schemas/demo.schema.json#/$defs/A/items/anyOf/1: a schema must be an object or a boolean, not a number (5)\n",
  ],
  [
    "a type named twice",
    { "schemas/demo.schema.json": S({ A: { type: ["string", "null", "string"] } }) },
    'agentwire generate: schemas/demo.schema.json#/$defs/A/type/2: "type" lists "string" twice\n',
  ],
  [
    "a description that is not text",
    { "schemas/demo.schema.json": S({ A: { type: "string", description: ["a", "b"] } }) },
    'agentwire generate: schemas/demo.schema.json#/$defs/A/description: "description" must be a string, not an array\n',
  ],
  [
    "an anchor that is not a name",
    { "schemas/demo.schema.json": S({ A: { $anchor: "#a", type: "string" } }) },
    'agentwire generate: schemas/demo.schema.json#/$defs/A/$anchor: "$anchor" "#a" is not a name: a letter or "_", then letters, digits, "-", "_" and "."\n',
  ],
  [
    "a scheme-relative $ref, to another host",
    { "schemas/demo.schema.json": S({ A: { $ref: "//host/x.json" } }) },
    'agentwire generate: schemas/demo.schema.json#/$defs/A/$ref: $ref "//host/x.json" names file://host/x.json, a file on the host "host"\n  vendor the file into the project and ref it by a relative path\n',
  ],
  [
    "definitions that are only names for each other, through a constraint",
    {
      "schemas/demo.schema.json": S({
        A: { anyOf: [{ $ref: "#/$defs/B" }, { type: "string" }], not: { const: "x" } },
        B: { anyOf: [{ $ref: "#/$defs/A" }, { type: "number" }] },
      }),
    },
    'agentwire generate: schemas/demo.schema.json#/$defs/A: "A" is defined only in terms of itself (A → B → A)\n  a type may contain itself in a property or an array, not be another name for itself\n',
  ],
  [
    "an overlay file that does not exist",
    { [CONFIG_FILE]: withOverlay },
    "agentwire generate: agentwire.config.json#/protocols/0/overlays/0: cannot read schemas/overlays/demo.json: no such file\n  vendor the file there, or correct the path\n",
  ],
  [
    "an overlay fact without because",
    { [CONFIG_FILE]: withOverlay, "schemas/overlays/demo.json": O([{ at: "/$defs/A", fallback: "x" }]) },
    'agentwire generate: schemas/overlays/demo.json#/facts/0/because: "because" must say where the prose states this fact\n',
  ],
  [
    "an overlay fact that points nowhere",
    {
      [CONFIG_FILE]: withOverlay,
      "schemas/overlays/demo.json": O([{ at: "/$defs/Nope", fallback: "x", because: "the prose" }]),
    },
    'agentwire generate: schemas/overlays/demo.json#/facts/0: nothing is there (at "/$defs/Nope")\n  point at a schema of the resolved schema, where every named type is /$defs/<Name>\n',
  ],
  [
    "an overlay fallback outside the enum",
    {
      [CONFIG_FILE]: withOverlay,
      "schemas/demo.schema.json": S({ A: { enum: ["on", "off"] } }),
      "schemas/overlays/demo.json": O([{ at: "/$defs/A", fallback: "unknown", because: "the prose" }]),
    },
    'agentwire generate: schemas/overlays/demo.json#/facts/0/fallback: the fallback "unknown" is not one of the enum\'s values\n',
  ],
  [
    "an overlay that requires a property the schema does not declare",
    {
      [CONFIG_FILE]: withOverlay,
      "schemas/demo.schema.json": S({ A: { type: "object", properties: { id: { type: "string" } } } }),
      "schemas/overlays/demo.json": O([{ at: "/$defs/A", required: "name", because: "the prose" }]),
    },
    'agentwire generate: schemas/overlays/demo.json#/facts/0: "name" is not a property of that schema (at "/$defs/A")\n',
  ],
  [
    "an overlay that asserts rather than annotates",
    {
      [CONFIG_FILE]: withOverlay,
      "schemas/overlays/demo.json": O([{ at: "/$defs/A", annotate: { minLength: 1 }, because: "the prose" }]),
    },
    'agentwire generate: schemas/overlays/demo.json#/facts/0/annotate/minLength: "minLength" constrains values; an overlay only annotates\n  state constraints in the schema itself, or as a fact such as exactlyOne\n',
  ],
  [
    "a schema's text that would drive the terminal (an escape sequence, a bidirectional control), shown as escapes",
    { "schemas/demo.schema.json": S({ "\u001b]0;pwned\u0007A\u202e": { type: "strin" } }) },
    'agentwire generate: schemas/demo.schema.json#/$defs/\\u001b]0;pwned\\u0007A\\u202e/type: unknown type "strin"\n',
  ],
];

describe("bad input", () => {
  it("has at least 25 cases", () => {
    expect(CASES.length).toBeGreaterThanOrEqual(25);
  });

  it.each(CASES)("%s", async (_, files, error) => {
    const root = demoProject({ $defs: { A: { type: "string" } } });
    expect((await run(root, "generate")).code).toBe(0);
    const before = snapshot(path.join(root, "generated"));
    for (const [file, content] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      writeFileSync(path.join(root, file), content);
    }
    const { code, out, err } = await run(root, "generate");
    expect(err).toBe(error);
    expect(code).toBe(2);
    expect(out).toBe("");
    expect(snapshot(path.join(root, "generated"))).toEqual(before);
    expect(await run(root, "check")).toMatchObject({ code: 2, err: error.replace("agentwire generate:", "agentwire check:") });
  });
});

describe("bad input in several places", () => {
  /** Generates, and expects exit 2, these lines on stderr, nothing on stdout or in generated/; check says the same. */
  async function expectRefused(root: string, lines: readonly string[]): Promise<void> {
    const { code, out, err } = await run(root, "generate");
    expect(err).toBe(lines.map((line) => `agentwire generate: ${line}\n`).join(""));
    expect(code).toBe(2);
    expect(out).toBe("");
    expect(() => snapshot(path.join(root, "generated"))).toThrow(/ENOENT/);
    expect(await run(root, "check")).toMatchObject({ code: 2, err: err.replaceAll("agentwire generate:", "agentwire check:") });
  }

  it("reports every malformed keyword of a schema, each with its pointer, and how many", async () => {
    const root = demoProject(S({ A: { type: "string", minLength: -1 }, B: { type: "string", pattern: "([a-z]" }, C: { type: "strin" } }));
    await expectRefused(root, [
      'schemas/demo.schema.json#/$defs/A/minLength: "minLength" must be a non-negative integer, not a number (-1)',
      'schemas/demo.schema.json#/$defs/B/pattern: invalid pattern "([a-z]": Invalid regular expression: /([a-z]/u: Unterminated group\n  patterns are ECMAScript regular expressions with the u flag (draft 2020-12)',
      'schemas/demo.schema.json#/$defs/C/type: unknown type "strin"',
      "3 errors",
    ]);
  });

  it("reports the errors of each protocol: one's do not hide another's", async () => {
    const root = protocolsProject({
      alpha: S({ A: { type: "array", maxItems: 2.5 } }),
      beta: { $ref: "#/$defs/Nope" },
      gamma: S({ A: { type: "string" } }),
    });
    await expectRefused(root, [
      'schemas/alpha.schema.json#/$defs/A/maxItems: "maxItems" must be a non-negative integer, not a number (2.5)',
      'schemas/beta.schema.json#/$ref: $ref "#/$defs/Nope" points to nothing\n  "$defs" is not among the keys there',
      "2 errors",
    ]);
  });

  it("reports each protocol's file that cannot be read, and goes no further", async () => {
    const root = protocolsProject({ alpha: '{ "type": ', beta: S({ A: { minLength: -1 } }), gamma: "[1,]" });
    await expectRefused(root, [
      "schemas/alpha.schema.json:1:11: invalid JSON: expected a JSON value, found end of input",
      'schemas/gamma.schema.json:1:4: invalid JSON: expected a JSON value, found "]"',
      "2 errors",
    ]);
  });

  it(`shows the first ${ERROR_LIMIT} and counts the rest`, async () => {
    const definitions = Object.fromEntries(Array.from({ length: 26 }, (_, i) => [`D${i}`, { type: "string", minLength: -i - 1 }]));
    const root = protocolsProject({ alpha: S(definitions), beta: S({ A: { type: "strin" } }) });
    await expectRefused(root, [
      ...Array.from(
        { length: ERROR_LIMIT },
        (_, i) => `schemas/alpha.schema.json#/$defs/D${i}/minLength: "minLength" must be a non-negative integer, not a number (${-i - 1})`,
      ),
      "… 7 more errors not shown",
      "27 errors",
    ]);
  });
});
