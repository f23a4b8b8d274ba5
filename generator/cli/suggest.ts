/**
 * The "did you mean" of an unknown command or option. A candidate is near a mistyped word
 * when few edits turn one into the other, an edit being a character inserted, removed,
 * replaced, or two neighbours swapped (the optimal string alignment distance, as
 * commander's suggestSimilar and git's help.c count); few is at most a third of the word,
 * and at least one: "genrate" finds "generate", "ful" finds "full", "gen" nothing.
 */

/** The candidates nearest a word, in their given order; none when no candidate is near. */
export function nearest(word: string, candidates: readonly string[]): string[] {
  // Options are compared without their dashes, which every one of them shares.
  const dashes = leadingDashes(word);
  const typed = word.slice(dashes);
  const most = Math.max(1, Math.floor(typed.length / 3));
  let best = most + 1;
  let found: string[] = [];
  for (const candidate of new Set(candidates)) {
    if (leadingDashes(candidate) !== dashes) continue;
    const distance = editDistance(typed, candidate.slice(dashes), best + 1);
    if (distance < best) [best, found] = [distance, [candidate]];
    else if (distance === best && distance <= most) found.push(candidate);
  }
  return found;
}

/** ` (did you mean "generate"?)` after a word no candidate is, or "" when none is near it. */
export function didYouMean(word: string, candidates: readonly string[]): string {
  const found = nearest(word, candidates).map((candidate) => `"${candidate}"`);
  if (found.length === 0) return "";
  const listed = found.length === 1 ? found[0]! : `${found.slice(0, -1).join(", ")} or ${found.at(-1)!}`;
  return ` (did you mean ${listed}?)`;
}

function leadingDashes(word: string): number {
  return word.startsWith("--") ? 2 : word.startsWith("-") ? 1 : 0;
}

/**
 * The optimal string alignment distance of two words where it is below `bound`, else
 * `bound`: a pair whose lengths differ by that much is not compared at all.
 */
export function editDistance(a: string, b: string, bound = Infinity): number {
  if (Math.abs(a.length - b.length) >= bound) return bound;
  // Three rows of the table: the distances of a's prefixes to b's two prefixes before, and to this one.
  let beforeLast: number[] = [];
  let last = Array.from({ length: a.length + 1 }, (_, i) => i);
  for (let j = 1; j <= b.length; j++) {
    const row = [j];
    for (let i = 1; i <= a.length; i++) {
      const replace = last[i - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      let distance = Math.min(last[i]! + 1, row[i - 1]! + 1, replace);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) distance = Math.min(distance, beforeLast[i - 2]! + 1);
      row.push(distance);
    }
    [beforeLast, last] = [last, row];
  }
  return Math.min(last[a.length]!, bound);
}
