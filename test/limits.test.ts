import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { JsonObject, JsonValue } from "../generator/json.js";
import { NESTING_LIMIT } from "../generator/limits.js";
import { demoProject, REPO } from "./helpers/project.js";

/**
 * Nesting at the limit generates, through every stage and as a command of its own (whose
 * stack is the main thread's, smaller than a test worker's); one level more is refused
 * with the file, where, and the limit.
 */

const BIN = path.join(REPO, "bin/agentwire.js");

function agentwire(root: string, ...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const { status, stdout, stderr } = spawnSync(process.execPath, [BIN, ...args], { cwd: root, encoding: "utf8" });
  return { status, stdout, stderr };
}

/** How deep a JSON value nests, objects and arrays counted (a scalar is 0). */
function depthOf(value: JsonValue): number {
  if (typeof value !== "object" || value === null) return 0;
  return 1 + Math.max(0, ...Object.values(value).map((each) => depthOf(each as JsonValue)));
}

type Schema = JsonValue;

/** What costs the stages the most stack, per construct: a schema wrapped in another of its kind. */
const WRAPS: Readonly<Record<string, (inner: Schema) => Schema>> = {
  items: (inner) => ({ type: "array", items: inner }),
  additionalProperties: (inner) => ({ type: "object", additionalProperties: inner }),
  properties: (inner) => ({ type: "object", properties: { a: inner }, required: ["a"] }),
  allOf: (inner) => ({ allOf: [inner] }),
  anyOf: (inner) => ({ anyOf: [inner, { type: "null" }] }),
  oneOf: (inner) => ({ oneOf: [inner, { type: "boolean" }] }),
  not: (inner) => ({ not: inner }),
  ifThen: (inner) => ({ if: { type: "object" }, then: inner }),
  prefixItems: (inner) => ({ type: "array", prefixItems: [inner] }),
  tagged: (inner) => ({
    oneOf: [
      { type: "object", properties: { t: { const: "a" }, v: inner }, required: ["t"] },
      { type: "object", properties: { t: { const: "b" } }, required: ["t"] },
    ],
  }),
};

/** A document of one definition per construct, each nested as deep as `depth` allows and brought to it exactly with `items`. */
function nestedSchema(depth: number): JsonObject {
  // The document, $defs and the definition are three levels; an array of arrays goes as deep as a const can.
  const at = (definition: Schema) => depthOf({ $defs: { X: definition } });
  const $defs: Record<string, Schema> = {};
  for (const [name, wrap] of Object.entries(WRAPS)) {
    let schema: Schema = { type: "string" };
    while (at(wrap(schema)) <= depth) schema = wrap(schema);
    while (at(schema) < depth) schema = WRAPS["items"]!(schema);
    $defs[name] = schema;
  }
  let value: JsonValue = [];
  while (depthOf({ $defs: { X: { const: [value] } } }) <= depth) value = [value];
  $defs["const"] = { const: value };
  return { $defs };
}

describe(`nesting at the limit (${NESTING_LIMIT})`, () => {
  it("generates a file nested as deep as the limit, checks it and diffs it, and refuses one level more, naming where", () => {
    const schema = nestedSchema(NESTING_LIMIT);
    expect(depthOf(schema)).toBe(NESTING_LIMIT);
    const root = demoProject(schema);
    expect(agentwire(root, "generate")).toMatchObject({ status: 0, stderr: "" });
    expect(agentwire(root, "check")).toMatchObject({ status: 0, stderr: "" });
    const file = path.join(root, "schemas/demo.schema.json");
    expect(agentwire(root, "diff", file, file)).toMatchObject({ status: 0, stderr: "" });

    writeFileSync(file, JSON.stringify(nestedSchema(NESTING_LIMIT + 1)));
    const refused = agentwire(root, "generate");
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(
      new RegExp(
        `^agentwire generate: schemas/demo\\.schema\\.json:1:\\d+: nested more than ${NESTING_LIMIT} objects and arrays deep, at /\\$defs/items/items/`,
      ),
    );
  }, 120_000);

  it("reads definitions composed into each other, read inside each other, as deep as the limit, and refuses one more", () => {
    // D0 is D1 and more, D1 is D2 and more, …: reading D0 reads D1 inside it, and so on; Dn's property is read n + 2 deep.
    const chain = (n: number): JsonObject => ({
      $defs: Object.fromEntries([
        ...Array.from({ length: n }, (_, i): [string, Schema] => [`D${i}`, { allOf: [{ $ref: `#/$defs/D${i + 1}` }], required: ["x"] }]),
        [`D${n}`, { type: "object", properties: { x: { type: "string" } } }],
      ]),
    });
    const root = demoProject(chain(NESTING_LIMIT - 2));
    expect(agentwire(root, "generate")).toMatchObject({ status: 0, stderr: "" });
    writeFileSync(path.join(root, "schemas/demo.schema.json"), JSON.stringify(chain(NESTING_LIMIT - 1)));
    expect(agentwire(root, "generate")).toMatchObject({
      status: 2,
      stderr: `agentwire generate: schemas/demo.schema.json#/$defs/D${NESTING_LIMIT - 1}/properties/x: nested more than ${NESTING_LIMIT} schemas deep, counting the definitions composed into each other (D0 → D1 → D2 → … → D${NESTING_LIMIT - 2} → D${NESTING_LIMIT - 1}, ${NESTING_LIMIT} definitions)\n  agentwire reads schemas nested at most that deep: compose fewer definitions into each other with allOf\n`,
    });
  }, 60_000);

  it("generates a type that is another name for others as deep as the limit, and refuses one more", () => {
    // D0 is another name for D1, D1 for D2, …, and the last an object: the emitters look through each to the next.
    const chain = (n: number): JsonObject => ({
      $defs: Object.fromEntries([
        ...Array.from({ length: n }, (_, i): [string, Schema] => [`D${i}`, { $ref: `#/$defs/D${i + 1}` }]),
        [`D${n}`, { type: "object", properties: { x: { type: "string" } } }],
      ]),
    });
    const root = demoProject(chain(NESTING_LIMIT));
    expect(agentwire(root, "generate")).toMatchObject({ status: 0, stderr: "" });
    writeFileSync(path.join(root, "schemas/demo.schema.json"), JSON.stringify(chain(NESTING_LIMIT + 1)));
    expect(agentwire(root, "generate")).toMatchObject({
      status: 2,
      stderr: `agentwire generate: schemas/demo.schema.json#/$defs/D0: "D0" nests more than ${NESTING_LIMIT} deep, counting the definitions it is another name for (D0 → D1 → D2 → … → D${NESTING_LIMIT - 1} → D${NESTING_LIMIT}, ${NESTING_LIMIT + 1} definitions)\n  agentwire generates types nested at most that deep: make some of the definitions in the chain objects or arrays of the next\n`,
    });
  }, 60_000);
});
