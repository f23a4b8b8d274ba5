import { describe, expect, it } from "vitest";
import { formatChanges, meetFormat } from "../../generator/keywords/format.js";
import { admitsNumber, numberChecks } from "../../generator/keywords/numbers.js";
import { admitsString, meetStrings, stringChanges, stringChecks } from "../../generator/keywords/strings.js";

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

  it("asserted, is a check of each format after the string's other keywords, as the validators report it", () => {
    expect(stringChecks({ kind: "string", patterns: ["^2"], format: "date", assertedFormats: ["date"] })).toEqual([
      { keyword: "pattern", message: "must match the pattern ^2", fails: { op: "notMatch", pattern: "^2" } },
      { keyword: "format", message: "must be a date", fails: { op: "notFormat", format: "date" } },
    ]);
  });

  it("asserted, meets under allOf as both, and a change of it tightens or loosens", () => {
    const date = { kind: "string", assertedFormats: ["date"] } as const;
    const time = { kind: "string", assertedFormats: ["time"] } as const;
    expect(meetStrings(date, time).assertedFormats).toEqual(["date", "time"]);
    expect(meetStrings(date, date).assertedFormats).toEqual(["date"]);
    expect(meetStrings({ kind: "string" }, { kind: "string" }).assertedFormats).toBeUndefined();
    expect(stringChanges({ kind: "string" }, date)).toEqual([{ kind: "constraint-tightened", what: 'must now be of format "date"' }]);
    expect(stringChanges(date, { kind: "string" })).toEqual([{ kind: "constraint-loosened", what: 'need no longer be of format "date"' }]);
    expect(stringChanges(date, time)).toEqual([{ kind: "constraint-changed", what: 'must be of format "time", not "date"' }]);
  });
});
