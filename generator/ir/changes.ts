import kinds from "./changes.json" with { type: "json" };
// The table's type by a type-only import, which the declarations keep: TypeScript 7 writes
// a value import of JSON into them without its `with { type: "json" }`, which nodenext refuses.
import type table from "./changes.json";

/**
 * The kinds of change a schema update can make, each classified the way `buf breaking`
 * sorts its rules: per category of break, for each of the two audiences of the bindings.
 *
 * Audiences:
 * - receivers decode, check and match what arrives. They come in two kinds, since the
 *   bindings read in two modes: strict receivers (`isT`, `validateT`, and `decodeT` by
 *   default) accept exactly what the schema accepts, so a closed object refuses a property
 *   it does not declare; tolerant ones (`decodeT(input, { mode: "tolerant" })`) drop such a
 *   property and read an enum value they do not know as the overlay's fallback, if it has
 *   one. A break lists `receivers` where it breaks both kinds, `strict-receivers` where it
 *   breaks the strict ones alone (a tolerant receiver breaks on nothing a strict one does not);
 * - producers build and send.
 *
 * Categories:
 * - wire: which JSON values are valid. A change breaks receivers when a newer sender may
 *   send what they reject, and producers when what they send is no longer valid.
 * - source: TypeScript that names a type, calls a builder or matches exhaustively stops
 *   compiling (in source, strict and tolerant receivers are the same code).
 * - behaviour: what the values mean where they do not show it (a default, a format).
 */

export type Audience = "receivers" | "strict-receivers" | "producers";
export type Category = "wire" | "source" | "behaviour";

export const AUDIENCES: readonly Audience[] = ["receivers", "strict-receivers", "producers"];
export const CATEGORIES: readonly Category[] = ["wire", "source", "behaviour"];

/** A break in one category: whom it breaks, and why, in words. */
export interface Break {
  readonly breaks: readonly Audience[];
  readonly why: string;
}

export type KindInfo = { readonly [category in Category]?: Break } & {
  /** A change to documentation only: nothing a program does changes. */
  readonly docs?: true;
};

/** The kinds and their breaks, a table kept as data (`changes.json`): one row per kind. */
export const KINDS: Readonly<Record<ChangeKind, KindInfo>> = kinds as Record<ChangeKind, KindInfo>;

export type ChangeKind = keyof typeof table;

/** Per category, the audiences a change breaks (none, when it is compatible there). */
export type Breaks = Readonly<Record<Category, readonly Audience[]>>;

/** One difference between two versions of a protocol, in the IR's terms. */
export interface Change {
  readonly kind: ChangeKind;
  /** Where, as a JSON Pointer into the effective schema (the new one, or the old for what was removed). */
  readonly pointer: string;
  /** What changed, in words: `Event gains the member UserInterruptEvent ("USER_INTERRUPT")`. */
  readonly message: string;
  readonly breaks: Breaks;
}

/** A change of `kind`, classified with the breaks its kind has. */
export function classified(kind: ChangeKind, pointer: string, message: string): Change {
  const info = KINDS[kind];
  const breaks = Object.fromEntries(CATEGORIES.map((category) => [category, info[category]?.breaks ?? []])) as Breaks;
  return { kind, pointer, message, breaks };
}

/**
 * breaking if it breaks an audience on the wire or in source; behaviour if it breaks one
 * only in meaning; docs if it changes nothing but documentation.
 */
export type Severity = "breaking" | "behaviour" | "compatible" | "docs";

export function severity({ kind, breaks }: Change): Severity {
  if (breaks.wire.length > 0 || breaks.source.length > 0) return "breaking";
  if (breaks.behaviour.length > 0) return "behaviour";
  return KINDS[kind].docs ? "docs" : "compatible";
}

/** The changes to one protocol between two versions; either side may not have it. */
export interface ProtocolDiff {
  readonly protocol: string;
  readonly changes: readonly Change[];
}
