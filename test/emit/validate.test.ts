import { describe, expect, it } from "vitest";
import { describeValues } from "../../generator/ir/describe.js";
import { generatedModules } from "../helpers/generated.js";
import { protocol } from "../helpers/protocols.js";

const METHODS =
  '"thread/started", "thread/archived", "turn/started", "turn/completed", "item/started", "item/agentMessage/delta", ' +
  '"item/toolCall/delta", "item/completed", "approval/requested", "approval/resolved", "error/warning"';

/**
 * A tagged union whose tag is missing or names none of its members gets one error at the
 * tag, naming the property and the value seen, rather than one per member.
 */
describe("validators: a tagged union's tag", () => {
  it("unknown: one discriminator error naming the tag and the value seen", async () => {
    const { validate, decode } = (await generatedModules("app-server")).functions("ServerNotification");
    const expected = {
      ok: false,
      errors: [{ path: "/method", keyword: "discriminator", message: `unknown method "thread/foo": expected one of ${METHODS}` }],
    };
    expect(validate({ method: "thread/foo", params: {} })).toEqual(expected);
    expect(decode({ method: "thread/foo", params: {} })).toEqual({ ...expected, unrecognized: false });
    expect(validate({ method: 7 })).toEqual({
      ok: false,
      errors: [{ path: "/method", keyword: "discriminator", message: `unknown method 7: expected one of ${METHODS}` }],
    });
  });

  it("missing: one discriminator error naming the tag", async () => {
    const { ir } = await protocol("ag-ui");
    const event = ir.types.find((type) => type.name === "Event")!.shape;
    if (event.kind !== "tagged-union") throw new Error("Event is a tagged union");
    const types = describeValues(event.members.map((member) => member.value));
    const { validate } = (await generatedModules("ag-ui")).functions("Event");
    expect(validate({ messageId: "m", delta: "hi" })).toEqual({
      ok: false,
      errors: [{ path: "/type", keyword: "discriminator", message: `missing "type": expected one of ${types}` }],
    });
  });

  it("inside a value: at the tag's path, with the value cut short", async () => {
    const { validate } = (await generatedModules("ag-ui")).functions("Event");
    expect(validate({ type: "RUN_FINISHED", threadId: "t", runId: "r", outcome: { type: "x".repeat(300) } })).toEqual({
      ok: false,
      errors: [
        {
          path: "/outcome/type",
          keyword: "discriminator",
          message: `unknown type "${"x".repeat(199)}…: expected one of "success", "interrupt"`,
        },
      ],
    });
  });
});
