import { describe, expect, it } from "vitest";
import { didYouMean, editDistance, nearest } from "../../generator/cli/suggest.js";

const COMMANDS = ["generate", "check", "diff", "verify", "update", "init", "help", "--help", "--version"];

describe("editDistance", () => {
  it.each([
    ["", "", 0],
    ["", "abc", 3],
    ["check", "check", 0],
    ["genrate", "generate", 1],
    ["chekc", "check", 1],
    ["verfiy", "verify", 1],
    ["ca", "abc", 3],
    ["kitten", "sitting", 3],
  ])("of %j and %j is %i", (a, b, distance) => {
    expect(editDistance(a, b)).toBe(distance);
    expect(editDistance(b, a)).toBe(distance);
  });

  it("stops at its bound", () => {
    expect(editDistance("kitten", "sitting", 2)).toBe(2);
    expect(editDistance("a", "abcdef", 3)).toBe(3);
    expect(editDistance("kitten", "sitting", 4)).toBe(3);
  });
});

describe("nearest", () => {
  it.each([
    ["genrate", ["generate"]],
    ["Generate", ["generate"]],
    ["chek", ["check"]],
    ["dif", ["diff"]],
    ["updaet", ["update"]],
    ["inti", ["init"]],
    ["hlep", ["help"]],
    ["regenerate", ["generate"]],
    ["--verison", ["--version"]],
    ["--hepl", ["--help"]],
  ])("finds what %j was meant to be", (word, found) => {
    expect(nearest(word, COMMANDS)).toEqual(found);
  });

  it.each(["gen", "x", "compile", "status", "-h", "--diff"])("finds nothing near %j", (word) => {
    expect(nearest(word, COMMANDS)).toEqual([]);
  });

  it("allows one edit in a word of up to five characters, and a third of a longer one", () => {
    expect(nearest("--ful", ["--full"])).toEqual(["--full"]);
    expect(nearest("--fl", ["--full"])).toEqual([]);
    expect(nearest("genrte", ["generate"])).toEqual(["generate"]);
    expect(nearest("genrt", ["generate"])).toEqual([]);
  });

  it("compares options with options, without their dashes, and commands with commands", () => {
    expect(nearest("--chek", COMMANDS)).toEqual([]);
    expect(nearest("versio", COMMANDS)).toEqual([]);
    expect(nearest("--jsn", ["--json", "--since"])).toEqual(["--json"]);
  });

  it("gives every candidate at the least distance, in their order, and each once", () => {
    expect(nearest("--form", ["--from", "--format", "--form1", "--from"])).toEqual(["--from", "--form1"]);
  });
});

describe("didYouMean", () => {
  it("says the candidate, or the candidates, to append to a message", () => {
    expect(didYouMean("genrate", COMMANDS)).toBe(' (did you mean "generate"?)');
    expect(didYouMean("ab", ["abc", "abd"])).toBe(' (did you mean "abc" or "abd"?)');
    expect(didYouMean("ab", ["abc", "abd", "xab"])).toBe(' (did you mean "abc", "abd" or "xab"?)');
    expect(didYouMean("frobnicate", COMMANDS)).toBe("");
  });
});
