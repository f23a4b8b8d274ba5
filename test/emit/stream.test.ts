import { describe, expect, it } from "vitest";
import { emitProtocol } from "../../generator/emit/index.js";
import type { LoadedProtocol } from "../../generator/load/index.js";
import { compileStream } from "../../generator/stream/index.js";
import { namedIrOf, sourceFile } from "../helpers/in-memory.js";

describe("the stream module", () => {
  it("imports an event type named as one of its own declarations under another name", () => {
    const because = "the prose says so";
    for (const name of ["RULES", "TRANSPORT", "kindOf"]) {
      const schema = {
        title: name,
        oneOf: [{ $ref: "#/$defs/Open" }, { $ref: "#/$defs/Close" }],
        $defs: {
          Open: { type: "object", properties: { type: { const: "OPEN" } }, required: ["type"] },
          Close: { type: "object", properties: { type: { const: "CLOSE" } }, required: ["type"] },
        },
      };
      const protocol: LoadedProtocol = {
        config: { pointer: "/protocols/0", name: "test", schema: "schemas/test.schema.json", overlays: [], externalSchemas: [] },
        schema: sourceFile("test.schema.json", schema),
        overlays: [sourceFile("overlays/test.json", { stream: { framing: "jsonl", because, rules: [] } })],
        externalSchemas: [],
      };
      const ir = namedIrOf(schema);
      const files = [...emitProtocol(ir, compileStream(protocol, ir))];
      const stream = files.find((file) => file.path.endsWith("/stream.ts"));
      expect(stream && "module" in stream ? stream.module.imports.flatMap((each) => each.specifiers) : [], name).toContainEqual(
        expect.objectContaining({ name: expect.objectContaining({ text: name }), local: expect.objectContaining({ text: `${name}1` }) }),
      );
    }
  });
});
