import type { Expression, Name } from "../../code/tree.js";
import { identifier } from "../../code/build.js";
import type { Field, Shape, TaggedUnionShape } from "../../ir/model.js";

/**
 * The checks of a value against a shape, as a tree that says what is tested and what a
 * failure means, and not how a failure is answered. It is built once per shape and
 * printed two ways (`guards.ts`: return false at the first failure; `validate.ts`: record
 * every failure with its JSON Pointer and go on), so a guard and its validator cannot
 * disagree.
 */
export type Check = Failure | Delegate | NonNull | Position | Items | Counted | Properties | Matches | Conditional | When;

/** Where a value is: the `path` parameter, then property names, index locals and key locals. */
export type Location = readonly (string | Name | KeyToken)[];

/** A local holding a property's name, which a JSON Pointer escapes (`~0`, `~1`); an index local is written as it is. */
export interface KeyToken {
  readonly kind: "key";
  readonly key: Name;
}

/** A value fails `keyword` when `test` holds; what `then` holds is checked only when it does not. */
export interface Failure {
  readonly kind: "failure";
  readonly test: Expression;
  readonly keyword: string;
  readonly message: string;
  /** Where the failing value is. */
  readonly at: Location;
  readonly then?: readonly Check[];
  /**
   * When the failing value is in a wire form that a decoder reads into another (an enum's
   * number, digits): a report counts the failure then (`Errors.wired`).
   */
  readonly wire?: Expression;
  /**
   * Where a tolerant reading may change the failing value, when that is not everywhere (an
   * enum's value of one of its values' types): a report counts the failure elsewhere (`Errors.kept`).
   */
  readonly readable?: Expression;
}

/** The value is checked by another check function: a named type's, or a helper's. */
export interface Delegate {
  readonly kind: "delegate";
  readonly subject: Expression;
  readonly target: Target;
  readonly at: Location;
}

/** The check function of a named type, or of a shape without a name, which a helper checks. */
export type Target =
  { readonly kind: "named"; readonly name: string } | { readonly kind: "helper"; readonly shape: Shape; readonly owner: string };

/** A value fails `keyword` when it is of the target's shape, as the target's guard says (`not`). */
export interface Matches {
  readonly kind: "matches";
  readonly subject: Expression;
  readonly target: Target;
  readonly keyword: string;
  readonly message: string;
  readonly at: Location;
}

/** `if`: a value of the target's shape is checked by `then`, any other by `otherwise`. */
export interface Conditional {
  readonly kind: "conditional";
  readonly subject: Expression;
  readonly test: Target;
  readonly then: readonly Check[];
  readonly otherwise: readonly Check[];
}

/** What a nullable value is checked for when it is not null. */
export interface NonNull {
  readonly kind: "non-null";
  readonly subject: Expression;
  readonly checks: readonly Check[];
}

/**
 * A loop over an array's items by index, as JSON.stringify reads them: a hole is
 * undefined, and an array's own iterator is not asked.
 */
export interface Items {
  readonly kind: "items";
  readonly subject: Expression;
  /** The first index looked at: the items after a tuple's positions. */
  readonly start: number;
  readonly index: Name;
  readonly item: Name;
  readonly checks: readonly Check[];
  /**
   * Where the loop checks `unevaluatedItems`: the subschemas whose passing decides what
   * else is evaluated, each tested once into a local before the loop, the `contains` shapes
   * each item is tested against into a local, and the test of an item that one of them
   * evaluates, which the checks skip.
   */
  readonly unevaluated?: {
    readonly passed: readonly { readonly local: Name; readonly test: Target }[];
    readonly matched: readonly { readonly local: Name; readonly test: Target }[];
    readonly evaluated?: Expression;
  };
}

/** One position of a tuple, checked when the array is that long. */
export interface Position {
  readonly kind: "position";
  readonly subject: Expression;
  readonly index: number;
  readonly item: Name;
  readonly checks: readonly Check[];
}

/**
 * `contains`: a loop that counts the items of the target's shape, as its guard says, and
 * stops as soon as the count decides; then the count's bounds.
 */
export interface Counted {
  readonly kind: "counted";
  readonly subject: Expression;
  readonly index: Name;
  readonly item: Name;
  readonly counter: Name;
  readonly target: Target;
  /** The count at which the loop may stop: the lower bound reached, or the upper passed. */
  readonly enough: Expression;
  readonly bounds: readonly Failure[];
}

/**
 * An object's properties, checked in one loop over its keys: each key a field, a member
 * or the rest, its value checked where the key says. Only the properties the object has
 * are read, and the loop allocates nothing. Counts say afterwards whether every
 * required field was there, and exactly one member of a keyed union.
 */
export interface Properties {
  readonly kind: "properties";
  readonly subject: Expression;
  readonly at: Location;
  readonly key: Name;
  readonly property: Name;
  /**
   * The counter of required fields present, and those fields; a report marks each one seen
   * in its own flag instead, and asks the flags afterwards which were missing.
   */
  readonly required?: { readonly counter: Name; readonly fields: readonly Field[]; readonly flags: readonly Name[] };
  readonly counters: readonly Name[];
  /** The counter of properties, counted when JSON writes them (`bounded`) or whenever present. */
  readonly count?: { readonly counter: Name; readonly bounded: boolean };
  readonly cases: readonly PropertyCase[];
  /** Names read as they are, one case that does nothing. */
  readonly unchecked: readonly string[];
  /** What each name must be (`propertyNames`), the key being the subject. */
  readonly names: readonly Check[];
  /**
   * Per pattern, its test of the key and what a property not a field must be when it
   * matches (a field's case has the checks of the patterns its name matches).
   */
  readonly patterns: readonly { readonly test: Expression; readonly checks: readonly Check[] }[];
  /** What the rest of the properties (not fields, matched by no pattern) must be: none (closed), or checks. */
  readonly rest: "closed" | readonly Check[];
  /** Of a closed object, the other names of its fields, which a decoder reads as theirs: a report counts one (`Errors.wired`). */
  readonly aliases?: readonly string[];
  /** Checked after the loop, once every property has been seen: exactly one member, the bounds, a boxed primitive. */
  readonly after: readonly Failure[];
  /**
   * Where the loop checks `unevaluatedProperties`: the subschemas whose passing decides
   * what else is evaluated, each tested once into a local before the loop, and the test
   * of a key that one of them, or a pattern, evaluates; the rest skips such a key.
   */
  readonly unevaluated?: { readonly passed: readonly { readonly local: Name; readonly test: Target }[]; readonly evaluated?: Expression };
}

/** Checks that apply only where `test` holds, such as an object's where a value may be of several types. */
export interface When {
  readonly kind: "when";
  readonly test: Expression;
  readonly checks: readonly Check[];
}

export interface PropertyCase {
  readonly name: string;
  readonly checks: readonly Check[];
  /** The counters a present property adds one to, and whether only when JSON writes it. */
  readonly counts: readonly Name[];
  readonly countsWhenWritten: boolean;
  /**
   * When the property is in a wire form a decoder reads into another (an alias, a null for
   * the field absent): a report counts it (`Errors.wired`), whether or not it fails.
   */
  readonly wire?: Expression;
}

/** How a function checks its value, when that is not a list of checks. */
export type Body =
  | { readonly kind: "checks"; readonly checks: readonly Check[] }
  | { readonly kind: "enum"; readonly values: readonly (string | number | boolean | null)[]; readonly failure: Failure }
  | TaggedBody
  | UnionBody;

/**
 * A dispatch on the tag to the member's check (a switch, or past `SWITCH_MEMBERS` members
 * a table: emit/dispatch.ts). The tag is read as JSON would write it, never from a
 * prototype; the member checks the rest, the value's being an object first.
 */
export interface TaggedBody {
  readonly kind: "tagged";
  readonly shape: TaggedUnionShape;
  /** Names the table of a long union. */
  readonly owner: string;
  readonly tagValue: Expression;
  /** The local the tag is read into, when a failure names it. */
  readonly tagLocal: Name;
  /** The local a long union's member function is read into. */
  readonly memberLocal?: Name;
  readonly members: readonly { readonly value: string | number | boolean | null; readonly target: Target }[];
  readonly notObject: Failure;
  readonly expected: string;
}

/**
 * Alternatives. Under oneOf, alternatives that can hold one value are counted, since a
 * value two of them accept is invalid.
 */
export interface UnionBody {
  readonly kind: "union";
  /** The union itself, whose guard a report asks first. */
  readonly self: Target & { readonly kind: "helper" };
  readonly alternatives: readonly { readonly test?: Expression; readonly target: Target }[];
  readonly overlapping: boolean;
  readonly matches: Name;
  readonly typed: readonly { readonly test: Expression; readonly checks: readonly Check[] }[];
  readonly keyword: string;
  readonly message: string;
}

/** The parameters of a check function: the value, and, where a report is made, its path and the errors. */
export const VALUE = identifier("value");
export const PATH = identifier("path");
export const ERRORS = identifier("errors");
