import type { Expression, Name, Parameter, Statement, Type } from "../../code/tree.js";
import {
  and,
  binary,
  block,
  call,
  constant,
  evaluate,
  ifThen,
  increment,
  keywordType,
  literal,
  member,
  not,
  parameter,
  returns,
  switchStatement,
  UNDEFINED,
  variable,
} from "../../code/build.js";
import type { GeneratedFile } from "../file.js";
import { guardName } from "../../name/rules.js";
import type { CheckBuilder } from "./build.js";
import type { Body, Check, Delegate, NonNull, Target } from "./tree.js";
import { VALUE } from "./tree.js";
import { SET_OF_VALUES } from "./keywords.js";
import { CheckPrinter } from "./print.js";

/** Prints the check tree as guards, `isT(value): boolean`: a failure returns false. */
export class GuardPrinter extends CheckPrinter {
  /** @param guard the guard of a named type as the file refers to it */
  constructor(
    f: GeneratedFile,
    builder: CheckBuilder,
    private readonly guard: (type: string) => Name,
  ) {
    super(f, builder);
  }

  protected parameters(): Parameter[] {
    return [parameter(VALUE, keywordType("unknown"))];
  }

  protected returnType(): Type {
    return keywordType("boolean");
  }

  protected tooDeep(): Statement {
    return FALSE;
  }

  protected helperName(owner: string): string {
    return guardName(owner);
  }

  protected target(target: Target): Name {
    return target.kind === "named" ? this.guard(target.name) : this.helper(target.shape, target.owner);
  }

  protected guardOf(target: Target): Name {
    return this.target(target);
  }

  protected body(body: Body): Statement[] {
    switch (body.kind) {
      case "enum":
        // A long enum is looked up in its set: a switch tests its cases one by one.
        if (body.values.length > SET_OF_VALUES) return [ifThen(body.failure.test, FALSE), TRUE];
        return [
          switchStatement(VALUE, [
            { labels: body.values.map(literal), body: [TRUE] },
            { labels: [], body: [FALSE] },
          ]),
        ];
      case "tagged":
        if (body.memberLocal !== undefined) {
          const found = body.memberLocal;
          return [
            constant(found, call(member(this.tagTable(body, "Guards"), "get"), [body.tagValue])),
            returns(and([binary(found, "!==", UNDEFINED), call(found, [VALUE])])),
          ];
        }
        return [
          switchStatement(body.tagValue, [
            ...body.members.map(({ value, target }) => ({ labels: [literal(value)], body: [returns(call(this.target(target), [VALUE]))] })),
            { labels: [], body: [FALSE] },
          ]),
        ];
      case "union": {
        const accepts = body.alternatives.map(({ test, target }) => test ?? call(this.target(target), [VALUE]));
        if (!body.overlapping) return [...accepts.map((test) => ifThen(test, TRUE)), FALSE];
        const matches = body.matches;
        return [
          variable(matches, literal(0)),
          ...accepts.map((test) => ifThen(test, evaluate(increment(matches)))),
          returns(binary(matches, "===", literal(1))),
        ];
      }
      case "checks":
        return [...this.print(body.checks), TRUE];
    }
  }

  /**
   * Checks as statements that return false at the first failure. A named type's guard is
   * a type predicate: passed, it narrows its subject to the type, where a closed object
   * has no `toJSON` to ask and no index to read. So when a check after it reads the same
   * subject as an object or an array, the guard is asked after that check: all must pass,
   * in any order.
   */
  print(checks: readonly Check[]): Statement[] {
    const later = checks.filter((check, i) => narrows(check) && checks.slice(i + 1).some((next) => readsAsJson(next, check.subject)));
    const ordered = later.length === 0 ? checks : [...checks.filter((check) => !later.includes(check)), ...later];
    return ordered.flatMap((check) => this.statements(check));
  }

  private statements(check: Check): Statement[] {
    switch (check.kind) {
      case "failure":
        return [ifThen(check.test, FALSE), ...this.print(check.then ?? [])];
      case "delegate":
        return [ifThen(this.rejects(check), FALSE)];
      case "non-null": {
        const notNull = binary(check.subject, "!==", literal(null));
        const only = check.checks.length === 1 ? check.checks[0]! : undefined;
        // A single test with nothing after it follows `x !== null &&`.
        const test = only === undefined ? undefined : only.kind === "delegate" ? this.rejects(only) : mergeable(only);
        if (test !== undefined) return [ifThen(and([notNull, test]), FALSE)];
        return [ifThen(notNull, block(this.print(check.checks)))];
      }
      case "items":
        return this.itemsOf(check, this.print(check.checks));
      case "position":
        return this.position(check, this.print(check.checks));
      case "counted":
        return [...this.counted(check, this.target(check.target)), ...this.print(check.bounds)];
      case "matches":
        return [ifThen(call(this.target(check.target), [check.subject]), FALSE)];
      case "conditional":
        return this.branches(call(this.target(check.test), [check.subject]), this.print(check.then), this.print(check.otherwise));
      case "when":
        return this.branches(check.test, this.print(check.checks), []);
      case "properties": {
        const rest = check.rest === "closed" ? [FALSE] : this.print(check.rest);
        // A failure has returned already, so a field counts once it has passed.
        const loop = this.loop(
          check,
          (each) => [...this.print(each.checks), ...this.counts(each.counts, check.property, each.countsWhenWritten)],
          rest,
          (checks) => this.print(checks),
        );
        const required = check.required;
        const missing = required === undefined ? [] : [ifThen(binary(required.counter, "!==", literal(required.fields.length)), FALSE)];
        return [...loop, ...missing, ...this.print(check.after)];
      }
    }
  }

  /** `!isT(subject)`. */
  private rejects(check: Delegate): Expression {
    return not(call(this.target(check.target), [check.subject]));
  }
}

const TRUE = returns(literal(true));
const FALSE = returns(literal(false));

/** Whether the check is a named type's guard of its subject, which narrows it when passed, or that of a value not null. */
function narrows(check: Check): check is Delegate | NonNull {
  if (check.kind === "delegate") return check.target.kind === "named";
  return check.kind === "non-null" && check.checks.some(narrows);
}

/** Whether a check asks `subject` for `toJSON`, as it does before it reads an object's properties or an array's items. */
function readsAsJson(check: Check, subject: Expression): boolean {
  return JSON.stringify(check).includes(JSON.stringify(member(subject, "toJSON")));
}

/** A failure's test, when it is one test with nothing after it and no `||`, which `&&` would need parentheses for. */
function mergeable(check: Check): Expression | undefined {
  if (check.kind !== "failure" || check.then !== undefined) return undefined;
  return check.test.kind === "logical" && check.test.operator === "||" ? undefined : check.test;
}
