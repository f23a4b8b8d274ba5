import { describe, expect, it } from "vitest";
import type { Declaration, Module, Statement, Variable } from "../../generator/code/tree.js";
import {
  and,
  binary,
  call,
  constant,
  evaluate,
  functionDeclaration,
  identifier,
  ifThen,
  importDeclaration,
  increment,
  keywordType,
  literal,
  not,
  or,
  regex,
  returns,
  variable,
} from "../../generator/code/build.js";
import { optimize } from "../../generator/code/passes.js";
import { format } from "../../generator/format/index.js";

const [a, b, c, run] = ["a", "b", "c", "run"].map(identifier) as [
  ReturnType<typeof identifier>,
  ReturnType<typeof identifier>,
  ReturnType<typeof identifier>,
  ReturnType<typeof identifier>,
];

function moduleOf(body: readonly Statement[], options: { imports?: Module["imports"]; constants?: Variable[] } = {}): Module {
  const fn: Declaration = functionDeclaration({ name: run, exported: true, parameters: [], returns: keywordType("void"), body });
  return { kind: "module", header: [], imports: options.imports ?? [], constants: options.constants ?? [], sections: [[fn]] };
}

function printed(module: Module): string {
  return format([{ path: "x.ts", module: optimize(module) }])[0]!.content;
}

describe("code: passes over the tree", () => {
  it("drops a branch a literal test never takes and keeps alone the one it always takes", () => {
    const body = [
      ifThen(literal(false), evaluate(call(a, []))),
      ifThen(not(literal(true)), evaluate(call(a, [])), evaluate(call(b, []))),
      ifThen(literal(true), evaluate(call(c, []))),
    ];
    expect(printed(moduleOf(body))).toBe("export function run(): void {\n  b();\n  c();\n}\n");
  });

  it("drops what follows a return, also where a folded branch returns", () => {
    const body = [ifThen(a, returns()), ifThen(literal(true), returns()), evaluate(call(b, [])), returns()];
    expect(printed(moduleOf(body))).toBe("export function run(): void {\n  if (a) return;\n  return;\n}\n");
  });

  it("folds logical operands a literal decides, and leaves the others in order", () => {
    const body = [
      ifThen(or([a, literal(false), b]), returns()),
      ifThen(and([literal(true), c]), returns()),
      ifThen(or([a, literal(true), b]), evaluate(call(c, []))),
      ifThen(and([a, literal(false)]), evaluate(call(c, []))),
    ];
    expect(printed(moduleOf(body))).toBe(
      "export function run(): void {\n  if (a || b) return;\n  if (c) return;\n  if (a || true) c();\n  if (a && false) c();\n}\n",
    );
  });

  it("drops a local nothing reads when its value has no effect, and keeps one read or with an effect", () => {
    const [unused, counter, effect] = ["unused", "counter", "effect"].map(identifier) as [
      ReturnType<typeof identifier>,
      ReturnType<typeof identifier>,
      ReturnType<typeof identifier>,
    ];
    const body = [
      constant(unused, literal(1)),
      variable(counter, literal(0)),
      constant(effect, call(a, [])),
      ifThen(binary(b, "===", literal(1)), evaluate(increment(counter))),
    ];
    expect(printed(moduleOf(body))).toBe(
      "export function run(): void {\n  let counter = 0;\n  const effect = a();\n  if (b === 1) counter++;\n}\n",
    );
  });

  it("drops imports and hoisted constants nothing names, a constant named only by a dropped one too", () => {
    const [Used, Unused, Inner, Outer, Kept] = ["Used", "Unused", "Inner", "Outer", "Kept"].map(identifier) as [
      ReturnType<typeof identifier>,
      ReturnType<typeof identifier>,
      ReturnType<typeof identifier>,
      ReturnType<typeof identifier>,
      ReturnType<typeof identifier>,
    ];
    const module = moduleOf([evaluate(call(Used, [Kept]))], {
      imports: [
        importDeclaration(
          [
            { name: Used, local: Used },
            { name: Unused, local: Unused },
          ],
          "./runtime.js",
          { typeOnly: false },
        ),
      ],
      constants: [constant(Inner, regex("^a")), constant(Outer, call(Inner, [])), constant(Kept, literal(1))],
    });
    expect(printed(module)).toBe(
      'import { Used } from "./runtime.js";\n\nconst Kept = 1;\n\nexport function run(): void {\n  Used(Kept);\n}\n',
    );
  });
});
