import { describe, expect, it } from "vitest";
import type { Declaration } from "../../generator/code/tree.js";
import { GeneratedFile } from "../../generator/emit/file.js";
import { generateTypes } from "../../generator/emit/types.js";
import { format, PRINT_AS_EMITTED } from "../../generator/format/index.js";
import { namedIrOf } from "../helpers/in-memory.js";

describe("a generated file", () => {
  const schema = {
    $defs: {
      Task: { type: "object", description: "A task.", properties: { id: { type: "string" }, state: { $ref: "#/$defs/State" } } },
      State: { enum: ["open", "done"] },
    },
  };

  it("hands each section to its sink as it is declared and keeps none, printing what the whole module prints", () => {
    const whole = new GeneratedFile("types.ts", ["header"]);
    generateTypes(whole, namedIrOf(schema));
    const sections: (readonly Declaration[])[] = [];
    const printing = PRINT_AS_EMITTED.start();
    const streamed = new GeneratedFile("types.ts", ["header"], (declarations) => {
      sections.push(declarations);
      printing.sink(declarations);
    });
    generateTypes(streamed, namedIrOf(schema));
    expect(sections).toEqual(whole.toModule().sections);
    expect(streamed.toModule().sections).toEqual([]);
    expect(streamed.isEmpty).toBe(false);
    expect(printing.finish(streamed.toModule())).toBe(format([{ path: "types.ts", module: whole.toModule() }])[0]!.content);
  });
});
