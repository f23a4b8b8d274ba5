import type { MapShape, ObjectShape } from "../ir/model.js";
import { boundChanges, countChecks, meetLower, meetUpper } from "./bounds.js";
import type { KeywordChange, KeywordCheck } from "./check.js";

/**
 * The object keywords on the count of properties (ajv's `limitProperties`):
 * `minProperties` and `maxProperties`, on objects and maps alike. What is counted is the
 * properties the object has as JSON writes it (an `undefined` value is absent). The
 * properties themselves are fields, which the callers walk.
 */

/** The shapes that carry the keywords: an object's and a map's are the same. */
export type PropertyCounted = Pick<ObjectShape | MapShape, "minProperties" | "maxProperties">;

export interface PropertyConstraints {
  readonly minProperties: number | undefined;
  readonly maxProperties: number | undefined;
}

/** The checks of the count of properties, made of values that JSON writes as objects. */
export function propertyChecks(shape: PropertyCounted): KeywordCheck[] {
  return countChecks(
    "propertyCount",
    "property",
    { keyword: "minProperties", bound: shape.minProperties },
    { keyword: "maxProperties", bound: shape.maxProperties },
  );
}

/** Both shapes' counts at once (allOf): the tighter of each bound. */
export function meetProperties(a: PropertyCounted, b: PropertyCounted): PropertyConstraints {
  return { minProperties: meetLower(a.minProperties, b.minProperties), maxProperties: meetUpper(a.maxProperties, b.maxProperties) };
}

/** A change of the count bounds, classified as bounds go. */
export function propertyChanges(before: PropertyCounted, after: PropertyCounted): KeywordChange[] {
  return boundChanges("properties", [before.minProperties, after.minProperties], [before.maxProperties, after.maxProperties]);
}
