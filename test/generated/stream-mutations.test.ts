import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeStreamResponse } from "../../generated/src/a2a/validate.js";
import type { Event } from "../../generated/src/ag-ui/types.js";
import { decodeEvent } from "../../generated/src/ag-ui/validate.js";
import type { ServerNotification } from "../../generated/src/app-server/types.js";
import { decodeServerNotification } from "../../generated/src/app-server/validate.js";
import type { AgentStreamEvent } from "../../generated/src/gtm-agent/types.js";
import { decodeAgentStreamEvent } from "../../generated/src/gtm-agent/validate.js";
import type { Item } from "../helpers/generated-traces.js";
import {
  aguiEventSoup,
  aguiStreamSpec,
  appDelta,
  appItem,
  appServerStreamSpec,
  buildAguiStream,
  buildAppServerStream,
  buildGtmStream,
  CHUNK_TRANSPARENT,
  gtmChunk,
  gtmStatus,
  gtmStreamSpec,
  gtmTask,
  isChunk,
  pairs,
} from "../helpers/generated-traces.js";
import type { StreamProtocol } from "../helpers/streams.js";
import { clientFirstRefusal, clientVerdict, pushAll, verifyTrace } from "../helpers/streams.js";

// Seeded, so that a failure names a sequence that fails again: a hundred valid streams per
// generator, and fifty mutants per kind of mutation, which keeps the file within its budget.
const RUNS = { seed: 0x13_5713, numRuns: 100 };
const MUTANTS = { seed: 0x13_5713, numRuns: 50 };

/** A copy of `events` with `inserted` at `at` and the events at `removed` taken out. */
function edit<E>(items: readonly Item<E>[], change: { at?: number; inserted?: E; removed?: readonly number[] }): E[] {
  const events = items.map((item) => item.event).filter((_, at) => !(change.removed ?? []).includes(at));
  if (change.inserted !== undefined) events.splice(change.at ?? events.length, 0, change.inserted);
  return events;
}

function expectViolation(protocol: StreamProtocol, events: readonly unknown[], rule: string, index: number): void {
  const violation = verifyTrace(protocol, events);
  expect(violation === undefined ? undefined : { rule: violation.rule, index: violation.index }).toEqual({ rule, index });
}

/** Whether @ag-ui/client refuses the events: its verdict beside ours. */
const clientRefuses = (events: readonly unknown[]) => clientVerdict(events) !== undefined;

describe("AG-UI streams built from the facts", () => {
  it("are accepted by createVerifier and by @ag-ui/client, each event one the schema accepts", () => {
    fc.assert(
      fc.property(aguiStreamSpec, (spec) => {
        const events = buildAguiStream(spec).items.map((item) => item.event);
        for (const event of events) expect(decodeEvent(event).ok, JSON.stringify(event)).toBe(true);
        expect(verifyTrace("ag-ui", events)).toBeUndefined();
        expect(clientVerdict(events)).toBeUndefined();
      }),
      RUNS,
    );
  });

  it("cover every span, the chunk shorthands and failed runs over the runs drawn", () => {
    const seen = new Set<string>();
    fc.assert(
      fc.property(aguiStreamSpec, (spec) => {
        const { items, runs } = buildAguiStream(spec);
        for (const item of items) seen.add(item.event.type);
        for (const run of runs) seen.add(run.terminal);
      }),
      RUNS,
    );
    for (const type of ["TEXT_MESSAGE_CONTENT", "TOOL_CALL_ARGS", "TOOL_CALL_RESULT", "STEP_FINISHED", "REASONING_MESSAGE_CONTENT", "REASONING_END"])
      expect(seen).toContain(type);
    for (const type of ["SUBAGENT_FINISHED", "SUBAGENT_ERROR", "TEXT_MESSAGE_CHUNK", "TOOL_CALL_CHUNK", "REASONING_MESSAGE_CHUNK", "RUN_ERROR"])
      expect(seen).toContain(type);
  });

  describe("mutations that both verifiers catch", () => {
    it("a span's opener swapped with its closer: the closer comes first", () => {
      fc.assert(
        fc.property(aguiStreamSpec, fc.nat(), (spec, pick) => {
          const { items } = buildAguiStream(spec);
          const candidates = pairs(items).filter((pair) => pair.span !== "run");
          fc.pre(candidates.length > 0);
          const { span, opener, closer } = candidates[pick % candidates.length]!;
          const events = items.map((item) => item.event);
          [events[opener], events[closer]] = [events[closer]!, events[opener]!];
          expectViolation("ag-ui", events, span, opener);
          expect(clientRefuses(events)).toBe(true);
        }),
        MUTANTS,
      );
    });

    it("a span's opener dropped: the next event of its id continues or closes nothing", () => {
      fc.assert(
        fc.property(aguiStreamSpec, fc.nat(), (spec, pick) => {
          const { items } = buildAguiStream(spec);
          const candidates = pairs(items).filter((pair) => pair.span !== "run");
          fc.pre(candidates.length > 0);
          const { span, opener } = candidates[pick % candidates.length]!;
          const { key } = items[opener]!.role!;
          const next = items.findIndex((item, at) => at > opener && item.role?.span === span && item.role.key === key);
          const events = edit(items, { removed: [opener] });
          expectViolation("ag-ui", events, span, next - 1);
          expect(clientRefuses(events)).toBe(true);
        }),
        MUTANTS,
      );
    });

    it("a span's closer dropped in a run that finishes: RUN_FINISHED comes while it is open", () => {
      fc.assert(
        fc.property(aguiStreamSpec, fc.nat(), (spec, pick) => {
          const { items, runs } = buildAguiStream(spec);
          const finishing = runs.filter((run) => run.terminal === "RUN_FINISHED");
          const candidates = pairs(items).filter((pair) => pair.span !== "run" && finishing.some((run) => run.start < pair.opener && pair.closer < run.end));
          fc.pre(candidates.length > 0);
          const { span, closer } = candidates[pick % candidates.length]!;
          const finish = finishing.find((run) => closer < run.end)!.end;
          const events = edit(items, { removed: [closer] });
          expectViolation("ag-ui", events, span, finish - 1);
          expect(clientRefuses(events)).toBe(true);
        }),
        MUTANTS,
      );
    });

    it("a run's RUN_STARTED dropped: its first event comes outside any run", () => {
      fc.assert(
        fc.property(aguiStreamSpec, fc.nat(), (spec, pick) => {
          const { items, runs } = buildAguiStream(spec);
          const r = pick % runs.length;
          const { start } = runs[r]!;
          const events = edit(items, { removed: [start] });
          expectViolation("ag-ui", events, r === 0 ? "first-event" : "in-run", start);
          expect(clientRefuses(events)).toBe(true);
        }),
        MUTANTS,
      );
    });

    it("an opener duplicated: it opens what is already open", () => {
      fc.assert(
        fc.property(aguiStreamSpec, fc.nat(), (spec, pick) => {
          const { items } = buildAguiStream(spec);
          const openers = items.flatMap((item, at) => (item.role?.part === "opens" ? [at] : []));
          const at = openers[pick % openers.length]!;
          const events = edit(items, { at: at + 1, inserted: items[at]!.event });
          expectViolation("ag-ui", events, items[at]!.role!.span, at + 1);
          expect(clientRefuses(events)).toBe(true);
        }),
        MUTANTS,
      );
    });

    it("a second run's RUN_STARTED interleaved into a run", () => {
      fc.assert(
        fc.property(aguiStreamSpec, fc.nat(), fc.nat(), (spec, pickRun, pickPlace) => {
          const { items, runs } = buildAguiStream(spec);
          const { start, end } = runs[pickRun % runs.length]!;
          const at = start + 1 + (pickPlace % (end - start));
          const events = edit<Event>(items, { at, inserted: { type: "RUN_STARTED", threadId: "thread-1", runId: "run-intruding" } });
          expectViolation("ag-ui", events, "run", at);
          expect(clientRefuses(events)).toBe(true);
        }),
        MUTANTS,
      );
    });

    it("a run's terminal dropped before another run: RUN_STARTED comes while it is open", () => {
      fc.assert(
        fc.property(aguiStreamSpec, fc.nat(), (spec, pick) => {
          const { items, runs } = buildAguiStream(spec);
          fc.pre(runs.length > 1);
          const r = pick % (runs.length - 1);
          const events = edit(items, { removed: [runs[r]!.end] });
          expectViolation("ag-ui", events, "run", runs[r + 1]!.start - 1);
          expect(clientRefuses(events)).toBe(true);
        }),
        MUTANTS,
      );
    });

    it("an event after a run's end, before any new RUN_STARTED", () => {
      fc.assert(
        fc.property(aguiStreamSpec, fc.nat(), (spec, pick) => {
          const { items, runs } = buildAguiStream(spec);
          const { end } = runs[pick % runs.length]!;
          const events = edit<Event>(items, { at: end + 1, inserted: { type: "CUSTOM", name: "acme.late", value: 1 } });
          expectViolation("ag-ui", events, "in-run", end + 1);
          expect(clientRefuses(events)).toBe(true);
        }),
        MUTANTS,
      );
    });

    it("a chunk without an id where no chunk shorthand is open", () => {
      fc.assert(
        fc.property(aguiStreamSpec, fc.nat(), (spec, pick) => {
          const { items, runs } = buildAguiStream(spec);
          // After an event that ends every open shorthand, inside a run.
          const places = runs.flatMap(({ start, end }) =>
            Array.from({ length: end - start }, (_, i) => start + 1 + i).filter((at) => {
              const before = items[at - 1]!.event;
              return !isChunk(before) && !CHUNK_TRANSPARENT.has(before.type);
            }),
          );
          const at = places[pick % places.length]!;
          const events = edit<Event>(items, { at, inserted: { type: "TEXT_MESSAGE_CHUNK", delta: "orphan" } });
          expectViolation("ag-ui", events, "text-message-chunk", at);
          expect(clientRefuses(events)).toBe(true);
        }),
        MUTANTS,
      );
    });
  });

  // The client's leniencies, each recorded in docs/streams.md (Where the AG-UI anchors disagree).
  describe("mutations only createVerifier catches", () => {
    it("the last run's terminal dropped: the stream ends inside a run (verifyEvents has no end-of-stream check)", () => {
      fc.assert(
        fc.property(aguiStreamSpec, (spec) => {
          const { items, runs } = buildAguiStream(spec);
          const last = runs.at(-1)!;
          const events = edit(items, { removed: [last.end] });
          // The innermost span left open is reported: the run itself, unless a failed run left
          // spans open in it, or a chunk shorthand was still open when the stream ended.
          const violation = verifyTrace("ag-ui", events);
          expect(violation?.index).toBe(events.length);
          expect(violation?.message).toMatch(/was never closed/);
          const before = items[last.end - 1]!.event;
          if (last.terminal === "RUN_FINISHED" && !isChunk(before) && !CHUNK_TRANSPARENT.has(before.type)) expect(violation?.rule).toBe("run");
          expect(clientRefuses(events)).toBe(false);
        }),
        MUTANTS,
      );
    });

    it("RUN_ERROR after the last run finished (verifyEvents lets RUN_ERROR through at any time)", () => {
      fc.assert(
        fc.property(aguiStreamSpec, (spec) => {
          const { items, runs } = buildAguiStream(spec);
          fc.pre(runs.at(-1)!.terminal === "RUN_FINISHED");
          const events = edit<Event>(items, { inserted: { type: "RUN_ERROR", message: "late failure" } });
          expectViolation("ag-ui", events, "in-run", events.length - 1);
          expect(clientRefuses(events)).toBe(false);
        }),
        MUTANTS,
      );
    });

    it("a tool result for a call neither this stream nor the conversation it showed made (verifyEvents does not check what a result answers)", () => {
      fc.assert(
        fc.property(aguiStreamSpec, fc.nat(), (spec, pick) => {
          const { items, runs } = buildAguiStream(spec);
          const { start, end } = runs[pick % runs.length]!;
          const orphan: Event = { type: "TOOL_CALL_RESULT", messageId: "result-orphan", toolCallId: "call-never-made", content: "?" };
          const events = edit<Event>(items, { at: end, inserted: orphan });
          // Shown, by the run's RUN_STARTED echoing its request, the conversation has no such call.
          const started = events[start] as Event & { type: "RUN_STARTED" };
          const input = { threadId: started.threadId, runId: started.runId, state: {}, messages: [], tools: [], context: [], forwardedProps: {} };
          const shown = events.map((event, at) => (at === start ? { ...started, input } : event));
          expectViolation("ag-ui", shown, "tool-result", end);
          expect(clientRefuses(shown)).toBe(false);
          // Not shown (no snapshot before it either), the call may be one the request's messages made.
          if (!events.slice(0, end).some((event) => event.type === "MESSAGES_SNAPSHOT"))
            expect(verifyTrace("ag-ui", events)?.rule).not.toBe("tool-result");
        }),
        MUTANTS,
      );
    });
  });
});

describe("any AG-UI events in any order", () => {
  it("our first violation is @ag-ui/client's first refusal, or one of the leniencies docs/streams.md records", () => {
    fc.assert(
      fc.property(aguiEventSoup, (events) => {
        const ours = pushAll("ag-ui", events).pushed;
        const client = clientFirstRefusal(events);
        if (ours?.index === client || (ours === undefined && client === -1)) return;
        // Only ours may come first, and only where the client is lenient on purpose.
        expect(ours).toBeDefined();
        expect(client === -1 || client > ours!.index).toBe(true);
        const event = events[ours!.index]!;
        const documented =
          // 2 and 3: RUN_ERROR with no run open.
          (event.type === "RUN_ERROR" && ours!.rule === "in-run") ||
          // 6: a subagent id that finished in an earlier run.
          (event.type === "SUBAGENT_STARTED" && ours!.rule === "subagent" && ours!.message.includes("already ended"));
        expect(documented, `${ours!.rule} at ${ours!.index}: ${ours!.message}`).toBe(true);
      }),
      { seed: 0x13_5713, numRuns: 1000 },
    );
  });
});

describe("GTM and A2A streams built from the facts: task, WORKING, artifact chunks, terminal status", () => {
  const gtmEvents = (items: readonly Item<AgentStreamEvent>[]) => items.map((item) => item.event);

  it("are accepted by both protocols' verifiers, each frame one both schemas accept", () => {
    fc.assert(
      fc.property(gtmStreamSpec, (spec) => {
        const events = gtmEvents(buildGtmStream(spec));
        for (const event of events) {
          expect(decodeAgentStreamEvent(event).ok, JSON.stringify(event)).toBe(true);
          expect(decodeStreamResponse(event).ok, JSON.stringify(event)).toBe(true);
        }
        expect(verifyTrace("gtm-agent", events)).toBeUndefined();
        expect(verifyTrace("a2a", events)).toBeUndefined();
      }),
      RUNS,
    );
  });

  it("a first task frame past SUBMITTED is refused, unless the stream resumes a run after a reconnection", () => {
    fc.assert(
      fc.property(gtmStreamSpec, (spec) => {
        const events = gtmEvents(buildGtmStream(spec));
        events[0] = gtmTask("TASK_STATE_WORKING");
        expectViolation("gtm-agent", events, "first-frame", 0);
        expect(verifyTrace("gtm-agent", events, { resumed: true })).toBeUndefined();
      }),
      MUTANTS,
    );
  });

  it("a stream resumed anywhere, its first task frame carrying the run so far, goes on appending to the artifacts it carries", () => {
    fc.assert(
      fc.property(gtmStreamSpec, fc.nat(), (spec, at) => {
        const events = gtmEvents(buildGtmStream(spec));
        const cut = 1 + (at % (events.length - 1));
        const resumed = [gtmTask("TASK_STATE_WORKING"), ...events.slice(cut)];
        expect(verifyTrace("gtm-agent", resumed, { resumed: true })).toBeUndefined();
      }),
      MUTANTS,
    );
  });

  it("without its task frame, a stream starts wrong in both", () => {
    fc.assert(
      fc.property(gtmStreamSpec, (spec) => {
        const events = edit(buildGtmStream(spec), { removed: [0] });
        expectViolation("gtm-agent", events, "first-frame", 0);
        expectViolation("a2a", events, "first-event", 0);
      }),
      MUTANTS,
    );
  });

  it("a GTM run interrupted for input or authentication ends its stream there: accepted, and a frame after it refused", () => {
    fc.assert(
      fc.property(gtmStreamSpec, fc.constantFrom("TASK_STATE_INPUT_REQUIRED", "TASK_STATE_AUTH_REQUIRED"), (spec, state) => {
        const items = buildGtmStream(spec);
        const paused = edit(items, { removed: [items.length - 1], inserted: gtmStatus(state), at: items.length - 1 });
        expect(verifyTrace("gtm-agent", paused)).toBeUndefined();
        const after = [...paused, gtmStatus("TASK_STATE_WORKING")];
        expectViolation("gtm-agent", after, "terminal-status", after.length - 1);
      }),
      MUTANTS,
    );
  });

  it("a frame after the terminal status is refused by both; a stream without one only by GTM, whose terminal frame ends every stream", () => {
    fc.assert(
      fc.property(gtmStreamSpec, (spec) => {
        const items = buildGtmStream(spec);
        const after = edit(items, { inserted: gtmStatus("TASK_STATE_WORKING") });
        expectViolation("gtm-agent", after, "terminal-status", after.length - 1);
        expectViolation("a2a", after, "terminal-status", after.length - 1);
        const cut = edit(items, { removed: [items.length - 1] });
        expectViolation("gtm-agent", cut, "terminal-status", cut.length);
        expect(verifyTrace("a2a", cut)).toBeUndefined();
      }),
      MUTANTS,
    );
  });

  it("a chunk after an artifact's final one is refused by both", () => {
    fc.assert(
      fc.property(gtmStreamSpec, fc.nat(), (spec, pick) => {
        const items = buildGtmStream(spec);
        const artifacts = pairs(items);
        fc.pre(artifacts.length > 0);
        const { closer } = artifacts[pick % artifacts.length]!;
        const events = edit(items, { at: closer + 1, inserted: gtmChunk(items[closer]!.role!.key, "more", { append: true }) });
        expectViolation("gtm-agent", events, "artifact", closer + 1);
        expectViolation("a2a", events, "artifact", closer + 1);
      }),
      MUTANTS,
    );
  });

  it("an artifact's first or final chunk dropped is refused by GTM, whose prose marks both; A2A's flags are optional", () => {
    fc.assert(
      fc.property(gtmStreamSpec, fc.nat(), fc.boolean(), (spec, pick, first) => {
        const items = buildGtmStream(spec);
        const chunked = pairs(items).filter((pair) => items.slice(pair.opener, pair.closer + 1).filter((item) => item.role?.key === items[pair.opener]!.role!.key).length > 1);
        fc.pre(chunked.length > 0);
        const { opener, closer } = chunked[pick % chunked.length]!;
        const { key } = items[opener]!.role!;
        const next = items.findIndex((item, at) => at > opener && item.role?.key === key);
        const events = edit(items, { removed: [first ? opener : closer] });
        expectViolation("gtm-agent", events, "artifact", first ? next - 1 : events.length);
        expect(verifyTrace("a2a", events)).toBeUndefined();
      }),
      MUTANTS,
    );
  });

  it("an update for another task is refused by both", () => {
    fc.assert(
      fc.property(gtmStreamSpec, fc.nat(), (spec, pick) => {
        const events = gtmEvents(buildGtmStream(spec));
        const at = 1 + (pick % (events.length - 1));
        events[at] = JSON.parse(JSON.stringify(events[at]).replaceAll('"taskId":"run-7f3a"', '"taskId":"run-other"')) as AgentStreamEvent;
        expectViolation("gtm-agent", events, "same-run", at);
        expectViolation("a2a", events, "same-task", at);
      }),
      MUTANTS,
    );
  });

  it("A2A: an artifact sent whole, without lastChunk (a2a-python's add_artifact sends it so by default), is no violation", () => {
    const events = [gtmTask("TASK_STATE_SUBMITTED"), gtmChunk("report", "# Report"), gtmStatus("TASK_STATE_COMPLETED")];
    expect(verifyTrace("a2a", events)).toBeUndefined();
    expectViolation("gtm-agent", events, "artifact", 3);
  });

  it("A2A: a resubscribed stream appends to an artifact its first Task already carries", () => {
    const events = [gtmTask("TASK_STATE_WORKING"), gtmChunk("report", " continued", { append: true, lastChunk: true }), gtmStatus("TASK_STATE_COMPLETED")];
    expect(verifyTrace("a2a", events)).toBeUndefined();
  });
});

describe("app-server streams built from the facts: turns with items started, streamed and completed", () => {
  const appEvents = (items: readonly Item<ServerNotification>[]) => items.map((item) => item.event);

  it("are accepted, implicit items included, each notification one the schema accepts", () => {
    fc.assert(
      fc.property(appServerStreamSpec, (spec) => {
        const events = appEvents(buildAppServerStream(spec));
        for (const event of events) expect(decodeServerNotification(event).ok, JSON.stringify(event)).toBe(true);
        expect(verifyTrace("app-server", events)).toBeUndefined();
      }),
      RUNS,
    );
  });

  it("a delta, or item/started, after the item completed is refused: nothing follows an item's completion", () => {
    fc.assert(
      fc.property(appServerStreamSpec, fc.nat(), fc.boolean(), (spec, pick, restart) => {
        const items = buildAppServerStream(spec);
        const completions = items.flatMap((item, at) => (item.event.method === "item/completed" ? [at] : []));
        const at = completions[pick % completions.length]!;
        const completed = items[at]!.event as ServerNotification & { method: "item/completed" };
        const { turnId, item } = completed.params;
        const late: ServerNotification = restart
          ? { method: "item/started", params: { threadId: "thread-1", turnId, item: appItem(item.id, item.type as "toolCall", "inProgress") } }
          : appDelta(turnId, item.id, item.type as "toolCall", "late");
        const events = edit(items, { at: at + 1, inserted: late });
        expectViolation("app-server", events, "item", at + 1);
      }),
      MUTANTS,
    );
  });

  it("an item or a turn started twice while open, or a turn completed twice, is refused", () => {
    fc.assert(
      fc.property(appServerStreamSpec, fc.nat(), (spec, pick) => {
        const items = buildAppServerStream(spec);
        const twice = items.flatMap((item, at) => (item.role?.part === "opens" || item.event.method === "turn/completed" ? [at] : []));
        const at = twice[pick % twice.length]!;
        const events = edit(items, { at: at + 1, inserted: items[at]!.event });
        expectViolation("app-server", events, items[at]!.role!.span, at + 1);
      }),
      MUTANTS,
    );
  });
});
