import * as prettier from "prettier";
import { describe, expect, it } from "vitest";
import type { Code } from "../../generator/emit/printer/code.js";
import { ts } from "../../generator/emit/printer/code.js";
import { jsDoc, lineComment } from "../../generator/emit/printer/comments.js";
import { identifier, literal, propertyKey, stringLiteral } from "../../generator/emit/printer/escape.js";
import { jsonCode } from "../../generator/emit/printer/json.js";
import { format } from "../../generator/format/index.js";

const print = (code: Code) => format([{ path: "x.ts", code }])[0]!.content;

/** Evaluates a printed expression, to check that it means the text it was made from. */
const evaluate = (code: Code) => new Function(`return (${print(code)});`)() as unknown;

describe("printer: string literals", () => {
  it.each([
    ["plain", '"plain"'],
    ['say "hi"', `'say "hi"'`],
    ["it's", `"it's"`],
    [`both ' and "`, `"both ' and \\""`],
    ["back\\slash", '"back\\\\slash"'],
    ["line\nbreak\r\ttab", '"line\\nbreak\\r\\ttab"'],
    ["\u2028\u2029", '"\\u2028\\u2029"'],
    ["nul\u0000", '"nul\\u0000"'],
    ["</script>${x}`", '"</script>${x}`"'],
  ])("%j prints as %s", (text, expected) => {
    expect(print(stringLiteral(text))).toBe(expected);
    expect(evaluate(stringLiteral(text))).toBe(text);
  });

  it("quotes every interpolated string rather than splicing it in", () => {
    const hostile = '"; process.exit(1); "';
    expect(print(ts`const x = ${hostile};`)).toBe(`const x = '"; process.exit(1); "';`);
  });
});

describe("printer: numbers and other literals", () => {
  it.each([
    [0, "0"],
    [-9007199254740991, "-9007199254740991"],
    [0.5, "0.5"],
    [1e21, "1e21"],
    [1e-7, "1e-7"],
    [true, "true"],
    [null, "null"],
  ] as const)("%j prints as %s", (value, expected) => {
    expect(print(literal(value))).toBe(expected);
  });
});

describe("printer: identifiers and property keys", () => {
  it("suffixes reserved words and type keywords", () => {
    expect(print(identifier("Event"))).toBe("Event");
    expect(print(identifier("class"))).toBe("class$");
    expect(print(identifier("string"))).toBe("string$");
  });

  it("refuses text that is not an identifier", () => {
    expect(() => identifier("Agent Card")).toThrow(/not an identifier/);
    expect(() => identifier("1st")).toThrow(/not an identifier/);
  });

  it.each([
    ["taskId", "taskId"],
    ["class", "class"],
    ["__proto__", "__proto__"],
    ["task_id", "task_id"],
    ["a-b", '"a-b"'],
    ["with space", '"with space"'],
    ["1", '"1"'],
    ["", '""'],
    ['quo"te', `'quo"te'`],
    ["new\nline", '"new\\nline"'],
  ])("key %j prints as %s", (name, expected) => {
    expect(print(propertyKey(name))).toBe(expected);
  });
});

describe("printer: comments", () => {
  it("escapes the end of a comment inside JSDoc", () => {
    expect(print(jsDoc(["a */ b"])!)).toBe("/** a *\\/ b */");
  });

  it("prints one short line as a one-line JSDoc and anything else as a block", () => {
    expect(print(jsDoc(["Short."])!)).toBe("/** Short. */");
    expect(print(jsDoc(["First.", "", "Second."])!)).toBe("/**\n * First.\n *\n * Second.\n */");
  });

  it("breaks lines at line and paragraph separators too", () => {
    expect(print(jsDoc(["one\u2028two\rthree"])!)).toBe("/**\n * one\n * two\n * three\n */");
  });

  it("wraps long prose at spaces and leaves tag lines whole", () => {
    const long = `${"word ".repeat(30).trim()}`;
    const printed = print(jsDoc([long, "", `@pattern ${"x".repeat(100)}`])!);
    const lines = printed.split("\n");
    expect(lines.every((line) => line.length <= 80 || line.includes("@pattern"))).toBe(true);
    expect(
      lines
        .filter((line) => line.startsWith(" * word"))
        .join(" ")
        .replaceAll(" * ", ""),
    ).toBe(long);
  });

  it("keeps a line comment on one line", () => {
    expect(print(lineComment("from schemas/x\n.json\u2028// y"))).toBe("// from schemas/x .json // y");
  });

  it("cannot be closed early by anything a description holds", () => {
    const hostile = "*/ export const pwned = 1; /*";
    const printed = print(ts`${jsDoc([hostile])!}\nexport type T = string;`);
    expect(printed).not.toContain("*/ export const");
    expect(new Function(printed.replace("export type T = string;", ""))).not.toThrow();
  });
});

describe("printer: JSON", () => {
  it("lays out JSON as prettier does", async () => {
    const value = { $comment: 'quote " and \u2028', list: [1, 2, 3], nested: { empty: {}, none: [], long: "x".repeat(90) } };
    const printed = `${print(jsonCode(value))}\n`;
    expect(JSON.parse(printed)).toEqual(value);
    expect(await prettier.format(printed, { parser: "json" })).toBe(printed);
  });
});
