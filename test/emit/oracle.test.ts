import { registerSchema, validate } from "@hyperjump/json-schema/draft-2020-12";
import { describe, expect, it } from "vitest";
import type { JsonObject } from "../../generator/json.js";
import { corpusDocuments } from "../helpers/corpus.js";
import { compareWithReference } from "../helpers/differential.js";
import { generatedModules } from "../helpers/generated.js";
import type { ProtocolName } from "../helpers/protocols.js";
import { PROTOCOLS, protocol } from "../helpers/protocols.js";

/**
 * A second oracle beside ajv: @hyperjump/json-schema, a reference implementation of
 * 2020-12. It judges the same kind of documents as guards.test.ts (valid ones made from
 * the IR and mutated invalid ones, fixed seeds), fewer of them since it is slower, and the
 * real corpus. It reads a document's own properties only, so documents need no renaming
 * as they do for ajv.
 */
const references = new Map(
  await Promise.all(
    PROTOCOLS.map(async (name) => {
      const { ir, schema } = await protocol(name);
      const id = `https://agentwire.test/${name}`;
      registerSchema({ ...(schema as JsonObject), $id: id } as never);
      const compiled = new Map(
        await Promise.all(
          ir.types.map(async (type) => [type.name, await validate(`${id}#/$defs/${encodeURIComponent(type.name)}`)] as const),
        ),
      );
      const reference = (type: string) => (document: unknown) => compiled.get(type)!(document as never).valid;
      return [name, reference] as const;
    }),
  ),
);
const modules = new Map(await Promise.all(PROTOCOLS.map(async (name) => [name, await generatedModules(name)] as const)));

describe.each(PROTOCOLS)("generated code of %s agrees with @hyperjump/json-schema", (name) => {
  it("on valid documents and on mutated invalid ones", async () => {
    const { ir } = await protocol(name);
    const found = compareWithReference(ir, (type) => modules.get(name)!.functions(type), references.get(name)!, 40);
    expect(found.disagreements.slice(0, 20)).toEqual([]);
    expect(found.referenceFaults).toBe(0);
  });
});

describe("the real corpus", () => {
  it("is judged by @hyperjump/json-schema as by the reference that recorded its verdicts, and so by strict decoding", () => {
    const documents = corpusDocuments();
    expect(documents.length).toBe(504);
    const disagreements = documents.flatMap(({ file, protocol: name, definition, document, valid }) => {
      const judged = references.get(name as ProtocolName)!(definition)(document);
      const decoded = modules
        .get(name as ProtocolName)!
        .functions(definition)
        .decode(document).ok;
      return judged === valid && decoded === valid ? [] : [`${file}: hyperjump ${judged}, decode ${decoded}, recorded ${valid}`];
    });
    expect(disagreements).toEqual([]);
  });
});
