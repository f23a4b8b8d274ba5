import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { Audience, ChangeKind } from "../../generator/diff/index.js";
import { diffProtocol, KINDS } from "../../generator/diff/index.js";
import type { JsonObject, JsonValue } from "../../generator/json.js";
import { irOf } from "../helpers/in-memory.js";
import { CONFIG_FILE, configFor, generateInto, makeProject } from "../helpers/project.js";

/**
 * The diff's verdicts on the wire, held to what the generated bindings do. Each case is a
 * change of one kind: its old and new `$defs` (type names prefixed by the case, so that all
 * cases share one schema per version and two generations), the type its values are of,
 * values a newer producer sends (valid for the new version) and values an older producer
 * sends (valid for the old). Old bindings read the new values, strictly (`decodeT`'s
 * default, as `isT` judges) and tolerantly; new bindings read the old values strictly.
 * Whoever fails is whom the kind breaks on the wire, and the diff must say so.
 */
interface Case {
  readonly kind: ChangeKind;
  readonly type: string;
  readonly old: JsonObject;
  readonly new: JsonObject;
  /** Values of the new version, sent to older receivers. */
  readonly sent: readonly JsonValue[];
  /** Values of the old version, which older producers still send. */
  readonly kept: readonly JsonValue[];
  readonly overlays?: { readonly old?: readonly JsonObject[]; readonly new?: readonly JsonObject[] };
  /** The type a document is, of each version (one case alone may say, since the cases share one schema). */
  readonly root?: { readonly old: string; readonly new: string };
  /** The values are in a wire form, which only `decodeT` reads: `isT` does not judge them. */
  readonly wire?: true;
}

const object = (properties: JsonObject, required: readonly string[], closed: boolean): JsonObject => ({
  type: "object",
  properties,
  required: [...required],
  ...(closed ? { additionalProperties: false } : {}),
});
const str = { type: "string" };
const tagged = (prefix: string, tag: string, values: readonly string[], closed = true): JsonObject => ({
  [prefix]: { oneOf: values.map((value) => ({ $ref: `#/$defs/${prefix}${value}` })) },
  ...Object.fromEntries(values.map((value) => [`${prefix}${value}`, object({ [tag]: { const: value } }, [tag], closed)])),
});

const CASES: readonly Case[] = [
  {
    kind: "root-changed",
    type: "Doc",
    old: { DocA: str, DocB: { type: "number" } },
    new: { DocA: str, DocB: { type: "number" } },
    root: { old: "DocA", new: "DocB" },
    sent: [1],
    kept: ["a"],
  },
  { kind: "kind-changed", type: "KindT", old: { KindT: str }, new: { KindT: { type: "number" } }, sent: [1], kept: ["a"] },
  {
    kind: "field-added-optional",
    type: "AddOptOpen",
    old: { AddOptOpen: object({ a: str }, ["a"], false) },
    new: { AddOptOpen: object({ a: str, b: str }, ["a"], false) },
    sent: [{ a: "x", b: "y" }],
    kept: [{ a: "x" }],
  },
  {
    kind: "field-added-optional-to-closed-object",
    type: "AddOptClosed",
    old: { AddOptClosed: object({ a: str }, ["a"], true) },
    new: { AddOptClosed: object({ a: str, b: str }, ["a"], true) },
    sent: [{ a: "x", b: "y" }],
    kept: [{ a: "x" }],
  },
  {
    kind: "field-added-required",
    type: "AddReqOpen",
    old: { AddReqOpen: object({ a: str }, ["a"], false) },
    new: { AddReqOpen: object({ a: str, b: str }, ["a", "b"], false) },
    sent: [{ a: "x", b: "y" }],
    kept: [{ a: "x" }],
  },
  {
    kind: "field-added-required-to-closed-object",
    type: "AddReqClosed",
    old: { AddReqClosed: object({ a: str }, ["a"], true) },
    new: { AddReqClosed: object({ a: str, b: str }, ["a", "b"], true) },
    sent: [{ a: "x", b: "y" }],
    kept: [{ a: "x" }],
  },
  {
    kind: "field-removed-from-open-object",
    type: "RemOptOpen",
    old: { RemOptOpen: object({ a: str, b: str }, ["a"], false) },
    new: { RemOptOpen: object({ a: str }, ["a"], false) },
    sent: [{ a: "x" }],
    kept: [{ a: "x", b: "y" }],
  },
  {
    kind: "field-removed-from-closed-object",
    type: "RemOptClosed",
    old: { RemOptClosed: object({ a: str, b: str }, ["a"], true) },
    new: { RemOptClosed: object({ a: str }, ["a"], true) },
    sent: [{ a: "x" }],
    kept: [{ a: "x", b: "y" }],
  },
  {
    kind: "required-field-removed-from-open-object",
    type: "RemReqOpen",
    old: { RemReqOpen: object({ a: str, b: str }, ["a", "b"], false) },
    new: { RemReqOpen: object({ a: str }, ["a"], false) },
    sent: [{ a: "x" }],
    kept: [{ a: "x", b: "y" }],
  },
  {
    kind: "required-field-removed-from-closed-object",
    type: "RemReqClosed",
    old: { RemReqClosed: object({ a: str, b: str }, ["a", "b"], true) },
    new: { RemReqClosed: object({ a: str }, ["a"], true) },
    sent: [{ a: "x" }],
    kept: [{ a: "x", b: "y" }],
  },
  {
    kind: "field-became-required",
    type: "BecameReq",
    old: { BecameReq: object({ a: str, b: str }, ["a"], true) },
    new: { BecameReq: object({ a: str, b: str }, ["a", "b"], true) },
    sent: [{ a: "x", b: "y" }],
    kept: [{ a: "x" }],
  },
  {
    kind: "field-became-optional",
    type: "BecameOpt",
    old: { BecameOpt: object({ a: str, b: str }, ["a", "b"], true) },
    new: { BecameOpt: object({ a: str, b: str }, ["a"], true) },
    sent: [{ a: "x" }],
    kept: [{ a: "x", b: "y" }],
  },
  {
    kind: "object-closed",
    type: "Closing",
    old: { Closing: object({ a: str }, ["a"], false) },
    new: { Closing: object({ a: str }, ["a"], true) },
    sent: [{ a: "x" }],
    kept: [{ a: "x", z: 1 }],
  },
  {
    kind: "object-opened",
    type: "Opening",
    old: { Opening: object({ a: str }, ["a"], true) },
    new: { Opening: object({ a: str }, ["a"], false) },
    sent: [{ a: "x", z: 1 }],
    kept: [{ a: "x" }],
  },
  {
    kind: "nullable-added",
    type: "NullAdded",
    old: { NullAdded: str },
    new: { NullAdded: { type: ["string", "null"] } },
    sent: [null],
    kept: ["a"],
  },
  {
    kind: "nullable-removed",
    type: "NullRemoved",
    old: { NullRemoved: { type: ["string", "null"] } },
    new: { NullRemoved: str },
    sent: ["a"],
    kept: [null],
  },
  {
    kind: "member-added",
    type: "Gains",
    old: tagged("Gains", "kind", ["ping", "pong"]),
    new: tagged("Gains", "kind", ["ping", "pong", "bye"]),
    sent: [{ kind: "bye" }],
    kept: [{ kind: "ping" }],
  },
  {
    kind: "member-removed",
    type: "Loses",
    old: tagged("Loses", "kind", ["ping", "pong", "bye"]),
    new: tagged("Loses", "kind", ["ping", "pong"]),
    sent: [{ kind: "ping" }],
    kept: [{ kind: "bye" }],
  },
  {
    kind: "tag-changed",
    type: "Retag",
    old: {
      Retag: { oneOf: [{ $ref: "#/$defs/RetagA" }, { $ref: "#/$defs/RetagB" }] },
      RetagA: object({ kind: { const: "a" }, type: { const: "x" } }, ["kind", "type"], true),
      RetagB: object({ kind: { const: "b" }, type: { const: "x" } }, ["kind", "type"], true),
    },
    new: {
      Retag: { oneOf: [{ $ref: "#/$defs/RetagA" }, { $ref: "#/$defs/RetagB" }] },
      RetagA: object({ kind: { const: "x" }, type: { const: "a" } }, ["kind", "type"], true),
      RetagB: object({ kind: { const: "x" }, type: { const: "b" } }, ["kind", "type"], true),
    },
    sent: [{ kind: "x", type: "a" }],
    kept: [{ kind: "a", type: "x" }],
  },
  {
    kind: "union-untagged",
    type: "Untag",
    old: {
      Untag: { oneOf: [{ $ref: "#/$defs/UntagA" }, { $ref: "#/$defs/UntagB" }] },
      UntagA: object({ kind: { const: "a" }, v: str }, ["kind", "v"], true),
      UntagB: object({ kind: { const: "b" }, w: str }, ["kind", "w"], true),
    },
    new: {
      Untag: { oneOf: [{ $ref: "#/$defs/UntagA" }, { $ref: "#/$defs/UntagB" }] },
      UntagA: object({ kind: { enum: ["a", "b"] }, v: str }, ["kind", "v"], true),
      UntagB: object({ kind: { enum: ["a", "b"] }, w: str }, ["kind", "w"], true),
    },
    sent: [{ kind: "a", v: "x" }],
    kept: [
      { kind: "a", v: "x" },
      { kind: "b", w: "x" },
    ],
  },
  {
    kind: "enum-value-added",
    type: "EnumGains",
    old: { EnumGains: { enum: ["A", "B"] } },
    new: { EnumGains: { enum: ["A", "B", "C"] } },
    sent: ["C"],
    kept: ["A"],
  },
  {
    kind: "enum-value-removed",
    type: "EnumLoses",
    old: { EnumLoses: { enum: ["A", "B"] } },
    new: { EnumLoses: { enum: ["A"] } },
    sent: ["A"],
    kept: ["B"],
  },
  { kind: "const-changed", type: "Konst", old: { Konst: { const: "a" } }, new: { Konst: { const: "b" } }, sent: ["b"], kept: ["a"] },
  {
    kind: "type-widened",
    type: "Widened",
    old: { Widened: str },
    new: { Widened: { type: ["string", "number"] } },
    sent: [1],
    kept: ["a"],
  },
  {
    kind: "type-narrowed",
    type: "Narrowed",
    old: { Narrowed: { type: ["string", "number"] } },
    new: { Narrowed: str },
    sent: ["a"],
    kept: [1],
  },
  {
    kind: "constraint-tightened",
    type: "Tight",
    old: { Tight: { type: "string", maxLength: 5 } },
    new: { Tight: { type: "string", maxLength: 3 } },
    sent: ["abc"],
    kept: ["abcd"],
  },
  {
    kind: "constraint-loosened",
    type: "Loose",
    old: { Loose: { type: "string", maxLength: 3 } },
    new: { Loose: { type: "string", maxLength: 5 } },
    sent: ["abcd"],
    kept: ["abc"],
  },
  {
    kind: "constraint-changed",
    type: "Pattern",
    old: { Pattern: { type: "string", pattern: "^[a-z]+$" } },
    new: { Pattern: { type: "string", pattern: "^[0-9]+$" } },
    sent: ["1"],
    kept: ["a"],
  },
  {
    kind: "type-extracted",
    type: "Extracting",
    old: { Extracting: object({ a: str }, ["a"], true) },
    new: { Extracting: object({ a: { $ref: "#/$defs/ExtractingA" } }, ["a"], true), ExtractingA: str },
    sent: [{ a: "x" }],
    kept: [{ a: "x" }],
  },
  {
    kind: "default-changed",
    type: "Defaulted",
    old: { Defaulted: { type: "string", default: "a" } },
    new: { Defaulted: { type: "string", default: "b" } },
    sent: ["a", "b"],
    kept: ["a", "b"],
  },
  {
    kind: "format-changed",
    type: "Formatted",
    old: { Formatted: { type: "string", format: "uri" } },
    new: { Formatted: { type: "string", format: "date-time" } },
    sent: ["2020-01-01T00:00:00Z"],
    kept: ["https://example.com"],
  },
  {
    kind: "enum-value-added-with-fallback",
    type: "EnumFallback",
    old: { EnumFallback: { enum: ["UNKNOWN", "A"] } },
    new: { EnumFallback: { enum: ["UNKNOWN", "A", "B"] } },
    overlays: {
      old: [{ at: "/$defs/EnumFallback", fallback: "UNKNOWN", because: "test" }],
      new: [{ at: "/$defs/EnumFallback", fallback: "UNKNOWN", because: "test" }],
    },
    sent: ["B"],
    kept: ["A"],
  },
  {
    kind: "enum-fallback-changed",
    type: "Fallbacks",
    old: { Fallbacks: { enum: ["UNKNOWN", "OTHER", "A"] } },
    new: { Fallbacks: { enum: ["UNKNOWN", "OTHER", "A"] } },
    overlays: {
      old: [{ at: "/$defs/Fallbacks", fallback: "UNKNOWN", because: "test" }],
      new: [{ at: "/$defs/Fallbacks", fallback: "OTHER", because: "test" }],
    },
    sent: ["A", "OTHER"],
    kept: ["A", "UNKNOWN"],
  },
  {
    kind: "enum-number-changed",
    type: "Numbered",
    old: { Numbered: { anyOf: [{ type: "string", enum: ["N_UNSPECIFIED", "N_ON"] }, { type: "integer" }] } },
    new: { Numbered: { anyOf: [{ type: "string", enum: ["N_UNSPECIFIED", "N_ON"] }, { type: "integer" }] } },
    overlays: {
      old: [{ at: "/$defs/Numbered", enumNumbers: { N_UNSPECIFIED: 0, N_ON: 1 }, because: "test" }],
      new: [{ at: "/$defs/Numbered", enumNumbers: { N_UNSPECIFIED: 0, N_ON: 2 }, because: "test" }],
    },
    wire: true,
    sent: [2],
    kept: [1],
  },
  {
    kind: "field-added-optional-unlike-other-properties",
    type: "AddToTypedRest",
    old: { AddToTypedRest: { type: "object", properties: { a: str }, additionalProperties: str } },
    new: { AddToTypedRest: { type: "object", properties: { a: str, b: { type: "number" } }, additionalProperties: str } },
    sent: [{ a: "x", b: 1 }],
    kept: [{ a: "x" }],
  },
  {
    kind: "wire-form-added",
    type: "AliasAdded",
    old: { AliasAdded: { type: "object", properties: { taskId: str }, required: ["taskId"] } },
    new: { AliasAdded: { type: "object", properties: { taskId: str }, required: ["taskId"], patternProperties: { "^(task_id)$": str } } },
    wire: true,
    sent: [{ task_id: "x" }],
    kept: [{ taskId: "x" }],
  },
  {
    kind: "wire-form-removed",
    type: "AliasRemoved",
    old: { AliasRemoved: { type: "object", properties: { taskId: str }, required: ["taskId"], patternProperties: { "^(task_id)$": str } } },
    new: { AliasRemoved: { type: "object", properties: { taskId: str }, required: ["taskId"] } },
    wire: true,
    sent: [{ taskId: "x" }],
    kept: [{ task_id: "x" }],
  },
  {
    kind: "union-tagged",
    type: "Tag",
    old: {
      Tag: { oneOf: [{ $ref: "#/$defs/TagA" }, { $ref: "#/$defs/TagB" }] },
      TagA: object({ kind: { enum: ["a", "b"] }, v: str }, ["kind", "v"], true),
      TagB: object({ kind: { enum: ["a", "b"] }, w: str }, ["kind", "w"], true),
    },
    new: {
      Tag: { oneOf: [{ $ref: "#/$defs/TagA" }, { $ref: "#/$defs/TagB" }] },
      TagA: object({ kind: { const: "a" }, v: str }, ["kind", "v"], true),
      TagB: object({ kind: { const: "b" }, w: str }, ["kind", "w"], true),
    },
    sent: [
      { kind: "a", v: "x" },
      { kind: "b", w: "x" },
    ],
    kept: [{ kind: "a", v: "x" }],
  },
  {
    kind: "type-inlined",
    type: "Inlining",
    old: { Inlining: object({ a: { $ref: "#/$defs/InliningA" } }, ["a"], true), InliningA: str },
    new: { Inlining: object({ a: str }, ["a"], true), InliningA: str },
    sent: [{ a: "x" }],
    kept: [{ a: "x" }],
  },
  {
    kind: "ref-changed",
    type: "Refers",
    old: { Refers: object({ a: { $ref: "#/$defs/RefersA" } }, ["a"], true), RefersA: str, RefersB: str },
    new: { Refers: object({ a: { $ref: "#/$defs/RefersB" } }, ["a"], true), RefersA: str, RefersB: str },
    sent: [{ a: "x" }],
    kept: [{ a: "x" }],
  },
  {
    kind: "description-changed",
    type: "Described",
    old: { Described: { type: "string", description: "a" } },
    new: { Described: { type: "string", description: "b" } },
    sent: ["a"],
    kept: ["a"],
  },
  {
    kind: "field-added-required-unlike-other-properties",
    type: "AddReqToTypedRest",
    old: { AddReqToTypedRest: { type: "object", properties: { a: str }, additionalProperties: str } },
    new: {
      AddReqToTypedRest: { type: "object", properties: { a: str, b: { type: "number" } }, required: ["b"], additionalProperties: str },
    },
    sent: [{ a: "x", b: 1 }],
    kept: [{ a: "x" }],
  },
  {
    kind: "field-added-optional",
    type: "AddLikeOthers",
    old: { AddLikeOthers: { type: "object", properties: { a: str }, additionalProperties: str } },
    new: { AddLikeOthers: { type: "object", properties: { a: str, b: str }, additionalProperties: str } },
    sent: [{ a: "x", b: "y" }],
    kept: [{ a: "x" }],
  },
  {
    kind: "field-removed-from-closed-object",
    type: "RemToTypedRest",
    old: { RemToTypedRest: { type: "object", properties: { a: str, b: str }, additionalProperties: { type: "number" } } },
    new: { RemToTypedRest: { type: "object", properties: { a: str }, additionalProperties: { type: "number" } } },
    sent: [{ a: "x" }],
    kept: [{ a: "x", b: "y" }],
  },
  {
    kind: "member-added",
    type: "Frame",
    old: { Frame: object({ task: str, message: str, status: str }, [], true) },
    new: { Frame: object({ task: str, message: str, status: str }, [], true) },
    overlays: {
      old: [{ at: "/$defs/Frame", exactlyOne: ["task", "message"], because: "test" }],
      new: [{ at: "/$defs/Frame", exactlyOne: ["task", "message", "status"], because: "test" }],
    },
    sent: [{ status: "x" }],
    kept: [{ task: "x" }],
  },
  {
    kind: "deprecated-added",
    type: "Deprecating",
    old: { Deprecating: str },
    new: { Deprecating: { type: "string", deprecated: true } },
    sent: ["a"],
    kept: ["a"],
  },
  {
    kind: "default-added",
    type: "DefaultAdded",
    old: { DefaultAdded: object({ a: str }, [], true) },
    new: { DefaultAdded: object({ a: { type: "string", default: "x" } }, [], true) },
    sent: [{}],
    kept: [{}],
  },
  {
    kind: "deprecated-removed",
    type: "Undeprecating",
    old: { Undeprecating: { type: "string", deprecated: true } },
    new: { Undeprecating: str },
    sent: ["a"],
    kept: ["a"],
  },
  {
    kind: "default-removed",
    type: "DefaultRemoved",
    old: { DefaultRemoved: object({ a: { type: "string", default: "x" } }, [], true) },
    new: { DefaultRemoved: object({ a: str }, [], true) },
    sent: [{}],
    kept: [{}],
  },
];

interface Bindings {
  readonly decode: (type: string, value: JsonValue, mode: "strict" | "tolerant") => boolean;
  readonly is: (type: string, value: JsonValue) => boolean;
}

/** A case's version as a schema: its `$defs`, and its root if it has one. */
const schemaOf = (each: Case, side: "old" | "new"): JsonObject => ({
  ...(each.root === undefined ? {} : { title: each.type, $ref: `#/$defs/${each.root[side]}` }),
  $defs: each[side],
});
const merged = (side: "old" | "new"): JsonObject =>
  Object.assign({}, ...CASES.map((each) => schemaOf(each, side)), {
    $defs: Object.assign({}, ...CASES.map((each) => each[side])) as JsonObject,
  });

let versions: { old: Bindings; new: Bindings };

beforeAll(async () => {
  const root = makeProject({
    [CONFIG_FILE]: configFor(
      (["old", "new"] as const).map((name) => ({
        name,
        schema: `schemas/${name}.schema.json`,
        overlays: [`schemas/overlays/${name}.json`],
      })),
    ),
    "schemas/old.schema.json": merged("old"),
    "schemas/new.schema.json": merged("new"),
    "schemas/overlays/old.json": { facts: CASES.flatMap((each) => each.overlays?.old ?? []) },
    "schemas/overlays/new.json": { facts: CASES.flatMap((each) => each.overlays?.new ?? []) },
  });
  await generateInto(root);
  const bindings = async (name: string): Promise<Bindings> => {
    const index = (await import(path.join(root, `generated/src/${name}/index.ts`))) as Record<string, (...args: unknown[]) => unknown>;
    return {
      decode: (type, value, mode) => (index[`decode${type}`]!(value, { mode }) as { ok: boolean }).ok,
      is: (type, value) => index[`is${type}`]!(value) as boolean,
    };
  };
  versions = { old: await bindings("old"), new: await bindings("new") };
}, 60_000);

/** Whom a case's values broke: receivers (strict and tolerant alike), strict receivers alone, producers. */
function observed({ type: named, sent, kept, wire, root }: Case): Audience[] {
  const { old, new: next } = versions;
  // A document's values are of the root's type of each version.
  const typeOf = (bindings: Bindings) => (root === undefined ? named : root[bindings === old ? "old" : "new"]);
  // Strictly, as `decodeT` reads by default and, of canonical values, as `isT` judges.
  const strictly = (bindings: Bindings, value: JsonValue) => {
    const type = typeOf(bindings);
    const decoded = bindings.decode(type, value, "strict");
    if (wire === undefined) expect(bindings.is(type, value), `is${type}(${JSON.stringify(value)})`).toBe(decoded);
    return decoded;
  };
  for (const value of sent) expect(strictly(next, value), `${named} sends ${JSON.stringify(value)}`).toBe(true);
  for (const value of kept) expect(strictly(old, value), `${named} kept ${JSON.stringify(value)}`).toBe(true);
  const strict = sent.some((value) => !strictly(old, value));
  const tolerant = sent.some((value) => !old.decode(typeOf(old), value, "tolerant"));
  const producers = kept.some((value) => !strictly(next, value));
  return [
    ...(tolerant ? ["receivers" as const] : strict ? ["strict-receivers" as const] : []),
    ...(producers ? ["producers" as const] : []),
  ];
}

/** The kinds whose values no case here can run: one side has no bindings of them. */
const UNAUDITED: Readonly<Partial<Record<ChangeKind, string>>> = {
  "protocol-added": "the old version has no bindings",
  "protocol-removed": "the new version has no bindings",
  "type-added": "the old version has no bindings of the type, and no value of another type changes",
  "type-removed": "the new version has no bindings of the type, and no value of another type changes",
};

describe("the diff's verdicts on the wire are what the bindings do", () => {
  it("has a case for every kind of change but those no bindings can run", () => {
    const audited = new Set<string>([...CASES.map((each) => each.kind), ...Object.keys(UNAUDITED)]);
    expect(Object.keys(KINDS).filter((kind) => !audited.has(kind))).toEqual([]);
  });

  it.each(CASES.map((each) => [`${each.kind} (${each.type})`, each] as const))("%s", (_, each) => {
    const changes = diffProtocol(
      "test",
      irOf(schemaOf(each, "old"), each.overlays?.old ?? []),
      irOf(schemaOf(each, "new"), each.overlays?.new ?? []),
    ).changes;
    const change = changes.find((candidate) => candidate.kind === each.kind);
    expect(change, JSON.stringify(changes.map((candidate) => candidate.kind))).toBeDefined();
    expect(change!.breaks.wire).toEqual(observed(each));
  });
});
