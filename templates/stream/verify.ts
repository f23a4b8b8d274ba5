// Verifying a stream: the ordering rules the protocol's prose states, each event checked
// by the rules its kind's plan names. Copied from templates/stream/verify.ts by agentwire.

import type { StreamResult, Violation } from "./result.js";
import {
  describe,
  found,
  instanceOf,
  keyAt,
  keysAt,
  matchesAny,
  matchesKind,
  valueAt,
  words,
} from "./select.js";
import type {
  ChunkRule,
  ChunkStep,
  FirstRule,
  Plan,
  Plans,
  RefersRule,
  RefersStep,
  SpanRule,
  SpanStep,
  StreamRule,
  TerminalRule,
} from "./tables.js";

/** Checks events one at a time, in order, and the end of the stream. */
export interface Verifier<T> {
  /** The first rule this event breaks, if any; the verifier's state moves on either way. */
  push(event: T): Violation | undefined;
  /**
   * An event of the stream that it is not given: one the reader could not read or decode
   * (a fault, an invalid event), reported as that. It is counted, so that events keep their
   * indices in the stream, and not checked: the event after it is not the stream's first.
   */
  skip(): void;
  /**
   * What the end of the stream breaks: a span never closed, a required last event missing.
   * Give it the reader's last result: where that is the transport's error report (an SSE
   * `event: error`, a JSON-RPC error response), the stream ended with the failure it reports,
   * and what did not come is no violation.
   */
  end(last?: StreamResult<T>): Violation | undefined;
}

export interface VerifyOptions {
  /** The stream resumes a run after a reconnection: its first event may be what the facts allow then. */
  readonly resumed?: boolean;
  /**
   * The request that opened the stream (AG-UI's RunAgentInput), where the facts say what
   * it carries (a refers rule's `request`): the tool calls of its messages, which a result
   * may answer. Given, the conversation is shown from the start.
   */
  readonly request?: unknown;
  /**
   * The most the verifier keeps for one stream, in bytes as it counts them (16 MiB unless
   * given; `Infinity` for no bound). What grows with a stream is the keys it holds: the
   * instances of spans still open, the keys a `once` span has ended (a span implicit in the
   * stream: every key it has ended), and the keys a `refers` rule may name. Each costs 64,
   * and 2 a UTF-16 code unit of the key (and of its opener's, where a span checks
   * attribution): some 120,000 ids of 36 characters. The event that would pass the bound
   * is a `max-memory` violation, whatever else it breaks, and the verifier checks nothing
   * after it, nor the end: to go on it would have to forget keys, and could then be wrong
   * either way.
   */
  readonly maxMemory?: number;
}

/** The open and the closed keys of a span. */
interface SpanState {
  readonly rule: SpanRule;
  /** Whether it may be continued or closed without being opened, in this stream. */
  readonly implicit: boolean;
  readonly open: Map<string, number>;
  /**
   * A key known to be open, the last one asked: events mostly continue the span the last
   * one did, and comparing their key with it costs less than hashing it, a new string each
   * time (bench/stream.bench.js). Forgotten when it closes.
   */
  known: string | undefined;
  /** Per open key, the owner its opener named (rules with an attribution). */
  readonly openers: Map<string, string | undefined>;
  readonly closed: Set<string>;
  /** Where the last instance closed, for messages. */
  lastClosed: number;
  /** The spans inside this one, in the order of the rules. */
  readonly inner: SpanState[];
}

/**
 * A verifier of events against a stream's rules, by their plans per kind (the generator
 * compiles them). Each event is looked at by the rules that name its kind, so a push
 * costs O(1) apart from the spans it closes.
 */
export function verifier<T>(
  rules: readonly StreamRule[],
  plans: Plans,
  kindOf: (event: T) => string,
  options: VerifyOptions = {},
): Verifier<T> {
  const { maxMemory } = options;
  if (maxMemory !== undefined && !(maxMemory >= 0))
    throw new RangeError(
      `maxMemory is a number of bytes, 0 or more (Infinity for no bound), not ${maxMemory}`,
    );
  return new RuleVerifier(
    rules,
    plans,
    kindOf as (event: unknown) => string,
    options,
  ) as Verifier<T>;
}

/** No event's index. */
const NONE = -2;

const MAX_MEMORY = 16 * 1024 * 1024;

/** What a key (or an opener's key) costs of maxMemory: its entry, and its text. */
function sizeOf(key: string | undefined): number {
  return 64 + 2 * (key === undefined ? 0 : key.length);
}

class RuleVerifier implements Verifier<unknown> {
  private index = -1;
  private terminal:
    | { readonly kind: string; readonly index: number; readonly rule: string }
    | undefined;
  /** Per span rule, in their order, its state. */
  private readonly spans: SpanState[];
  /** Per refers rule, whether every key there is has been shown, so that one not seen is a violation. */
  private readonly shown: boolean[];
  /** Per refers rule, whether it was given the request's keys. */
  private readonly requested: readonly boolean[];
  /** Per refers rule, in their order, the keys seen. */
  private readonly seen: Set<string>[];
  private readonly lanes = new Map<ChunkRule, string>();
  private violation: Violation | undefined;
  private lastKind: string | undefined;
  private lastPlan: Plan;
  /** The last event that found all in order and changed nothing (see Plan.repeats), and its values at the paths. */
  private repeated = NONE;
  private readonly repeatedValues: unknown[] = [];
  /** What the keys held cost, as maxMemory counts it; past the bound, the verifier is full, and checks nothing. */
  private kept = 0;
  private readonly maxMemory: number;
  private full = false;

  constructor(
    private readonly rules: readonly StreamRule[],
    private readonly plans: Plans,
    private readonly kindOf: (event: unknown) => string,
    private readonly options: VerifyOptions,
  ) {
    this.lastPlan = this.plans.unnamed;
    this.spans = rules
      .filter((rule) => rule.kind === "span")
      .map((rule) => ({
        rule,
        implicit: rule.implicit || (options.resumed === true && rule.resumable),
        open: new Map(),
        known: undefined,
        openers: new Map(),
        closed: new Set(),
        lastClosed: -1,
        inner: [],
      }));
    for (const state of this.spans)
      for (const inner of this.spans)
        if (inner.rule.within === state.rule.name) state.inner.push(inner);
    this.maxMemory = options.maxMemory ?? MAX_MEMORY;
    const refersRules = rules.filter(
      (rule): rule is RefersRule => rule.kind === "refers",
    );
    this.seen = refersRules.map(() => new Set());
    const { request } = options;
    this.requested = refersRules.map(
      (rule) => request !== undefined && rule.request !== undefined,
    );
    this.shown = refersRules.map(
      (rule, i) => rule.shownBy === undefined || this.requested[i]!,
    );
    refersRules.forEach((rule, i) => {
      if (!this.requested[i]) return;
      for (const key of keysAt(rule.request, request))
        if (!this.seen[i]!.has(key) && this.keep(sizeOf(key)))
          this.seen[i]!.add(key);
    });
  }

  push(event: unknown): Violation | undefined {
    const index = ++this.index;
    if (this.full) return undefined;
    this.violation = undefined;
    const kind = this.kindOf(event);
    if (this.terminal !== undefined)
      return this.report(
        this.terminal.rule,
        `${kind} came after ${this.terminal.kind} (event ${this.terminal.index}), which ends the stream`,
      );
    // Mostly the kind of the event before (deltas come in runs), which is compared, not hashed.
    if (kind !== this.lastKind) {
      this.lastKind = kind;
      this.lastPlan = this.plans.byKind.get(kind) ?? this.plans.unnamed;
      this.repeated = NONE;
    }
    const plan = this.lastPlan;
    const { repeats } = plan;
    // Mostly the next delta of the same span as the event before: in order as that was.
    // The generator's `same` reads each key where the engine caches how (a property by
    // its name), as a loop over the paths cannot: 46 to 27 ns a push, the recording of
    // bench/stream.bench.js pushed alone; 1.03-1.08x on the bench's pipelines.
    if (
      repeats !== undefined &&
      this.repeated === index - 1 &&
      (repeats.same === undefined
        ? this.sameValues(repeats.paths, event)
        : repeats.same(
            event as Readonly<Record<string, unknown>>,
            this.repeatedValues,
          ))
    ) {
      this.repeated = index;
      return undefined;
    }
    // In phases, whatever order the facts come in: chunks stand for events that the others
    // then see; what may come where is asked before spans open and close; terminals last.
    // A chunk rule with no lane open does nothing for an event that is no chunk.
    if (plan.chunked || this.lanes.size > 0)
      for (const step of plan.chunks) this.chunk(step, event, kind);
    for (const check of plan.checks) {
      if (check.kind === "first") {
        const { rule } = check;
        const allowed =
          this.options.resumed === true && rule.resumed !== undefined
            ? rule.resumed
            : rule.events;
        if (index === 0 && !matchesAny(allowed, event, kind)) {
          // A reconnected stream starts in the run's state, which the facts may allow then.
          const resumed =
            this.options.resumed !== true && rule.resumed !== undefined
              ? `; a stream that resumes a run may start with ${describe(rule.resumed)} (the verifier's resumed option, verify --resumed)`
              : "";
          this.report(
            rule.name,
            `the stream starts with ${found(allowed, event, kind)}; its first event must be ${describe(allowed)}${resumed}`,
          );
        }
      } else if (check.kind === "only-first") {
        if (index > 0 && matchesKind(check.events, event, kind))
          this.report(
            check.rule.name,
            `${kind} may only be the first event, and this is event ${index}`,
          );
      } else {
        const span = this.spans[check.span]!;
        if (span.open.size === 0 && !matchesKind(check.except, event, kind))
          this.report(
            check.rule.name,
            `${kind} must come inside a ${words(check.rule.span)}, and none is open` +
              (span.lastClosed === -1
                ? ""
                : ` (the last one ended at event ${span.lastClosed})`),
          );
      }
    }
    for (const step of plan.spans) {
      if (step.kind === "span") this.span(step, event, kind, index);
      else this.refers(step, event, kind);
    }
    for (const terminal of plan.terminals)
      if (matchesKind(terminal.events, event, kind))
        this.terminal = { kind, index, rule: terminal.rule.name };
    // Not the first event, which is asked more than the next. A chunk's lane this one ended
    // stays ended: the next finds the spans as this one left them.
    if (repeats !== undefined && index > 0 && this.violation === undefined) {
      this.repeated = index;
      const { paths } = repeats;
      for (let i = 0; i < paths.length; i++)
        this.repeatedValues[i] = valueAt(event, paths[i]!);
    }
    return this.violation;
  }

  /** Whether an event has the values the last one had at the paths (see Repeats.same). */
  private sameValues(
    paths: readonly (readonly string[])[],
    event: unknown,
  ): boolean {
    for (let i = 0; i < paths.length; i++)
      if (valueAt(event, paths[i]!) !== this.repeatedValues[i]) return false;
    return true;
  }

  skip(): void {
    this.index++;
  }

  end(last?: StreamResult<unknown>): Violation | undefined {
    const index = this.index + 1;
    this.violation = undefined;
    if (
      this.full ||
      (last !== undefined &&
        "fault" in last &&
        last.fault === "transport-error")
    )
      return undefined;
    if (this.index === -1) {
      const first = this.rules.find(
        (rule): rule is FirstRule => rule.kind === "first",
      );
      if (first !== undefined)
        return {
          rule: first.name,
          message: `the stream has no events; its first must be ${describe(first.events)}`,
          index,
        };
    }
    // The innermost span left open: the one no other open span is inside.
    const open = this.spans.filter(
      (state) => !state.implicit && state.open.size > 0,
    );
    for (const { rule, open: keys } of open) {
      if (open.some((inner) => inner.rule.within === rule.name)) continue;
      for (const [key, opened] of keys)
        return {
          rule: rule.name,
          message: `${instanceOf(rule, key)} (opened at event ${opened}) was never closed: the stream ended before ${describe(rule.closes)}`,
          index,
        };
    }
    const terminal = this.rules.find(
      (rule): rule is TerminalRule => rule.kind === "terminal" && rule.required,
    );
    if (terminal !== undefined && this.terminal === undefined)
      return {
        rule: terminal.name,
        message: `the stream ended before ${describe(terminal.events)}, which must end it`,
        index,
      };
    return undefined;
  }

  private report(rule: string, message: string): Violation {
    this.violation ??= { rule, message, index: this.index };
    return this.violation;
  }

  /**
   * Takes on what a key costs; false where that passes the bound: the event is then a
   * max-memory violation, whatever else it broke, and the verifier is full.
   */
  private keep(size: number): boolean {
    if (this.full) return false;
    if (this.kept + size <= this.maxMemory) {
      this.kept += size;
      return true;
    }
    this.full = true;
    this.violation = {
      rule: "max-memory",
      message: `event ${this.index} would make the verifier hold more than ${this.maxMemory} bytes of keys for this stream (maxMemory): it checks nothing after it`,
      index: this.index,
    };
    return false;
  }

  /** What it holds of the stream, all rules together: what maxMemory bounds (for tests; not of the Verifier interface). */
  held(): { readonly keys: number; readonly size: number } {
    let keys = 0;
    for (const state of this.spans)
      keys += state.open.size + state.openers.size + state.closed.size;
    for (const seen of this.seen) keys += seen.size;
    return { keys, size: this.kept };
  }

  /** Opens a span's key, with the opener's owner where the rule asks; false where the bound is passed. */
  private open(
    state: SpanState,
    key: string,
    index: number,
    attributed: boolean,
    opener?: string,
  ): boolean {
    const size = sizeOf(key) + (attributed ? sizeOf(opener) : 0);
    // A key that reopens (see SpanRule.reopens) replaces its entry.
    const was = state.open.has(key) ? this.openSize(state, key) : 0;
    if (!this.keep(size - was)) return false;
    state.open.set(key, index);
    if (attributed) state.openers.set(key, opener);
    return true;
  }

  private openSize(state: SpanState, key: string): number {
    return (
      sizeOf(key) +
      (state.openers.has(key) ? sizeOf(state.openers.get(key)) : 0)
    );
  }

  /** Closes a span's key, where it is open. */
  private forget(state: SpanState, key: string): void {
    if (!state.open.has(key)) return;
    this.kept -= this.openSize(state, key);
    state.open.delete(key);
    state.openers.delete(key);
    if (key === state.known) state.known = undefined;
  }

  private span(
    step: SpanStep,
    event: unknown,
    kind: string,
    index: number,
  ): void {
    const { rule } = step;
    const state = this.spans[step.span]!;
    const opens = matchesKind(step.opens, event, kind);
    const continues = matchesKind(step.continues, event, kind);
    const closes = matchesKind(step.closes, event, kind);
    const aborts = matchesKind(step.aborts, event, kind);
    if (!opens && !continues && !closes && !aborts) return;
    const own = rule.key === undefined ? "" : keyAt(step.key, event);
    if (own === undefined) return; // the event's own check reports a missing key
    // An owner's instance: the owner's key and its own, as a string a Map can hold.
    const key =
      step.owner === undefined
        ? own
        : JSON.stringify([keyAt(step.owner, event) ?? null, own]);
    if (opens) {
      const outer =
        rule.within === undefined
          ? undefined
          : this.spans.find((other) => other.rule.name === rule.within)!;
      if (state.open.has(key) && !rule.reopens)
        return void this.report(
          rule.name,
          `${kind} opens ${instanceOf(rule, key)}, which is already open (since event ${state.open.get(key)}): close it with ${describe(rule.closes)} first`,
        );
      if (rule.once && state.closed.has(key))
        return void this.report(
          rule.name,
          `${kind} opens ${instanceOf(rule, key)} again; it already ended, and its id may not be reused`,
        );
      if (outer !== undefined && outer.open.size === 0)
        return void this.report(
          rule.name,
          `${kind} opens ${instanceOf(rule, key)} outside any ${words(outer.rule.name)}`,
        );
      const attributed = step.attribution !== undefined;
      if (
        !this.open(
          state,
          key,
          index,
          attributed,
          attributed ? keyAt(step.attribution, event) : undefined,
        )
      )
        return;
      if (!closes) return;
    }
    if (!isOpen(state, key)) {
      if (state.implicit && !state.closed.has(key)) {
        if (closes || aborts) this.close(state, key, index, kind, aborts);
        return;
      }
      const why = state.closed.has(key)
        ? "which has already ended"
        : "which is not open";
      return void this.report(
        rule.name,
        `${kind} for ${instanceOf(rule, key)}, ${why}: open it with ${describe(rule.opens)} first`,
      );
    }
    if (step.attribution !== undefined && state.openers.has(key)) {
      const named = keyAt(step.attribution, event);
      const opener = state.openers.get(key);
      if (named !== undefined && named !== opener)
        this.report(
          rule.name,
          `${kind} for ${instanceOf(rule, key)} names ${JSON.stringify(named)} as its owner, and the event that opened it (event ${state.open.get(key)}) named ${opener === undefined ? "none, the stream's own" : JSON.stringify(opener)}`,
        );
    }
    if (closes || aborts) this.close(state, key, index, kind, aborts);
  }

  /** Closes a span's key, and the spans inside it; those still open are violations unless it aborts. */
  private close(
    state: SpanState,
    key: string,
    index: number,
    kind: string,
    aborts: boolean,
  ): void {
    this.forget(state, key);
    if (
      (state.implicit || state.rule.once) &&
      !state.closed.has(key) &&
      this.keep(sizeOf(key))
    )
      state.closed.add(key);
    state.lastClosed = index;
    if (state.open.size > 0) return;
    for (const inner of state.inner) {
      if (inner.open.size === 0) continue;
      if (!aborts) {
        const [openKey, opened] = inner.open.entries().next().value as [
          string,
          number,
        ];
        this.report(
          inner.rule.name,
          `${kind} came while ${instanceOf(inner.rule, openKey)} (opened at event ${opened}) is still open: close it with ${describe(inner.rule.closes)} first`,
        );
      }
      for (const openKey of [...inner.open.keys()])
        this.close(inner, openKey, index, kind, true);
    }
  }

  private refers(step: RefersStep, event: unknown, kind: string): void {
    const { rule } = step;
    const seen = this.seen[step.refers]!;
    if (matchesKind(step.to, event, kind))
      for (const key of keysAt(step.toKey, event)) {
        if (seen.has(key)) continue;
        if (!this.keep(sizeOf(key))) return;
        seen.add(key);
      }
    if (
      step.shownBy !== undefined &&
      valueAt(event, step.shownBy) !== undefined
    )
      this.shown[step.refers] = true;
    if (!matchesKind(step.events, event, kind) || !this.shown[step.refers])
      return;
    const key = keyAt(step.key, event);
    if (key !== undefined && !seen.has(key))
      this.report(
        rule.name,
        `${kind} refers to ${JSON.stringify(key)}, which no earlier ${describe(rule.to)} carried${this.requested[step.refers] ? ", nor the request" : ""}`,
      );
  }

  /** A chunk opens, continues or ends its lane; any other event but those passing through ends it. */
  private chunk(step: ChunkStep, event: unknown, kind: string): void {
    const { rule } = step;
    const state = this.spans[step.span]!;
    const lane = this.lanes.get(rule);
    if (!matchesKind(step.events, event, kind)) {
      if (lane !== undefined && !matchesKind(step.passThrough, event, kind)) {
        this.lanes.delete(rule);
        this.forget(state, lane);
        state.lastClosed = this.index;
      }
      return;
    }
    const key = keyAt(step.key, event);
    if (lane !== undefined && (key === undefined || key === lane)) return;
    if (lane !== undefined) {
      this.lanes.delete(rule);
      this.forget(state, lane);
    }
    if (key === undefined)
      return void this.report(
        rule.name,
        `${kind} has no ${rule.key["*"]?.join("/") ?? "key"} and continues no open ${words(rule.span)}: the first chunk must name it`,
      );
    if (state.open.has(key))
      return void this.report(
        rule.name,
        `${kind} opens ${instanceOf(state.rule, key)}, which is already open (since event ${state.open.get(key)})`,
      );
    if (this.open(state, key, this.index, false)) this.lanes.set(rule, key);
  }
}

/** Whether a span's key is open. */
function isOpen(state: SpanState, key: string): boolean {
  if (key === state.known) return true;
  if (!state.open.has(key)) return false;
  state.known = key;
  return true;
}
