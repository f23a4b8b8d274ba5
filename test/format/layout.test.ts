import * as prettier from "prettier";
import { describe, expect, it } from "vitest";
import type { Declaration, Expression, Statement } from "../../generator/code/tree.js";
import {
  and,
  arrayLiteral,
  asConst,
  binary,
  call,
  conditional,
  construct,
  identifier,
  literal,
  member,
  not,
  objectLiteral,
  or,
  regex,
  template,
} from "../../generator/code/build.js";
import { block, constant, evaluate, ifThen, returns } from "../../generator/code/build.js";
import {
  documentation,
  functionDeclaration,
  interfaceDeclaration,
  keywordType,
  literalType,
  parameter,
  propertySignature,
  tupleType,
  typeAlias,
  typeReference,
  unionType,
} from "../../generator/code/build.js";
import { concat, hardline } from "../../generator/format/docs.js";
import { format, PRINT_OPTIONS } from "../../generator/format/index.js";
import { jsonDoc } from "../../generator/format/json.js";
import { printDoc } from "../../generator/format/printer.js";

/** A module of the declarations, formatted, without its header. */
function print(...declarations: readonly Declaration[]): string {
  const module = {
    kind: "module",
    header: ["h"],
    imports: [],
    constants: [],
    sections: declarations.map((declaration) => [declaration]),
  } as const;
  return format([{ path: "x.ts", module }])[0]!.content.replace(/^\/\/ h\n\n/, "");
}

/** An expression as the value of `const x = …;`, and what it evaluates to. */
function expression(value: Expression): { printed: string; value: unknown } {
  const printed = print(constant(identifier("x"), value));
  return { printed, value: new Function(`${printed}\nreturn x;`)() as unknown };
}

/** Statements as the body of `function f(value: unknown): unknown`, checked against prettier. */
async function body(...statements: readonly Statement[]): Promise<string> {
  const printed = print(
    functionDeclaration({
      exported: false,
      name: identifier("f"),
      parameters: [parameter(identifier("value"), keywordType("unknown"))],
      returns: keywordType("unknown"),
      body: statements,
    }),
  );
  expect(await prettier.format(printed, { parser: "typescript" })).toBe(printed);
  return printed;
}

const VALUE = identifier("value");

describe("format: string literals", () => {
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
    // Trojan Source: bidirectional controls, zero-width characters, C1 controls, tags, a lone surrogate.
    ["\u202e\u2066x\u2069\u200e\u200f\u061c", '"\\u202e\\u2066x\\u2069\\u200e\\u200f\\u061c"'],
    ["\u200b\u200c\u200d\u2060\ufeff\u00ad", '"\\u200b\\u200c\\u200d\\u2060\\ufeff\\u00ad"'],
    ["esc\u001b[2J\u007f\u0085\u009b", '"esc\\u001b[2J\\u007f\\u0085\\u009b"'],
    ["tag\u{e0041}\ud800", '"tag\\u{e0041}\\ud800"'],
    ["é€𝄞 ", '"é€𝄞 "'],
  ])("%j prints as %s and means itself", (text, expected) => {
    const { printed, value } = expression(literal(text));
    expect(printed).toBe(`const x = ${expected};\n`);
    expect(value).toBe(text);
  });

  it("escapes a template literal's text, and only its text", () => {
    const text = "a`b${c}\\d\u2028";
    const { printed, value } = expression(template([text, identifier("Math"), "!"]));
    expect(printed).toBe("const x = `a\\`b\\${c}\\\\d\\u2028${Math}!`;\n");
    expect(value).toBe(`${text}[object Math]!`);
  });

  it("keeps a regex pattern's meaning, a slash and a line break included", () => {
    const { printed, value } = expression(regex("^a/b\n$"));
    expect(printed).toBe("const x = /^a\\/b\\n$/u;\n");
    expect((value as RegExp).test("a/b\n")).toBe(true);
  });

  it("writes a pattern's invisible characters as \\u{…}, which mean them in a class, a range and a group name too", () => {
    const pattern = "^\u202e[\u200b\u{e0041}-\u{e0043}](?<a\u200db>\u0000)\\k<a\u200db>$";
    const { printed, value } = expression(regex(pattern));
    expect(printed).toBe("const x =\n  /^\\u{202e}[\\u{200b}\\u{e0041}-\\u{e0043}](?<a\\u{200d}b>\\u{0})\\k<a\\u{200d}b>$/u;\n");
    expect((value as RegExp).source).not.toMatch(/[^\x20-\x7e]/);
    for (const text of ["\u202e\u200b\u0000\u0000", "\u202e\u{e0042}\u0000\u0000"]) expect((value as RegExp).test(text), text).toBe(true);
    expect((value as RegExp).test("\u202e\u{e0044}\u0000\u0000")).toBe(false);
    expect(new RegExp(pattern, "u").test("\u202e\u200b\u0000\u0000")).toBe(true);
  });
});

describe("format: numbers and other literals", () => {
  it.each([
    [0, "0"],
    [-9007199254740991, "-9007199254740991"],
    [0.5, "0.5"],
    [1e21, "1e21"],
    [1e-7, "1e-7"],
    [true, "true"],
    [null, "null"],
  ] as const)("%j prints as %s", (literalValue, expected) => {
    const { printed, value } = expression(literal(literalValue));
    expect(printed).toBe(`const x = ${expected};\n`);
    expect(value).toBe(literalValue);
  });
});

describe("format: property keys", () => {
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
  ])("a type's key %j prints as %s", (key, expected) => {
    expect(print(interfaceDeclaration(identifier("T"), [propertySignature(key, keywordType("string"))]))).toBe(
      `export interface T {\n  ${expected}: string;\n}\n`,
    );
  });

  it("computes an object literal's __proto__ key, which would otherwise set the prototype", () => {
    const { printed, value } = expression(objectLiteral([{ key: "__proto__", value: literal(1) }]));
    expect(printed).toBe('const x = { ["__proto__"]: 1 };\n');
    expect(Object.getOwnPropertyNames(value)).toEqual(["__proto__"]);
  });

  it("reads a member by name after a dot, or by its literal", () => {
    expect(expression(member(objectLiteral([{ key: "a-b", value: literal(2) }]), "a-b")).printed).toBe('const x = { "a-b": 2 }["a-b"];\n');
  });
});

describe("format: comments", () => {
  const documented = (...paragraphs: string[]) =>
    print(typeAlias(identifier("T"), keywordType("string"), documentation(paragraphs))).replace("export type T = string;\n", "");

  it("escapes the end of a comment inside JSDoc", () => {
    expect(documented("a */ b")).toBe("/** a *\\/ b */\n");
  });

  it("prints one short line as a one-line JSDoc, anything else as a block, and nothing for no text", () => {
    expect(documented("Short.")).toBe("/** Short. */\n");
    expect(documented("First.", "Second.")).toBe("/**\n * First.\n *\n * Second.\n */\n");
    expect(documented()).toBe("");
    expect(documented("", "\n")).toBe("");
  });

  it("breaks lines at line and paragraph separators too", () => {
    expect(documented("one\u2028two\rthree")).toBe("/**\n * one\n * two\n * three\n */\n");
  });

  it("wraps long prose at spaces and leaves tag lines whole", () => {
    const long = "word ".repeat(30).trim();
    const lines = documented(long, `@pattern ${"x".repeat(100)}`).split("\n");
    expect(lines.every((line) => line.length <= 80 || line.includes("@pattern"))).toBe(true);
    expect(
      lines
        .filter((line) => line.startsWith(" * word"))
        .join(" ")
        .replaceAll(" * ", ""),
    ).toBe(long);
  });

  it("cannot be closed early by anything a description holds", async () => {
    const hostile = "*/ export const pwned = 1; /*";
    const printed = print(typeAlias(identifier("T"), keywordType("string"), documentation([hostile])));
    expect(await prettier.format(printed, { parser: "typescript" })).toBe(printed);
    // One comment, then the alias and nothing else: the text stayed inside the comment.
    const comment = /^\/\*\*[^]*?\*\//.exec(printed)![0];
    expect(printed.slice(comment.length)).toBe("\nexport type T = string;\n");
    expect(comment.replaceAll("*\\/", "*/")).toBe(`/** ${hostile} */`);
  });

  it("shows a description's invisible characters as their escapes, and keeps tabs", () => {
    expect(documented("admin\u202e\u2066 only\u2069\u2066 zero\u200bwidth\ttab\u{e0041}")).toBe(
      "/**\n * admin\\u202e\\u2066 only\\u2069\\u2066 zero\\u200bwidth\ttab\\u{e0041}\n */\n",
    );
    const module = { kind: "module", header: ["from schemas/\u202eevil\u2066.json"], imports: [], constants: [], sections: [] } as const;
    expect(format([{ path: "x.ts", module }])[0]!.content).toBe("// from schemas/\\u202eevil\\u2066.json\n");
  });

  it("keeps a header line comment on one line", () => {
    const module = { kind: "module", header: ["from schemas/x\n.json\u2028// y"], imports: [], constants: [], sections: [] } as const;
    expect(format([{ path: "x.ts", module }])[0]!.content).toBe("// from schemas/x .json // y\n");
  });
});

describe("format: JSON", () => {
  it("lays out JSON as prettier does", async () => {
    const value = { $comment: 'quote " and \u2028', list: [1, 2, 3], nested: { empty: {}, none: [], long: "x".repeat(90) } };
    const printed = format([{ path: "x.json", json: value }])[0]!.content;
    expect(JSON.parse(printed)).toEqual(value);
    expect(await prettier.format(printed, { parser: "json" })).toBe(printed);
  });

  it("breaks an array that holds an object or does not fit with its comma, at every width it may start at", async () => {
    const value = {
      short: [1, [2, [3, {}]], "a"],
      holdsObject: [[[{ a: 1 }]], 2],
      wide: ["漢字".repeat(18), "x"],
      fitsExactly: ["x".repeat(58)],
      oneOver: ["x".repeat(63)],
      withComma: ["x".repeat(60)],
      last: [Array.from({ length: 12 }, (_, i) => `item${i}`), Array.from({ length: 13 }, (_, i) => `item${i}`)],
    };
    const printed = format([{ path: "x.json", json: value }])[0]!.content;
    expect(printed).toBe(printDoc(concat(jsonDoc(value), hardline), PRINT_OPTIONS.printWidth));
    // At 80 columns with the comma after them, one column more, and the comma at the 80th.
    expect(printed).toContain(`"fitsExactly": ["${"x".repeat(58)}"],\n`);
    expect(printed).toContain('"oneOver": [\n');
    expect(printed).toContain(`"withComma": ["${"x".repeat(60)}"],\n`);
    expect(await prettier.format(printed, { parser: "json" })).toBe(printed);
  });

  it("escapes invisible characters in keys and strings, as JSON escapes them", async () => {
    const value = { "key\u202e": ["\u2066\u200b\u007f\u0085\u{e0041}\u2028\u0000"] };
    const printed = format([{ path: "x.json", json: value }])[0]!.content;
    expect(printed).toBe('{\n  "key\\u202e": ["\\u2066\\u200b\\u007f\\u0085\\udb40\\udc41\\u2028\\u0000"]\n}\n');
    expect(JSON.parse(printed)).toEqual(value);
    expect(await prettier.format(printed, { parser: "json" })).toBe(printed);
  });
});

describe("format: layout as prettier's", () => {
  const long = (name: string) => identifier(`${name}${"X".repeat(30)}`);

  it("chains else-ifs after statements and follows a block's brace", async () => {
    const test = (n: number) => binary(VALUE, "===", literal(n));
    expect(await body(ifThen(test(1), returns(literal(1)), ifThen(test(2), returns(literal(2)), returns(literal(3)))))).toContain(
      "  if (value === 1) return 1;\n  else if (value === 2) return 2;\n  else return 3;\n",
    );
    expect(await body(ifThen(test(1), block([returns(literal(1))]), block([returns(literal(2))])))).toContain("  } else {\n");
  });

  it("breaks a long && in an if one operand per line, without indenting them twice", async () => {
    const operands = [long("first"), long("second"), long("third")].map((name) => call(name, [VALUE]));
    const printed = await body(ifThen(and(operands), returns(literal(true))));
    expect(printed).toContain(`  if (\n    firstXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX(value) &&\n    secondXX`);
  });

  it("breaks the return type of a function of no parameters, not its empty parentheses", async () => {
    const printed = print(
      functionDeclaration({
        exported: true,
        name: long("make"),
        parameters: [],
        returns: typeReference(long("Result"), [typeReference(long("First")), typeReference(long("Second"))]),
        body: [returns(literal(1))],
      }),
    );
    expect(await prettier.format(printed, { parser: "typescript" })).toBe(printed);
    expect(printed).toContain(`function makeXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX(): ResultXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX<\n`);
  });

  it("parenthesizes an || inside an && and a binary under !", async () => {
    const printed = await body(
      ifThen(
        and([VALUE, or([binary(VALUE, "===", literal(1)), binary(VALUE, "===", literal(2))])]),
        returns(not(binary(VALUE, "<", literal(0)))),
      ),
    );
    expect(printed).toContain("if (value && (value === 1 || value === 2)) return !(value < 0);");
  });

  it("lets a last object argument hug the parentheses", async () => {
    const printed = await body(
      evaluate(
        call(long("callee"), [
          VALUE,
          objectLiteral([
            { key: "first", value: long("a") },
            { key: "second", value: long("b") },
          ]),
        ]),
      ),
    );
    expect(printed).toContain("(value, {\n    first:");
  });

  it("lets a last array argument hug the parentheses, of a call and of `new`", async () => {
    const items = arrayLiteral(["first", "second", "third", "fourth", "fifth"].map((word) => literal(long(word).text)));
    expect(await body(evaluate(call(long("callee"), [VALUE, items])))).toContain('(value, [\n    "firstXXX');
    expect(await body(returns(construct(identifier("Set"), [items])))).toContain('return new Set([\n    "firstXXX');
  });

  it("indents a conditional's branches and the operands of its test", async () => {
    const test = and([
      binary(member(VALUE, long("first").text), "!==", literal(null)),
      binary(member(VALUE, long("second").text), "!==", literal(null)),
    ]);
    expect(await body(returns(conditional(test, call(long("yes"), [VALUE]), call(long("no"), [VALUE]))))).toContain("\n    ? yesXXX");
  });

  it("moves a conditional whose test is a chain of operators after = as a whole, as prettier does", async () => {
    const has = (name: string) =>
      call(member(member(member(identifier("Object"), "prototype"), "hasOwnProperty"), "call"), [VALUE, literal(name)]);
    const tag = (name: string) => conditional(and([call(identifier("isRecord"), [VALUE]), has(name)]), member(VALUE, name), literal(null));
    // Too long after `=`: the whole value on the next line, its branches below it.
    expect(await body(constant(identifier("tag"), tag("type")), returns(identifier("tag")))).toContain(
      '  const tag =\n    isRecord(value) && Object.prototype.hasOwnProperty.call(value, "type")\n      ? value.type\n      : null;',
    );
    // Short enough: one line.
    expect(
      await body(
        constant(identifier("t"), conditional(binary(VALUE, "===", literal(1)), literal(2), literal(3))),
        returns(identifier("t")),
      ),
    ).toContain("const t = value === 1 ? 2 : 3;");
  });

  it("breaks a union its own way after =, after a colon and in type arguments", async () => {
    const members = ["first", "second", "third", "fourth", "fifth"].map((word) => literalType(`${word}-${"v".repeat(8)}`));
    const union = unionType(members);
    const printed = print(
      typeAlias(identifier("Alias"), union),
      interfaceDeclaration(identifier("I"), [propertySignature("key", union, { optional: true })]),
      typeAlias(identifier("Generic"), typeReference(identifier("Pick"), [typeReference(identifier("Things")), union])),
      constant(identifier("values"), asConst(arrayLiteral(members.map((each) => literal(each.kind === "literal-type" ? each.value : ""))))),
    );
    expect(await prettier.format(printed, { parser: "typescript" })).toBe(printed);
    expect(printed).toContain('export type Alias =\n  | "first-');
    expect(printed).toContain('  key?:\n    | "first-');
    expect(printed).toContain("const values = [\n");
  });

  it("prints a tuple's optional and rest elements, parenthesizing a union before ?, and breaks a long one per element", async () => {
    const long = (word: string) => literalType(`${word}-${"v".repeat(20)}`);
    const printed = print(
      typeAlias(
        identifier("Short"),
        tupleType(
          [
            { type: keywordType("string"), optional: false },
            { type: unionType([keywordType("string"), keywordType("null")]), optional: true },
          ],
          unionType([keywordType("number"), keywordType("boolean")]),
        ),
      ),
      typeAlias(identifier("Long"), tupleType(["first", "second", "third"].map((word) => ({ type: long(word), optional: false })))),
      typeAlias(identifier("None"), tupleType([])),
    );
    expect(await prettier.format(printed, { parser: "typescript" })).toBe(printed);
    expect(printed).toContain("export type Short = [string, (string | null)?, ...(number | boolean)[]];");
    expect(printed).toContain('export type Long = [\n  "first-');
    expect(printed).toContain("export type None = [];");
  });
});
