import type { AssemblyPlan, Condition, KeyPaths, Plans, Selector, StreamRule, Transport } from "../../templates/stream/tables.js";
import { InputError } from "../errors.js";
import type { JsonValue } from "../json.js";
import { isJsonObject } from "../json.js";
import type { LoadedProtocol } from "../load/index.js";
import { isMatchable } from "../ir/members.js";
import type { NamedIr } from "../name/index.js";
import { appendPointer } from "../pointer.js";
import type { KeyFact, RuleFact, SelectorFact, SnapshotField, StepFact, StreamFacts } from "./facts.js";
import { readStreamFacts } from "./facts.js";
import type { AssemblyStep } from "./assembly.js";
import { planAssembly } from "./assembly.js";
import { plansOf } from "./plan.js";

export type { StreamFacts } from "./facts.js";

/**
 * A protocol's stream, compiled from its facts for the emitter: how events are told
 * apart, and the tables the runtime runs, typed by its declarations of them
 * (`templates/stream/tables.ts`): how events are sent, the rules, the assembly steps.
 */
export interface CompiledStream {
  /** The root type: every event is one. */
  readonly event: string;
  /** How an event's kind is read: a tag's value, or which member of a keyed union is present. */
  readonly discriminant: { readonly tag: string } | { readonly members: readonly string[] };
  readonly transport: Transport;
  /** Where the prose says how the stream is sent. */
  readonly because: string;
  readonly rules: readonly StreamRule[];
  /** The rules compiled per event kind, each plan's steps holding the rules of `rules` themselves. */
  readonly plans: Plans;
  /** What the stream builds, when the facts say: the snapshot's fields and the steps. */
  readonly assembly?: {
    readonly snapshot: readonly Omit<SnapshotField, "pointer">[];
    readonly steps: readonly AssemblyStep[];
    /** The steps compiled for the runtime, each of `steps` in its order. */
    readonly plan: AssemblyPlan;
  };
}

/** The stream facts of a protocol's overlays, checked against its IR; none when it states none. */
export function compileStream(protocol: LoadedProtocol, ir: NamedIr): CompiledStream | undefined {
  const sections = protocol.overlays.flatMap((overlay) =>
    isJsonObject(overlay.document) && "stream" in overlay.document
      ? [readStreamFacts(overlay.document["stream"]!, overlay.file, "/stream")]
      : [],
  );
  if (sections.length === 0) return undefined;
  const facts = sections[0]!;
  if (sections.length > 1)
    throw new InputError({ file: sections[1]!.file, pointer: sections[1]!.pointer }, `the stream is already stated in ${facts.file}`);
  const fail = (pointer: string, problem: string, hint?: string): never => {
    throw new InputError({ file: facts.file, pointer }, problem, hint);
  };
  const typeName = facts.event ?? ir.root;
  const root = ir.types.find((type) => type.name === typeName);
  if (root === undefined)
    return fail(
      facts.event === undefined ? facts.pointer : appendPointer(facts.pointer, "event"),
      facts.event === undefined
        ? 'the schema has no root type: name the type of the events in "event"'
        : `no type is named "${facts.event}"`,
    );
  const shape = root.shape;
  if (!isMatchable(shape))
    return fail(facts.pointer, `a stream's events are told apart by a tag or a keyed member, and ${root.name} is neither`);
  const kinds =
    shape.kind === "tagged-union" ? shape.members.map((member) => String(member.value)) : shape.members.map((member) => member.name);
  const discriminant = shape.kind === "tagged-union" ? { tag: shape.tag } : { members: kinds };
  const rules = compileRules(facts, kinds, fail);
  return {
    event: root.name,
    discriminant,
    transport: {
      framing: facts.framing,
      jsonRpc: facts.jsonRpc,
      ...(facts.errorEvent === undefined ? {} : { errorEvent: facts.errorEvent }),
    },
    because: facts.because,
    rules,
    plans: plansOf(rules),
    ...(facts.assembly === undefined
      ? {}
      : { assembly: compileAssembly(facts, rules, kinds, new Set(ir.types.map((type) => type.name)), fail) }),
  };
}

function compileRules(
  facts: StreamFacts,
  kinds: readonly string[],
  fail: (pointer: string, problem: string, hint?: string) => never,
): StreamRule[] {
  const spans = new Set(facts.rules.flatMap((rule) => (rule.kind === "span" ? [rule.name] : [])));
  const names = new Set<string>();
  for (const rule of facts.rules) {
    if (names.has(rule.name)) fail(appendPointer(rule.pointer, "name"), `another rule is named "${rule.name}"`);
    names.add(rule.name);
  }
  const span = (name: string, pointer: string): string =>
    spans.has(name) ? name : fail(pointer, `no span rule is named "${name}"`, `the span rules: ${[...spans].join(", ") || "none"}`);
  // A chunk's lane is its span's instance by the chunk's key alone, which an owner would split.
  const owned = new Set(facts.rules.flatMap((rule) => (rule.kind === "span" && rule.owner !== undefined ? [rule.name] : [])));
  for (const rule of facts.rules)
    if (rule.kind === "chunk" && owned.has(rule.span))
      fail(appendPointer(rule.pointer, "chunk", "span"), `the span "${rule.span}" has an owner, and a chunk's lane has none`);
  const event = (kind: string, pointer: string): string => eventKind(kind, pointer, kinds, fail);
  const selectors = (list: readonly SelectorFact[]): Selector[] => compileSelectors(list, kinds, fail);
  const key = (fact: KeyFact, pointer: string): KeyPaths =>
    Object.fromEntries(
      Object.entries(fact).map(([kind, path]) => [kind === "*" ? kind : event(kind, appendPointer(pointer, kind)), [...path]]),
    );
  return facts.rules.map((rule: RuleFact): StreamRule => {
    const base = { name: rule.name, because: rule.because };
    const at = (...tokens: string[]) => appendPointer(rule.pointer, ...tokens);
    switch (rule.kind) {
      case "first":
        return {
          kind: rule.kind,
          ...base,
          events: selectors(rule.events),
          ...(rule.resumed === undefined ? {} : { resumed: selectors(rule.resumed) }),
        };
      case "only-first":
        return { kind: rule.kind, ...base, events: selectors(rule.events) };
      case "terminal":
        return { kind: rule.kind, ...base, events: selectors(rule.events), required: rule.required };
      case "inside":
        return { kind: rule.kind, ...base, span: span(rule.span, at("inside")), except: selectors(rule.except) };
      case "span":
        return {
          kind: rule.kind,
          ...base,
          opens: selectors(rule.opens),
          continues: selectors(rule.continues),
          closes: selectors(rule.closes),
          aborts: selectors(rule.aborts),
          ...(rule.key === undefined ? {} : { key: key(rule.key, at("span", "key")) }),
          ...(rule.owner === undefined ? {} : { owner: key(rule.owner, at("span", "owner")) }),
          ...(rule.attribution === undefined ? {} : { attribution: key(rule.attribution, at("span", "attribution")) }),
          ...(rule.within === undefined ? {} : { within: span(rule.within, at("span", "within")) }),
          implicit: rule.implicit,
          resumable: rule.resumable,
          once: rule.once,
          reopens: rule.reopens,
        };
      case "refers":
        return {
          kind: rule.kind,
          ...base,
          events: selectors(rule.events),
          key: key(rule.key, at("refers", "key")),
          to: selectors(rule.to),
          toKey: key(rule.toKey, at("refers", "toKey")),
          ...(rule.shownBy === undefined ? {} : { shownBy: key(rule.shownBy, at("refers", "shownBy")) }),
          ...(rule.request === undefined ? {} : { request: [...rule.request] }),
        };
      case "chunk":
        return {
          kind: rule.kind,
          ...base,
          events: selectors(rule.events),
          span: span(rule.span, at("chunk", "span")),
          key: key(rule.key, at("chunk", "key")),
          passThrough: selectors(rule.passThrough),
          ...(rule.standsFor === undefined ? {} : { standsFor: rule.standsFor }),
        };
    }
  });
}

function compileAssembly(
  facts: StreamFacts,
  rules: readonly StreamRule[],
  kinds: readonly string[],
  types: ReadonlySet<string>,
  fail: (pointer: string, problem: string, hint?: string) => never,
): NonNullable<CompiledStream["assembly"]> {
  const assembly = facts.assembly!;
  const snapshot = assembly.snapshot.map(({ name, type, list, nullable, partial, initial, pointer }) => {
    if (type !== "unknown" && !types.has(type))
      fail(appendPointer(pointer, "type"), `no type is named "${type}"`, 'name a type of the schema, or "unknown"');
    return { name, type, list, nullable, partial, initial };
  });
  const fields = new Set(snapshot.map(({ name }) => name));
  const names = new Set(facts.rules.map((rule) => rule.name));
  const steps = assembly.steps.map((step): AssemblyStep => {
    if (names.has(step.name)) fail(appendPointer(step.pointer, "name"), `another rule or step is named "${step.name}"`);
    names.add(step.name);
    if (!fields.has(step.path[0] as string))
      fail(
        appendPointer(step.pointer, step.verb, 0),
        `the snapshot has no field "${String(step.path[0])}"`,
        `its fields: ${[...fields].join(", ")}`,
      );
    return {
      name: step.name,
      because: step.because,
      on: compileSelectors(step.on, kinds, fail),
      action: action(step),
    };
  });
  return { snapshot, steps, plan: planAssembly(steps, rules) };
}

/** Selectors as the engines read them, each event kind checked to be one of the stream's. */
function compileSelectors(
  list: readonly SelectorFact[],
  kinds: readonly string[],
  fail: (pointer: string, problem: string, hint?: string) => never,
): Selector[] {
  return list.map((selector) => ({
    event: eventKind(
      selector.event,
      selector.where.length + selector.unless.length === 0 ? selector.pointer : appendPointer(selector.pointer, "event"),
      kinds,
      fail,
    ),
    ...(selector.where.length === 0 ? {} : { where: selector.where.map(condition) }),
    ...(selector.unless.length === 0 ? {} : { unless: selector.unless.map(condition) }),
  }));
}

function eventKind(
  kind: string,
  pointer: string,
  kinds: readonly string[],
  fail: (pointer: string, problem: string, hint?: string) => never,
): string {
  return kinds.includes(kind) ? kind : fail(pointer, `"${kind}" is not an event of the stream`, `its kinds: ${kinds.join(", ")}`);
}

function condition({ path, values }: { readonly path: readonly string[]; readonly values: readonly JsonValue[] }): Condition {
  return { path: [...path], values: [...values] };
}

/** A step's action, its verb a tag: a key where the verb tells elements apart by one, as the reader of the facts made sure. */
function action({ verb, path, key, value }: StepFact): AssemblyStep["action"] {
  return verb === "add" || verb === "merge" ? { verb, path: [...path], key: key!, value } : { verb, path: [...path], value };
}
