import type { JsonPrimitive, JsonValue } from "../json.js";
import type { StampUnit } from "../schema/vocabulary.js";

/**
 * The intermediate representation: a protocol as named types. Emitters read only this,
 * never JSON Schema. Everything is plain, readonly data, so it compares and serializes
 * as it is (the normalizer's tests pin it as JSON).
 */
export interface Ir {
  readonly protocol: string;
  /** The type a document of the protocol is, when the schema has a root. */
  readonly root?: string;
  /** In the order of the effective schema's `$defs`, which follows the source. */
  readonly types: readonly NamedType[];
}

export interface NamedType {
  readonly name: string;
  /** Where the type is in the effective schema: `/$defs/<name>`. */
  readonly pointer: string;
  readonly doc: Doc;
  readonly shape: Shape;
}

/** What a schema says about a value for people: it becomes JSDoc. */
export interface Doc {
  readonly description?: string;
  readonly default?: JsonValue;
  readonly deprecated?: true;
}

export type Shape =
  | RefShape
  | UnknownShape
  | NeverShape
  | LiteralShape
  | EnumShape
  | StringShape
  | NumberShape
  | BooleanShape
  | NullShape
  | ArrayShape
  | ObjectShape
  | MapShape
  | NullableShape
  | ConstrainedShape
  | UnionShape
  | TaggedUnionShape
  | KeyedUnionShape;

/** Another named type. */
export interface RefShape {
  readonly kind: "ref";
  readonly name: string;
}

/** Any JSON value (`true`, `{}`, a schema with only annotations). */
export interface UnknownShape {
  readonly kind: "unknown";
}

/** No value (`false`, or constraints that contradict each other). */
export interface NeverShape {
  readonly kind: "never";
}

/**
 * One value (`const`, or an `enum` of one). An object or an array is equal to a value as
 * JSON is: numbers by value, objects whatever the order of their keys, arrays in order.
 */
export interface LiteralShape {
  readonly kind: "literal";
  readonly value: JsonValue;
}

/**
 * Several primitive values. An `enum` that also lists objects or arrays is a union of this
 * and their literals.
 */
export interface EnumShape {
  readonly kind: "enum";
  readonly values: readonly JsonPrimitive[];
  /** Per value, in the same order: what it means, where the schema says. */
  readonly descriptions?: readonly (string | null)[];
  /** The value a tolerant receiver reads an unknown value as. */
  readonly fallback?: JsonPrimitive;
  /** Integers the wire accepts in place of the values (proto3 JSON enums). */
  readonly wire?: EnumWire;
}

export interface EnumWire {
  readonly minimum?: number;
  readonly maximum?: number;
  /** The integer that stands for each value, when the overlay states them. */
  readonly numbers?: Readonly<Record<string, number>>;
}

export interface StringShape {
  readonly kind: "string";
  readonly minLength?: number;
  readonly maxLength?: number;
  /** Regular expressions (ECMAScript, with the `u` flag) that the string must all match. */
  readonly patterns?: readonly string[];
  /** An annotation only, as in draft 2020-12 by default. */
  readonly format?: string;
  /** The formats the string must all be, where the protocol asserts formats (`keywords/format.ts`). */
  readonly assertedFormats?: readonly string[];
}

export interface NumberShape {
  readonly kind: "number";
  readonly integer: boolean;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly exclusiveMinimum?: number;
  readonly exclusiveMaximum?: number;
  readonly multipleOf?: number;
  readonly format?: string;
  /** The wire also accepts the number as a decimal string (proto3 JSON int32). */
  readonly wire?: { readonly numericString: string };
}

export interface BooleanShape {
  readonly kind: "boolean";
}

export interface NullShape {
  readonly kind: "null";
}

export interface ArrayShape {
  readonly kind: "array";
  /** The shapes of the first items, position by position (a tuple: `prefixItems`). */
  readonly prefixItems?: readonly Shape[];
  /** The shape of every item after the prefix (all of them when there is none); `never` closes a tuple. */
  readonly items: Shape;
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly uniqueItems?: true;
  /** Shapes some of the items must be of, each its own count (`contains`, under allOf several). */
  readonly contains?: readonly Contains[];
}

/** `contains`: at least `min` items (1 unless `minContains` says) are of the shape, at most `max`. */
export interface Contains {
  readonly shape: Shape;
  readonly min: number;
  readonly max?: number;
}

export interface Field {
  readonly name: string;
  readonly shape: Shape;
  readonly required: boolean;
  readonly doc: Doc;
  /**
   * Other names the wire accepts for this field (proto names in snake_case), one of its
   * names at most in a value: the effective schema says so by each alias's dependent schema.
   */
  readonly aliases?: readonly string[];
  /** Where the field's schema is in the effective schema. */
  readonly pointer: string;
  /** A time a producer may fill in with the current one: builders offer it. */
  readonly stamp?: StampUnit;
  /**
   * The wire may send null for the field absent (proto3 JSON): the decoder drops it; the
   * canonical value, the type and the guard, have no null.
   */
  readonly nullIsAbsent?: true;
}

export interface ObjectShape {
  readonly kind: "object";
  readonly fields: readonly Field[];
  /**
   * What the properties whose names match a pattern hold (`patternProperties`): declared
   * ones too, which are then of both shapes; `additional` is what the others hold.
   */
  readonly patterns?: readonly PatternProperty[];
  /** What other properties may hold: `unknown` when open, `never` when closed. */
  readonly additional: Shape;
  /** What every property name must be (`propertyNames`): a shape of strings. */
  readonly names?: Shape;
  readonly minProperties?: number;
  readonly maxProperties?: number;
}

/** The properties whose names match `pattern` (ECMAScript, with the `u` flag, unanchored) are of `shape`. */
export interface PatternProperty {
  readonly pattern: string;
  readonly shape: Shape;
}

/** An object whose keys are data: `additionalProperties: <schema>` and no fields. */
export interface MapShape {
  readonly kind: "map";
  readonly values: Shape;
  readonly minProperties?: number;
  readonly maxProperties?: number;
}

/** `T | null`. */
export interface NullableShape {
  readonly kind: "nullable";
  readonly shape: Shape;
}

/**
 * A shape and constraints its type cannot say: a value is of the shape and meets each
 * constraint. The TypeScript type is the shape's, which is never narrower than the
 * check, so a guard never lies about its type.
 */
export interface ConstrainedShape {
  readonly kind: "constrained";
  readonly shape: Shape;
  readonly constraints: readonly Constraint[];
}

/**
 * - `not`: the value is not of the shape;
 * - `if`: a value of `if` must be of `then`, any other of `else` (`unknown` where the
 *   schema says nothing);
 * - `also`: the value is of this shape too, where the two do not meet into one;
 * - `unevaluated`: of an object (`of: "properties"`), each property that `evaluated` does
 *   not count must be of `rest` (`unevaluatedProperties`); of an array (`of: "items"`), each
 *   item (`unevaluatedItems`): where what is evaluated depends on the value.
 */
export type Constraint =
  | { readonly kind: "not"; readonly shape: Shape }
  | { readonly kind: "if"; readonly if: Shape; readonly then: Shape; readonly else: Shape }
  | { readonly kind: "also"; readonly shape: Shape }
  | { readonly kind: "unevaluated"; readonly of: "properties" | "items"; readonly evaluated: Evaluated; readonly rest: Shape };

/**
 * What a schema evaluates of a value, as the unevaluated keywords read it: of an object,
 * names (`properties`), patterns (`patternProperties`), every name (`additionalProperties`,
 * a nested `unevaluatedProperties`); of an array, its first positions (`prefixItems`), the
 * items of some shapes (`contains`), every item (`items`, a nested `unevaluatedItems`); and
 * what the subschemas a value passes evaluate (`anyOf` and `oneOf` branches, `if` with
 * `then` or else `else`, `dependentSchemas`), each told apart once, when the value is
 * checked, so that this is as large as the schema.
 */
export interface Evaluated {
  readonly all: boolean;
  readonly names: readonly string[];
  readonly patterns: readonly string[];
  readonly prefix: number;
  readonly contains: readonly Shape[];
  readonly when: readonly { readonly shape: Shape; readonly then: Evaluated; readonly else: Evaluated }[];
}

/** Alternatives with nothing to dispatch on. */
export interface UnionShape {
  readonly kind: "union";
  readonly members: readonly Shape[];
  /** `oneOf`: a value must match exactly one member, not several. */
  readonly exclusive: boolean;
}

/** Objects told apart by one required property with a different constant in each. */
export interface TaggedUnionShape {
  readonly kind: "tagged-union";
  readonly tag: string;
  readonly members: readonly TaggedMember[];
}

export interface TaggedMember {
  readonly value: JsonPrimitive;
  /** A ref to a named object, or the object itself when the schema left it anonymous. */
  readonly shape: RefShape | ObjectShape;
}

/** An object in which exactly one of some properties, the members, is present. */
export interface KeyedUnionShape {
  readonly kind: "keyed-union";
  readonly members: readonly Field[];
  /** The fields every member shares; never one of the members. */
  readonly fields: readonly Field[];
  readonly additional: Shape;
}
