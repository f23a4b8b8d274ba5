import type { RuntimeValue } from "../templates.js";
import type { Expression, Function, Name, Parameter, Statement, Type } from "../../code/tree.js";
import {
  and,
  binary,
  block,
  BREAK,
  CONTINUE,
  call,
  constant,
  evaluate,
  forIndex,
  functionDeclaration,
  functionType,
  ifThen,
  increment,
  index,
  literal,
  member,
  not,
  statements,
  switchStatement,
  tryFinally,
  variable,
} from "../../code/build.js";
import type { Shape } from "../../ir/model.js";
import { forEachProperty } from "../access.js";
import type { GeneratedFile } from "../file.js";
import { tagTable } from "../dispatch.js";
import type { CheckBuilder } from "./build.js";
import type { Body, Check, Counted, Items, Position, Properties, PropertyCase, TaggedBody, Target } from "./tree.js";

/**
 * What the printings of the check tree share: the check function around a body, which
 * goes one level down the runtime's depth counter when its type recurses; the
 * module-level helpers for shapes without a name of their own, declared after the rest;
 * and the loops over an object's keys and an array's items.
 */
export abstract class CheckPrinter {
  readonly helpers: Function[] = [];
  private readonly helperNames = new Map<number, Name>();

  constructor(
    protected readonly f: GeneratedFile,
    readonly builder: CheckBuilder,
  ) {}

  protected runtime(name: RuntimeValue): Name {
    return this.builder.runtime(name);
  }

  /**
   * The check function of a named type, or of a helper. A recursive type's goes one level
   * deeper each time it is entered, and refuses a value nested past the runtime's
   * MAX_DEPTH rather than exhaust the stack.
   */
  function(
    name: Name,
    shape: Shape,
    owner: string,
    options: { readonly exported: boolean; readonly returns?: Type; readonly recursive?: boolean },
  ): Function {
    const body = this.body(this.builder.body(shape, owner));
    return functionDeclaration({
      exported: options.exported,
      name,
      parameters: this.parameters(),
      returns: options.returns ?? this.returnType(),
      body: options.recursive
        ? [ifThen(not(call(this.runtime("descend"), [])), this.tooDeep()), tryFinally(body, [evaluate(call(this.runtime("ascend"), []))])]
        : body,
    });
  }

  /** The function of a shape without a name of its own, declared once per shape and named by the first owner to ask. */
  helper(shape: Shape, owner: string): Name {
    const key = this.builder.ids.id(shape);
    const known = this.helperNames.get(key);
    if (known !== undefined) return known;
    const name = this.f.allocate(this.helperName(owner));
    this.helperNames.set(key, name);
    this.helpers.push(this.function(name, shape, owner, { exported: false }));
    return name;
  }

  /**
   * A long union's table from each tag to its member's function, named after `suffix`
   * (`RootGuards`), typed as the printer's functions are.
   */
  protected tagTable(body: TaggedBody, suffix: string): Name {
    const entries = body.members.map(({ value, target }) => [value, this.target(target)] as const);
    return tagTable(
      this.f,
      `${suffix}:${this.builder.ids.id(body.shape)}`,
      `${body.owner}${suffix}`,
      entries,
      functionType(this.parameters(), this.returnType()),
    );
  }

  protected abstract parameters(): Parameter[];
  protected abstract returnType(): Type;
  /** What a recursive type's function does with a value nested too deep. */
  protected abstract tooDeep(): Statement;
  protected abstract helperName(owner: string): string;
  protected abstract body(body: Body): Statement[];

  /**
   * The loop over an object's own keys: the checks of the name, a case per field whose
   * statements `field` prints, then in the default case each pattern's checks where it
   * matches and the rest's statements where none does, and the counters before it.
   */
  protected loop(
    check: Properties,
    field: (each: PropertyCase) => Statement[],
    checkRest: readonly Statement[],
    print: (checks: readonly Check[]) => Statement[],
  ): Statement[] {
    const { subject, key, property, unevaluated } = check;
    // A key a passed subschema or a pattern evaluates is not unevaluated.
    const rest =
      unevaluated?.evaluated === undefined || checkRest.length === 0 ? checkRest : [ifThen(unevaluated.evaluated, CONTINUE), ...checkRest];
    const cases = check.cases.map((each) => ({ labels: [literal(each.name)], body: [...field(each), BREAK] }));
    if (check.unchecked.length > 0) cases.push({ labels: check.unchecked.map(literal), body: [BREAK] });
    const [only] = check.patterns;
    // One pattern is tested once: its checks where it matches, the rest's where not.
    const other =
      check.patterns.length === 1 && rest.length > 0
        ? this.branches(only!.test, print(only!.checks), rest)
        : [
            ...check.patterns.flatMap((each) => this.branches(each.test, print(each.checks), [])),
            ...(rest.length === 0 || check.patterns.length === 0
              ? rest
              : [ifThen(and(check.patterns.map((each) => not(each.test))), block(rest))]),
          ];
    const counted = check.count === undefined ? [] : this.counts([check.count.counter], property, check.count.bounded);
    const body: Statement[] = [
      ...counted,
      ...print(check.names),
      // Names read as they are still need their case, or the rest would be asked of them.
      ...(cases.length === 0 || (other.length === 0 && check.cases.length === 0)
        ? other
        : [switchStatement(key, [...cases, ...(other.length === 0 ? [] : [{ labels: [], body: other }])])]),
    ];
    const passed = (unevaluated?.passed ?? []).map(({ local, test }) => constant(local, call(this.guardOf(test), [subject])));
    return [...check.counters.map((counter) => variable(counter, literal(0))), ...passed, forEachProperty(subject, key, property, body)];
  }

  /** One more for each counter, only when JSON writes the property where `whenWritten`. */
  protected counts(counters: readonly Name[], property: Expression, whenWritten: boolean): Statement[] {
    return this.when(
      counters.map((counter) => evaluate(increment(counter))),
      property,
      whenWritten,
    );
  }

  /** Statements that note a property's presence, run only when JSON writes it where `whenWritten`. */
  protected when(marks: readonly Statement[], property: Expression, whenWritten: boolean): Statement[] {
    if (marks.length === 0) return [];
    return whenWritten ? [ifThen(not(call(this.runtime("isOmitted"), [property])), statements(marks))] : [...marks];
  }

  /** `if (test) { then } else { otherwise }`, without an empty branch. */
  protected branches(test: Expression, then: readonly Statement[], otherwise: readonly Statement[]): Statement[] {
    if (otherwise.length === 0) return then.length === 0 ? [] : [ifThen(test, block(then))];
    if (then.length === 0) return [ifThen(not(test), block(otherwise))];
    return [ifThen(test, block(then), block(otherwise))];
  }

  /** A loop over an array's items by index from `start`, each read into a local. */
  protected items(subject: Expression, position: Name, item: Name, body: readonly Statement[], start = 0): Statement {
    return forIndex(position, member(subject, "length"), [constant(item, index(subject, position)), ...body], start);
  }

  /**
   * An array's items from `start`: where the loop checks `unevaluatedItems`, the
   * subschemas whose passing decides tested before it, and in it each item's `contains`
   * tests and the skip of an item they evaluate.
   */
  protected itemsOf(check: Items, body: readonly Statement[]): Statement[] {
    const { subject, index: position, item, unevaluated } = check;
    if (unevaluated === undefined) return [this.items(subject, position, item, body, check.start)];
    const passed = unevaluated.passed.map(({ local, test }) => constant(local, call(this.guardOf(test), [subject])));
    const matched = unevaluated.matched.map(({ local, test }) => constant(local, call(this.guardOf(test), [item])));
    const skip = unevaluated.evaluated === undefined ? [] : [ifThen(unevaluated.evaluated, CONTINUE)];
    return [...passed, this.items(subject, position, item, [...matched, ...skip, ...body], check.start)];
  }

  /** A tuple's position, read into a local when the array is that long. */
  protected position(check: Position, body: readonly Statement[]): Statement[] {
    if (body.length === 0) return [];
    const { subject, item } = check;
    return [
      ifThen(
        binary(member(subject, "length"), ">", literal(check.index)),
        block([constant(item, index(subject, literal(check.index))), ...body]),
      ),
    ];
  }

  /** The count of `contains`: the items its guard accepts, until the count decides. */
  protected counted(check: Counted, guard: Name): Statement[] {
    const { counter } = check;
    const matched = [evaluate(increment(counter)), ifThen(check.enough, BREAK)];
    return [
      variable(counter, literal(0)),
      this.items(check.subject, check.index, check.item, [ifThen(call(guard, [check.item]), block(matched))]),
    ];
  }

  /** The check function a target names in this printing. */
  protected abstract target(target: Target): Name;

  /** The guard of a target, which says whether a value passes it. */
  protected abstract guardOf(target: Target): Name;
}
