import type { Ir } from "../ir/model.js";
import { compareIr } from "./compare.js";
import type { Change } from "./kinds.js";
import { KINDS, severity } from "./kinds.js";

export type { Change, ChangeKind, Severity, Verdict } from "./kinds.js";
export { KINDS, severity } from "./kinds.js";
export { diffJson, diffMarkdown, formatDiff } from "./print.js";

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

/** What `--fail-on` fails on: breaking changes, any change, or nothing. */
export type FailOn = "breaking" | "any" | "none";

export function fails(diffs: readonly ProtocolDiff[], failOn: FailOn): boolean {
  const changes = diffs.flatMap((diff) => diff.changes);
  if (failOn === "none") return false;
  if (failOn === "any") return changes.length > 0;
  return changes.some((change) => severity(change) === "breaking");
}
