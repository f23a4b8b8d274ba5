import type { Expression, Name, Statement } from "../code/tree.js";
import {
  and,
  binary,
  call,
  conditional,
  constant,
  CONTINUE,
  forIn,
  identifier,
  ifThen,
  index,
  literal,
  member,
  not,
  or,
  typeOf as typeOfValue,
  UNDEFINED,
} from "../code/build.js";
import { ThroughRefs } from "../ir/graph.js";
import type { Field, Shape } from "../ir/model.js";
import type { JsonValue } from "../json.js";
import type { RuntimeValue } from "./templates.js";

/** A name every object inherits from Object.prototype, which a plain read would find there. */
export function isPrototypeName(name: string): boolean {
  return name in Object.prototype;
}

/**
 * Reading a property of a JSON object: `subject.name`, `subject["odd name"]`, or, for a
 * name every object inherits, `own(subject, "constructor")`, which reads only the
 * object's own property.
 */
export function access(subject: Expression, name: string, own: () => Expression): Expression {
  return isPrototypeName(name) ? call(own(), [subject, literal(name)]) : member(subject, name);
}

/**
 * A loop over an object's properties as JSON.stringify reads them: its own, and one whose
 * value is undefined is absent. Each value is read into `property` before `body`. V8
 * folds this form of the own test into the loop; `Object.hasOwn` it calls.
 */
export function forEachProperty(subject: Expression, key: Name, property: Name, body: readonly Statement[]): Statement {
  return forIn(key, subject, [
    ifThen(not(call(HAS_OWN_PROPERTY, [subject, key])), CONTINUE),
    constant(property, index(subject, key)),
    ifThen(binary(property, "===", UNDEFINED), CONTINUE),
    ...body,
  ]);
}

const HAS_OWN_PROPERTY = member(member(member(identifier("Object"), "prototype"), "hasOwnProperty"), "call");

/**
 * The tag of a tagged union, to switch on: `subject`'s own property `tag`, else undefined,
 * never one a prototype lends. One look-up, read at each place (its inline cache sees
 * that place's objects), whatever the number of the object's properties: a walk of the
 * keys would cost a million steps before the first on an object of a million keys, which
 * V8 lists in full before a loop begins. Whether the tag is enumerable, and so there as
 * JSON writes it, the member's own loop says: it requires its tag and sees only what JSON
 * writes. An array is no member: its check refuses it.
 */
export function ownTag(subject: Expression, tag: string, runtime: (name: RuntimeValue) => Expression): Expression {
  return conditional(
    and([call(runtime("isRecord"), [subject]), call(HAS_OWN_PROPERTY, [subject, literal(tag)])]),
    member(subject, tag),
    UNDEFINED,
  );
}

/** `typeof subject.toJSON === "function"`: whether JSON.stringify writes what the method returns instead. */
function hasToJson(subject: Expression): Expression {
  return binary(typeOfValue(member(subject, "toJSON")), "===", literal("function"));
}

/**
 * The test that `subject` is not an object JSON.stringify writes as one: no record, a
 * record with a `toJSON` method (a Date), or, where one could pass (`boxMayPass`), a boxed
 * primitive: an object with no properties but a string's indices. `toJSON` is read in the
 * generated code itself, not in the runtime, so that each place keeps its own inline
 * cache of the objects it sees: a shared one would see them all.
 */
export function notJsonObject(subject: Expression, runtime: (name: RuntimeValue) => Expression, boxMayPass: boolean): Expression {
  return or(jsonObjectParts(subject, runtime, boxMayPass).map((part) => part.fails));
}

/** The test that JSON.stringify writes `subject` as an object: `notJsonObject`'s, the other way round. */
export function isJsonObjectTest(subject: Expression, runtime: (name: RuntimeValue) => Expression, boxMayPass: boolean): Expression {
  return and(jsonObjectParts(subject, runtime, boxMayPass).map((part) => part.holds));
}

/** What being an object to JSON takes, each part as the test that it holds and the test that it fails. */
function jsonObjectParts(
  subject: Expression,
  runtime: (name: RuntimeValue) => Expression,
  boxMayPass: boolean,
): readonly { holds: Expression; fails: Expression }[] {
  const record = call(runtime("isRecord"), [subject]);
  const box = call(runtime("isBoxed"), [subject]);
  return [
    { holds: record, fails: not(record) },
    { holds: binary(typeOfValue(member(subject, "toJSON")), "!==", literal("function")), fails: hasToJson(subject) },
    ...(boxMayPass ? [{ holds: not(box), fails: box }] : []),
  ];
}

/** The test that `subject` is not an array JSON.stringify writes as one: no array, or one with a `toJSON` method. */
export function notJsonArray(subject: Expression, runtime: (name: RuntimeValue) => Expression): Expression {
  return or([not(call(runtime("isArray"), [subject])), hasToJson(subject)]);
}

/**
 * Whether a boxed primitive could pass as an object of these fields: it has no properties
 * of its own but a string's indices, so only when every required field's name is an index
 * and, if one of some `members` must be there, one of theirs is.
 */
export function boxMayPassFields(fields: readonly Field[], members: readonly Field[] = []): boolean {
  return (
    fields.every((field) => !field.required || isArrayIndex(field.name)) &&
    (members.length === 0 || members.some((member) => isArrayIndex(member.name)))
  );
}

/** Whether a property name is one a string's box has: "0", "1", … */
export function isArrayIndex(name: string): boolean {
  return /^(?:0|[1-9][0-9]*)$/.test(name);
}

export type JsonType = "string" | "number" | "boolean" | "null" | "array" | "object";
const ALL: readonly JsonType[] = ["string", "number", "boolean", "null", "array", "object"];

/** The JSON types a value of the shape can have. */
export function jsonTypes(shape: Shape, shapes: ReadonlyMap<string, Shape>): ReadonlySet<JsonType> {
  const named = perShapes(jsonTypesOfNamed, shapes, () => new ThroughRefs<ReadonlySet<JsonType>>(new Set(ALL)));
  const of = (shape: Shape): ReadonlySet<JsonType> => {
    switch (shape.kind) {
      case "unknown":
        return new Set(ALL);
      case "never":
        return new Set();
      case "ref":
        return named.follow(shape.name, () => of(shapes.get(shape.name)!));
      case "literal":
        return new Set([typeOf(shape.value)]);
      case "enum":
        return new Set(shape.values.map(typeOf));
      case "string":
      case "number":
      case "boolean":
      case "null":
      case "array":
        return new Set([shape.kind]);
      case "object":
      case "map":
      case "tagged-union":
      case "keyed-union":
        return new Set(["object"]);
      case "nullable":
        return new Set([...of(shape.shape), "null"]);
      case "constrained":
        // At most the shape's: the constraints only narrow.
        return of(shape.shape);
      case "union":
        return new Set(shape.members.flatMap((member) => [...of(member)]));
    }
  };
  return of(shape);
}

/** What `jsonTypes` and `acceptsAnything` found for named types, per map of shapes (one per emitter). */
const jsonTypesOfNamed = new WeakMap<ReadonlyMap<string, Shape>, ThroughRefs<ReadonlySet<JsonType>>>();
const acceptsAnythingNamed = new WeakMap<ReadonlyMap<string, Shape>, ThroughRefs<boolean>>();

function perShapes<T>(memo: WeakMap<ReadonlyMap<string, Shape>, T>, shapes: ReadonlyMap<string, Shape>, make: () => T): T {
  let found = memo.get(shapes);
  if (found === undefined) memo.set(shapes, (found = make()));
  return found;
}

function typeOf(value: JsonValue): JsonType {
  if (value === null) return "null";
  if (typeof value === "object") return Array.isArray(value) ? "array" : "object";
  return typeof value as "string" | "number" | "boolean";
}

/** Whether the shape accepts `undefined` as a value, so that a required field needs its own presence check. */
export function acceptsAnything(shape: Shape, shapes: ReadonlyMap<string, Shape>): boolean {
  const named = perShapes(acceptsAnythingNamed, shapes, () => new ThroughRefs(false));
  const accepts = (shape: Shape): boolean => {
    switch (shape.kind) {
      case "unknown":
        return true;
      case "ref":
        return named.follow(shape.name, () => accepts(shapes.get(shape.name)!));
      case "nullable":
        return accepts(shape.shape);
      case "union":
        return shape.members.some(accepts);
      default:
        return false;
    }
  };
  return accepts(shape);
}
