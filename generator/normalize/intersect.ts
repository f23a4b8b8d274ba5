import type { JsonObject, JsonValue } from "../json.js";
import { isJsonObject, jsonEqual } from "../json.js";
import type { ArrayShape, Constraint, Evaluated, EnumShape, Field, NumberShape, ObjectShape, Shape, StringShape } from "../ir/model.js";
import { describe } from "../ir/describe.js";
import { admits, passes } from "../keywords/index.js";
import { arrayChecks, meetArrays } from "../keywords/arrays.js";
import { meetFormat } from "../keywords/format.js";
import { meetNumbers, multipleOfBeside } from "../keywords/numbers.js";
import { meetProperties, propertyChecks } from "../keywords/properties.js";
import { meetStrings } from "../keywords/strings.js";
import { narrowValues } from "../keywords/values.js";
import { mergeDocs } from "./docs.js";

/** What intersection needs from normalization (its context): the shape behind a name, and a way to refuse. */
export interface ShapeLookup {
  shapeOf(name: string): Shape;
  /** Whether a name's shape is still being read: a type met with something inside itself. */
  isExpanding(name: string): boolean;
  unsupported(problem: string): never;
}

const NEVER: Shape = { kind: "never" };
const UNKNOWN: Shape = { kind: "unknown" };

/**
 * The shape of values that satisfy both shapes, as `allOf` composes them. Objects merge
 * field by field, so composition flattens rather than chaining `&`; a constant meets a
 * wider type and narrows it (a base's `kind: Kind` ∧ `const` → the literal).
 */
export function intersect(a: Shape, b: Shape, lookup: ShapeLookup): Shape {
  if (a.kind === "unknown") return b;
  if (b.kind === "unknown") return a;
  if (a.kind === "never" || b.kind === "never") return NEVER;
  // Constraints stay as they are, on the meet of the shapes they constrain.
  if (a.kind === "constrained" || b.kind === "constrained") {
    const constraints = [a, b].flatMap((each) => (each.kind === "constrained" ? each.constraints : []));
    const met = intersect(a.kind === "constrained" ? a.shape : a, b.kind === "constrained" ? b.shape : b, lookup);
    return met.kind === "never" ? NEVER : constrain(met, narrowConstraints(constraints, met, lookup));
  }
  if (a.kind === "ref" && b.kind === "ref" && a.name === b.name) return a;
  // A type met with something inside itself (its own additionalProperties' schema composes it
  // with a constraint) has no shape yet to meet: its name stands, the other side a constraint
  // beside it. A type that is nothing but that (allOf of itself) is refused as an alias cycle.
  const pending = [a, b].find((shape) => shape.kind === "ref" && lookup.isExpanding(shape.name));
  if (pending !== undefined) return constrain(pending, [{ kind: "also", shape: pending === a ? b : a }]);
  if (a.kind === "ref" || b.kind === "ref") {
    // Expand in place, so that fields keep the order of the parts: own fields first.
    const expand = (shape: Shape) => (shape.kind === "ref" ? lookup.shapeOf(shape.name) : shape);
    const met = intersect(expand(a), expand(b), lookup);
    // A name survives when the other side adds nothing to it.
    if (a.kind === "ref" && jsonEqual(met as never, expand(a) as never)) return a;
    if (b.kind === "ref" && jsonEqual(met as never, expand(b) as never)) return b;
    return met;
  }
  if (a.kind === "nullable") return intersect({ kind: "union", members: [a.shape, { kind: "null" }], exclusive: false }, b, lookup);
  if (b.kind === "nullable") return intersect(b, a, lookup);
  if (a.kind === "union" || b.kind === "union") {
    // The union holding a type still being read is spread, so that it meets the other side whole, once.
    const holdsPending = (shape: Shape) =>
      shape.kind === "union" && shape.members.some((member) => member.kind === "ref" && lookup.isExpanding(member.name));
    const [union, other] =
      a.kind === "union" && !(b.kind === "union" && holdsPending(b) && !holdsPending(a)) ? [a, b] : [b as Shape & { kind: "union" }, a];
    const members = union.members.map((member) => intersect(member, other, lookup)).filter((member) => member.kind !== "never");
    // Two unions meet member by member into as many distinct members as the two have at
    // most: allOf over k anyOfs would otherwise multiply into a union of their product. Where
    // more would meet, the other union stays a constraint beside this one, whose type it is.
    if (other.kind === "union" && width(members) > union.members.length + other.members.length)
      return constrain(union, [{ kind: "also", shape: other }]);
    if (members.length <= 1) return members[0] ?? NEVER;
    const nonNull = members.filter((member) => member.kind !== "null");
    if (members.length === 2 && nonNull.length === 1) return { kind: "nullable", shape: nonNull[0]! };
    // Members that each meet into null: null.
    if (nonNull.length === 0) return members[0]!;
    return { kind: "union", members, exclusive: union.exclusive };
  }
  if (a.kind === "tagged-union" || b.kind === "tagged-union") {
    const [union, other] = a.kind === "tagged-union" ? [a, b] : [b as Shape & { kind: "tagged-union" }, a];
    const members = union.members
      .map((member) => ({ value: member.value, shape: intersect(member.shape, other, lookup) }))
      .filter((member) => member.shape.kind !== "never");
    if (members.length === 0) return NEVER;
    if (members.every((member) => member.shape.kind === "ref" || member.shape.kind === "object"))
      return { kind: "tagged-union", tag: union.tag, members: members as never };
    return { kind: "union", members: members.map((member) => member.shape), exclusive: true };
  }
  if (a.kind === "literal") return satisfies(a.value, b, lookup) ? a : NEVER;
  if (b.kind === "literal") return satisfies(b.value, a, lookup) ? b : NEVER;
  if (a.kind === "enum" || b.kind === "enum") {
    const [enumeration, other] = a.kind === "enum" ? [a, b] : [b as EnumShape, a];
    return narrowValues(enumeration, (value) => satisfies(value, other, lookup));
  }
  if (isObjectLike(a) && isObjectLike(b)) return intersectObjects(a, b, lookup);
  if (a.kind !== b.kind) return NEVER;
  switch (a.kind) {
    case "string":
      return intersectStrings(a, b as StringShape);
    case "number":
      return intersectNumbers(a, b as NumberShape);
    case "boolean":
    case "null":
      return a;
    case "array":
      return intersectArrays(a, b as ArrayShape, lookup);
  }
  // Shapes that do not meet into one: the second is a constraint beside the first.
  return constrain(a, [{ kind: "also", shape: b }]);
}

/**
 * The alternatives two unions met into, counting those of a union among them once each:
 * where one side is a union of JSON types, most of the other's members meet its members
 * into the same few shapes, which is no multiplying.
 */
function width(members: readonly Shape[]): number {
  const distinct = new Set<string>();
  const add = (shape: Shape): void => {
    if (shape.kind === "union") shape.members.forEach(add);
    else distinct.add(JSON.stringify(shape));
  };
  members.forEach(add);
  return distinct.size;
}

/**
 * Arrays position by position: where one tuple is longer, the other's rest meets its
 * positions; the rests meet; the keywords as `keywords/arrays` meets them.
 */
function intersectArrays(a: ArrayShape, b: ArrayShape, lookup: ShapeLookup): Shape {
  const length = Math.max(a.prefixItems?.length ?? 0, b.prefixItems?.length ?? 0);
  const at = (shape: ArrayShape, i: number) => shape.prefixItems?.[i] ?? shape.items;
  const prefixItems = Array.from({ length }, (_, i) => intersect(at(a, i), at(b, i), lookup));
  return compact({
    kind: "array",
    prefixItems: length === 0 ? undefined : prefixItems,
    items: intersect(a.items, b.items, lookup),
    ...meetArrays(a, b),
  });
}

type ObjectLike = Shape & { kind: "object" | "map" | "keyed-union" };

function isObjectLike(shape: Shape): shape is ObjectLike {
  return shape.kind === "object" || shape.kind === "map" || shape.kind === "keyed-union";
}

/** Every object-like shape as fields, the keyed union's members among them. */
function asObject(shape: ObjectLike): ObjectShape & { members?: readonly string[] } {
  if (shape.kind === "map")
    return compact({
      kind: "object",
      fields: [],
      additional: shape.values,
      minProperties: shape.minProperties,
      maxProperties: shape.maxProperties,
    });
  if (shape.kind === "keyed-union")
    return {
      kind: "object",
      fields: [...shape.members, ...shape.fields],
      additional: shape.additional,
      members: shape.members.map((member) => member.name),
    };
  return shape;
}

/**
 * Both objects' properties at once. Patterns apply to every name they match, so both
 * sides' patterns stay; what a side's additional shape says of a name its field or
 * pattern does not cover becomes the met field's, or the met additional shape, which
 * the met object asks only of names no pattern of either side matches. Where one side's
 * patterns would exempt names from the other's additional shape, the objects do not meet
 * into one, and the other stays a constraint beside it.
 */
function intersectObjects(left: ObjectLike, right: ObjectLike, lookup: ShapeLookup): Shape {
  const a = asObject(left);
  const b = asObject(right);
  const patternsOf = (shape: ObjectShape) => shape.patterns ?? [];
  const keyed = a.members !== undefined || b.members !== undefined;
  const named = [a, b].some((side) => patternsOf(side).length > 0 || side.names !== undefined);
  // Two exactly-one-of constraints, or one beside patterns or names (which a keyed union
  // has no place for), or patterns that would exempt names from the other side's additional
  // shape: the objects do not meet into one, and the other stays a constraint beside it.
  if (
    (a.members !== undefined && b.members !== undefined) ||
    (keyed && named) ||
    (patternsOf(a).length > 0 && b.additional.kind !== "unknown") ||
    (patternsOf(b).length > 0 && a.additional.kind !== "unknown")
  )
    return constrain(left, [{ kind: "also", shape: right }]);
  // The shape a side gives a name it does not declare: a pattern's matching it is checked on the met object.
  const otherwise = (side: ObjectShape, name: string) =>
    patternsOf(side).some(({ pattern }) => new RegExp(pattern, "u").test(name)) ? UNKNOWN : side.additional;
  const names = [...new Set([...a.fields, ...b.fields].map((field) => field.name))];
  const fields: Field[] = [];
  for (const name of names) {
    const fa = a.fields.find((field) => field.name === name);
    const fb = b.fields.find((field) => field.name === name);
    const shape = intersect(fa?.shape ?? otherwise(a, name), fb?.shape ?? otherwise(b, name), lookup);
    const required = (fa?.required ?? false) || (fb?.required ?? false);
    if (shape.kind === "never" && required) return NEVER;
    const aliases = [...new Set([...(fa?.aliases ?? []), ...(fb?.aliases ?? [])])];
    const stamp = fa?.stamp ?? fb?.stamp;
    // A null is absent only where every part that declares the field reads it so; a part that refuses it refuses it.
    const nullIsAbsent = [fa, fb].every((each) => each === undefined || each.nullIsAbsent === true);
    fields.push({
      name,
      shape,
      required,
      doc: mergeDocs(fa?.doc ?? {}, fb?.doc ?? {}),
      ...(aliases.length > 0 ? { aliases } : {}),
      pointer: (fa ?? fb)!.pointer,
      ...(stamp !== undefined ? { stamp } : {}),
      ...(nullIsAbsent ? { nullIsAbsent } : {}),
    });
  }
  const patterns = [...patternsOf(a), ...patternsOf(b)];
  const propertyNames = a.names === undefined ? b.names : b.names === undefined ? a.names : intersect(a.names, b.names, lookup);
  const object = compact({
    kind: "object",
    fields,
    patterns: patterns.length > 0 ? patterns : undefined,
    additional: intersect(a.additional, b.additional, lookup),
    names: propertyNames,
    ...meetProperties(a, b),
  }) as ObjectShape;
  const members = a.members ?? b.members;
  if (members === undefined) return object;
  return {
    kind: "keyed-union",
    members: object.fields.filter((field) => members.includes(field.name)),
    fields: object.fields.filter((field) => !members.includes(field.name)),
    additional: object.additional,
  };
}

function intersectStrings(a: StringShape, b: StringShape): Shape {
  return compact({ kind: "string", ...meetStrings(a, b), format: meetFormat(a.format, b.format) });
}

/** Numbers meet keyword by keyword; a second, different multipleOf is a constraint of its own. */
function intersectNumbers(a: NumberShape, b: NumberShape): Shape {
  const met: Shape = compact({
    kind: "number" as const,
    ...meetNumbers(a, b),
    format: meetFormat(a.format, b.format),
    // The wire's string form survives only if both sides accept it.
    wire: a.wire !== undefined && b.wire !== undefined ? a.wire : undefined,
  });
  const beside = multipleOfBeside(a, b);
  return beside === undefined ? met : constrain(met, [{ kind: "also", shape: { kind: "number", integer: false, multipleOf: beside } }]);
}

/** Whether a JSON value is a value of the shape. */
export function satisfies(value: JsonValue, shape: Shape, lookup: ShapeLookup): boolean {
  switch (shape.kind) {
    case "unknown":
      return true;
    case "never":
      return false;
    case "ref":
      return satisfies(value, lookup.shapeOf(shape.name), lookup);
    case "nullable":
      return value === null || satisfies(value, shape.shape, lookup);
    case "constrained":
      return satisfies(value, shape.shape, lookup) && shape.constraints.every((each) => meets(value, each, lookup));
    case "union":
      return shape.exclusive
        ? shape.members.filter((member) => satisfies(value, member, lookup)).length === 1
        : shape.members.some((member) => satisfies(value, member, lookup));
    case "array":
      return Array.isArray(value) && satisfiesArray(value as readonly JsonValue[], shape, lookup);
    case "object":
    case "map":
      return isJsonObject(value) && satisfiesObject(value, asObject(shape), lookup);
    case "keyed-union":
      return (
        isJsonObject(value) &&
        shape.members.filter((member) => Object.hasOwn(value, member.name)).length === 1 &&
        satisfiesObject(value, asObject(shape), lookup)
      );
    case "tagged-union":
      return (
        isJsonObject(value) && shape.members.some((member) => member.value === value[shape.tag] && satisfies(value, member.shape, lookup))
      );
    default:
      // A primitive shape or a literal: what its keywords say.
      return admits(value, shape);
  }
}

function satisfiesArray(items: readonly JsonValue[], shape: ArrayShape, lookup: ShapeLookup): boolean {
  judgedBy(shape, ["kind", "prefixItems", "items", "minItems", "maxItems", "uniqueItems", "contains"], lookup);
  const counts = (shape.contains ?? []).every(({ shape: counted, min, max }) => {
    const count = items.filter((item) => satisfies(item, counted, lookup)).length;
    return count >= min && (max === undefined || count <= max);
  });
  return (
    items.every((item, i) => satisfies(item, shape.prefixItems?.[i] ?? shape.items, lookup)) && passes(arrayChecks(shape), items) && counts
  );
}

/** Whether an object has the required fields, each property is of its field's shape or else the rest's, and the counts hold. */
function satisfiesObject(value: JsonObject, shape: ObjectShape, lookup: ShapeLookup): boolean {
  judgedBy(shape, ["kind", "fields", "additional", "minProperties", "maxProperties", "members"], lookup);
  if (shape.fields.some((field) => field.required && !Object.hasOwn(value, field.name))) return false;
  const shapeOf = (key: string) => shape.fields.find((field) => field.name === key)?.shape ?? shape.additional;
  return (
    Object.entries(value).every(([key, property]) => satisfies(property, shapeOf(key), lookup)) && passes(propertyChecks(shape), value)
  );
}

/**
 * Refuses a shape with a keyword that `satisfies` does not read, so that a keyword the IR
 * gains is never left out of what a constant is judged by.
 */
function judgedBy(shape: Shape, keys: readonly string[], lookup: ShapeLookup): void {
  const unread = Object.keys(shape).filter((key) => !keys.includes(key));
  if (unread.length > 0) lookup.unsupported(`a constant compared with ${describe(shape)} that has ${unread.join(", ")}`);
}

/** Whether a JSON value meets a constraint. */
function meets(value: JsonValue, constraint: Constraint, lookup: ShapeLookup): boolean {
  switch (constraint.kind) {
    case "not":
      return !satisfies(value, constraint.shape, lookup);
    case "if":
      return satisfies(value, satisfies(value, constraint.if, lookup) ? constraint.then : constraint.else, lookup);
    case "also":
      return satisfies(value, constraint.shape, lookup);
    case "unevaluated":
      // Of objects or arrays only: each property or item no passed subschema evaluated is of the rest.
      if (constraint.of === "items")
        return (
          !Array.isArray(value) ||
          value.every(
            (item: JsonValue, i) => evaluatesItem(constraint.evaluated, i, item, value, lookup) || satisfies(item, constraint.rest, lookup),
          )
        );
      return (
        !isJsonObject(value) ||
        Object.entries(value).every(
          ([key, property]) => evaluates(constraint.evaluated, key, value, lookup) || satisfies(property, constraint.rest, lookup),
        )
      );
  }
}

/**
 * Whether what a schema evaluates of `value` includes a key or an item, which `own` says of
 * each evaluated set's own names, patterns, positions or `contains`: the subschemas the
 * value passes add theirs.
 */
function evaluatesOf(evaluated: Evaluated, value: JsonValue, lookup: ShapeLookup, own: (evaluated: Evaluated) => boolean): boolean {
  return (
    evaluated.all ||
    own(evaluated) ||
    evaluated.when.some((each) => evaluatesOf(satisfies(value, each.shape, lookup) ? each.then : each.else, value, lookup, own))
  );
}

/** Whether what a schema evaluates, of this object, includes the key. */
function evaluates(evaluated: Evaluated, key: string, value: JsonObject, lookup: ShapeLookup): boolean {
  return evaluatesOf(
    evaluated,
    value,
    lookup,
    (each) => each.names.includes(key) || each.patterns.some((source) => new RegExp(source, "u").test(key)),
  );
}

/** Whether what a schema evaluates, of this array, includes the item at `index`. */
function evaluatesItem(evaluated: Evaluated, index: number, item: JsonValue, value: JsonValue, lookup: ShapeLookup): boolean {
  return evaluatesOf(
    evaluated,
    value,
    lookup,
    (each) => index < each.prefix || each.contains.some((shape) => satisfies(item, shape, lookup)),
  );
}

/**
 * Constraints as they apply to values of `shape`: a constraint's shapes need only tell
 * apart values of the shape's type (in `{"type": "object", "not": {"required": ["a"]}}`
 * the `not` is of objects alone), so checks of other types are not generated. Named
 * shapes stay names, whose checks are shared.
 */
function narrowConstraints(constraints: readonly Constraint[], shape: Shape, lookup: ShapeLookup): readonly Constraint[] {
  const skeleton = skeletonOf(shape);
  if (skeleton === undefined) return constraints;
  const narrow = (inner: Shape) => (inner.kind === "ref" ? inner : intersect(inner, skeleton, lookup));
  // A branch that every value of the type passes says nothing.
  const branch = (inner: Shape) => {
    const narrowed = narrow(inner);
    return jsonEqual(narrowed as never, skeleton as never) ? UNKNOWN : narrowed;
  };
  return constraints.flatMap((constraint): Constraint[] => {
    if (constraint.kind === "if")
      return [{ kind: "if", if: narrow(constraint.if), then: branch(constraint.then), else: branch(constraint.else) }];
    if (constraint.kind === "unevaluated") return [constraint];
    const narrowed = narrow(constraint.shape);
    // Not of no value of the type, or also of every value of it: nothing left to check.
    if (constraint.kind === "not" ? narrowed.kind === "never" : jsonEqual(narrowed as never, skeleton as never)) return [];
    return [{ kind: constraint.kind, shape: narrowed }];
  });
}

/** The JSON type of a shape's values, as a shape with no other constraint; undefined where it has several. */
function skeletonOf(shape: Shape): Shape | undefined {
  switch (shape.kind) {
    case "object":
    case "map":
    case "keyed-union":
      return { kind: "map", values: { kind: "unknown" } };
    case "array":
      return { kind: "array", items: { kind: "unknown" } };
    case "string":
    case "boolean":
    case "null":
      return { kind: shape.kind };
    case "number":
      return { kind: "number", integer: false };
    default:
      return undefined;
  }
}

/** A shape with constraints; the shape itself when there are none, and constraints on a constrained shape joined. */
export function constrain(shape: Shape, constraints: readonly Constraint[]): Shape {
  if (constraints.length === 0) return shape;
  if (shape.kind === "constrained") return { ...shape, constraints: [...shape.constraints, ...constraints] };
  return { kind: "constrained", shape, constraints };
}

/** Drops the keys whose value is undefined, so shapes compare and print as plain JSON. */
export function compact<T extends object>(shape: T): { [K in keyof T]: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(shape).filter(([, value]) => value !== undefined)) as never;
}
