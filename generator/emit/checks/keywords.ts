import type { FORMATS, RuntimeValue, TemplateValue } from "../templates.js";
import type { Expression, Name } from "../../code/tree.js";
import { and, binary, call, identifier, literal, member, not, or, typeOf } from "../../code/build.js";
import type { Fails, Measure } from "../../keywords/index.js";
import { FORMAT_CHECKS } from "../../keywords/format.js";
import type { JsonPrimitive, JsonValue } from "../../json.js";
import { isJsonPrimitive } from "../../json.js";

/**
 * The code of a keyword check: what `keywords/check.ts` says a value fails, as the
 * expression the runtime evaluates. The keyword modules decide what is checked and the
 * message; this file only spells their tests.
 */

/** What a test needs of its file: runtime helpers, hoisted patterns and values, the property counter. */
export interface TestContext {
  readonly runtime: (name: RuntimeValue) => Name;
  /** A test of `templates/formats.ts`, imported from the package's `formats` module. */
  readonly format: (test: TemplateValue<typeof FORMATS>) => Name;
  readonly pattern: (source: string) => Name;
  /** An object or array value, declared once in the file rather than made at each test. */
  readonly value: (value: JsonValue) => Name;
  /** A set of primitives, declared once in the file: the values of a long enum. */
  readonly values: (values: readonly JsonPrimitive[]) => Name;
  /** The count of an object's properties, where `propertyCount` is measured. */
  readonly propertyCount?: Name;
}

/** The expression that holds when `subject` fails the test. */
export function failingTest(fails: Fails, subject: Expression, context: TestContext): Expression {
  switch (fails.op) {
    case "notType":
      switch (fails.type) {
        case "null":
          return binary(subject, "!==", literal(null));
        case "number":
        case "integer":
          // NaN and the infinities are numbers JSON writes as null.
          return or([
            binary(typeOf(subject), "!==", literal("number")),
            not(call(member(identifier("Number"), fails.type === "integer" ? "isInteger" : "isFinite"), [subject])),
          ]);
        default:
          return binary(typeOf(subject), "!==", literal(fails.type));
      }
    case "<":
    case "<=":
    case ">":
    case ">=":
      return binary(measured(fails.measure, subject, context), fails.op, literal(fails.bound));
    case "notMultipleOf":
      return not(call(member(identifier("Number"), "isInteger"), [binary(subject, "/", literal(fails.divisor))]));
    case "notMatch":
      return not(call(context.runtime("matches"), [context.pattern(fails.pattern), subject]));
    case "notFormat":
      return not(call(context.format(FORMAT_CHECKS[fails.format]!.test), [subject]));
    case "notUnique":
      return not(call(context.runtime("hasUniqueItems"), [subject]));
    case "notEqual":
      return isJsonPrimitive(fails.value)
        ? binary(subject, "!==", literal(fails.value))
        : not(call(context.runtime("isJsonEqual"), [subject, context.value(fails.value)]));
    case "notOneOf":
      // A long enum is a set: one look-up rather than a chain of tests, which past a
      // couple of thousand is more than TypeScript's control flow analysis follows.
      if (fails.values.length > SET_OF_VALUES) return not(call(member(context.values(fails.values), "has"), [subject]));
      return and(fails.values.map((value) => binary(subject, "!==", literal(value))));
  }
}

/** The most values an enum is tested for one by one; a longer one is looked up in a set. */
export const SET_OF_VALUES = 64;

function measured(measure: Measure, subject: Expression, context: TestContext): Expression {
  switch (measure) {
    case "value":
      return subject;
    case "codePointLength":
      return call(context.runtime("codePointLength"), [subject]);
    case "itemCount":
      return member(subject, "length");
    case "propertyCount":
      if (context.propertyCount === undefined) throw new Error("a count of properties where none is counted");
      return context.propertyCount;
  }
}
