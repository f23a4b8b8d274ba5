import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { compareWithReference, referenceValidator } from "../helpers/differential.js";
import { generatedModules } from "../helpers/generated.js";
import { PROTOCOLS, protocol } from "../helpers/protocols.js";

/**
 * Differential test: for every named type of every protocol, on at least 200 valid and
 * 200 invalid documents made with a fixed seed, the generated code and the reference
 * validator (ajv 8, Ajv2020, strict off, formats as annotations) agree; see
 * compareWithReference for what agreeing means where the wire form differs.
 */
describe.each(PROTOCOLS)("generated code of %s agrees with the reference validator", (name) => {
  it("on valid documents and on mutated invalid ones", async () => {
    const { ir, schema } = await protocol(name);
    const generated = await generatedModules(name);
    const reference = referenceValidator(schema, new Ajv2020({ strict: false, validateFormats: false }));
    const found = compareWithReference(ir, (type) => generated.functions(type), reference);
    expect(found.disagreements.slice(0, 20)).toEqual([]);
    expect(found.tooFew).toEqual(ACCEPTS_EVERYTHING[name] ?? []);
    if (name !== "a2a") expect(found.wireForms + found.unnamedNumbers).toBe(0);
    expect(found.referenceFaults).toBe(0);
  }, 120_000);
});

/** Types every JSON value is a value of: no document is invalid for them. */
const ACCEPTS_EVERYTHING: Partial<Record<string, string[]>> = {
  "ag-ui": ["State: 200 valid, 0 invalid"],
  a2a: ["Value: 200 valid, 0 invalid"],
};
