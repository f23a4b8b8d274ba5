import type { Ir } from "../ir/model.js";
import { compareIr } from "./compare.js";
import type { Audience, Category, ProtocolDiff } from "../ir/changes.js";
import { AUDIENCES, CATEGORIES, classified } from "../ir/changes.js";

export type { Audience, Breaks, Category, Change, ChangeKind, ProtocolDiff, Severity } from "../ir/changes.js";
export { AUDIENCES, CATEGORIES, KINDS, severity } from "../ir/changes.js";
export { diffJson, diffMarkdown, formatDiff } from "./print.js";

/** The semantic diff of two versions of a protocol, from their IRs. */
export function diffProtocol(name: string, before: Ir | undefined, after: Ir | undefined): ProtocolDiff {
  if (before === undefined && after === undefined) return { protocol: name, changes: [] };
  const whole = (kind: "protocol-added" | "protocol-removed", message: string): ProtocolDiff => ({
    protocol: name,
    changes: [classified(kind, "", `${name}: ${message}`)],
  });
  if (before === undefined) return whole("protocol-added", "added");
  if (after === undefined) return whole("protocol-removed", "removed");
  return { protocol: name, changes: compareIr(before, after) };
}

/**
 * What `--fail-on` fails on: any change, nothing, or a break in one of the listed
 * categories of one of the listed audiences, as changes list them (`category:audience` pairs).
 */
export type FailOn = "any" | "none" | ReadonlySet<`${Category}:${Audience}`>;

/**
 * The default: breaks on the wire or in source, for any audience. A break of behaviour (a
 * changed default, a changed format) is shown but needs a reader to judge it.
 */
export const DEFAULT_FAIL_ON = "wire,source";

/**
 * The audiences `--fail-on` names, and the breaks that break each: a strict receiver
 * breaks on what breaks any receiver (so `receivers` and `strict-receivers` fail alike), a
 * tolerant one only on what breaks both kinds.
 */
const NAMED: Readonly<Record<string, readonly Audience[]>> = {
  receivers: ["receivers", "strict-receivers"],
  "strict-receivers": ["receivers", "strict-receivers"],
  "tolerant-receivers": ["receivers"],
  producers: ["producers"],
};

/**
 * Reads `--fail-on`: `any`, `none`, or a comma-separated list of categories, each alone
 * (every audience) or with one (`wire:producers`, `wire:tolerant-receivers`); `breaking`
 * is every category. Returns what is wrong with it, in words, when it is not that.
 */
export function readFailOn(text: string): FailOn | { readonly error: string } {
  const terms = text.split(",").map((term) => term.trim());
  if (terms.length === 1 && (terms[0] === "any" || terms[0] === "none")) return terms[0];
  const pairs = new Set<`${Category}:${Audience}`>();
  for (const term of terms) {
    const [category, audience, extra] = term.split(":");
    const categories = category === "breaking" ? CATEGORIES : CATEGORIES.filter((known) => known === category);
    const audiences = audience === undefined ? AUDIENCES : Object.hasOwn(NAMED, audience) ? NAMED[audience]! : [];
    if (categories.length === 0 || audiences.length === 0 || extra !== undefined)
      return {
        error: `--fail-on is any, none, or a list of ${CATEGORIES.join(", ")} or breaking, each alone or with ${Object.keys(NAMED)
          .map((name) => `:${name}`)
          .join(", ")}; not "${text}"`,
      };
    for (const each of categories) for (const whom of audiences) pairs.add(`${each}:${whom}`);
  }
  return pairs;
}

export function fails(diffs: readonly ProtocolDiff[], failOn: FailOn): boolean {
  const changes = diffs.flatMap((diff) => diff.changes);
  if (failOn === "none") return false;
  if (failOn === "any") return changes.length > 0;
  return changes.some(({ breaks }) =>
    CATEGORIES.some((category) => breaks[category].some((audience) => failOn.has(`${category}:${audience}`))),
  );
}
