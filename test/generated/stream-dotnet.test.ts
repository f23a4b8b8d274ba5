import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Event } from "../../generated/src/ag-ui/index.js";
import { decodeEvent } from "../../generated/src/ag-ui/index.js";
import { createAssembler, createVerifier } from "../../generated/src/ag-ui/stream.js";
import type { Violation } from "../../generated/src/stream/result.js";
import { REPO } from "../helpers/project.js";

/**
 * The stream module on a real .NET Agent Framework recording of a two-turn run with two
 * parallel tool calls (test/fixtures/dotnet/, its README says where each event is from):
 * what the issue of streams as one contract changed, checked on the producer's own events.
 */
/** A vendored document, by its name in the corpus. */
const recorded = (name: string): unknown => JSON.parse(readFileSync(path.join(REPO, "test/fixtures/dotnet", `${name}.json`), "utf8"));
const event = (name: string): Event => {
  const decoded = decodeEvent(recorded(`${name}__dotnet-baseline__1`));
  if (!decoded.ok) throw new Error(`${name}: ${JSON.stringify(decoded.errors)}`);
  return decoded.value;
};

const turn1 = ["RunStartedEvent", "ToolCallStartEvent", "ToolCallArgsEvent", "ToolCallEndEvent", "RunFinishedEvent"].map(event);
const result = event("ToolCallResultEvent");
const request = recorded("RunAgentInput__dotnet-baseline__2");
// The second turn's RUN_STARTED is not in the corpus: this one has its ids, and, as the producer sends it, no input.
const turn2 = [{ type: "RUN_STARTED", threadId: "thread_Id_1", runId: "run_Id_2" } as Event, result];

function verify(events: readonly Event[], options: Parameters<typeof createVerifier>[0] = {}): Violation[] {
  const verifier = createVerifier(options);
  return events.flatMap((each) => verifier.push(each) ?? []);
}

describe("a .NET Agent Framework recording", () => {
  it("sends a tool call with an empty parentMessageId, which names no message: the call gets one of its own, under its id", () => {
    expect(turn1[1]).toMatchObject({ type: "TOOL_CALL_START", parentMessageId: "", toolCallId: "call_Id_1" });
    expect(verify(turn1)).toEqual([]);
    const assembler = createAssembler();
    for (const each of turn1) expect(assembler.push(each)).toBeUndefined();
    expect(assembler.snapshot().messages).toEqual([
      { id: "call_Id_1", role: "assistant", toolCalls: [{ id: "call_Id_1", type: "function", function: { name: "get_user_location", arguments: "{}" } }] },
    ]);
  });

  it("answers, in its second turn, a call the request's messages made: no violation, with the request or without", () => {
    expect(verify(turn2)).toEqual([]);
    expect(verify(turn2, { request })).toEqual([]);
    // Given a request that made no such call, the result answers none.
    expect(verify(turn2, { request: { messages: [] } })).toEqual([
      expect.objectContaining({ rule: "tool-result", index: 1, message: expect.stringContaining('"call_Id_2"') }),
    ]);
  });

  it("gives a result the id of its call, which a call without a parent gives its assistant message: the result is a tool message of its own", () => {
    expect(result).toMatchObject({ messageId: "call_Id_2", toolCallId: "call_Id_2" });
    // The first turn's second call, as the first was sent (the corpus has not kept it), then the second turn's result.
    const secondCall: Event = { type: "TOOL_CALL_START", parentMessageId: "", toolCallId: "call_Id_2", toolCallName: "get_weather" };
    const assembler = createAssembler();
    for (const each of [turn1[0]!, secondCall, { type: "TOOL_CALL_END", toolCallId: "call_Id_2" } as Event, result])
      expect(assembler.push(each)).toBeUndefined();
    expect(assembler.snapshot().messages.map(({ id, role }) => ({ id, role }))).toEqual([
      { id: "call_Id_2", role: "assistant" },
      { id: "call_Id_2", role: "tool" },
    ]);
  });
});
