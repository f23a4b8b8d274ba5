import type { Ir } from "../../generator/ir/model.js";
import type { JsonValue } from "../../generator/json.js";
import type { TypeFunctions } from "./generated.js";
import { Random, SampleMaker } from "./samples.js";

/** What comparing a protocol's generated functions with the reference validator found. */
export interface Comparison {
  /** Documents on which the two disagree, described. */
  readonly disagreements: readonly string[];
  /** Types for which too few valid or invalid documents could be made. */
  readonly tooFew: readonly string[];
  /** Valid documents in a wire form: `isT` rejects them, decoding makes them canonical. */
  readonly wireForms: number;
  /** Valid documents carrying a proto enum's integer that names none of its values. */
  readonly unnamedNumbers: number;
  /** Documents the reference judges wrongly, by the known fault `referenceFaults` names. */
  readonly referenceFaults: number;
}

/** What the reference validator needs of an ajv instance. */
interface Validator {
  addSchema(schema: object, key: string): unknown;
  compile(schema: object): (document: unknown) => boolean;
}

/**
 * The reference validator: ajv on the effective schema, each type compiled by its
 * pointer. ajv reads properties through the prototype chain, so `required:
 * ["constructor"]` finds the inherited one, and it drops a declared property named
 * "__proto__". A property's name means nothing but itself, so names every object inherits
 * are renamed, alike in the schema and in each document, before ajv sees them.
 */
export function referenceValidator(effective: object, ajv: Validator): (type: string) => (document: unknown) => boolean {
  const compile = renamedReference(effective, ajv);
  return (type) => {
    const compiled = compile(type);
    return (document) => compiled(renamedDocument(document));
  };
}

/**
 * The reference validator on documents already renamed with `renamedDocument`, for a
 * caller that renames only what needs it: renaming copies a document whole, with a
 * recursion as deep as it nests.
 */
export function renamedReference(effective: object, ajv: Validator): (type: string) => (renamed: unknown) => boolean {
  ajv.addSchema(renameInherited(effective, "schema") as object, "effective");
  return (type) => ajv.compile({ $ref: `effective#/$defs/${encodeURIComponent(type)}` });
}

/** A document as the reference validator reads it: a copy with every key an object inherits renamed. */
export function renamedDocument(document: unknown): unknown {
  return renameInherited(document, "document");
}

const RENAMED = "\u0001renamed:";

/**
 * A copy with every name an object inherits renamed: in a document, every key; in a
 * schema, the keys of `properties` and the names `required` lists.
 */
function renameInherited(value: unknown, kind: "schema" | "document", inProperties = false): unknown {
  const rename = (name: string) => (name in Object.prototype ? `${RENAMED}${name}` : name);
  if (Array.isArray(value)) return value.map((item) => renameInherited(item, kind));
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.keys(value).map((key) => {
      const item = (value as Record<string, unknown>)[key];
      if (kind === "document") return [rename(key), renameInherited(item, kind)];
      if (inProperties) return [rename(key), renameInherited(item, kind)];
      if (key === "required" && Array.isArray(item)) return [key, item.map((name) => (typeof name === "string" ? rename(name) : name))];
      return [key, renameInherited(item, kind, key === "properties")];
    }),
  );
}

/**
 * A fault of ajv with no way around by renaming: for `uniqueItems` over strings it counts
 * items in a plain object, where "__proto__" is no key, so two "__proto__" items pass.
 */
export function hasRepeatedProtoItem(document: unknown): boolean {
  if (Array.isArray(document)) return document.filter((item) => item === "__proto__").length > 1 || document.some(hasRepeatedProtoItem);
  if (typeof document === "object" && document !== null) return Object.values(document).some(hasRepeatedProtoItem);
  return false;
}

/**
 * Differential test of every named type: on `samples` valid and `samples` invalid
 * documents made from the IR with a fixed seed, the generated code and the reference
 * validator agree:
 *
 * - `decodeT` in strict mode accepts exactly what the reference accepts;
 * - `isT` does too, except for documents in a wire form (an enum's number, a snake_case
 *   alias, digits for an int32), which it rejects because they are not the canonical
 *   form: there, decoding turns them into a value `isT` accepts;
 * - `validateT` is `isT` with reasons: ok exactly when `isT` is true, else errors.
 */
export function compareWithReference(
  ir: Ir,
  functions: (type: string) => TypeFunctions,
  reference: (type: string) => (document: unknown) => boolean,
  samples = 200,
): Comparison {
  const attempts = samples * 20;
  const disagreements: string[] = [];
  const tooFew: string[] = [];
  let wireForms = 0;
  let unnamedNumbers = 0;
  let referenceFaults = 0;
  for (const [index, type] of ir.types.entries()) {
    const expect = reference(type.name);
    const { is, validate, decode } = functions(type.name);
    const maker = new SampleMaker(ir, new Random(0x5eed + index));
    const valid: JsonValue[] = [];
    let invalid = 0;
    const judge = (document: JsonValue) => {
      const expected = expect(document);
      const guarded = is(document);
      const validated = validate(document);
      const decoded = decode(document);
      const show = `${type.name} ${JSON.stringify(document)}`;
      if (expected && !guarded && !decoded.ok && hasRepeatedProtoItem(document)) {
        referenceFaults++;
        return;
      }
      // Pinned in test/emit/decode.test.ts: a proto enum's integer that names none of its values is unrecognized.
      const unnamedNumber =
        expected &&
        !decoded.ok &&
        decoded.unrecognized &&
        decoded.errors.every((error) => error.keyword === "unrecognized" && Number.isInteger(at(document, error.path)));
      if (unnamedNumber) unnamedNumbers++;
      else if (decoded.ok !== expected) disagreements.push(`decode ${show}: ${decoded.ok}, reference: ${expected}`);
      if (validated.ok !== guarded || (!validated.ok && validated.errors.length === 0)) disagreements.push(`validate ${show} is not is`);
      if (guarded !== expected && !unnamedNumber) {
        if (expected && decoded.ok && is(decoded.value) && JSON.stringify(decoded.value) !== JSON.stringify(document)) wireForms++;
        else disagreements.push(`is ${show}: ${guarded}, reference: ${expected}`);
      }
      if (expected && valid.length < samples) valid.push(document);
      if (!expected) invalid++;
    };
    for (let attempt = 0; attempt < attempts && (valid.length < samples || invalid < samples); attempt++) {
      const made = maker.valid(type.shape);
      if (made === undefined) continue;
      judge(roundTrip(made));
      const base = valid.length > 0 ? valid[attempt % valid.length]! : made;
      judge(roundTrip(maker.mutate(base, type.shape)));
    }
    if (valid.length < samples || invalid < samples) tooFew.push(`${type.name}: ${valid.length} valid, ${invalid} invalid`);
  }
  return { disagreements, tooFew, wireForms, unnamedNumbers, referenceFaults };
}

/** The value at a JSON Pointer. */
function at(document: JsonValue, pointer: string): unknown {
  let node: unknown = document;
  for (const token of pointer.split("/").slice(1))
    node = (node as Record<string, unknown>)?.[token.replaceAll("~1", "/").replaceAll("~0", "~")];
  return node;
}

/** As a document arrives: through JSON text, so "__proto__" is an own property. */
function roundTrip(value: JsonValue): JsonValue {
  return JSON.parse(JSON.stringify(value)) as JsonValue;
}
