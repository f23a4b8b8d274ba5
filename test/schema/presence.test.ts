import { describe, expect, it } from "vitest";
import type { JsonValue } from "../../generator/json.js";
import { presence, presenceNames } from "../../generator/schema/presence.js";

describe("presence", () => {
  it("requires the one name of a field without aliases", () => {
    expect(presence(["task"])).toEqual({ required: ["task"] });
  });

  it("is an anyOf of one requirement per name when the field has wire aliases", () => {
    expect(presence(["orderId", "order_id"])).toEqual({ anyOf: [{ required: ["orderId"] }, { required: ["order_id"] }] });
  });
});

describe("presenceNames", () => {
  it("reads back what presence writes", () => {
    for (const names of [["task"], ["orderId", "order_id"], ["a", "b", "c"]])
      expect(presenceNames(presence(names)), names.join()).toEqual(names);
  });

  it("ignores description, title and $comment beside the requirement", () => {
    expect(presenceNames({ required: ["task"], description: "d", title: "t", $comment: "c" })).toEqual(["task"]);
    expect(presenceNames({ anyOf: [{ required: ["a"], title: "A" }, { required: ["b"] }], $comment: "either" })).toEqual(["a", "b"]);
  });

  it("is undefined for a branch that does anything besides requiring one name", () => {
    const others: JsonValue[] = [
      { required: ["a", "b"] },
      { required: [] },
      { required: [1] },
      { required: "a" },
      { required: ["a"], type: "object" },
      { required: ["a"], properties: {} },
      { anyOf: [{ required: ["a"] }, { required: ["b", "c"] }] },
      { anyOf: [{ required: ["a"] }, { type: "string" }] },
      { anyOf: { required: ["a"] } },
      { anyOf: [{ required: ["a"] }], required: ["b"] },
      { oneOf: [{ required: ["a"] }] },
      {},
      { description: "only a description" },
      ["a"],
      "a",
      null,
      true,
    ];
    for (const branch of others) expect(presenceNames(branch), JSON.stringify(branch)).toBeUndefined();
  });
});
