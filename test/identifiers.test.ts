import { describe, expect, it } from "vitest";
import { camelCase, isIdentifier, pascalCase } from "../generator/identifiers.js";
import { guardName } from "../generator/name/rules.js";

describe("pascalCase", () => {
  it("capitalizes the first letter of each word and keeps the inner capitals", () => {
    expect(pascalCase("item/agentMessage/delta")).toBe("ItemAgentMessageDelta");
    expect(pascalCase("hello world")).toBe("HelloWorld");
    expect(pascalCase("API key")).toBe("APIKey");
  });

  it("splits on every run of characters that are not ASCII letters or digits, and drops them", () => {
    expect(pascalCase("__a--b__")).toBe("AB");
    expect(pascalCase("snake_case_name")).toBe("SnakeCaseName");
    expect(pascalCase("v1.2-beta")).toBe("V12Beta");
    expect(pascalCase("")).toBe("");
    expect(pascalCase("...")).toBe("");
  });
});

/** The one case converter: where the name of a declaration, made from its type's, used to keep `_` and `$` (issue 24). */
describe("pascalCase, for names made from names", () => {
  it("reads `_` and `$` as separators in a name as in any text", () => {
    expect(pascalCase("snake_case")).toBe("SnakeCase");
    expect(pascalCase("TEXT_MESSAGE_START")).toBe("TEXTMESSAGESTART");
    expect(pascalCase("$schema")).toBe("Schema");
    expect(pascalCase("_34322")).toBe("34322");
  });

  it("is how a declaration's name spells its type's", () => {
    expect(guardName("snake_case")).toBe("isSnakeCase");
    expect(guardName("orderId")).toBe("isOrderId");
    expect(guardName("_34322")).toBe("is34322");
  });
});

describe("camelCase", () => {
  it("reads a word in capitals as a word, and puts the prefix first where the words begin with a digit or are none", () => {
    expect(camelCase("TEXT_MESSAGE_CONTENT", "kind")).toBe("textMessageContent");
    expect(camelCase("item/agentMessage/delta", "kind")).toBe("itemAgentMessageDelta");
    expect(camelCase("3d", "kind")).toBe("kind3d");
    expect(camelCase("--", "kind")).toBe("kind");
  });
});

describe("isIdentifier", () => {
  it("is an ASCII identifier", () => {
    expect(["a", "_a1", "$", "A_b$"].filter(isIdentifier)).toEqual(["a", "_a1", "$", "A_b$"]);
    expect(["", "1a", "a-b", "é", "a b"].filter(isIdentifier)).toEqual([]);
  });
});
