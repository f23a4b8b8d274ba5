import { describe, expect, it } from "vitest";
import { formatChanges, meetFormat } from "../../generator/keywords/format.js";
import { admitsNumber, numberChecks } from "../../generator/keywords/numbers.js";
import { admitsString, stringChecks } from "../../generator/keywords/strings.js";

describe("format", () => {
  it("is an annotation: it checks nothing and admits every value of the type", () => {
    expect(stringChecks({ kind: "string", format: "date-time" })).toEqual([]);
    expect(admitsString("not a date", { kind: "string", format: "date-time" })).toBe(true);
    expect(numberChecks({ kind: "number", integer: true, format: "int32" })).toEqual([]);
    expect(admitsNumber(2 ** 40, { kind: "number", integer: true, format: "int32" })).toBe(true);
  });

  it("under allOf, keeps the first stated", () => {
    expect([meetFormat("uri", "email"), meetFormat(undefined, "email"), meetFormat(undefined, undefined)]).toEqual([
      "uri",
      "email",
      undefined,
    ]);
  });

  it("changes documentation", () => {
    expect(formatChanges("int32", "int64")).toEqual([{ kind: "format-changed", what: "has format int64, was int32" }]);
    expect(formatChanges(undefined, "uri")).toEqual([{ kind: "format-changed", what: "has format uri, was none" }]);
    expect(formatChanges("uri", "uri")).toEqual([]);
  });
});
