import type { Field, Shape, TaggedUnionShape, UnionShape } from "../ir/model.js";
import { escapeToken } from "../schema/pointer.js";
import { acceptsAnything, boxMayPass, isArrayIndex, jsonTypes, notJsonArray, notJsonObject, RUNTIME } from "./access.js";
import { count, describe, describeValues } from "../ir/describe.js";
import { checkName, guardName, upperFirst } from "./names.js";
import type { Code } from "./printer/code.js";
import { ts } from "./printer/code.js";
import { identifier, literal, stringLiteral, templateLiteral } from "./printer/escape.js";
import type { GeneratedFile } from "./printer/file.js";
import { regexLiteral } from "./printer/regex.js";
import type { SwitchCase } from "./printer/statements.js";
import {
  block,
  call,
  constant,
  forLoop,
  functionDeclaration,
  ifBlock,
  ifChain,
  ifThen,
  isDisjunction,
  logical,
  switchStatement,
  tryFinally,
} from "./printer/statements.js";
import { Scope } from "./scope.js";

/**
 * The checks of a value against a shape, printed two ways from one list so that the two
 * always agree: `reject` code returns false at the first failure (the guards, `isT`);
 * `report` code records every failure with its JSON Pointer, keyword and a message a
 * person can act on, and goes on (the validators' `checkT`).
 */
export type Mode = "reject" | "report";

/** One failure to test for; what `then` holds is checked only when the test passes. */
interface Failure {
  readonly test: Code;
  readonly keyword: string;
  readonly message: string;
  /** Where the failing value is, after the current location. */
  readonly at: readonly string[];
  readonly then?: readonly Check[];
}

/** A failure, a call of another check function, or statements (loops, nested blocks) that check several things. */
type Check = Failure | { readonly call: Code } | { readonly statements: readonly Code[] };

/** What the properties of an object must be: its fields, a keyed union's members, the rest. */
interface Properties {
  readonly fields: readonly Field[];
  readonly members?: readonly Field[];
  readonly additional: Shape;
  readonly minProperties?: number;
  readonly maxProperties?: number;
  /** Whether to ask, of an object that turns out to have no properties, whether it is a boxed primitive. */
  readonly boxedWhenEmpty?: boolean;
}

/** Where a value is: the `path` parameter, then property names and index or key locals. */
interface Location {
  readonly tokens: readonly (string | { readonly local: string })[];
}

const VALUE = ts`value`;
const PATH = ts`path`;
const ERRORS = ts`errors`;
const HERE: Location = { tokens: [] };

export class CheckEmitter {
  /** Module-level helpers for shapes without a name of their own, declared after the rest. */
  readonly helpers: Code[] = [];
  private readonly helperNames = new Map<string, Code>();

  /**
   * @param guard the guard of a named type as this file refers to it (declared here, or imported)
   * @param guards reporting, the rejecting emitter of the same file, for the tests a union needs
   */
  constructor(
    private readonly f: GeneratedFile,
    private readonly shapes: ReadonlyMap<string, Shape>,
    private readonly mode: Mode,
    private readonly guard: (type: string) => Code,
    private readonly guards?: CheckEmitter,
  ) {}

  /** A function that checks `value` against a shape: `isT(value)` or `checkT(value, path, errors)`. */
  /**
   * The check function of a named type, or of a helper. A recursive type's goes one level
   * deeper each time it is entered, and refuses a value nested past the runtime's
   * MAX_DEPTH rather than exhaust the stack.
   */
  function(
    name: Code,
    shape: Shape,
    owner: string,
    options: { readonly exported: boolean; readonly returns?: Code; readonly recursive?: boolean },
  ): Code {
    const parameters = [{ name: VALUE, type: ts`unknown` }];
    if (this.mode === "report")
      parameters.push(
        { name: PATH, type: ts`string` },
        { name: ERRORS, type: ts`${this.f.import("ValidationError", RUNTIME, { typeOnly: true })}[]` },
      );
    const body = this.body(shape, owner);
    const tooDeep =
      this.mode === "reject"
        ? ts`return false;`
        : block([
            this.fail(
              { test: ts`true`, keyword: "depth", message: "nests deeper than the checks of recursive types follow", at: [] },
              HERE,
            ),
            ts`return;`,
          ]);
    return functionDeclaration({
      exported: options.exported,
      name,
      parameters,
      returns: options.returns ?? (this.mode === "reject" ? ts`boolean` : ts`void`),
      body: options.recursive
        ? [ifThen(ts`!${call(this.runtime("descend"), [])}`, tooDeep), tryFinally(body, [ts`${call(this.runtime("ascend"), [])};`])]
        : body,
    });
  }

  private body(shape: Shape, owner: string): Code[] {
    const scope = new Scope(["value", "path", "errors"]);
    switch (shape.kind) {
      case "tagged-union":
        return this.taggedUnion(shape, scope, owner);
      case "union":
        return this.union(shape, scope, owner);
      case "enum":
        if (this.mode === "reject")
          return [
            switchStatement(VALUE, [
              { labels: shape.values.map(literal), body: [ts`return true;`] },
              { labels: [], body: [ts`return false;`] },
            ]),
          ];
        return this.print(this.checks(shape, VALUE, scope, owner, HERE), true);
      case "keyed-union":
        return [
          ...this.print([this.isObject(VALUE, { ...shape, members: shape.members }, scope, owner, HERE)], true),
          ...this.returnTrue(),
        ];
      case "unknown":
        // Any JSON value, so not one JSON leaves out; what it holds is not walked.
        return [...this.print([this.omitted(VALUE)], true), ...this.returnTrue()];
      default:
        return [...this.print(this.checks(shape, VALUE, scope, owner, HERE), true), ...this.returnTrue()];
    }
  }

  private returnTrue(): Code[] {
    return this.mode === "reject" ? [ts`return true;`] : [];
  }

  private runtime(name: string): Code {
    return this.f.import(name, RUNTIME);
  }

  /** The check function of a named type: `isT` or `checkT`. */
  private named(name: string): Code {
    return this.mode === "reject" ? this.guard(name) : identifier(checkName(name));
  }

  /** Calls a check function: `isT(x)` or `checkT(x, path, errors)`. */
  private apply(check: Code, subject: Code, at: Location): Code {
    return this.mode === "reject" ? call(check, [subject]) : call(check, [subject, this.path(at), ERRORS]);
  }

  /** A location as a string: `path`, or a template literal that adds its tokens. */
  private path(at: Location): Code {
    if (at.tokens.length === 0) return PATH;
    const parts: (string | { name: string })[] = [{ name: "path" }];
    for (const token of at.tokens) parts.push("/", typeof token === "string" ? escapeToken(token) : { name: token.local });
    return templateLiteral(parts);
  }

  private fail(failure: Failure, at: Location): Code {
    const where = this.path({ tokens: [...at.tokens, ...failure.at] });
    return ts`${call(this.runtime("fail"), [ERRORS, where, literal(failure.keyword), literal(failure.message)])};`;
  }

  /**
   * Prints checks. Rejecting, a failure returns false. Reporting, a failure is recorded
   * and what depends on it is skipped; at the top of a function, by returning.
   */
  private print(checks: readonly Check[], top: boolean, at: Location = HERE): Code[] {
    const printed: Code[] = [];
    for (const check of checks) {
      if ("statements" in check) printed.push(...check.statements);
      else if ("call" in check) printed.push(check.call);
      else if (this.mode === "reject") printed.push(ifThen(check.test, ts`return false;`), ...this.print(check.then ?? [], top, at));
      else if (top && check.at.length === 0 && (check.then ?? []).length > 0)
        // A failure of the function's own value ends its checks.
        printed.push(ifThen(check.test, block([this.fail(check, at), ts`return;`])), ...this.print(check.then!, top, at));
      else printed.push(this.chain(check, at));
    }
    return printed;
  }

  /**
   * A failure and what depends on it, reported: `if (a) fail(…); else if (b) fail(…);`
   * while each depends on one further test, else a block.
   */
  private chain(check: Failure, at: Location): Code {
    const branches: { test: Code; statement: Code }[] = [];
    let current: Failure = check;
    for (;;) {
      branches.push({ test: current.test, statement: this.fail(current, at) });
      const then = current.then ?? [];
      const next = then[0];
      if (then.length === 1 && next !== undefined && "test" in next) current = next;
      else return ifChain(branches, then.length === 0 ? undefined : block(this.print(then, false, at)));
    }
  }

  /** What `subject`, at `at`, must satisfy to be a value of `shape`; `owner` names helpers. */
  private checks(shape: Shape, subject: Code, scope: Scope, owner: string, at: Location): Check[] {
    switch (shape.kind) {
      case "unknown":
        return [];
      case "never":
        return [{ test: ts`true`, keyword: "false", message: "must not be present", at: [] }];
      case "ref":
        return acceptsAnything(shape, this.shapes) ? [] : this.call(this.named(shape.name), subject, at, this.guard(shape.name));
      case "literal":
        return [
          { test: ts`${subject} !== ${literal(shape.value)}`, keyword: "const", message: `must be ${JSON.stringify(shape.value)}`, at: [] },
        ];
      case "enum":
        return [
          {
            test: logical(
              "&&",
              shape.values.map((value) => ts`${subject} !== ${literal(value)}`),
            ),
            keyword: "enum",
            message: `must be one of ${describeValues(shape.values)}`,
            at: [],
          },
        ];
      case "boolean":
        return [{ test: ts`typeof ${subject} !== "boolean"`, keyword: "type", message: "must be a boolean", at: [] }];
      case "null":
        return [{ test: ts`${subject} !== null`, keyword: "type", message: "must be null", at: [] }];
      case "string":
        return [
          {
            test: ts`typeof ${subject} !== "string"`,
            keyword: "type",
            message: "must be a string",
            at: [],
            then: this.stringChecks(shape, subject, owner),
          },
        ];
      case "number":
        return numberChecks(shape, subject);
      case "array":
        return this.arrayChecks(shape, subject, scope, owner, at);
      case "object":
        return [this.isObject(subject, shape, scope, owner, at)];
      case "map":
        return [this.isObject(subject, { ...shape, fields: [], additional: shape.values }, scope, owner, at)];
      case "nullable": {
        const inner = this.checks(shape.shape, subject, scope, owner, at);
        const first = inner[0];
        if (first === undefined) return [];
        if (inner.length === 1 && mergeable(first))
          return [{ ...first, test: logical("&&", [ts`${subject} !== null`, first.test]), message: `${first.message} or null` }];
        return [{ statements: [ifBlock(ts`${subject} !== null`, this.print(inner, false, at))] }];
      }
      case "union":
      case "tagged-union":
      case "keyed-union":
        return this.call(this.helper(shape, owner), subject, at, this.mode === "reject" ? ts`` : this.guards!.helper(shape, owner));
    }
  }

  /** Checking by another function: rejecting, a test of its result; reporting, a call that reports. */
  /**
   * Checking by another function. Rejecting, a test of its result. Reporting, a call that
   * reports, made only when the value's guard fails, so that a valid part of an invalid
   * value costs no more than its guard: no path is built for it.
   */
  private call(check: Code, subject: Code, at: Location, guard: Code): Check[] {
    if (this.mode === "reject") return [{ test: ts`!${call(check, [subject])}`, keyword: "", message: "", at: [] }];
    return [{ call: ifThen(ts`!${call(guard, [subject])}`, ts`${this.apply(check, subject, at)};`) }];
  }

  /**
   * An object JSON writes as one, and its properties. Where a boxed primitive could pass
   * (nothing it lacks is required), a closed object, which refuses the indices of a
   * string's box, asks whether it is one only when it has turned out empty: a counter
   * costs less than a walk up every object's prototypes.
   */
  private isObject(subject: Code, spec: Properties, scope: Scope, owner: string, at: Location): Failure {
    const members = spec.members ?? [];
    const boxed = boxMayPass(spec.fields, members);
    const whenEmpty = boxed && spec.additional.kind === "never" && ![...members, ...spec.fields].some((field) => isArrayIndex(field.name));
    const then = this.properties({ ...spec, boxedWhenEmpty: whenEmpty }, subject, scope, owner, at);
    const test = notJsonObject(subject, (name) => this.runtime(name), boxed && !whenEmpty);
    return { test, keyword: "type", message: "must be an object", at: [], then };
  }

  private stringChecks(shape: Shape & { kind: "string" }, subject: Code, owner: string): Check[] {
    const checks: Check[] = [];
    const length = () => call(this.runtime("codePointLength"), [subject]);
    if (shape.minLength !== undefined)
      checks.push({
        test: ts`${length()} < ${literal(shape.minLength)}`,
        keyword: "minLength",
        message: `must have at least ${count(shape.minLength, "character")}`,
        at: [],
      });
    if (shape.maxLength !== undefined)
      checks.push({
        test: ts`${length()} > ${literal(shape.maxLength)}`,
        keyword: "maxLength",
        message: `must have at most ${count(shape.maxLength, "character")}`,
        at: [],
      });
    for (const pattern of shape.patterns ?? []) {
      const regex = this.f.constant(`pattern:${pattern}`, `${owner}Pattern`, (name) => constant(name, regexLiteral(pattern)));
      checks.push({
        test: ts`!${call(ts`${regex}.test`, [subject])}`,
        keyword: "pattern",
        message: `must match the pattern ${pattern}`,
        at: [],
      });
    }
    return checks;
  }

  private arrayChecks(shape: Shape & { kind: "array" }, subject: Code, scope: Scope, owner: string, at: Location): Check[] {
    const then: Check[] = [];
    if (shape.minItems !== undefined)
      then.push({
        test: ts`${subject}.length < ${literal(shape.minItems)}`,
        keyword: "minItems",
        message: `must have at least ${count(shape.minItems, "item")}`,
        at: [],
      });
    if (shape.maxItems !== undefined)
      then.push({
        test: ts`${subject}.length > ${literal(shape.maxItems)}`,
        keyword: "maxItems",
        message: `must have at most ${count(shape.maxItems, "item")}`,
        at: [],
      });
    if (shape.uniqueItems)
      then.push({
        test: ts`!${call(this.runtime("hasUniqueItems"), [subject])}`,
        keyword: "uniqueItems",
        message: "must not have two equal items",
        at: [],
      });
    const loop = this.itemLoop(shape.items, subject, scope, owner, at);
    if (loop !== undefined) then.push({ statements: [loop] });
    return [{ test: notJsonArray(subject, (name) => this.runtime(name)), keyword: "type", message: "must be an array", at: [], then }];
  }

  /**
   * A loop over an array's items by index, as JSON.stringify reads them: a hole is
   * undefined, and an array's own iterator is not asked. Reporting, the index is in the path.
   */
  private itemLoop(items: Shape, subject: Code, scope: Scope, owner: string, at: Location): Code | undefined {
    const item = scope.local("item");
    const index = scope.local("i");
    const inner: Location = this.mode === "reject" ? at : { tokens: [...at.tokens, { local: localName(index) }] };
    const checks = this.print(this.checks(items, item, scope, owner, inner), false, inner);
    if (checks.length === 0) return undefined;
    return ts`for (let ${index} = 0; ${index} < ${subject}.length; ${index}++) ${block([constant(item, ts`${subject}[${index}]`), ...checks])}`;
  }

  /**
   * An object's properties, checked in one loop over its keys: each key a field, a member
   * or the rest, its value checked where the key says. Only the properties the object has
   * are read, and the loop allocates nothing. Counts say afterwards whether every
   * required field was there, and exactly one member of a keyed union.
   */
  private properties(spec: Properties, subject: Code, scope: Scope, owner: string, at: Location): Check[] {
    const key = scope.local("key");
    const property = scope.local("property");
    const members = spec.members ?? [];
    const required = spec.fields.filter((field) => field.required);
    const requiredCount = required.length > 0 ? scope.local("required") : undefined;
    const present = spec.members !== undefined ? scope.local("present") : undefined;
    // Counted for bounds, the properties JSON writes; for emptiness, any.
    const bounded = spec.minProperties !== undefined || spec.maxProperties !== undefined;
    const count = bounded || spec.boxedWhenEmpty ? scope.local("count") : undefined;
    const cases: SwitchCase[] = [];
    const unchecked: Code[] = [];
    for (const field of [...members, ...spec.fields]) {
      const inner: Location = { tokens: [...at.tokens, field.name] };
      const checks = this.print(this.checks(field.shape, property, scope, `${owner}${upperFirst(field.name)}`, inner), false, inner);
      const counts: Code[] = [];
      if (field.required) counts.push(ts`${requiredCount!}++;`);
      if (members.includes(field)) counts.push(ts`${present!}++;`);
      // A value of any type is there only if JSON writes it; a typed one is refused if not.
      const counters = counts.length > 0 && acceptsAnything(field.shape, this.shapes) ? [this.unlessOmitted(property, counts)] : counts;
      if (checks.length === 0 && counters.length === 0) unchecked.push(literal(field.name));
      // Rejecting, a failure has returned already; reporting, a field is there even when it fails.
      else
        cases.push({
          labels: [literal(field.name)],
          body: [...(this.mode === "reject" ? [...checks, ...counters] : [...counters, ...checks]), ts`break;`],
        });
    }
    const rest = this.rest(spec.additional, key, property, scope, owner, at);
    // An object whose keys need no look (a map of anything) is not walked.
    if (cases.length === 0 && rest.length === 0 && count === undefined) return [];
    if (unchecked.length > 0) cases.push({ labels: unchecked, body: [ts`break;`] });
    const body = [
      // As JSON.stringify reads an object: its own properties, and undefined is absent.
      // V8 folds this form of the own test into the loop; Object.hasOwn it calls.
      ifThen(ts`!Object.prototype.hasOwnProperty.call(${subject}, ${key})`, ts`continue;`),
      constant(property, ts`${subject}[${key}]`),
      ifThen(ts`${property} === undefined`, ts`continue;`),
      ...(count === undefined ? [] : [bounded ? this.unlessOmitted(property, [ts`${count}++;`]) : ts`${count}++;`]),
      ...(cases.length === 0 ? rest : [switchStatement(key, [...cases, ...(rest.length === 0 ? [] : [{ labels: [], body: rest }])])]),
    ];
    const counters = [requiredCount, present, count].filter((counter) => counter !== undefined).map((counter) => ts`let ${counter} = 0;`);
    const loop: Check = { statements: [...counters, forLoop("in", key, subject, body)] };
    const after: Check[] = [];
    if (requiredCount !== undefined) after.push(this.missing(required, requiredCount, subject, at));
    if (present !== undefined) {
      const names = describeValues(members.map((member) => member.name));
      after.push({ test: ts`${present} !== 1`, keyword: "oneOf", message: `must have exactly one of ${names}`, at: [] });
    }
    if (count !== undefined) after.push(...propertyCountChecks(spec, count));
    if (spec.boxedWhenEmpty)
      after.push({
        test: ts`${count!} === 0 && ${call(this.runtime("isBoxed"), [subject])}`,
        keyword: "type",
        message: "must be an object",
        at: [],
      });
    return [loop, ...after];
  }

  /**
   * What the loop did not read: a closed object has nothing else, an open one anything,
   * and an object whose other properties have a type checks them.
   */
  private rest(rest: Shape, key: Code, property: Code, scope: Scope, owner: string, at: Location): Code[] {
    if (rest.kind === "never") {
      if (this.mode === "reject") return [ts`return false;`];
      const where = call(this.runtime("pointer"), [this.path(at), key]);
      const message = templateLiteral(['must not have the property "', { name: localName(key) }, '"']);
      return [ts`${call(this.runtime("fail"), [ERRORS, where, literal("additionalProperties"), message])};`];
    }
    const inner: Location = { tokens: [...at.tokens, { local: localName(key) }] };
    return this.print(this.checks(rest, property, scope, `${owner}Property`, inner), false, inner);
  }

  /** After the loop: whether every required field was there; reporting, which were not, as the loop counted them. */
  private missing(required: readonly Field[], counted: Code, subject: Code, at: Location): Check {
    const incomplete = ts`${counted} !== ${literal(required.length)}`;
    if (this.mode === "reject") return { test: incomplete, keyword: "required", message: "", at: [] };
    const reports = required.map((field) => {
      const value = call(this.runtime("jsonProperty"), [subject, stringLiteral(field.name)]);
      const absent = acceptsAnything(field.shape, this.shapes) ? call(this.runtime("isOmitted"), [value]) : ts`${value} === undefined`;
      return ifThen(absent, this.fail({ test: ts`true`, keyword: "required", message: "is required", at: [field.name] }, at));
    });
    return { statements: [ifBlock(incomplete, reports)] };
  }

  /** `if (!isOmitted(value)) …`: statements for a value JSON writes. */
  private unlessOmitted(value: Code, statements: readonly Code[]): Code {
    return ifThen(ts`!${call(this.runtime("isOmitted"), [value])}`, statements.length === 1 ? statements[0]! : block(statements));
  }

  /** A value of any type that JSON leaves out (undefined, a function, a symbol) is no JSON value. */
  private omitted(subject: Code): Failure {
    return { test: call(this.runtime("isOmitted"), [subject]), keyword: "type", message: "must be a JSON value", at: [] };
  }

  /**
   * A switch on the tag, to the member's check: O(1) whatever the number of members. The
   * tag is read as JSON would write it, never from a prototype; the member checks the
   * rest, the value's being an object first.
   */
  private taggedUnion(shape: TaggedUnionShape, scope: Scope, owner: string): Code[] {
    const tag = call(this.runtime("jsonProperty"), [VALUE, stringLiteral(shape.tag)]);
    const cases = shape.members.map((member) => {
      const check =
        member.shape.kind === "ref"
          ? this.named(member.shape.name)
          : this.helper(member.shape, `${owner}${upperFirst(String(member.value))}`);
      const body = this.mode === "reject" ? [ts`return ${call(check, [VALUE])};`] : [ts`${this.apply(check, VALUE, HERE)};`, ts`return;`];
      return { labels: [literal(member.value)], body };
    });
    if (this.mode === "reject") return [switchStatement(tag, [...cases, { labels: [], body: [ts`return false;`] }])];
    // Read once: a missing or unknown tag is one error, which names it, not one per member.
    const read = scope.local("tag");
    const expected = describeValues(shape.members.map((member) => member.value));
    const unknown = call(this.runtime("failTag"), [
      ERRORS,
      this.path({ tokens: [shape.tag] }),
      literal(shape.tag),
      read,
      literal(expected),
    ]);
    const notObject: Failure = {
      test: notJsonObject(VALUE, (name) => this.runtime(name), isArrayIndex(shape.tag)),
      keyword: "type",
      message: "must be an object",
      at: [],
    };
    return [
      ifThen(notObject.test, block([this.fail(notObject, HERE), ts`return;`])),
      constant(read, tag),
      switchStatement(read, [...cases, { labels: [], body: [ts`${unknown};`] }]),
    ];
  }

  /**
   * Alternatives. Rejecting, each accepted one returns true; under oneOf, alternatives that
   * can hold one value are counted, since a value two of them accept is invalid.
   * Reporting, the value failed them all, or matched several: one error says so.
   */
  private union(shape: UnionShape, scope: Scope, owner: string): Code[] {
    const overlapping = shape.exclusive && !disjoint(shape.members, this.shapes);
    if (this.mode === "report") return this.reportUnion(shape, overlapping, owner);
    const accepts = shape.members.map((member, i) => this.accepts(member, owner, i));
    if (!overlapping) return [...accepts.map((test) => ifThen(test, ts`return true;`)), ts`return false;`];
    const matches = scope.local("matches");
    return [ts`let ${matches} = 0;`, ...accepts.map((test) => ifThen(test, ts`${matches}++;`)), ts`return ${matches} === 1;`];
  }

  /** A test that is true when `value` is a value of a union's member. */
  accepts(member: Shape, owner: string, index: number): Code {
    return passes(member, VALUE, this.guard) ?? call(this.helper(member, `${owner}${index + 1}`), [VALUE]);
  }

  /**
   * Reporting on a union: nothing if the value is one of its members. Else, when the
   * value's JSON type is that of exactly one member, that member's failures, which say
   * more than "none of them"; failing that, one error naming the alternatives.
   */
  private reportUnion(shape: UnionShape, overlapping: boolean, owner: string): Code[] {
    const guards = this.guards!;
    const accepted = guards.helper(shape, owner);
    const statements = [ifThen(call(accepted, [VALUE]), ts`return;`)];
    if (!overlapping)
      for (const [i, member] of shape.members.entries()) {
        const types = [...jsonTypes(member, this.shapes)];
        if (types.length !== 1) continue;
        const test = TYPE_TESTS[types[0]!]!(VALUE, (name) => this.runtime(name));
        const checks = this.print(this.checks(member, VALUE, new Scope(["value", "path", "errors"]), `${owner}${i + 1}`, HERE), false);
        statements.push(ifThen(test, block([...checks, ts`return;`])));
      }
    const alternatives = shape.members.map(describe).join(", or ");
    const [keyword, message] = overlapping ? ["oneOf", `must be exactly one of: ${alternatives}`] : ["anyOf", `must be ${alternatives}`];
    return [...statements, ts`${call(this.runtime("fail"), [ERRORS, PATH, literal(keyword), literal(message)])};`];
  }

  /** A module-level helper for a shape without a name of its own: `isOwner` or `checkOwner`. */
  helper(shape: Shape, owner: string): Code {
    const key = `${owner}:${JSON.stringify(shape)}`;
    const known = this.helperNames.get(key);
    if (known !== undefined) return known;
    const name = identifier(this.f.allocate(this.mode === "reject" ? guardName(owner) : checkName(owner)));
    this.helperNames.set(key, name);
    this.helpers.push(this.function(name, shape, owner, { exported: false }));
    return name;
  }
}

/** The name of a local, for the places (template literals) that take it as text. */
function localName(local: Code): string {
  if (typeof local.doc !== "string") throw new Error("a local name is a plain identifier");
  return local.doc;
}

/** A failure whose test can follow `x !== undefined &&`: a single test with nothing after it. */
function mergeable(check: Check): check is Failure {
  return "test" in check && check.then === undefined && !isDisjunction(check.test);
}

/** The tests that a value has one JSON type. */
const TYPE_TESTS: Readonly<Record<string, (subject: Code, runtime: (name: string) => Code) => Code>> = {
  string: (subject) => ts`typeof ${subject} === "string"`,
  number: (subject) => ts`typeof ${subject} === "number"`,
  boolean: (subject) => ts`typeof ${subject} === "boolean"`,
  null: (subject) => ts`${subject} === null`,
  array: (subject, runtime) => call(runtime("isArray"), [subject]),
  object: (subject, runtime) => call(runtime("isRecord"), [subject]),
};

/** The test a value passes, for a shape one test checks; undefined for the others. */
function passes(shape: Shape, subject: Code, guard: (type: string) => Code): Code | undefined {
  switch (shape.kind) {
    case "ref":
      return call(guard(shape.name), [subject]);
    case "unknown":
      return ts`true`;
    case "literal":
      return ts`${subject} === ${literal(shape.value)}`;
    case "null":
      return ts`${subject} === null`;
    case "boolean":
      return ts`typeof ${subject} === "boolean"`;
    case "string":
      return Object.keys(shape).length === 1 ? ts`typeof ${subject} === "string"` : undefined;
    case "number":
      if (Object.keys(shape).some((key) => !["kind", "integer", "format", "wire"].includes(key))) return undefined;
      return shape.integer ? ts`Number.isInteger(${subject})` : ts`Number.isFinite(${subject})`;
    default:
      return undefined;
  }
}

function numberChecks(shape: Shape & { kind: "number" }, subject: Code): Check[] {
  const then: Check[] = [];
  const bound = (test: Code, keyword: string, message: string) => then.push({ test, keyword, message, at: [] });
  if (shape.minimum !== undefined) bound(ts`${subject} < ${literal(shape.minimum)}`, "minimum", `must be at least ${shape.minimum}`);
  if (shape.exclusiveMinimum !== undefined)
    bound(ts`${subject} <= ${literal(shape.exclusiveMinimum)}`, "exclusiveMinimum", `must be more than ${shape.exclusiveMinimum}`);
  if (shape.maximum !== undefined) bound(ts`${subject} > ${literal(shape.maximum)}`, "maximum", `must be at most ${shape.maximum}`);
  if (shape.exclusiveMaximum !== undefined)
    bound(ts`${subject} >= ${literal(shape.exclusiveMaximum)}`, "exclusiveMaximum", `must be less than ${shape.exclusiveMaximum}`);
  if (shape.multipleOf !== undefined)
    bound(ts`!Number.isInteger(${subject} / ${literal(shape.multipleOf)})`, "multipleOf", `must be a multiple of ${shape.multipleOf}`);
  // NaN and the infinities are numbers JSON writes as null.
  const type = ts`typeof ${subject} !== "number"`;
  return [
    shape.integer
      ? { test: logical("||", [type, ts`!Number.isInteger(${subject})`]), keyword: "type", message: "must be an integer", at: [], then }
      : { test: logical("||", [type, ts`!Number.isFinite(${subject})`]), keyword: "type", message: "must be a number", at: [], then },
  ];
}

function propertyCountChecks(shape: { readonly minProperties?: number; readonly maxProperties?: number }, size: Code): Check[] {
  const checks: Check[] = [];
  if (shape.minProperties !== undefined)
    checks.push({
      test: ts`${size} < ${literal(shape.minProperties)}`,
      keyword: "minProperties",
      message: `must have at least ${count(shape.minProperties, "property")}`,
      at: [],
    });
  if (shape.maxProperties !== undefined)
    checks.push({
      test: ts`${size} > ${literal(shape.maxProperties)}`,
      keyword: "maxProperties",
      message: `must have at most ${count(shape.maxProperties, "property")}`,
      at: [],
    });
  return checks;
}

/** Whether no value can be of two of the shapes: their JSON types do not overlap. */
function disjoint(members: readonly Shape[], shapes: ReadonlyMap<string, Shape>): boolean {
  const seen = new Set<string>();
  for (const member of members)
    for (const type of jsonTypes(member, shapes)) {
      if (seen.has(type)) return false;
      seen.add(type);
    }
  return true;
}
