import { builders as b, printer } from "prettier/doc";
import type { builders } from "prettier/doc";
import { describe, expect, it } from "vitest";
import { emitPackage } from "../../generator/emit/package.js";
import { emitProtocol } from "../../generator/emit/index.js";
import { documentOf, format, PRINT_AS_EMITTED, PRINT_OPTIONS } from "../../generator/format/index.js";
import { printDoc } from "../../generator/format/printer.js";
import { load } from "../../generator/load/index.js";
import { intermediate } from "../../generator/pipeline.js";
import { REPO } from "../helpers/project.js";

/** What prettier's own document printer makes of a document. */
const prettierPrints = (doc: builders.Doc, width: number = PRINT_OPTIONS.printWidth) =>
  printer.printDocToString(doc, { ...PRINT_OPTIONS, printWidth: width }).formatted;

/**
 * The document printer is prettier's algorithm for the documents the emitters build; it
 * must print each exactly as prettier's printDocToString does.
 */
describe("printDoc", () => {
  it("prints every document the emitters build for the four protocols as prettier's printer does", async () => {
    const project = load(REPO);
    const files = [];
    for (const protocol of project.protocols) {
      files.push(...emitProtocol(intermediate(project, protocol)));
    }
    files.push(
      ...emitPackage(
        [
          {
            name: "demo",
            sources: [{ file: "schemas/demo.schema.json", sha256: "0".repeat(64) }],
            types: 1,
            stream: false,
            formats: false,
          },
        ],
        project.templates,
        project.output,
      ),
    );
    const documents = files.flatMap((file) => ("text" in file ? [] : [{ path: file.path, doc: documentOf(file) }]));
    expect(documents.length).toBeGreaterThan(20);
    for (const { path, doc } of documents) expect(printDoc(doc, PRINT_OPTIONS.printWidth), path).toBe(prettierPrints(doc));
    // format prints a module a part at a time (each declaration alone): the same text.
    const formatted = new Map(format(files).map((file) => [file.path, file.content]));
    for (const { path, doc } of documents) expect(formatted.get(path), path).toBe(printDoc(doc, PRINT_OPTIONS.printWidth));
    // And as it is emitted, a section at a time, which keeps no code tree: the same text again.
    for (const protocol of project.protocols) {
      const ir = intermediate(project, protocol);
      for (const file of emitProtocol(ir, undefined, PRINT_AS_EMITTED))
        if ("text" in file) expect(file.text, file.path).toBe(formatted.get(file.path));
        else if ("module" in file) expect(file.path).toMatch(/index\.ts$/);
    }
  });

  const cases: [string, () => builders.Doc, number?][] = [
    ["a group that fits stays flat", () => b.group(["f(", b.indent([b.softline, "a,", b.line, "b"]), b.softline, ")"])],
    [
      "a group that does not fit breaks",
      () => b.group(["f(", b.indent([b.softline, "a".repeat(50), ",", b.line, "b".repeat(40)]), b.softline, ")"]),
    ],
    [
      "a hard line breaks every enclosing group",
      () => b.group(["{", b.group(["[", b.indent([b.softline, "x", b.hardline, "y"]), "]"]), b.line, "}"]),
    ],
    [
      "a conditional group takes the first state that fits",
      () =>
        b.conditionalGroup([
          "x".repeat(90),
          ["short", b.group(["(", b.indent([b.softline, "y".repeat(90)]), ")"], { shouldBreak: true })],
          "last",
        ]),
    ],
    [
      "a conditional group does not pass a hard line on",
      () => b.group(["a", b.line, b.conditionalGroup([["b", b.hardline, "c"], "d"]), b.line, "e"]),
    ],
    [
      "ifBreak and indentIfBreak follow the group they name",
      () => {
        const id = Symbol("g");
        return [
          b.group(["x".repeat(70), b.indent(b.line)], { id }),
          b.indentIfBreak(["y".repeat(20), b.ifBreak(";", "!", { groupId: id })], { groupId: id }),
          b.hardline,
          b.group("z", { id: Symbol("h") }),
          b.indentIfBreak("w", { groupId: id, negate: true }),
        ];
      },
    ],
    [
      "align indents by a number of spaces, and blank lines lose their indentation",
      () => b.indent(["a", b.hardline, b.align(3, ["b", b.hardline, "", b.hardline, "c  "]), b.hardline, "d"]),
    ],
    ["wide characters count two columns", () => b.group(["「", "漢字".repeat(18), "」", b.indent([b.softline, "x"])])],
    ["emoji and combining marks count as prettier counts them", () => b.group(["😀e\u0301 ", "é".repeat(70), b.indent([b.line, "end"])])],
    ["narrow punctuation counts one column", () => b.group(["— “quoted” … → ", "a".repeat(62), b.indent([b.line, "end"])])],
    [
      "a group with shouldBreak breaks, and so do the groups around it",
      () => b.group(["(", b.group(["a", b.line, "b"], { shouldBreak: true }), b.line, ")"]),
    ],
    [
      "fits looks past the group, to the first line break",
      () => [b.group(["x".repeat(40), b.line, "y"]), "z".repeat(39), b.hardline, "end"],
    ],
    ["a narrow width", () => b.group(["a", b.indent([b.line, "b", b.line, "c"])]), 2],
  ];
  it.each(cases)("%s", (_, make, width) => {
    expect(printDoc(make(), width ?? PRINT_OPTIONS.printWidth)).toBe(prettierPrints(make(), width));
  });

  it("refuses a document it does not implement rather than print it wrong", () => {
    expect(() => printDoc(b.fill(["a", b.line, "b"]), 80)).toThrow("unsupported document: fill");
    expect(() => printDoc(b.lineSuffix(" // x"), 80)).toThrow("unsupported document: line-suffix");
    expect(() => printDoc(b.markAsRoot("a"), 80)).toThrow("unsupported align");
    expect(() => printDoc(b.literalline, 80)).toThrow("unsupported: a literal line");
  });
});
