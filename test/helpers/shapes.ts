import type { Field, RefShape, Shape } from "../../generator/ir/model.js";

/** Shorthands for IR shapes in tests. */
export const ref = (name: string): RefShape => ({ kind: "ref", name });
export const field = (name: string, shape: Shape, required = true): Field => ({
  name,
  shape,
  required,
  doc: {},
  pointer: `/properties/${name}`,
});

/**
 * One small shape of each kind. Typed by kind, so that a new kind of shape fails to
 * compile here until it has a sample, and the tests that go over every kind cover it.
 */
export const ONE_OF_EACH_KIND: { readonly [K in Shape["kind"]]: Extract<Shape, { kind: K }> } = {
  ref: { kind: "ref", name: "Task" },
  unknown: { kind: "unknown" },
  never: { kind: "never" },
  literal: { kind: "literal", value: "TEXT" },
  enum: { kind: "enum", values: ["user", "assistant"] },
  string: { kind: "string" },
  number: { kind: "number", integer: false },
  boolean: { kind: "boolean" },
  null: { kind: "null" },
  array: { kind: "array", items: { kind: "ref", name: "Part" } },
  object: { kind: "object", fields: [field("id", { kind: "string" })], additional: { kind: "never" } },
  map: { kind: "map", values: { kind: "number", integer: true } },
  nullable: { kind: "nullable", shape: { kind: "string" } },
  constrained: {
    kind: "constrained",
    shape: { kind: "string" },
    constraints: [
      { kind: "not", shape: { kind: "literal", value: "" } },
      { kind: "if", if: { kind: "ref", name: "Short" }, then: { kind: "unknown" }, else: { kind: "ref", name: "Long" } },
    ],
  },
  union: { kind: "union", members: [{ kind: "string" }, { kind: "ref", name: "Part" }], exclusive: false },
  "tagged-union": {
    kind: "tagged-union",
    tag: "type",
    members: [
      { value: "STARTED", shape: { kind: "ref", name: "Started" } },
      { value: "FINISHED", shape: { kind: "ref", name: "Finished" } },
    ],
  },
  "keyed-union": {
    kind: "keyed-union",
    members: [field("task", ref("Task"), false), field("message", ref("Message"), false)],
    fields: [],
    additional: { kind: "unknown" },
  },
};
