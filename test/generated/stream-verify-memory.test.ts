import { describe, expect, it } from "vitest";
import type { Event } from "../../generated/src/ag-ui/index.js";
import { createVerifier as createAgUiVerifier } from "../../generated/src/ag-ui/stream.js";
import type { ServerNotification } from "../../generated/src/app-server/index.js";
import { createVerifier as createAppServerVerifier } from "../../generated/src/app-server/stream.js";
import { verifier } from "../../generated/src/stream/verify.js";
import { plansOf } from "../../generator/stream/plan.js";
import type { Violation } from "../../generated/src/stream/result.js";
import type { StreamRule } from "../../generated/src/stream/tables.js";
import type { Verifier } from "../../generated/src/stream/verify.js";

/**
 * The verifier's memory per stream (templates/stream/verify.ts, `VerifyOptions.maxMemory`): the
 * keys it holds for open spans, for the keys `once` and implicit spans have ended, and for
 * those `refers` rules may name, each counted as 64 bytes and 2 a UTF-16 code unit, up to
 * the bound; the event that would pass it is a max-memory violation, and nothing is
 * checked after it. Entries are counted through the verifier's `held()`, which the
 * Verifier interface does not name.
 */

const MiB = 1024 * 1024;
const held = (verifying: Verifier<never>) => (verifying as unknown as { held(): { keys: number; size: number } }).held();

/** Pushes events, and what they broke with the index of each. */
function pushAll<T>(verifying: Verifier<T>, events: Iterable<T>): Violation[] {
  const violations: Violation[] = [];
  for (const event of events) {
    const violation = verifying.push(event);
    if (violation !== undefined) violations.push(violation);
  }
  return violations;
}

function* times<T>(count: number, event: (n: number) => T): Generator<T> {
  for (let n = 0; n < count; n++) yield event(n);
}

/** The events of `count` runs of `events`, one after another, none made before it is pushed. */
function* repeated<T>(count: number, events: (n: number) => readonly T[]): Generator<T> {
  for (let n = 0; n < count; n++) yield* events(n);
}

function* after<T>(first: T, rest: Iterable<T>): Generator<T> {
  yield first;
  yield* rest;
}

describe("a hostile stream of a million distinct ids", () => {
  const rules: StreamRule[] = [
    {
      kind: "refers",
      name: "answer",
      because: "the prose says so",
      events: [{ event: "ANSWER" }],
      key: { "*": ["id"] },
      to: [{ event: "ASK" }],
      toKey: { "*": ["id"] },
    },
  ];
  const ask = (n: number) => ({ type: "ASK", id: `id-${String(n).padStart(7, "0")}` });

  it("is held to 16 MiB of keys unless told: one max-memory violation where it would pass, then nothing is checked", () => {
    const verifying = verifier<{ type: string; id?: string }>(rules, plansOf(rules), (event) => event.type);
    // Each id of 10 UTF-16 code units costs 64 + 20 bytes: the bound holds this many.
    const fit = Math.floor((16 * MiB) / 84);
    const violations = pushAll(verifying, times(1_000_000, ask));
    expect(violations).toEqual([
      {
        rule: "max-memory",
        message: `event ${fit} would make the verifier hold more than ${16 * MiB} bytes of keys for this stream (maxMemory): it checks nothing after it`,
        index: fit,
      },
    ]);
    expect(held(verifying)).toEqual({ keys: fit, size: fit * 84 });
    // An answer to no question, and the end: nothing is checked any more.
    expect(verifying.push({ type: "ANSWER", id: "never asked" })).toBeUndefined();
    expect(verifying.end()).toBeUndefined();
    expect(held(verifying).keys).toBe(fit);
  });

  it("is held to the bound given, counting the length of each key", () => {
    const long = (n: number) => ({ type: "ASK", id: `${n}`.padStart(1000, "x") });
    const verifying = verifier<{ type: string; id: string }>(rules, plansOf(rules), (event) => event.type, { maxMemory: 100 * 2064 });
    expect(pushAll(verifying, times(1000, long))).toMatchObject([{ rule: "max-memory", index: 100 }]);
    expect(held(verifying)).toEqual({ keys: 100, size: 100 * 2064 });
  });

  it("refers to what came before the bound as it did: a verdict before it is the verdict without one", () => {
    const verifying = verifier<{ type: string; id: string }>(rules, plansOf(rules), (event) => event.type, { maxMemory: 10 * 84 });
    const answer = (n: number) => ({ type: "ANSWER", id: ask(n).id });
    expect(pushAll(verifying, [...times(10, ask), answer(3), answer(11), ask(10), answer(4)])).toEqual([
      { rule: "answer", message: expect.stringContaining('"id-0000011"'), index: 11 },
      expect.objectContaining({ rule: "max-memory", index: 12 }),
    ]);
  });

  it("has no bound with Infinity, and refuses a bound that is not a number of bytes", () => {
    const verifying = verifier<{ type: string; id: string }>(rules, plansOf(rules), (event) => event.type, { maxMemory: Number.POSITIVE_INFINITY });
    expect(pushAll(verifying, times(1000, ask))).toEqual([]);
    expect(held(verifying).keys).toBe(1000);
    for (const maxMemory of [-1, Number.NaN]) expect(() => verifier(rules, plansOf(rules), () => "", { maxMemory })).toThrow(RangeError);
  });
});

describe("the protocols' verifiers on hostile streams", () => {
  const run = { type: "RUN_STARTED", threadId: "t", runId: "r" } as Event;
  const bound = 64 * 1024;

  /** After the bound is met, the stream goes on, 200,000 events in all (hundreds of times what fits); what is held stays within it. */
  function holds(verifying: Verifier<never>, violations: readonly Violation[]): void {
    expect(violations).toHaveLength(1);
    expect(violations[0]).toMatchObject({ rule: "max-memory" });
    const { keys, size } = held(verifying);
    expect(size).toBeLessThanOrEqual(bound);
    expect(keys).toBeLessThanOrEqual(bound / 64);
  }

  it("AG-UI: tool calls, each id kept for the results that may refer to it", () => {
    const verifying = createAgUiVerifier({ maxMemory: bound });
    const call = (n: number): Event[] => [
      { type: "TOOL_CALL_START", toolCallId: `call-${n}`, toolCallName: "search" },
      { type: "TOOL_CALL_END", toolCallId: `call-${n}` },
    ];
    const violations = pushAll(verifying, after(run, repeated(100_000, call)));
    holds(verifying as Verifier<never>, violations);
  });

  it("AG-UI: subagents, each id kept once it ended, as it may not be reused", () => {
    const verifying = createAgUiVerifier({ maxMemory: bound });
    const subagent = (n: number): Event[] => [
      { type: "SUBAGENT_STARTED", subagentRunId: `sub-${n}`, name: "helper" },
      { type: "SUBAGENT_FINISHED", subagentRunId: `sub-${n}` },
    ];
    holds(verifying as Verifier<never>, pushAll(verifying, after(run, repeated(100_000, subagent))));
  });

  it("AG-UI: messages opened and never closed, each with a long owner", () => {
    const owner = "s".repeat(1000);
    const verifying = createAgUiVerifier({ maxMemory: bound });
    const opened = (n: number) => ({ type: "TEXT_MESSAGE_START", messageId: `m-${n}`, role: "assistant", subagentRunId: owner }) as Event;
    holds(verifying as Verifier<never>, pushAll(verifying, after(run, times(200_000, opened))));
  });

  it("AG-UI: a messages snapshot of a hundred thousand tool calls, in one event", () => {
    const verifying = createAgUiVerifier({ maxMemory: bound });
    const toolCalls = [...times(100_000, (n) => ({ id: `call-${n}`, type: "function", function: { name: "f", arguments: "{}" } }))];
    const snapshot = { type: "MESSAGES_SNAPSHOT", messages: [{ id: "a", role: "assistant", toolCalls }] } as Event;
    holds(verifying as Verifier<never>, pushAll(verifying, [run, snapshot]));
  });

  it("app-server: items completed without a start, each id kept once it ended", () => {
    const verifying = createAppServerVerifier({ maxMemory: bound });
    const completed = (n: number) => ({ method: "item/completed", params: { item: { id: `item-${n}` } } }) as unknown as ServerNotification;
    holds(verifying as Verifier<never>, pushAll(verifying, times(200_000, completed)));
  });

  it("AG-UI: messages that open and close hold nothing once closed, however many", () => {
    const verifying = createAgUiVerifier({ maxMemory: bound });
    const message = (n: number): Event[] => [
      { type: "TEXT_MESSAGE_START", messageId: `m-${n}`, role: "assistant" },
      { type: "TEXT_MESSAGE_CONTENT", messageId: `m-${n}`, delta: "hi" },
      { type: "TEXT_MESSAGE_END", messageId: `m-${n}` },
    ];
    expect(pushAll(verifying, after(run, repeated(100_000, message)))).toEqual([]);
    // The run, open.
    expect(held(verifying as Verifier<never>)).toEqual({ keys: 1, size: 64 });
  });
});
