import { describe, expect, it } from "vitest";
import { and, identifier, literal, literalType, or, regex, template, unionType } from "../../generator/code/build.js";
import { Scope } from "../../generator/code/scope.js";

describe("code: building the tree", () => {
  it("suffixes reserved words and type keywords in names, and refuses what is not an identifier", () => {
    expect(identifier("Event").text).toBe("Event");
    expect(identifier("class").text).toBe("class$");
    expect(identifier("string").text).toBe("string$");
    // Words TypeScript reads as an operator where a type's name would be (`export type as = …`, `v is keyof`).
    for (const word of ["as", "infer", "keyof", "readonly", "unique"]) expect(identifier(word).text).toBe(`${word}$`);
    expect(() => identifier("Agent Card")).toThrow(/not an identifier/);
    expect(() => identifier("1st")).toThrow(/not an identifier/);
    expect(() => identifier("")).toThrow(/not an identifier/);
  });

  it("refuses numbers JSON has not and patterns that do not compile", () => {
    expect(() => literal(Number.NaN)).toThrow(/not a JSON number/);
    expect(() => literal(Infinity)).toThrow(/not a JSON number/);
    expect(() => regex("(")).toThrow(SyntaxError);
    expect(() => regex("\\p{L}")).not.toThrow();
  });

  it("folds one operand to itself and flattens an operator into itself, not into the other", () => {
    const [a, b, c] = ["a", "b", "c"].map(identifier) as [
      ReturnType<typeof identifier>,
      ReturnType<typeof identifier>,
      ReturnType<typeof identifier>,
    ];
    expect(and([a])).toBe(a);
    expect(and([a, and([b, c])])).toEqual({ kind: "logical", operator: "&&", operands: [a, b, c] });
    expect(and([a, or([b, c])])).toEqual({
      kind: "logical",
      operator: "&&",
      operands: [a, { kind: "logical", operator: "||", operands: [b, c] }],
    });
    expect(() => or([])).toThrow();
  });

  it("flattens unions of unions", () => {
    const [x, y, z] = ["x", "y", "z"].map(literalType);
    expect(unionType([x!])).toBe(x);
    expect(unionType([x!, unionType([y!, z!])])).toEqual({ kind: "union-type", members: [x, y, z] });
  });

  it("joins a template's adjacent texts", () => {
    const name = identifier("path");
    expect(template(["a", "b", name, "c"])).toEqual({ kind: "template", texts: ["ab", "c"], expressions: [name] });
    expect(template([name])).toEqual({ kind: "template", texts: ["", ""], expressions: [name] });
  });
});

describe("code: locals", () => {
  it("names a local after what it holds, never a parameter, a global or one taken", () => {
    const scope = new Scope(["value"]);
    expect(scope.local("value").text).toBe("value1");
    expect(scope.local("message id").text).toBe("messageId");
    expect(scope.local("message-id").text).toBe("messageId1");
    expect(scope.local("Object").text).toBe("Object1");
    expect(scope.local("2nd").text).toBe("_2nd");
    expect(scope.local("!!").text).toBe("item");
  });
});
