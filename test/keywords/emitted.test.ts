import { describe, expect, it } from "vitest";
import type { Shape } from "../../generator/ir/model.js";
import { arrayChecks, containsBounds } from "../../generator/keywords/arrays.js";
import type { KeywordCheck } from "../../generator/keywords/check.js";
import { numberChecks, numberType } from "../../generator/keywords/numbers.js";
import { propertyChecks } from "../../generator/keywords/properties.js";
import { STRING_TYPE, stringChecks } from "../../generator/keywords/strings.js";
import { typeCheck } from "../../generator/keywords/types.js";
import { valueChecks } from "../../generator/keywords/values.js";
import { generate } from "../../generator/pipeline.js";
import { irOf } from "../helpers/in-memory.js";
import { demoProject } from "../helpers/project.js";

/** A type per keyword family, with each keyword and both forms of each noun (1 item, 2 items). */
const SCHEMA = {
  $defs: {
    Text: { type: "string", minLength: 1, maxLength: 3, pattern: "^a" },
    Word: { type: "string", minLength: 2, maxLength: 1 },
    Ratio: { type: "number", minimum: 0.5, exclusiveMinimum: -1, maximum: 100, exclusiveMaximum: 1e21, multipleOf: 0.1 },
    Count: { type: "integer", minimum: -2147483648, maximum: 2147483647 },
    Tags: { type: "array", items: { type: "string" }, minItems: 1, maxItems: 2, uniqueItems: true },
    Pair: { type: "array", items: { type: "string" }, minItems: 2, maxItems: 1 },
    Tuple: { type: "array", prefixItems: [{ type: "string" }, { type: "string" }], items: false },
    Empty: { type: "array", items: false },
    Counted: { type: "array", contains: { type: "integer" }, minContains: 2, maxContains: 3 },
    Some: { type: "array", contains: { type: "null" } },
    Box: { type: "object", properties: { a: { type: "string" } }, minProperties: 1, maxProperties: 2 },
    Bag: { type: "object", additionalProperties: { type: "boolean" }, minProperties: 2, maxProperties: 1 },
    Kind: { const: "x" },
    Three: { const: 3 },
    Mode: { enum: ["fast", "slow", 7] },
    Flag: { type: "boolean" },
    Nothing: { type: "null" },
  },
};

const KEYWORDS =
  /"(type|minLength|maxLength|pattern|minimum|maximum|exclusiveMinimum|exclusiveMaximum|multipleOf|minItems|maxItems|uniqueItems|items|contains|minContains|maxContains|minProperties|maxProperties|const|enum)",\s*("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')/g;

/** The text of a string literal as prettier prints it, in double quotes or, when it holds some, in single. */
function stringValue(literal: string): string {
  const body = literal.slice(1, -1);
  return JSON.parse(literal.startsWith("'") ? `"${body.replace(/\\'/g, "'").replace(/"/g, '\\"')}"` : literal) as string;
}

/** What the keyword modules say a shape checks. */
function checksOf(shape: Shape): Pick<KeywordCheck, "keyword" | "message">[] {
  switch (shape.kind) {
    case "string":
      return [STRING_TYPE, ...stringChecks(shape)];
    case "number":
      return [numberType(shape), ...numberChecks(shape)];
    case "array":
      return [...arrayChecks(shape), ...(shape.contains ?? []).flatMap(containsBounds)];
    case "object":
    case "map":
      return propertyChecks(shape);
    case "literal":
    case "enum":
      return valueChecks(shape);
    case "boolean":
    case "null":
      return [typeCheck(shape.kind)];
    default:
      throw new Error(`no keyword family for ${shape.kind}`);
  }
}

/**
 * The emitter prints the keyword modules' checks: what it prints must be what they
 * say, keyword and message byte for byte, both ways.
 */
describe("keyword checks: the validators print the modules' messages", () => {
  it("every check of the modules, and no other message for their keywords", async () => {
    const { files } = await generate(demoProject(SCHEMA));
    const validate = files.find((file) => file.path === "src/demo/validate.ts")!.content;
    const printed = new Set([...validate.matchAll(KEYWORDS)].map(([, keyword, message]) => `${keyword} ${stringValue(message!)}`));
    const expected = new Set(
      irOf(SCHEMA).types.flatMap((type) => checksOf(type.shape).map((check) => `${check.keyword} ${check.message}`)),
    );
    const ofObjectsAndArrays = new Set(["type must be an object", "type must be an array"]);
    expect([...printed].filter((pair) => !ofObjectsAndArrays.has(pair)).sort()).toEqual([...expected].sort());
    expect(expected.size).toBeGreaterThan(25);
  });
});
