import { describe, expect, it } from "vitest";
import { malformedKeywords } from "../../generator/schema/wellformed.js";

const problems = (schema: Record<string, unknown>, dialect: "draft4" | "draft2020-12" = "draft2020-12") =>
  malformedKeywords(schema as never, "/$defs/A", dialect).map(({ pointer, problem }) => `${pointer}: ${problem}`);

describe("malformedKeywords", () => {
  it("finds nothing in a well-formed schema", () => {
    expect(problems({ type: ["string", "null"], minLength: 1, pattern: "^a", properties: { a: {}, b: true } })).toEqual([]);
  });

  it("finds every malformed keyword of a schema object, in the order of its keywords", () => {
    expect(problems({ minLength: -1, title: "fine", type: "strin", pattern: "(" })).toEqual([
      '/$defs/A/minLength: "minLength" must be a non-negative integer, not a number (-1)',
      '/$defs/A/type: unknown type "strin"',
      '/$defs/A/pattern: invalid pattern "(": Invalid regular expression: /(/u: Unterminated group',
    ]);
  });

  it("finds every problem inside one keyword's value", () => {
    expect(problems({ properties: { a: 1, b: {}, c: "x" } })).toEqual([
      "/$defs/A/properties/a: a schema must be an object or a boolean, not a number (1)",
      '/$defs/A/properties/c: a schema must be an object or a boolean, not a string ("x")',
    ]);
    expect(problems({ type: ["strin", "string", "string"] })).toEqual([
      '/$defs/A/type/0: unknown type "strin"',
      '/$defs/A/type/2: "type" lists "string" twice',
    ]);
    expect(problems({ anyOf: [{}, 2, null] })).toEqual([
      "/$defs/A/anyOf/1: a schema must be an object or a boolean, not a number (2)",
      "/$defs/A/anyOf/2: a schema must be an object or a boolean, not null",
    ]);
    expect(problems({ dependentRequired: { a: "b", c: ["d"], e: [1] } })).toEqual([
      "/$defs/A/dependentRequired/a: a dependent property list must be an array of property names",
      "/$defs/A/dependentRequired/e: a dependent property list must be an array of property names",
    ]);
  });

  it("finds both a pattern that does not compile and the value under it that is not a schema", () => {
    expect(problems({ patternProperties: { "(": 5, "^a": {} } })).toEqual([
      '/$defs/A/patternProperties/(: invalid pattern "(": Invalid regular expression: /(/u: Unterminated group',
      "/$defs/A/patternProperties/(: a schema must be an object or a boolean, not a number (5)",
    ]);
  });

  it("says a value of the wrong form once, without looking inside it", () => {
    expect(problems({ properties: [1, 2], allOf: [], required: ["a", 1] })).toEqual([
      '/$defs/A/properties: "properties" must be an object of schemas',
      '/$defs/A/allOf: "allOf" must be a non-empty array of schemas',
      '/$defs/A/required: "required" must be an array of property names',
    ]);
  });

  it("checks the keywords as the dialect reads them", () => {
    expect(problems({ exclusiveMinimum: 1, $anchor: 5 }, "draft4")).toEqual([
      '/$defs/A/exclusiveMinimum: "exclusiveMinimum" must be a boolean in draft 4',
    ]);
    expect(problems({ exclusiveMinimum: true, $anchor: "1a" })).toEqual([
      '/$defs/A/exclusiveMinimum: "exclusiveMinimum" must be a number',
      '/$defs/A/$anchor: "$anchor" "1a" is not a name: a letter or "_", then letters, digits, "-", "_" and "."',
    ]);
  });
});
