import { describe, expect, it } from "vitest";
import type { JsonObject } from "../../generator/json.js";
import { exactName, wireAliases } from "../../generator/schema/aliases.js";

describe("exactName", () => {
  it("is the one name an anchored pattern matches, with or without a group", () => {
    expect(exactName("^order_id$")).toBe("order_id");
    expect(exactName("^(order_id)$")).toBe("order_id");
    expect(exactName("^x-y-2$")).toBe("x-y-2");
  });

  it("is undefined for a pattern that is not anchored at both ends or can match more than one name", () => {
    for (const pattern of [
      "order_id",
      "^order_id",
      "order_id$",
      "^order_.*$",
      "^(a|b)$",
      "^a|b$",
      "^(a)(b)$",
      "^a.b$",
      "^$",
      "^()$",
      "^a b$",
    ])
      expect(exactName(pattern), pattern).toBeUndefined();
  });
});

describe("wireAliases", () => {
  const text = { type: "string" };

  it("maps a proto name in snake_case to the lowerCamelCase property with the same schema", () => {
    const schema: JsonObject = {
      properties: { orderId: text, createdAt: { type: "integer" }, name: text },
      patternProperties: { "^(order_id)$": text, "^created_at$": { type: "integer" } },
    };
    expect([...wireAliases(schema)]).toEqual([
      ["order_id", "orderId"],
      ["created_at", "createdAt"],
    ]);
  });

  it("compares the schemas as JSON, whatever the order of their keys", () => {
    const schema: JsonObject = {
      properties: { orderId: { type: "string", minLength: 1 } },
      patternProperties: { "^(order_id)$": { minLength: 1, type: "string" } },
    };
    expect(wireAliases(schema).get("order_id")).toBe("orderId");
  });

  it("finds no alias when the schemas differ, the words differ, the pattern is no exact name, or the alias is itself a property", () => {
    const none: JsonObject[] = [
      { properties: { orderId: text }, patternProperties: { "^(order_id)$": { type: "integer" } } },
      { properties: { orderId: text }, patternProperties: { "^(customer_id)$": text } },
      { properties: { orderId: text }, patternProperties: { "^order_.*$": text } },
      { properties: { orderId: text, order_id: text }, patternProperties: { "^(order_id)$": text } },
      { patternProperties: { "^(order_id)$": text } },
      { properties: { orderId: text } },
      { properties: { orderId: text }, patternProperties: "^(order_id)$" },
      {},
    ];
    for (const schema of none) expect(wireAliases(schema).size, JSON.stringify(schema)).toBe(0);
  });

  it("takes the first property with the same words and schema", () => {
    const schema: JsonObject = { properties: { orderid: text, orderId: text }, patternProperties: { "^order_id$": text } };
    expect(wireAliases(schema).get("order_id")).toBe("orderid");
  });
});
