import fc from "fast-check";
import type { JsonObject, JsonValue } from "../../generator/json.js";
import type { TypeFunctions } from "./generated.js";
import { Random } from "./samples.js";

/**
 * The rule that guards agree with the wire, checked on one JavaScript value, and the
 * values to check it on: any value fast-check makes, and valid documents written again
 * as JavaScript values that JSON.stringify writes differently.
 */

/** What JSON.stringify makes of a value, read back; undefined when it writes nothing. */
function throughJson(value: unknown): unknown {
  const text = JSON.stringify(value);
  return text === undefined ? undefined : JSON.parse(text);
}

/** How a value breaks the rule, if it does: one line per problem. */
export function breaches(functions: TypeFunctions, reference: (document: unknown) => boolean, value: unknown): string[] {
  const { is, validate, decode } = functions;
  const found: string[] = [];
  const accepted = is(value);
  const validated = validate(value);
  if (validated.ok !== accepted) found.push(`validate says ${validated.ok}, is says ${accepted}`);
  if (!validated.ok && validated.errors.length === 0) found.push("validate refuses without a reason");
  const decoded = decode(value);
  if (decoded.ok && !is(decoded.value)) found.push("decode returns a value is refuses");
  if (!decoded.ok && decoded.errors.length === 0) found.push("decode refuses without a reason");
  if (accepted && !(decoded.ok && JSON.stringify(decoded.value) === JSON.stringify(value)))
    found.push("decode does not return what is accepts, as it was");
  // Decoding accepts more than is only by reading a wire form into the canonical one.
  if (decoded.ok && !accepted && JSON.stringify(decoded.value) === JSON.stringify(value)) found.push("decode accepts what is refuses");
  const tolerant = decode(value, { mode: "tolerant" });
  if (tolerant.ok && !is(tolerant.value)) found.push("tolerant decode returns a value is refuses");
  if (accepted) {
    const wire = throughJson(value);
    if (wire === undefined) found.push("is accepts what JSON cannot write");
    else {
      if (!reference(wire)) found.push(`the reference refuses it sent as JSON: ${JSON.stringify(wire)}`);
      if (!is(wire)) found.push(`is refuses it sent as JSON: ${JSON.stringify(wire)}`);
    }
  }
  return found;
}

/** Keys that trip up careless readers, and the tags and fields the protocols use. */
const KEYS = fc.oneof(
  fc.constantFrom("__proto__", "constructor", "toString", "toJSON", "valueOf", "type", "method", "task", "data", "messageId", "0", ""),
  fc.string({ maxLength: 4 }),
);

/** Any JavaScript value fast-check makes: boxes, Maps, Sets, Dates, null prototypes, sparse and typed arrays. */
export const anyJavaScript = fc.anything({
  key: KEYS,
  maxDepth: 3,
  maxKeys: 4,
  withBoxedValues: true,
  withMap: true,
  withSet: true,
  withDate: true,
  withNullPrototype: true,
  withSparseArray: true,
  withTypedArray: true,
  withObjectString: true,
});

const SYMBOL = Symbol("agentwire");
class Thing {}

/** Ways to write a JSON object again as a JavaScript value that JSON.stringify may write differently. */
const OBJECT_SPOILS: Record<string, (object: Record<string, unknown>, random: Random) => unknown> = {
  "a property undefined": (object, random) => ({ ...object, [pickKey(object, random) ?? "extra"]: undefined }),
  "an unknown property undefined": (object) => ({ ...object, "extra property": undefined }),
  "properties on a prototype": (object, random) => {
    const [inherited, own] = split(object, random);
    return Object.assign(Object.create(inherited) as object, own);
  },
  "properties on a prototype without a prototype": (object, random) => {
    const [inherited, own] = split(object, random);
    return Object.assign(Object.create(Object.assign(Object.create(null) as object, inherited)) as object, own);
  },
  "a null prototype": (object) => Object.assign(Object.create(null) as object, object),
  "a property not enumerable": (object, random) => {
    const copy = { ...object };
    const key = pickKey(copy, random);
    if (key !== undefined) Object.defineProperty(copy, key, { enumerable: false });
    return copy;
  },
  "an extra property not enumerable": (object) => Object.defineProperty({ ...object }, "extra", { value: 1, enumerable: false }),
  "a symbol key": (object) => ({ ...object, [SYMBOL]: 1 }),
  "a getter": (object, random) => {
    const copy = { ...object };
    const key = pickKey(copy, random);
    if (key !== undefined) Object.defineProperty(copy, key, { get: () => object[key], enumerable: true, configurable: true });
    return copy;
  },
  "a toJSON method": (object) => Object.defineProperty({ ...object }, "toJSON", { value: () => "elsewhere" }),
  "a Date": (object) => Object.assign(new Date(0), object),
  "a Map": (object) => Object.assign(new Map(), object),
  "a class instance": (object) => Object.assign(new Thing(), object),
  "a function in a property": (object, random) => ({ ...object, [pickKey(object, random) ?? "extra"]: () => 1 }),
  "a symbol in a property": (object, random) => ({ ...object, [pickKey(object, random) ?? "extra"]: SYMBOL }),
  "a boxed number": () => new Number(1),
  "a boxed empty string": () => new String(""),
};

const ARRAY_SPOILS: Record<string, (array: unknown[], random: Random) => unknown> = {
  "a hole": (array, random) => {
    const copy = [...array];
    if (copy.length === 0) copy.length = 1;
    else delete copy[random.int(0, copy.length - 1)];
    return copy;
  },
  "a longer length": (array) => {
    const copy = [...array];
    copy.length += 1;
    return copy;
  },
  "a toJSON method": (array) => Object.defineProperty([...array], "toJSON", { value: () => "elsewhere" }),
};

const PRIMITIVE_SPOILS: Record<string, (value: string | number | boolean | null) => unknown> = {
  NaN: (value) => (typeof value === "number" ? NaN : value),
  Infinity: (value) => (typeof value === "number" ? -Infinity : value),
  "-0": (value) => (value === 0 ? -0 : value),
  "a box": (value) => (value === null ? undefined : Object(value)),
  undefined: () => undefined,
};

function pickKey(object: object, random: Random): string | undefined {
  const keys = Object.keys(object);
  return keys.length === 0 ? undefined : random.pick(keys);
}

function split(object: Record<string, unknown>, random: Random): [Record<string, unknown>, Record<string, unknown>] {
  const inherited: Record<string, unknown> = {};
  const own: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(object)) (random.chance(0.5) ? inherited : own)[key] = value;
  return [inherited, own];
}

/** Every place in a document: a way to replace what is there. */
function places(document: JsonValue, replace: (value: unknown) => unknown): { value: JsonValue; replace: (value: unknown) => unknown }[] {
  const found = [{ value: document, replace }];
  if (Array.isArray(document))
    document.forEach((item, i) => found.push(...places(item, (value) => replace(document.map((other, j) => (j === i ? value : other))))));
  else if (typeof document === "object" && document !== null)
    for (const [key, item] of Object.entries(document))
      found.push(...places(item, (value) => replace(Object.assign(Object.create(null) as object, { ...document, [key]: value }))));
  return found;
}

/** A document spoiled in one place, by one of the spoils; its name says how. */
export function spoiled(document: JsonValue, random: Random): [string, unknown] {
  // The place's ancestors are copied without a prototype, so that a "__proto__" key stays
  // a key, and then given Object.prototype again by toPlain.
  const place = random.pick(places(document, (value) => value));
  const value = place.value;
  const rebuild = (replacement: unknown) => toPlain(place.replace(replacement), replacement);
  if (Array.isArray(value)) {
    const name = random.pick(Object.keys(ARRAY_SPOILS));
    return [`${name} (array)`, rebuild(ARRAY_SPOILS[name]!(value, random))];
  }
  if (typeof value === "object" && value !== null) {
    const name = random.pick(Object.keys(OBJECT_SPOILS));
    return [name, rebuild(OBJECT_SPOILS[name]!(value as JsonObject, random))];
  }
  const name = random.pick(Object.keys(PRIMITIVE_SPOILS));
  return [name, rebuild(PRIMITIVE_SPOILS[name]!(value))];
}

/** The copies `places` made, with Object.prototype again, except the spoiled value itself. */
function toPlain(value: unknown, keep: unknown): unknown {
  if (value === keep || typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) return value.map((item: unknown) => toPlain(item, keep));
  if (Object.getPrototypeOf(value) !== null) return value;
  const plain: Record<string, unknown> = {};
  for (const key of Object.keys(value))
    Object.defineProperty(plain, key, {
      value: toPlain((value as Record<string, unknown>)[key], keep),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  return plain;
}
