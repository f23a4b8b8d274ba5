import kinds from "./kinds.json" with { type: "json" };

/**
 * The kinds of change a schema update can make, each classified for the two audiences of
 * the generated bindings, the way `buf breaking` sorts its rules:
 *
 * - receivers decode, check and match what arrives. A change breaks them when a newer
 *   sender can send what older code does not handle (a value wider than before, a member
 *   an exhaustive `match` has no handler for), or when their code stops compiling (a type,
 *   field or member it names is gone).
 * - producers build and send. A change breaks them when what older code sends is no
 *   longer valid (a new required field, a narrower value), or when the builders they call
 *   change under them.
 *
 * Receivers are taken to be tolerant, as the protocols' prose asks: they ignore properties
 * they do not know, so adding a field or opening an object does not break them.
 */

export type Verdict = "breaking" | "compatible";

export interface KindInfo {
  readonly receivers: Verdict;
  readonly producers: Verdict;
  /** A change to documentation only: nothing a program does changes. */
  readonly docs?: true;
  /** Why, for the audience it breaks, when that is not obvious from the change. */
  readonly why?: string;
}

/** The kinds and their verdicts, a table kept as data (`kinds.json`): one row per kind. */
export const KINDS: Readonly<Record<ChangeKind, KindInfo>> = kinds as Record<ChangeKind, KindInfo>;

export type ChangeKind = keyof typeof kinds;

/** One difference between two versions of a protocol, in the IR's terms. */
export interface Change {
  readonly kind: ChangeKind;
  /** Where, as a JSON Pointer into the effective schema (the new one, or the old for what was removed). */
  readonly pointer: string;
  /** What changed, in words: `Event gains the member UserInterruptEvent ("USER_INTERRUPT")`. */
  readonly message: string;
  readonly receivers: Verdict;
  readonly producers: Verdict;
}

export type Severity = "breaking" | "compatible" | "docs";

/** Breaking if it breaks either audience; docs if it changes nothing but documentation. */
export function severity(change: Change): Severity {
  if (change.receivers === "breaking" || change.producers === "breaking") return "breaking";
  return KINDS[change.kind].docs ? "docs" : "compatible";
}
