import type { Expression, Name, Parameter, Statement, Type } from "../../code/tree.js";
import { and, assign, binary, call, increment, literal, member, not, or, template, UNDEFINED, variable } from "../../code/build.js";
import { block, constant, evaluate, ifThen, returns, switchStatement } from "../../code/build.js";
import { keywordType, parameter, typeReference } from "../../code/build.js";
import { escapeToken } from "../../pointer.js";
import { RUNTIME } from "../templates.js";
import type { GeneratedFile } from "../file.js";
import { checkName } from "../../name/rules.js";
import type { CheckBuilder } from "./build.js";
import type { Body, Check, Failure, Location, Properties, PropertyCase, Target } from "./tree.js";
import { ERRORS, PATH, VALUE } from "./tree.js";
import type { GuardPrinter } from "./guard.js";
import { CheckPrinter } from "./print.js";

/**
 * Prints the check tree as reports, `checkT(value, path, errors)`: a failure is recorded
 * with its JSON Pointer, keyword and a message a person can act on, what depends on it is
 * skipped, and the checks go on, up to the limit of errors (the runtime's `fail` ends them
 * there). A property checked by another function is checked at once: its path is one
 * string, and asking its guard first would walk an invalid part twice at every level down
 * to its failure (a validator on bench/corpora's invalid documents: 1.2–1.3× as fast
 * where failing parts are properties, 0.87–0.98× where they are mostly items).
 * An item of an array or an entry of a map is asked its guard first, so that a valid one
 * costs no more than its guard, however many there are: no path is built for it. (A pattern that failed
 * in the guard is not run again: the runtime's `matches` keeps the last failure.)
 */
export class ReportPrinter extends CheckPrinter {
  /**
   * @param guard the guard of a named type as the file refers to it
   * @param check the check function of a named type
   * @param guards the guards of the shapes without a name, which a report asks first
   */
  constructor(
    f: GeneratedFile,
    builder: CheckBuilder,
    private readonly guard: (type: string) => Name,
    private readonly check: (type: string) => Name,
    private readonly guards: GuardPrinter,
  ) {
    super(f, builder);
  }

  /** Where a check is, as the report writes it. */
  private path(at: Location): Expression {
    return path(at, () => this.runtime("pointer"));
  }

  protected parameters(): Parameter[] {
    return [
      parameter(VALUE, keywordType("unknown")),
      parameter(PATH, keywordType("string")),
      parameter(ERRORS, typeReference(this.f.import("Errors", RUNTIME, { typeOnly: true }))),
    ];
  }

  protected returnType(): Type {
    return keywordType("void");
  }

  protected tooDeep(): Statement {
    const failure: Failure = {
      kind: "failure",
      test: literal(true),
      keyword: "depth",
      message: "nests deeper than the checks of recursive types follow",
      at: [],
    };
    return block([this.fail(failure), returns()]);
  }

  protected helperName(owner: string): string {
    return checkName(owner);
  }

  protected target(target: Target): Name {
    return target.kind === "named" ? this.check(target.name) : this.helper(target.shape, target.owner);
  }

  /** The guard of what a target checks. */
  protected guardOf(target: Target): Name {
    return target.kind === "named" ? this.guard(target.name) : this.guards.helper(target.shape, target.owner);
  }

  protected body(body: Body): Statement[] {
    switch (body.kind) {
      case "checks":
        return this.print(body.checks, true);
      case "enum":
        return this.print([body.failure], true);
      case "tagged": {
        const cases = body.members.map(({ value, target }) => ({
          labels: [literal(value)],
          body: [evaluate(call(this.target(target), [VALUE, PATH, ERRORS])), returns()],
        }));
        const tag = body.shape.tag;
        // The one type of the tags, whose unknown values alone a tolerant reading notes (emit/decode.ts).
        const types = [...new Set(body.members.map((each) => typeof each.value))];
        const unknown = call(this.runtime("failTag"), [
          ERRORS,
          this.path([tag]),
          literal(tag),
          body.tagLocal,
          literal(body.expected),
          ...(types.length === 1 ? [literal(types[0]!)] : []),
        ]);
        const found = body.memberLocal;
        return [
          ifThen(body.notObject.test, block([this.fail(body.notObject), returns()])),
          constant(body.tagLocal, body.tagValue),
          ...(found === undefined
            ? [switchStatement(body.tagLocal, [...cases, { labels: [], body: [evaluate(unknown)] }])]
            : [
                constant(found, call(member(this.tagTable(body, "Checks"), "get"), [body.tagLocal])),
                ifThen(binary(found, "===", UNDEFINED), evaluate(unknown), evaluate(call(found, [VALUE, PATH, ERRORS]))),
              ]),
        ];
      }
      case "union":
        // Nothing if the value is one of the members. Else, when the value's JSON type is
        // that of exactly one member, that member's failures; failing that, one error
        // naming the alternatives.
        return [
          ifThen(call(this.guards.helper(body.self.shape, body.self.owner), [VALUE]), returns()),
          ...body.typed.map(({ test, checks }) => ifThen(test, block([...this.print(checks, false), returns()]))),
          evaluate(call(this.runtime("fail"), [ERRORS, PATH, literal(body.keyword), literal(body.message)])),
        ];
    }
  }

  /**
   * Checks as statements that report. A failure is recorded and what depends on it is
   * skipped; at the top of a function (`top`), a failure of the function's own value
   * ends its checks by returning.
   */
  private print(checks: readonly Check[], top: boolean): Statement[] {
    return checks.flatMap((check) => this.statements(check, top));
  }

  private statements(check: Check, top: boolean): Statement[] {
    switch (check.kind) {
      case "failure":
        if (top && check.at.length === 0 && (check.then ?? []).length > 0)
          return [ifThen(check.test, block([this.fail(check), returns()])), ...this.print(check.then!, top)];
        return [this.chain(check)];
      case "delegate": {
        const checked = evaluate(call(this.target(check.target), [check.subject, this.path(check.at), ERRORS]));
        // An item or an entry is asked its guard first: a valid one, of however many, builds no path.
        return check.at.every((token) => typeof token === "string")
          ? [checked]
          : [ifThen(not(call(this.guardOf(check.target), [check.subject])), checked)];
      }
      case "non-null": {
        const notNull = binary(check.subject, "!==", literal(null));
        const only = check.checks.length === 1 ? check.checks[0]! : undefined;
        // A single test with nothing after it is one failure: "must be … or null".
        if (
          only !== undefined &&
          only.kind === "failure" &&
          only.then === undefined &&
          !(only.test.kind === "logical" && only.test.operator === "||")
        )
          return [this.chain({ ...only, test: and([notNull, only.test]), message: `${only.message} or null` })];
        return [ifThen(notNull, block(this.print(check.checks, false)))];
      }
      case "items":
        return this.itemsOf(check, this.print(check.checks, false));
      case "position":
        return this.position(check, this.print(check.checks, false));
      case "counted":
        return [...this.counted(check, this.guardOf(check.target)), ...this.print(check.bounds, false)];
      case "matches":
        return [
          this.chain({
            kind: "failure",
            test: call(this.guardOf(check.target), [check.subject]),
            keyword: check.keyword,
            message: check.message,
            at: check.at,
          }),
        ];
      case "conditional":
        return this.branches(
          call(this.guardOf(check.test), [check.subject]),
          this.print(check.then, false),
          this.print(check.otherwise, false),
        );
      case "when":
        return this.branches(check.test, this.print(check.checks, false), []);
      case "properties":
        return this.properties(check, top);
    }
  }

  /**
   * A failure and what depends on it: `if (a) fail(…); else if (b) fail(…);` while each
   * depends on one further test, else a block.
   */
  private chain(check: Failure): Statement {
    const then = check.then ?? [];
    const next = then.length === 1 ? then[0]! : undefined;
    const otherwise = then.length === 0 ? undefined : next?.kind === "failure" ? this.chain(next) : block(this.print(then, false));
    return ifThen(check.test, this.fail(check), otherwise);
  }

  /** `fail(errors, path, keyword, message);`, or `failWire(…, wire)`, `failKept(…, readable)` where a decoder asks. */
  private fail(failure: Failure): Statement {
    const args = [ERRORS, this.path(failure.at), literal(failure.keyword), literal(failure.message)];
    if (failure.wire !== undefined) return evaluate(call(this.runtime("failWire"), [...args, failure.wire]));
    if (failure.readable !== undefined) return evaluate(call(this.runtime("failKept"), [...args, failure.readable]));
    return evaluate(call(this.runtime("fail"), args));
  }

  private properties(check: Properties, top: boolean): Statement[] {
    const { subject, key, property } = check;
    // A field's other name, which a closed object refuses, is a wire form a decoder reads.
    const alias =
      check.aliases === undefined
        ? []
        : [ifThen(or(check.aliases.map((name) => binary(key, "===", literal(name)))), evaluate(increment(member(ERRORS, "wired"))))];
    const rest =
      check.rest === "closed"
        ? [
            ...alias,
            evaluate(
              call(this.runtime("fail"), [
                ERRORS,
                call(this.runtime("pointer"), [this.path(check.at), key]),
                literal(check.unevaluated === undefined ? "additionalProperties" : "unevaluatedProperties"),
                template(['must not have the property "', key, '"']),
              ]),
            ),
          ]
        : this.print(check.rest, false);
    // A required field is marked in its own flag where the guard counts it, so that no
    // property is read again to say which were missing (reading each again, own and
    // enumerable, was a tenth of a report's time on a bench corpus). A field is there even
    // when it fails, so it is marked first.
    const required = check.required;
    const flags = new Map(required?.fields.map((field, i) => [field.name, required.flags[i]!]));
    const mark = (each: PropertyCase): Statement[] => {
      const counters = each.counts.filter((counter) => counter !== required?.counter);
      const flag = counters.length === each.counts.length ? undefined : flags.get(each.name);
      const marks = [
        ...counters.map((counter) => evaluate(increment(counter))),
        ...(flag === undefined ? [] : [evaluate(assign(flag, literal(true)))]),
      ];
      return this.when(marks, property, each.countsWhenWritten);
    };
    // A property in a wire form is counted for a decoder, which reads the input only then.
    const wired = (each: PropertyCase): Statement[] => {
      if (each.wire === undefined) return [];
      const counted = evaluate(increment(member(ERRORS, "wired")));
      return [each.wire.kind === "literal" && each.wire.value === true ? counted : ifThen(each.wire, counted)];
    };
    const loop = this.loop(
      required === undefined ? check : { ...check, counters: check.counters.filter((counter) => counter !== required.counter) },
      (each) => [...wired(each), ...mark(each), ...this.print(each.checks, false)],
      rest,
      (checks) => this.print(checks, false),
    );
    const missing =
      required === undefined
        ? []
        : required.fields.map((field, i) =>
            ifThen(
              not(required.flags[i]!),
              this.fail({
                kind: "failure",
                test: literal(true),
                keyword: "required",
                message: "is required",
                at: [...check.at, field.name],
              }),
            ),
          );
    return [...(required?.flags.map((flag) => variable(flag, literal(false))) ?? []), ...loop, ...missing, ...this.print(check.after, top)];
  }
}

/**
 * A location as a string: `path`, or a template literal that adds its tokens, where a
 * key's token is escaped by the runtime's `pointer` (a property's name may hold `/` or `~`).
 */
function path(at: Location, pointer: () => Name): Expression {
  let parts: (string | Expression)[] = [PATH];
  for (const token of at)
    if (typeof token !== "string" && token.kind === "key") parts = [call(pointer(), [joined(parts), token.key])];
    else parts.push("/", typeof token === "string" ? escapeToken(token) : token);
  return joined(parts);
}

function joined(parts: readonly (string | Expression)[]): Expression {
  return parts.length === 1 && typeof parts[0] !== "string" ? parts[0]! : template(parts);
}
