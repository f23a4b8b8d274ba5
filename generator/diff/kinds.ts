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

const breaksBoth: KindInfo = { receivers: "breaking", producers: "breaking" };
const breaksReceivers = (why?: string): KindInfo => ({ receivers: "breaking", producers: "compatible", ...(why ? { why } : {}) });
const breaksProducers = (why?: string): KindInfo => ({ receivers: "compatible", producers: "breaking", ...(why ? { why } : {}) });
const compatible: KindInfo = { receivers: "compatible", producers: "compatible" };
const docs: KindInfo = { ...compatible, docs: true };

export const KINDS = {
  "protocol-added": compatible,
  "protocol-removed": { ...breaksBoth, why: "its bindings are gone" },
  "type-added": compatible,
  "type-removed": { ...breaksBoth, why: "code that names the type stops compiling" },
  "root-changed": { ...breaksBoth, why: "a document is now another type" },
  "kind-changed": { ...breaksBoth, why: "the value is now of another kind" },
  "ref-changed": { ...breaksBoth, why: "the value is now another named type" },
  "field-added-optional": compatible,
  "field-added-required": breaksProducers("values built without it are invalid, and its builder requires it"),
  "field-removed-from-open-object": breaksReceivers("code that reads it stops compiling"),
  "field-removed-from-closed-object": { ...breaksBoth, why: "code that reads it stops compiling; values that carry it are invalid" },
  "field-became-required": breaksProducers("values built without it are invalid"),
  "field-became-optional": breaksReceivers("it may be absent, where code relied on it"),
  "object-closed": breaksProducers("properties it does not declare are now invalid"),
  "object-opened": compatible,
  "nullable-added": breaksReceivers("null may arrive"),
  "nullable-removed": breaksProducers("null is now invalid"),
  "member-added": breaksReceivers(
    "an exhaustive match stops compiling until it handles the member; tolerant decoders report it as unrecognized",
  ),
  "member-removed": { ...breaksBoth, why: "handlers and builders for it stop compiling; values of it are invalid" },
  "tag-changed": { ...breaksBoth, why: "members are told apart by another property" },
  "enum-value-added": breaksReceivers("an exhaustive switch stops compiling; older receivers do not know the value"),
  "enum-value-removed": { ...breaksBoth, why: "values of it are invalid, and code that names it stops compiling" },
  "const-changed": { ...breaksBoth, why: "the one valid value is another" },
  "enum-number-changed": { ...breaksBoth, why: "an integer on the wire now means another value" },
  "enum-fallback-changed": compatible,
  "wire-form-added": breaksReceivers("older decoders do not accept the new form"),
  "wire-form-removed": breaksProducers("values sent in that form are invalid"),
  "type-widened": breaksReceivers("values older receivers reject may arrive"),
  "type-narrowed": breaksProducers("values that were valid are not"),
  "constraint-tightened": breaksProducers("values that were valid are not"),
  "constraint-loosened": breaksReceivers("values older receivers reject may arrive"),
  "constraint-changed": { ...breaksBoth, why: "the valid values are neither a subset nor a superset of what they were" },
  "default-changed": { ...breaksBoth, why: "an absent value now means something else" },
  "default-added": docs,
  "default-removed": docs,
  "description-changed": docs,
  "deprecated-added": docs,
  "deprecated-removed": docs,
  "format-changed": { ...docs, why: "format is an annotation: nothing checks it" },
} satisfies Record<string, KindInfo>;

export type ChangeKind = keyof typeof KINDS;

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
  return (KINDS[change.kind] as KindInfo).docs ? "docs" : "compatible";
}
