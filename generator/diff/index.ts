import type { Ir } from "../ir/model.js";
import { compareIr } from "./compare.js";
import type { Change, Severity } from "./kinds.js";
import { KINDS, severity } from "./kinds.js";

export type { Change, ChangeKind, Severity, Verdict } from "./kinds.js";
export { KINDS, severity } from "./kinds.js";

/** The changes to one protocol between two versions; either side may not have it. */
export interface ProtocolDiff {
  readonly protocol: string;
  readonly changes: readonly Change[];
}

/** The semantic diff of two versions of a protocol, from their IRs. */
export function diffProtocol(name: string, before: Ir | undefined, after: Ir | undefined): ProtocolDiff {
  if (before === undefined && after === undefined) return { protocol: name, changes: [] };
  const whole = (kind: "protocol-added" | "protocol-removed", message: string): ProtocolDiff => ({
    protocol: name,
    changes: [{ kind, pointer: "", message: `${name}: ${message}`, receivers: KINDS[kind].receivers, producers: KINDS[kind].producers }],
  });
  if (before === undefined) return whole("protocol-added", "added");
  if (after === undefined) return whole("protocol-removed", "removed");
  return { protocol: name, changes: compareIr(before, after) };
}

export const SEVERITIES: readonly Severity[] = ["breaking", "compatible", "docs"];

/** What `--fail-on` fails on: breaking changes, any change, or nothing. */
export type FailOn = "breaking" | "any" | "none";

export function fails(diffs: readonly ProtocolDiff[], failOn: FailOn): boolean {
  const changes = diffs.flatMap((diff) => diff.changes);
  if (failOn === "none") return false;
  if (failOn === "any") return changes.length > 0;
  return changes.some((change) => severity(change) === "breaking");
}

/**
 * The diff for people: per protocol, its changes grouped by severity, breaking first, each
 * with its JSON Pointer and what it means for receivers and producers.
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
    const lines = [`${protocol}: ${changes.length} change${changes.length === 1 ? "" : "s"} (${counts.join(", ")})`];
    for (const level of SEVERITIES) {
      const group = changes.filter((change) => severity(change) === level);
      if (group.length === 0) continue;
      lines.push("", `  ${level}`);
      for (const change of group) {
        lines.push(`    ${change.message}`, `      ${change.kind} at ${change.pointer === "" ? "the root" : change.pointer}`);
        const broken = (["receivers", "producers"] as const).filter((audience) => change[audience] === "breaking");
        if (broken.length > 0) {
          const why = KINDS[change.kind].why;
          lines.push(`      breaks ${broken.join(" and ")}${why === undefined ? "" : `: ${why}`}`);
        }
      }
    }
    sections.push(lines.join("\n"));
  }
  return sections.join("\n\n");
}

/** The diff for machines: every change with its kind, pointer, message, verdicts and severity. */
export function diffJson(diffs: readonly ProtocolDiff[]): object {
  return {
    protocols: diffs.map(({ protocol, changes }) => ({
      protocol,
      changes: changes.map((change) => ({ ...change, severity: severity(change) })),
    })),
  };
}
