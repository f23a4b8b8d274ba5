import { describe, expect, it } from "vitest";
import { planAssembly } from "../../generator/stream/assembly.js";
import type { AssemblyStep } from "../../generator/stream/assembly.js";
import type { ChunkRule } from "../../templates/stream/tables.js";

const because = "the prose says so";
const step = (name: string, event: string, action: AssemblyStep["action"], where?: boolean): AssemblyStep => ({
  name,
  because,
  on: [where === true ? { event, where: [{ path: ["ok"], values: [true] }] } : { event }],
  action,
});
const from = (pointer: string) => ({ $from: pointer });
const steps: AssemblyStep[] = [
  step("message", "START", { verb: "add", path: ["messages"], key: "id", value: { id: from("/id"), text: "" } }),
  step("text", "TEXT", { verb: "append", path: ["messages", { id: from("/id") }, "text"], value: from("/delta") }),
  step("call", "CALL", { verb: "append", path: ["messages", "*", "calls", { id: from("/call") }, "args"], value: from("/delta") }),
  step("rename", "RENAME", { verb: "set", path: ["messages", { id: from("/id") }, "id"], value: from("/to/id") }, true),
  step("also", "START", { verb: "set", path: ["last"], value: { $from: "/id", $else: "none" } }),
];
const chunk: ChunkRule = {
  kind: "chunk",
  name: "text-chunk",
  because,
  events: [{ event: "CHUNK" }],
  span: "message",
  key: { "*": ["id"] },
  passThrough: [],
  standsFor: { opens: { type: "START", id: from("/id") }, continues: { type: "TEXT", delta: from("/delta") }, closes: { type: "END" } },
};

/**
 * The assembly steps as the generator compiles them for the runtime's assembler
 * (generator/stream/assembly.ts, declared as a stream module's ASSEMBLY).
 */
describe("planAssembly", () => {
  const plan = planAssembly(steps, [chunk]);

  it("files the steps under the kinds they name, in their order, always where a selector takes any event of the kind", () => {
    expect([...plan.byKind].map(([kind, filed]) => [kind, filed.map(({ step, always }) => `${step.name}${always ? "" : "?"}`)])).toEqual([
      ["START", ["message", "also"]],
      ["TEXT", ["text"]],
      ["CALL", ["call"]],
      ["RENAME", ["rename?"]],
    ]);
    expect(plan.steps.map(({ name }) => name)).toEqual(steps.map(({ name }) => name));
    expect(plan.byKind.get("START")![1]!.step).toBe(plan.steps[4]);
  });

  it("splits the templates' pointers into tokens, $else and $none kept", () => {
    expect(plan.steps[0]!.value).toEqual({ id: { $from: ["id"] }, text: "" });
    expect(plan.steps[3]!.value).toEqual({ $from: ["to", "id"] });
    expect(plan.steps[4]!.value).toEqual({ $from: ["id"], $else: "none" });
    expect(plan.chunks).toEqual([
      {
        rule: chunk,
        opens: { type: "START", id: { $from: ["id"] } },
        continues: { type: "TEXT", delta: { $from: ["delta"] } },
        closes: { type: "END" },
        keyPath: ["id"],
      },
    ]);
    expect(plan.chunked).toEqual(["CHUNK"]);
  });

  it("resolves each path into places, an element found across lists by an index", () => {
    const [, text, call] = plan.steps;
    expect(text!.path).toEqual([
      { kind: "property", name: "messages" },
      { kind: "where", name: "id", value: { $from: ["id"] } },
      { kind: "property", name: "text" },
    ]);
    expect(call!.path[1]).toEqual({
      kind: "any",
      name: "*",
      across: { id: JSON.stringify([["calls"], "id"]), properties: ["calls"], field: "id", wanted: { $from: ["call"] } },
    });
    expect([text!.remembers, text!.fields]).toEqual([true, { value: "delta", wanted: ["id"] }]);
    expect(plan.steps[3]!.fields).toBeUndefined();
  });

  it("marks what may change a field elements are found by as disturbing the indexes, and nothing else", () => {
    expect(plan.steps.map(({ name, disturbs }) => [name, disturbs])).toEqual([
      ["message", false],
      ["text", false],
      ["call", false],
      ["rename", true],
      ["also", false],
    ]);
  });
});
