import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { NULL_IS_ABSENT_KEYWORD } from "../../generator/schema/vocabulary.js";
import { corpusDocuments, MISSING_REQUIRED } from "../helpers/corpus.js";
import { generatedModules } from "../helpers/generated.js";
import type { ProtocolName } from "../helpers/protocols.js";
import { PROTOCOLS, protocol } from "../helpers/protocols.js";

const documents = corpusDocuments();
const modules = Object.fromEntries(await Promise.all(PROTOCOLS.map(async (name) => [name, await generatedModules(name)] as const)));
const functions = (protocol: string, definition: string) => modules[protocol as ProtocolName]!.functions(definition);
/** The reference validator with every error, on each protocol's effective schema. */
const reference = new Ajv2020({ strict: false, validateFormats: false, allErrors: true, verbose: true });
for (const name of PROTOCOLS) reference.addSchema((await protocol(name)).schema, name);
const UNKNOWN_PROPERTY = ["additionalProperties", "unevaluatedProperties"];
/**
 * Where a null is a property absent, its schema is an anyOf of null and the property's own:
 * a value the latter refuses is refused by the anyOf and by the null branch too, which say
 * nothing more. Those two are left out.
 */
const referenceErrors = (protocol: string, definition: string, document: unknown) =>
  reference.validate({ $ref: `${protocol}#/$defs/${definition}` }, document)
    ? []
    : (reference.errors ?? []).filter(
        (error) =>
          !(error.keyword === "anyOf" && (error.parentSchema as Record<string, unknown> | undefined)?.[NULL_IS_ABSENT_KEYWORD] === true) &&
          !(error.keyword === "type" && error.params["type"] === "null"),
      );

/** The real documents whose only fault, by the reference's own account, is properties the closed schema does not declare. */
const unknownPropertiesOnly = documents.filter(({ protocol, definition, document, valid }) => {
  const errors = referenceErrors(protocol, definition, document);
  return !valid && errors.length > 0 && errors.every((error) => UNKNOWN_PROPERTY.includes(error.keyword));
});

/** AG-UI events of a type the seed does not define (newer or legacy ones). */
const unknownEventTypes = documents.filter(
  ({ protocol, definition, document }) =>
    protocol === "ag-ui" && definition === "Event" && !functions("ag-ui", "EventType").is((document as { type?: unknown }).type),
);

describe("the real corpus", () => {
  it("strict decoding judges every document as the reference does", () => {
    const disagreements = documents.filter(
      ({ protocol, definition, document, valid }) => functions(protocol, definition).decode(document).ok !== valid,
    );
    expect(disagreements.map(({ file }) => file)).toEqual([]);
  });

  it("guards agree too, except on documents in a wire form, which decoding turns canonical", () => {
    const wireForms: string[] = [];
    for (const { file, protocol, definition, document, valid } of documents) {
      const { is, decode } = functions(protocol, definition);
      if (is(document) === valid) continue;
      const decoded = decode(document);
      expect(valid && decoded.ok && is(decoded.value), file).toBe(true);
      wireForms.push(file);
    }
    expect(wireForms.every((file) => file.startsWith("a2a/"))).toBe(true);
  });

  it("strict decoding rejects the documents that leave out what a2a.proto requires, for exactly those fields", () => {
    const missing = Object.keys(MISSING_REQUIRED);
    expect(missing.length).toBe(22);
    for (const file of missing) {
      const { definition, document } = documents.find((entry) => entry.file === file)!;
      const decoded = functions("a2a", definition).decode(document);
      expect(decoded.ok, file).toBe(false);
      if (decoded.ok) continue;
      expect(decoded.errors.map(({ keyword, path }) => `${keyword} ${path}`).sort(), file).toEqual(
        MISSING_REQUIRED[file]!.map((path) => `required ${path}`).sort(),
      );
    }
  });

  it("tolerant decoding accepts the documents whose only fault is unknown properties, and lists them", () => {
    // Eleven A2A documents with unknown properties (agent cards of v0.3's shape, mostly)
    // left this group when a2a.proto's REQUIRED fields became required: they miss some too.
    expect(unknownPropertiesOnly.length).toBeGreaterThanOrEqual(20);
    for (const { file, protocol, definition, document } of unknownPropertiesOnly) {
      const decoded = functions(protocol, definition).decode(document, { mode: "tolerant" });
      const expected = referenceErrors(protocol, definition, document).map(
        (error) => `${error.instancePath}/${String(error.params["additionalProperty"] ?? error.params["unevaluatedProperty"])}`,
      );
      expect(decoded, file).toMatchObject({ ok: true });
      expect(decoded.ok && [...(decoded.ignored ?? [])].sort(), file).toEqual([...new Set(expected)].sort());
    }
  });

  it("tolerant decoding reports events of a type it does not know as unrecognized", () => {
    expect(unknownEventTypes.length).toBeGreaterThanOrEqual(6);
    for (const { file, document } of unknownEventTypes)
      expect(functions("ag-ui", "Event").decode(document, { mode: "tolerant" }), file).toMatchObject({ ok: false, unrecognized: true });
  });

  it("validation explains every invalid document with a pointer into it", () => {
    for (const { file, protocol, definition, document, valid } of documents) {
      const result = functions(protocol, definition).validate(document);
      if (valid && result.ok) continue;
      expect(result.ok, file).toBe(false);
      if (!result.ok) for (const error of result.errors) expect(error.path, file).toMatch(/^(\/([^/~]|~[01])*)*$/);
    }
  });
});
