import { describe as group, expect, it } from "vitest";
import { article, count, describe, describeValues } from "../../generator/ir/describe.js";
import type { Shape } from "../../generator/ir/model.js";
import { field, ONE_OF_EACH_KIND, ref } from "../helpers/shapes.js";

group("describe", () => {
  it("says what a value of each kind of shape is", () => {
    const expected: { readonly [K in Shape["kind"]]: string } = {
      ref: "a Task",
      unknown: "any value",
      never: "nothing",
      literal: '"TEXT"',
      enum: 'one of "user", "assistant"',
      string: "a string",
      number: "a number",
      boolean: "a boolean",
      null: "null",
      array: "an array of Part",
      object: "an object",
      map: "an object",
      nullable: "a string or null",
      constrained: "a string",
      union: "a string or a Part",
      "tagged-union": "a Started or a Finished",
      "keyed-union": "an object",
    };
    for (const [kind, shape] of Object.entries(ONE_OF_EACH_KIND)) expect(describe(shape), kind).toBe(expected[kind as Shape["kind"]]);
  });

  it("takes an before a name that starts with a vowel", () => {
    expect(describe(ref("InputContent"))).toBe("an InputContent");
    expect(describe(ref("event"))).toBe("an event");
    expect(describe({ kind: "nullable", shape: ref("Artifact") })).toBe("an Artifact or null");
  });

  it("tells an integer from a number", () => {
    expect(describe({ kind: "number", integer: true })).toBe("an integer");
    expect(describe({ kind: "number", integer: false, minimum: 0 })).toBe("a number");
  });

  it("writes a literal as JSON, whatever its type", () => {
    expect(describe({ kind: "literal", value: 'say "hi"' })).toBe('"say \\"hi\\""');
    expect(describe({ kind: "literal", value: 42 })).toBe("42");
    expect(describe({ kind: "literal", value: false })).toBe("false");
    expect(describe({ kind: "literal", value: null })).toBe("null");
  });

  it("says only an array when the items may be anything, and names the items' type bare", () => {
    expect(describe({ kind: "array", items: { kind: "unknown" } })).toBe("an array");
    expect(describe({ kind: "array", items: ref("InputContent") })).toBe("an array of InputContent");
  });

  it("says a tuple, whatever its positions", () => {
    expect(describe({ kind: "array", prefixItems: [{ kind: "string" }], items: { kind: "never" } })).toBe("a tuple");
  });

  it("describes a tagged union by its members' shapes, anonymous objects included", () => {
    const anonymous = {
      kind: "object" as const,
      fields: [field("type", { kind: "literal", value: "B" })],
      additional: { kind: "never" as const },
    };
    expect(
      describe({
        kind: "tagged-union",
        tag: "type",
        members: [
          { value: "A", shape: ref("Alpha") },
          { value: "B", shape: anonymous },
        ],
      }),
    ).toBe("an Alpha or an object");
  });

  it("nests: a union of a nullable and an enum", () => {
    expect(
      describe({
        kind: "union",
        members: [
          { kind: "nullable", shape: { kind: "boolean" } },
          { kind: "enum", values: [1, 2] },
        ],
        exclusive: true,
      }),
    ).toBe("a boolean or null or one of 1, 2");
  });
});

group("describeValues", () => {
  it("lists the values as JSON, separated by commas", () => {
    expect(describeValues(["developer", "system", "assistant"])).toBe('"developer", "system", "assistant"');
    expect(describeValues([1, null, true, "x"])).toBe('1, null, true, "x"');
    expect(describeValues(['a"b', "new\nline"])).toBe('"a\\"b", "new\\nline"');
    expect(describeValues(["only"])).toBe('"only"');
    expect(describeValues([])).toBe("");
  });
});

group("article", () => {
  it("is an before a vowel, either case, and a otherwise", () => {
    expect(article("Item")).toBe("an");
    expect(article("object")).toBe("an");
    expect(article("Task")).toBe("a");
    expect(article("string")).toBe("a");
    expect(article("")).toBe("a");
  });
});

group("count", () => {
  it("keeps the noun for one and adds s otherwise", () => {
    expect(count(1, "item")).toBe("1 item");
    expect(count(2, "item")).toBe("2 items");
    expect(count(0, "item")).toBe("0 items");
  });

  it("turns a y after a consonant into ies, but not a y after a vowel", () => {
    expect(count(2, "property")).toBe("2 properties");
    expect(count(1, "property")).toBe("1 property");
    expect(count(3, "key")).toBe("3 keys");
    expect(count(2, "day")).toBe("2 days");
  });
});
