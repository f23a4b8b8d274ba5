import type { JsonValue } from "../json.js";
import type { Shape } from "./model.js";

/** What a value of a shape is, for messages: "a string", "an array of InputContent". */
export function describe(shape: Shape): string {
  let described = descriptions.get(shape);
  if (described === undefined) descriptions.set(shape, (described = describeOnce(shape)));
  return described;
}

/** Each shape's description, made once: every message about a shape names it, and a large enum's takes long to write. */
const descriptions = new WeakMap<Shape, string>();

function describeOnce(shape: Shape): string {
  switch (shape.kind) {
    case "ref":
      return `${article(shape.name)} ${shape.name}`;
    case "unknown":
      return "any value";
    case "never":
      return "nothing";
    case "literal":
      return JSON.stringify(shape.value);
    case "enum":
      return `one of ${describeValues(shape.values)}`;
    case "string":
      return "a string";
    case "number":
      return shape.integer ? "an integer" : "a number";
    case "boolean":
      return "a boolean";
    case "null":
      return "null";
    case "array":
      if (shape.prefixItems !== undefined) return "a tuple";
      return shape.items.kind === "unknown" ? "an array" : `an array of ${plural(shape.items)}`;
    case "object":
    case "map":
    case "keyed-union":
      return "an object";
    case "nullable":
      return `${describe(shape.shape)} or null`;
    case "constrained":
      // What the type is; the constraints say what they require in messages of their own.
      return describe(shape.shape);
    case "union":
      return shape.members.map(describe).join(" or ");
    case "tagged-union":
      return shape.members.map((member) => describe(member.shape)).join(" or ");
  }
}

/** `"developer", "system", "assistant"`: the values as JSON, for "must be one of …". */
export function describeValues(values: readonly JsonValue[]): string {
  return values.map((value) => JSON.stringify(value)).join(", ");
}

function plural(shape: Shape): string {
  return shape.kind === "ref" ? shape.name : describe(shape);
}

export function article(word: string): string {
  return /^[AEIOUaeiou]/.test(word) ? "an" : "a";
}

/** A number of things, for messages: "1 item", "2 properties". */
export function count(n: number, noun: string): string {
  return `${n} ${n === 1 ? noun : /[^aeiou]y$/.test(noun) ? `${noun.slice(0, -1)}ies` : `${noun}s`}`;
}
