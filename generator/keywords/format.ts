import type { KeywordChange } from "./check.js";

/**
 * `format`, on strings and numbers: an annotation only, as in draft 2020-12 by default.
 * It admits every value and checks nothing; under allOf the first one stated stays; a
 * change of it changes documentation.
 */

export function meetFormat(a: string | undefined, b: string | undefined): string | undefined {
  return a ?? b;
}

export function formatChanges(before: string | undefined, after: string | undefined): KeywordChange[] {
  return before === after ? [] : [{ kind: "format-changed", what: `has format ${after ?? "none"}, was ${before ?? "none"}` }];
}
