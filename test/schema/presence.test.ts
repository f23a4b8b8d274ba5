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

  it("is present and not null where a null is the field absent, under each name", () => {
    const notNull = { not: { type: "null" } };
    expect(presence(["task"], true)).toEqual({ required: ["task"], properties: { task: notNull } });
    expect(presence(["orderId", "order_id"], true)).toEqual({
      anyOf: [
        { required: ["orderId"], properties: { orderId: notNull } },
        { required: ["order_id"], properties: { order_id: notNull } },
      ],
    });
    expect(Object.keys((presence(["__proto__"], true) as { properties: object }).properties)).toEqual(["__proto__"]);
  });
});

describe("presenceNames", () => {
  it("reads back what presence writes", () => {
    for (const names of [["task"], ["orderId", "order_id"], ["a", "b", "c"], ["__proto__"]])
      for (const nullIsAbsent of [false, true]) expect(presenceNames(presence(names, nullIsAbsent)), names.join()).toEqual(names);
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
      { required: ["a"], properties: { a: { type: "string" } } },
      { required: ["a"], properties: { b: { not: { type: "null" } } } },
      { required: ["a"], properties: { a: { not: { type: "null" } }, b: {} } },
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
