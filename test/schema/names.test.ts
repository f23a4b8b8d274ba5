import { describe, expect, it } from "vitest";
import { isNameLike, pascalCase, typeNameFor } from "../../generator/schema/names.js";

describe("typeNameFor", () => {
  it("keeps a key or title that is an identifier once its whitespace is removed, capitals as they are", () => {
    expect(typeNameFor("Shipping Address")).toBe("ShippingAddress");
    expect(typeNameFor("TaskStatus")).toBe("TaskStatus");
    expect(typeNameFor("camelCase")).toBe("camelCase");
    expect(typeNameFor("snake_case")).toBe("snake_case");
    expect(typeNameFor("$Dollar")).toBe("$Dollar");
    expect(typeNameFor(" tab\tand\nnewline ")).toBe("tabandnewline");
  });

  it("joins the words in PascalCase when the text is still no identifier", () => {
    expect(typeNameFor("Core schema meta-schema")).toBe("CoreSchemaMetaSchema");
    expect(typeNameFor("item/agentMessage/delta")).toBe("ItemAgentMessageDelta");
    expect(typeNameFor("a.b.c")).toBe("ABC");
  });

  it("reads [] as the word Array", () => {
    expect(typeNameFor("Def<number[]>")).toBe("DefNumberArray");
    expect(typeNameFor("string[][]")).toBe("StringArrayArray");
  });

  it("puts an underscore before a name that would start with a digit", () => {
    expect(typeNameFor("2fa")).toBe("_2fa");
    expect(typeNameFor("3 d points")).toBe("_3DPoints");
    expect(typeNameFor("4-way")).toBe("_4Way");
  });

  it("is empty when the text has no letter or digit, so that the caller picks another name", () => {
    expect(typeNameFor("")).toBe("");
    expect(typeNameFor("  ")).toBe("");
    expect(typeNameFor("--/")).toBe("");
  });

  it("always gives an ASCII identifier or nothing", () => {
    for (const text of ["Größe", "日本語", "a b-c", "x[]", "1", "é😀 unicode", "__proto__", "a\u00a0b"]) {
      const name = typeNameFor(text);
      expect(name, text).toMatch(/^(|[A-Za-z_$][A-Za-z0-9_$]*)$/);
    }
  });
});

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

describe("isNameLike", () => {
  it("is a title of at most five words with no sentence in it", () => {
    const names = ["Time Series", "ABCSupplyPlan JSON Schema", "Non-Negative Integer Time Dependent Values", "Version 1.0", "Task"];
    expect(names.filter(isNameLike)).toEqual(names);
    const descriptions = [
      "Location in the inventory management system",
      "JSON schema for the TSLint configuration files",
      "Plan date. Local time.",
      "true: Sort alphabetically",
      "Name, or id",
      "Why not?",
    ];
    expect(descriptions.filter(isNameLike)).toEqual([]);
  });
});
