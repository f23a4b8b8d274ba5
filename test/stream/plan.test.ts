import { describe, expect, it } from "vitest";
import { plansOf } from "../../generator/stream/plan.js";
import type { ChunkRule, SpanRule, StreamRule } from "../../templates/stream/tables.js";

const because = "the prose says so";
const message: SpanRule = {
  kind: "span",
  name: "message",
  because,
  opens: [{ event: "START" }],
  continues: [{ event: "CONTENT" }],
  closes: [{ event: "END" }],
  aborts: [],
  key: { "*": ["id"] },
  implicit: false,
  resumable: false,
  once: false,
  reopens: false,
};
const chunk: ChunkRule = {
  kind: "chunk",
  name: "message-chunk",
  because,
  events: [{ event: "CHUNK" }],
  span: "message",
  key: { "*": ["id"] },
  passThrough: [{ event: "RAW" }],
};
const rules: StreamRule[] = [
  { kind: "first", name: "start", because, events: [{ event: "RUN" }] },
  { kind: "only-first", name: "once", because, events: [{ event: "RUN" }] },
  message,
  chunk,
  { kind: "terminal", name: "end", because, events: [{ event: "DONE", where: [{ path: ["ok"], values: [true] }] }], required: true },
];

/**
 * The verifier's plans, which the generator compiles (generator/stream/plan.ts) and the
 * stream module declares: per kind, the rules that can say anything of its events.
 */
describe("plansOf", () => {
  const plans = plansOf(rules);

  it("has a plan for each kind a rule names, in the order the rules name them, and one for every other kind", () => {
    expect([...plans.byKind.keys()]).toEqual(["RUN", "START", "CONTENT", "END", "CHUNK", "RAW", "DONE"]);
    const { unnamed } = plans;
    // What looks at every event: what comes first, and a chunk's lane, which an event of no kind it names ends.
    expect(unnamed.checks).toEqual([{ kind: "first", rule: rules[0] }]);
    expect(unnamed.chunks).toEqual([{ rule: chunk, span: 0, events: false, passThrough: false, key: ["id"] }]);
    expect(unnamed.spans).toEqual([]);
    // Nothing an event of no named kind does is undone by the next: in order, it finds that in order too.
    expect(unnamed.repeats).toEqual({ paths: [] });
  });

  it("resolves what a rule asks of a kind: which selectors match, the span's place, the key's path", () => {
    const start = plans.byKind.get("START")!;
    expect(start.spans).toEqual([
      {
        kind: "span",
        rule: message,
        span: 0,
        opens: true,
        continues: false,
        closes: false,
        aborts: false,
        key: ["id"],
        owner: undefined,
        attribution: undefined,
      },
    ]);
    expect(plans.byKind.get("RUN")!.checks).toEqual([
      { kind: "first", rule: rules[0] },
      { kind: "only-first", rule: rules[1], events: true },
    ]);
    expect(plans.byKind.get("CHUNK")!.chunked).toBe(true);
    // An event that passes through a lane leaves it as it is: its plan has no step of the chunk rule.
    expect(plans.byKind.get("RAW")!.chunks).toEqual([]);
  });

  it("keeps a selector's conditions where they decide, and a rule itself, not a copy", () => {
    const done = plans.byKind.get("DONE")!;
    expect(done.terminals).toEqual([{ rule: rules[4], events: [{ event: "DONE", where: [{ path: ["ok"], values: [true] }] }] }]);
    expect(done.terminals[0]!.rule).toBe(rules[4]);
  });

  it("marks a kind that only continues spans as one whose next event with the same keys is in order too", () => {
    // The paths of its keys; the stream module adds the function that reads them (Repeats.same).
    expect(plans.byKind.get("CONTENT")!.repeats).toEqual({ paths: [["id"]] });
    // RUN checks no key: the next is out of order where this one was, and so never skipped.
    expect(plans.byKind.get("RUN")!.repeats).toEqual({ paths: [] });
    for (const kind of ["START", "END", "CHUNK", "DONE"]) expect(plans.byKind.get(kind)!.repeats, kind).toBeUndefined();
  });
});
