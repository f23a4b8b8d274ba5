import type { Field, Ir, KeyedUnionShape, Shape } from "../../generator/ir/model.js";
import type { JsonObject, JsonPrimitive, JsonValue } from "../../generator/json.js";

/**
 * Documents for differential tests, made from the IR with a seeded random source so that
 * a failure reproduces: valid documents in the canonical form, and mutations of them
 * that are meant to be invalid (the reference validator decides whether they are).
 */

/** A small, fast, seeded random source (mulberry32). */
export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }
}

/** Strings to draw from: short, empty, non-ASCII, and the shapes patterns often want. */
const STRINGS = [
  "",
  "a",
  "hello world",
  "/a/b",
  "/a~0b/c~1d",
  "/",
  "aGVsbG8=",
  "QUJD",
  "-12",
  "0",
  "42",
  "2026-11-30T10:00:00Z",
  "https://example.com/a?b=c",
  "é😀 unicode",
  'quote " and \\ backslash',
  "line\nbreak",
  "__proto__",
  "constructor",
];

/** Strings in the shapes patterns ask for, tried when none of the above fits. */
const SHAPED_STRINGS = ["2014-06-29", "2023-04", "2014", "12:30:00", "1.0.0", "en-US", "user@example.com", "0123456789abcdef", "ABC_123"];

const MAX_DEPTH = 6;

export class SampleMaker {
  private readonly shapes: ReadonlyMap<string, Shape>;

  constructor(
    ir: Ir,
    private readonly random: Random,
  ) {
    this.shapes = new Map(ir.types.map((type) => [type.name, type.shape]));
  }

  shapeOf(name: string): Shape {
    return this.shapes.get(name)!;
  }

  /** A value of the shape, in the canonical form; undefined when none can be made here. */
  valid(shape: Shape, depth = 0): JsonValue | undefined {
    const random = this.random;
    switch (shape.kind) {
      case "ref":
        return depth > MAX_DEPTH ? undefined : this.valid(this.shapeOf(shape.name), depth + 1);
      case "unknown":
        return this.anyJson(depth);
      case "never":
        return undefined;
      case "literal":
        return shape.value;
      case "enum":
        return random.pick(shape.values);
      case "boolean":
        return random.chance(0.5);
      case "null":
        return null;
      case "string":
        return this.string(shape);
      case "number":
        return this.number(shape);
      case "array": {
        const min = shape.minItems ?? 0;
        const closed = shape.items.kind === "never" ? (shape.prefixItems?.length ?? 0) : Infinity;
        const max = Math.min(shape.maxItems ?? min + 3, min + 3, closed);
        const items: JsonValue[] = [];
        const length = depth > MAX_DEPTH ? min : random.int(min, max);
        for (let i = 0; i < length; i++) {
          const item = this.valid(shape.prefixItems?.[i] ?? shape.items, depth + 1);
          if (item === undefined) return min === 0 ? [] : undefined;
          items.push(item);
        }
        return items;
      }
      case "map": {
        const values: Record<string, JsonValue> = {};
        const count = depth > MAX_DEPTH ? 0 : random.int(shape.minProperties ?? 0, Math.max(shape.minProperties ?? 0, 2));
        for (let i = 0; i < count; i++) {
          const value = this.valid(shape.values, depth + 1);
          // As JSON.parse makes it: "__proto__" becomes an own property, not the prototype.
          if (value !== undefined)
            Object.defineProperty(values, random.pick(["k", "key two", "__proto__", "x", String(i)]), {
              value,
              enumerable: true,
              writable: true,
              configurable: true,
            });
        }
        return values;
      }
      case "object":
        return this.object(shape.fields, shape.additional, depth);
      case "keyed-union":
        return this.keyed(shape, depth);
      case "nullable":
        return random.chance(0.3) ? null : this.valid(shape.shape, depth);
      case "union":
        return this.valid(random.pick(shape.members), depth);
      case "tagged-union":
        return this.valid(random.pick(shape.members).shape, depth);
    }
  }

  private string(shape: Shape & { kind: "string" }): string | undefined {
    const length = (text: string) => [...text].length;
    const fits = (text: string) =>
      length(text) >= (shape.minLength ?? 0) &&
      length(text) <= (shape.maxLength ?? Infinity) &&
      (shape.patterns ?? []).every((pattern) => new RegExp(pattern, "u").test(text));
    const candidates = STRINGS.filter(fits);
    if (candidates.length > 0) return this.random.pick(candidates);
    const shaped = SHAPED_STRINGS.filter(fits);
    if (shaped.length > 0) return this.random.pick(shaped);
    const padded = "x".repeat(shape.minLength ?? 0);
    return fits(padded) ? padded : undefined;
  }

  private number(shape: Shape & { kind: "number" }): number {
    const low = Math.max(shape.minimum ?? -1000, shape.exclusiveMinimum === undefined ? -Infinity : shape.exclusiveMinimum + 1);
    const high = Math.min(shape.maximum ?? 1000, shape.exclusiveMaximum === undefined ? Infinity : shape.exclusiveMaximum - 1);
    const random = this.random;
    const pick = random.chance(0.2) ? random.pick([low, high]) : random.int(Math.max(low, -1000), Math.min(high, 1000));
    const value = shape.integer || random.chance(0.5) ? pick : Math.min(high, pick + 0.5);
    return shape.multipleOf === undefined ? value : Math.round(value / shape.multipleOf) * shape.multipleOf;
  }

  private object(fields: readonly Field[], additional: Shape, depth: number): JsonObject | undefined {
    const random = this.random;
    const object: Record<string, JsonValue> = {};
    for (const field of fields) {
      if (!field.required && (depth > MAX_DEPTH || random.chance(0.5))) continue;
      const value = this.valid(field.shape, depth + 1);
      if (value === undefined) {
        if (field.required) return undefined;
        continue;
      }
      // As JSON.parse makes it: "__proto__" becomes an own property, not the prototype.
      Object.defineProperty(object, field.name, { value, enumerable: true, writable: true, configurable: true });
    }
    if (additional.kind !== "never" && random.chance(0.2)) {
      const extra = this.valid(additional, depth + 1);
      if (extra !== undefined && !fields.some((field) => field.name === "extraProperty")) object["extraProperty"] = extra;
    }
    return object;
  }

  private keyed(shape: KeyedUnionShape, depth: number): JsonObject | undefined {
    return this.variant(shape, this.random.pick(shape.members), depth);
  }

  /** A value of the keyed union with this member present. */
  variant(shape: KeyedUnionShape, member: Field, depth = 0): JsonObject | undefined {
    return this.object([{ ...member, required: true }, ...shape.fields], shape.additional, depth);
  }

  private anyJson(depth: number): JsonValue {
    const random = this.random;
    switch (depth > MAX_DEPTH ? random.int(0, 3) : random.int(0, 5)) {
      case 0:
        return null;
      case 1:
        return random.int(-5, 5);
      case 2:
        return random.pick(STRINGS);
      case 3:
        return random.chance(0.5);
      case 4:
        return [this.anyJson(depth + 1)];
      default:
        return { [random.pick(["a", "b", "__proto__"])]: this.anyJson(depth + 1) };
    }
  }

  /**
   * A mutation of a valid document meant to make it invalid: somewhere in it, a required
   * field dropped, a value of the wrong type or null, an unknown key on a closed object,
   * an unknown tag, a second member of a keyed union, an integer out of range, a string
   * against its pattern, an array shorter than its minimum.
   */
  mutate(document: JsonValue, shape: Shape): JsonValue {
    const sites: (() => JsonValue)[] = [];
    this.collect(document, shape, (replace) => sites.push(replace), 0);
    return sites.length === 0 ? document : this.random.pick(sites)();
  }

  /** Offers each way to break `value` (as a function returning the whole new document) to `offer`. */
  private collect(
    value: JsonValue,
    shape: Shape,
    offer: (mutate: () => JsonValue) => void,
    depth: number,
    rebuild: (replacement: JsonValue) => JsonValue = (v) => v,
  ): void {
    const random = this.random;
    const resolved = this.resolve(shape);
    offer(() => rebuild(wrongType(value, random)));
    if (!jsonTypesAllowNull(resolved, this)) offer(() => rebuild(null));
    if (depth > MAX_DEPTH) return;
    switch (resolved.kind) {
      case "string":
        if (resolved.patterns !== undefined) offer(() => rebuild("no match for this pattern: ~2 \n"));
        if (resolved.minLength !== undefined && resolved.minLength > 0) offer(() => rebuild(""));
        return;
      case "number":
        if (resolved.maximum !== undefined) offer(() => rebuild(resolved.maximum! + 1));
        if (resolved.minimum !== undefined) offer(() => rebuild(resolved.minimum! - 1));
        if (resolved.integer) offer(() => rebuild(1.5));
        return;
      case "enum":
      case "literal":
        offer(() => rebuild("NOT_A_KNOWN_VALUE"));
        return;
      case "array":
        if (!Array.isArray(value)) return;
        if ((resolved.minItems ?? 0) > 0) offer(() => rebuild([]));
        value.forEach((item, i) =>
          this.collect(item, resolved.prefixItems?.[i] ?? resolved.items, offer, depth + 1, (replacement) =>
            rebuild(value.map((old, j) => (j === i ? replacement : old))),
          ),
        );
        return;
      case "map":
        if (!isObject(value)) return;
        for (const key of Object.keys(value))
          this.collect(value[key]!, resolved.values, offer, depth + 1, (replacement) => rebuild({ ...value, [key]: replacement }));
        return;
      case "nullable":
        this.collect(value, resolved.shape, offer, depth, rebuild);
        return;
      case "union":
        return;
      case "tagged-union": {
        if (!isObject(value)) return;
        offer(() => rebuild({ ...value, [resolved.tag]: "UNKNOWN_TAG" }));
        const member = resolved.members.find((candidate) => candidate.value === value[resolved.tag]);
        if (member !== undefined) this.collect(value, member.shape, offer, depth, rebuild);
        return;
      }
      case "object":
      case "keyed-union": {
        if (!isObject(value)) return;
        const fields = resolved.kind === "object" ? resolved.fields : [...resolved.members, ...resolved.fields];
        if (resolved.additional.kind === "never") offer(() => rebuild({ ...value, unknownProperty: 1 }));
        for (const field of fields) {
          if (field.required && field.name in value) offer(() => rebuild(without(value, field.name)));
          if (field.name in value)
            this.collect(value[field.name]!, field.shape, offer, depth + 1, (replacement) =>
              rebuild({ ...value, [field.name]: replacement }),
            );
        }
        if (resolved.kind === "keyed-union") {
          const absent = resolved.members.find((member) => !(member.name in value));
          const extra = absent === undefined ? undefined : this.valid(absent.shape, depth + 1);
          if (absent !== undefined && extra !== undefined) offer(() => rebuild({ ...value, [absent.name]: extra }));
          const present = resolved.members.find((member) => member.name in value);
          if (present !== undefined) offer(() => rebuild(without(value, present.name)));
        }
        return;
      }
      default:
        return;
    }
  }

  private resolve(shape: Shape): Shape {
    return shape.kind === "ref" ? this.resolve(this.shapeOf(shape.name)) : shape;
  }
}

function jsonTypesAllowNull(shape: Shape, maker: SampleMaker): boolean {
  switch (shape.kind) {
    case "unknown":
    case "null":
    case "nullable":
      return true;
    case "ref":
      return jsonTypesAllowNull(maker.shapeOf(shape.name), maker);
    case "literal":
      return shape.value === null;
    case "enum":
      return shape.values.includes(null);
    case "union":
      return shape.members.some((member) => jsonTypesAllowNull(member, maker));
    default:
      return false;
  }
}

function isObject(value: JsonValue): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function without(object: JsonObject, key: string): JsonObject {
  const copy: Record<string, JsonValue> = {};
  for (const name of Object.keys(object)) if (name !== key) copy[name] = object[name]!;
  return copy;
}

/** A value of another JSON type than `value`'s. */
function wrongType(value: JsonValue, random: Random): JsonValue {
  const others: JsonPrimitive[] | JsonValue[] = [
    ...(typeof value === "string" ? [] : ["a string"]),
    ...(typeof value === "number" ? [] : [7]),
    ...(typeof value === "boolean" ? [] : [true]),
    ...(Array.isArray(value) ? [] : [[1]]),
    ...(isObject(value) ? [] : [{ a: 1 }]),
  ];
  return random.pick(others);
}

/**
 * A canonical document in one of its wire forms: each aliased field under its alias, each
 * proto enum value as its number, each wire int32 as digits, a field absent as null where
 * null is absence, where `random` says so.
 * Returns the document unchanged when no wire form applies.
 */
export function toWireForm(document: JsonValue, shape: Shape, maker: SampleMaker, random: Random): JsonValue {
  const resolved = shape.kind === "ref" ? maker.shapeOf(shape.name) : shape;
  switch (resolved.kind) {
    case "enum": {
      const number = resolved.wire?.numbers?.[String(document)];
      return number !== undefined && random.chance(0.5) ? number : document;
    }
    case "number":
      return resolved.wire !== undefined && typeof document === "number" && random.chance(0.5) ? String(document) : document;
    case "nullable":
      return document === null ? null : toWireForm(document, resolved.shape, maker, random);
    case "array":
      return Array.isArray(document)
        ? document.map((item, i) => toWireForm(item, resolved.prefixItems?.[i] ?? resolved.items, maker, random))
        : document;
    case "map":
      if (!isObject(document)) return document;
      return mapEntries(document, (key, value) => [key, toWireForm(value, resolved.values, maker, random)]);
    case "tagged-union": {
      if (!isObject(document)) return document;
      const member = resolved.members.find((candidate) => candidate.value === document[resolved.tag]);
      return member === undefined ? document : toWireForm(document, member.shape, maker, random);
    }
    case "object":
    case "keyed-union": {
      if (!isObject(document)) return document;
      const fields = resolved.kind === "object" ? resolved.fields : [...resolved.members, ...resolved.fields];
      const wire = mapEntries(document, (key, value) => {
        const field = fields.find((candidate) => candidate.name === key);
        if (field === undefined) return [key, value];
        const alias = field.aliases?.[0];
        return [alias !== undefined && random.chance(0.5) ? alias : key, toWireForm(value, field.shape, maker, random)];
      });
      // A field absent may arrive as null, under any of its names, where null is absence.
      for (const field of fields)
        if (field.nullIsAbsent && !Object.hasOwn(document, field.name) && random.chance(0.3)) {
          const name = random.pick([field.name, ...(field.aliases ?? [])]);
          Object.defineProperty(wire, name, { value: null, enumerable: true, writable: true, configurable: true });
        }
      return wire;
    }
    default:
      return document;
  }
}

function mapEntries(object: JsonObject, map: (key: string, value: JsonValue) => [string, JsonValue]): JsonObject {
  const copy: Record<string, JsonValue> = {};
  for (const key of Object.keys(object)) {
    const [name, value] = map(key, object[key]!);
    Object.defineProperty(copy, name, { value, enumerable: true, writable: true, configurable: true });
  }
  return copy;
}
