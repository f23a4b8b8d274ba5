import { count } from "../ir/describe.js";
import type { Audience, Change, ProtocolDiff, Severity } from "../ir/changes.js";
import { CATEGORIES, KINDS, severity } from "../ir/changes.js";

/** The three printings of a diff: for people at a terminal, for a pull request, for machines. */

const SEVERITIES: readonly Severity[] = ["breaking", "behaviour", "compatible", "docs"];

/**
 * The diff for people: per protocol, its changes grouped by severity, breaking first, each
 * with its JSON Pointer and, per category it breaks, whom and why.
 */
export function formatDiff(diffs: readonly ProtocolDiff[]): string {
  const sections: string[] = [];
  for (const { protocol, changes } of diffs) {
    if (changes.length === 0) {
      sections.push(`${protocol}: no changes`);
      continue;
    }
    const counts = SEVERITIES.map((level) => [level, changes.filter((change) => severity(change) === level).length] as const)
      .filter(([, n]) => n > 0)
      .map(([level, n]) => `${n} ${level}`);
    const lines = [`${protocol}: ${count(changes.length, "change")} (${counts.join(", ")})`];
    for (const level of SEVERITIES) {
      const group = changes.filter((change) => severity(change) === level);
      if (group.length === 0) continue;
      lines.push("", `  ${level}`);
      for (const change of group) {
        lines.push(`    ${change.message}`, `      ${change.kind} at ${change.pointer === "" ? "the root" : change.pointer}`);
        for (const category of CATEGORIES) {
          const broken = change.breaks[category];
          if (broken.length > 0)
            lines.push(`      ${category}: breaks ${broken.map(spoken).join(" and ")}: ${KINDS[change.kind][category]!.why}`);
        }
      }
    }
    sections.push(lines.join("\n"));
  }
  return sections.join("\n\n");
}

/**
 * The diff for machines: every change with its kind, pointer, message, the audiences it
 * breaks in each category and why, and its severity.
 */
export function diffJson(diffs: readonly ProtocolDiff[]): object {
  return {
    protocols: diffs.map(({ protocol, changes }) => ({
      protocol,
      changes: changes.map((change) => ({
        ...change,
        why: Object.fromEntries(
          CATEGORIES.flatMap((category) => (change.breaks[category].length > 0 ? [[category, KINDS[change.kind][category]!.why]] : [])),
        ),
        severity: severity(change),
      })),
    })),
  };
}

/**
 * The diff for a pull request comment or a job summary (GitHub-flavoured Markdown): a
 * one-line summary, then a table of the changes, breaking first, with whom each breaks on
 * the wire, in source and in behaviour. Text from schemas is escaped, so a name cannot break the table.
 */
export function diffMarkdown(diffs: readonly ProtocolDiff[]): string {
  const changed = diffs.filter((diff) => diff.changes.length > 0);
  const unchanged = diffs.filter((diff) => diff.changes.length === 0).map((diff) => escapeText(diff.protocol));
  const all = changed.flatMap((diff) => diff.changes);
  const breaking = all.filter((change) => severity(change) === "breaking").length;
  const behaviour = all.filter((change) => severity(change) === "behaviour").length;
  const parts = [
    all.length === 0
      ? ""
      : `${count(all.length, "change")}, ${breaking} breaking${behaviour === 0 ? "" : `, ${behaviour} of behaviour`}, in ${changed.map((diff) => escapeText(diff.protocol)).join(", ")}`,
    unchanged.length === 0 ? "" : `no changes to ${unchanged.join(", ")}`,
  ];
  const summary = `**agentwire diff**: ${parts.filter((part) => part !== "").join("; ") || "nothing to compare"}.`;
  if (all.length === 0) return summary;
  const rows = changed.flatMap(({ protocol, changes }) =>
    bySeverity(changes).map((change) =>
      [
        escapeText(protocol),
        escapeText(change.message),
        codeSpan(change.kind),
        change.pointer === "" ? "the root" : codeSpan(change.pointer),
        ...CATEGORIES.map((category) => breaksCell(change.breaks[category])),
      ].join(" | "),
    ),
  );
  return [
    summary,
    "",
    "| protocol | change | kind | pointer | wire | source | behaviour |",
    "| --- | --- | --- | --- | --- | --- | --- |",
    ...rows.map((row) => `| ${row} |`),
  ].join("\n");
}

function bySeverity(changes: readonly Change[]): Change[] {
  return SEVERITIES.flatMap((level) => changes.filter((change) => severity(change) === level));
}

/** Whom a change breaks in one category, in bold, or that it breaks no one there. */
function breaksCell(broken: readonly Audience[]): string {
  return broken.length === 0 ? "compatible" : `breaks **${broken.map(spoken).join("** and **")}**`;
}

/** An audience in words: `strict receivers`. */
function spoken(audience: Audience): string {
  return audience.replace("-", " ");
}

/**
 * Text that Markdown shows as it is, on one line of a table cell: what could start a
 * span, a tag, an entity or a cell is escaped; an underscore inside a word (ORDER_PLACED)
 * cannot start emphasis, so it stays as it is.
 */
function escapeText(text: string): string {
  return text.replace(/[\\`*[\]<>|~&]|(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])/gu, "\\$&").replace(/\s*[\r\n]+\s*/g, " ");
}

/** A code span holding `text` as it is: fenced by more backticks than it contains, pipes escaped for the table. */
function codeSpan(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(longest + 1);
  const padded = text.startsWith("`") || text.endsWith("`") ? ` ${text} ` : text;
  return `${fence}${padded.replace(/\s*[\r\n]+\s*/g, " ").replaceAll("|", "\\|")}${fence}`;
}
