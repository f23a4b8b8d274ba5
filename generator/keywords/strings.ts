import type { StringShape } from "../ir/model.js";
import { describeValues } from "../ir/describe.js";
import type { JsonPrimitive } from "../json.js";
import { boundChanges, countChecks, meetLower, meetUpper } from "./bounds.js";
import type { KeywordChange, KeywordCheck } from "./check.js";
import { passes } from "./check.js";
import { formatCheck } from "./format.js";
import { typeCheck } from "./types.js";

/**
 * The string keywords (ajv's `limitLength` and `pattern`): `minLength` and `maxLength`
 * count Unicode code points, not UTF-16 units ("😀" is one character); each pattern is an
 * ECMAScript regular expression with the `u` flag, which the string must match, all of
 * them. `format` is an annotation, or, where the protocol asserts formats, a check of
 * each of them (`format.ts`).
 */

export interface StringConstraints {
  readonly minLength: number | undefined;
  readonly maxLength: number | undefined;
  readonly patterns: readonly string[] | undefined;
  readonly assertedFormats: readonly string[] | undefined;
}

/** "must be a string". */
export const STRING_TYPE: KeywordCheck = typeCheck("string");

/** The checks of a string's length and patterns, made of values that passed `STRING_TYPE`. */
export function stringChecks(shape: StringShape): KeywordCheck[] {
  return [
    ...countChecks(
      "codePointLength",
      "character",
      { keyword: "minLength", bound: shape.minLength },
      { keyword: "maxLength", bound: shape.maxLength },
    ),
    ...(shape.patterns ?? []).map((pattern): KeywordCheck => ({
      keyword: "pattern",
      message: `must match the pattern ${pattern}`,
      fails: { op: "notMatch", pattern },
    })),
    ...(shape.assertedFormats ?? []).map(formatCheck),
  ];
}

/** Whether a JSON primitive is a value of the string shape. */
export function admitsString(value: JsonPrimitive, shape: StringShape): boolean {
  return passes([STRING_TYPE, ...stringChecks(shape)], value);
}

/** Both shapes' string keywords at once (allOf): the tighter of each bound, the patterns and asserted formats of both. */
export function meetStrings(a: StringShape, b: StringShape): StringConstraints {
  const patterns = [...new Set([...(a.patterns ?? []), ...(b.patterns ?? [])])];
  const formats = [...new Set([...(a.assertedFormats ?? []), ...(b.assertedFormats ?? [])])];
  return {
    minLength: meetLower(a.minLength, b.minLength),
    maxLength: meetUpper(a.maxLength, b.maxLength),
    patterns: patterns.length > 0 ? patterns : undefined,
    assertedFormats: formats.length > 0 ? formats : undefined,
  };
}

/**
 * A change of the string keywords, classified: a length bound raised or lowered tightens
 * or loosens; patterns (and asserted formats) only added tighten, only removed loosen, both
 * change the valid values.
 */
export function stringChanges(before: StringShape, after: StringShape): KeywordChange[] {
  const changes = boundChanges("characters", [before.minLength, after.minLength], [before.maxLength, after.maxLength]);
  const old = before.patterns ?? [];
  const next = after.patterns ?? [];
  const added = next.filter((pattern) => !old.includes(pattern));
  const removed = old.filter((pattern) => !next.includes(pattern));
  if (added.length > 0 && removed.length > 0)
    changes.push({ kind: "constraint-changed", what: `must match ${describeValues(added)}, not ${describeValues(removed)}` });
  else if (added.length > 0) changes.push({ kind: "constraint-tightened", what: `must now match ${describeValues(added)}` });
  else if (removed.length > 0) changes.push({ kind: "constraint-loosened", what: `need no longer match ${describeValues(removed)}` });
  const formats = { before: before.assertedFormats ?? [], after: after.assertedFormats ?? [] };
  const asserted = formats.after.filter((format) => !formats.before.includes(format));
  const dropped = formats.before.filter((format) => !formats.after.includes(format));
  if (asserted.length > 0 && dropped.length > 0)
    changes.push({ kind: "constraint-changed", what: `must be of format ${describeValues(asserted)}, not ${describeValues(dropped)}` });
  else if (asserted.length > 0) changes.push({ kind: "constraint-tightened", what: `must now be of format ${describeValues(asserted)}` });
  else if (dropped.length > 0)
    changes.push({ kind: "constraint-loosened", what: `need no longer be of format ${describeValues(dropped)}` });
  return changes;
}
