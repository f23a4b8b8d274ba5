import type { Expression, Name } from "../../code/tree.js";
import {
  and,
  asConst,
  binary,
  call,
  constant,
  construct,
  identifier,
  jsonLiteral,
  keywordType,
  literal,
  member,
  not,
  or,
  regex,
  typeOf,
  typeReference,
} from "../../code/build.js";
import { Scope } from "../../code/scope.js";
import { describe, describeValues } from "../../ir/describe.js";
import type { ProtocolShapes, ShapeIds } from "../../ir/identity.js";
import { isJsonPrimitive, jsonEqual } from "../../json.js";
import type { Constraint, Evaluated, Field, PatternProperty, Shape, TaggedUnionShape, UnionShape } from "../../ir/model.js";
import {
  acceptsAnything,
  boxMayPassFields,
  isArrayIndex,
  isJsonObjectTest,
  jsonTypes,
  notJsonArray,
  notJsonObject,
  ownTag,
} from "../access.js";
import { dispatchesByTable } from "../dispatch.js";
import type { GeneratedFile } from "../file.js";
import type { RuntimeValue } from "../templates.js";
import { FORMATS, RUNTIME } from "../templates.js";
import { pascalCase } from "../../identifiers.js";
import { arrayChecks, containsBounds } from "../../keywords/arrays.js";
import type { KeywordCheck } from "../../keywords/index.js";
import { numberChecks, numberType } from "../../keywords/numbers.js";
import { propertyChecks } from "../../keywords/properties.js";
import { STRING_TYPE, stringChecks } from "../../keywords/strings.js";
import { typeCheck } from "../../keywords/types.js";
import { valueChecks } from "../../keywords/values.js";
import type { TestContext } from "./keywords.js";
import { failingTest } from "./keywords.js";
import type {
  Body,
  Check,
  Failure,
  Items,
  KeyToken,
  Location,
  Properties,
  PropertyCase,
  TaggedBody,
  Target,
  UnionBody,
  When,
} from "./tree.js";
import { ERRORS, PATH, VALUE } from "./tree.js";

const HERE: Location = [];

function keyToken(key: Name): KeyToken {
  return { kind: "key", key };
}

/**
 * Where checks are built: of `subject`, at `at` in the value checked, in a function whose
 * locals `scope` names, for `owner`, which names the helpers and constants of the shapes
 * met there.
 */
interface Site {
  readonly subject: Expression;
  readonly scope: Scope;
  readonly owner: string;
  readonly at: Location;
}

/** The site of a part of `site`'s value: `subject`, at `token` below it, its helpers named after `owner`. */
function inside(site: Site, subject: Expression, owner: string, token: Location[number]): Site {
  return { ...site, subject, owner, at: [...site.at, token] };
}

/** The locals of a check function, its parameters taken. */
function functionScope(): Scope {
  return new Scope([VALUE.text, PATH.text, ERRORS.text]);
}

/** The site of a function's own value, in a scope of its own. */
function functionSite(owner: string): Site {
  return { subject: VALUE, scope: functionScope(), owner, at: HERE };
}

/** What the properties of an object must be: its fields, a keyed union's members, the rest. */
interface PropertiesSpec {
  readonly fields: readonly Field[];
  readonly members?: readonly Field[];
  readonly patterns?: readonly PatternProperty[];
  readonly additional: Shape;
  readonly names?: Shape;
  readonly minProperties?: number;
  readonly maxProperties?: number;
  /** Whether a boxed primitive may pass the loop, and so is asked for once the object turns out to have no properties. */
  readonly boxMayPassWhenEmpty?: boolean;
}

/**
 * Builds the checks of the shapes of one file: runtime helpers and patterns are names in
 * that file. Bodies are built once per shape, whichever printings and places ask.
 */
export class CheckBuilder {
  private readonly bodies = new Map<number, Body>();
  /** Per repeated shape, whether its checks are more than a test, and so written once. */
  private readonly shared = new Map<number, boolean>();
  /** Shapes by what they accept: a helper serves every place of its shape. */
  readonly ids: ShapeIds;

  /** The named types' shapes, by name. */
  readonly shapes: ReadonlyMap<string, Shape>;

  /**
   * @param guard the guard of a named type as the file refers to it, for tests of union members
   * @param protocol the protocol's shapes by id: those met in more than one place, and the named types they are
   */
  constructor(
    private readonly f: GeneratedFile,
    private readonly guard: (type: string) => Name,
    private readonly protocol: ProtocolShapes,
  ) {
    this.ids = protocol.ids;
    this.shapes = protocol.byName;
  }

  runtime(name: RuntimeValue): Name {
    return this.f.import(name, RUNTIME);
  }

  /**
   * How a function checks `value` against a shape, built once per shape: `owner`, the
   * first place to ask, names the helpers of its parts.
   */
  body(shape: Shape, owner: string): Body {
    const id = this.ids.id(shape);
    let body = this.bodies.get(id);
    if (body === undefined) {
      body = this.build(shape, owner);
      this.bodies.set(id, body);
    }
    return body;
  }

  private build(shape: Shape, owner: string): Body {
    const site = functionSite(owner);
    switch (shape.kind) {
      case "tagged-union":
        return this.taggedUnion(shape, site);
      case "union":
        return this.union(shape, site);
      case "enum":
        return { kind: "enum", values: shape.values, failure: this.checks(shape, site)[0] as Failure };
      case "keyed-union":
        return { kind: "checks", checks: [this.isObject({ ...shape, members: shape.members }, site)] };
      case "unknown":
        // Any JSON value, so not one JSON leaves out; what it holds is not walked.
        return { kind: "checks", checks: [failure(call(this.runtime("isOmitted"), [VALUE]), "type", "must be a JSON value", HERE)] };
      default:
        return { kind: "checks", checks: this.checks(shape, site, true) };
    }
  }

  /**
   * What the site's subject must satisfy to be a value of `shape`.
   * An object or an array met in more than one place is checked by one function, a named
   * type's where it is one's shape, unless this is that function's own body (`inline`).
   */
  private checks(shape: Shape, site: Site, inline = false): Check[] {
    const { subject, owner, at } = site;
    if (!inline && SHARED_KINDS.has(shape.kind) && this.protocol.repeated.has(this.ids.id(shape))) {
      const id = this.ids.id(shape);
      let shared = this.shared.get(id);
      if (shared === undefined) {
        // Tried in a scope of its own, so that locals of a try not kept take no names.
        shared = !this.checks(shape, { ...site, scope: functionScope() }, true).every(isOneTest);
        this.shared.set(id, shared);
      }
      if (shared) {
        const name = this.protocol.namedTypeOf(shape);
        return [{ kind: "delegate", subject, target: name === undefined ? { kind: "helper", shape, owner } : { kind: "named", name }, at }];
      }
    }
    switch (shape.kind) {
      case "unknown":
        return [];
      case "never":
        return [failure(literal(true), "false", "must not be present", at)];
      case "ref":
        return acceptsAnything(shape, this.shapes) ? [] : [{ kind: "delegate", subject, target: { kind: "named", name: shape.name }, at }];
      case "literal":
      case "enum": {
        const failures = this.keywordFailures(valueChecks(shape), site);
        if (shape.kind !== "enum") return failures;
        // A decoder reads a number into the enum's value (or notes it unrecognized).
        if (shape.wire !== undefined) return failures.map((each) => readsWire(each, binary(typeOf(subject), "===", literal("number"))));
        // A tolerant reading notes or replaces a value of its values' types, and leaves any other.
        const types = [...new Set(shape.values.map((value) => (value === null ? "object" : typeof value)))];
        const readable = or(types.map((type) => binary(typeOf(subject), "===", literal(type))));
        return failures.map((each) => ({ ...each, readable }));
      }
      case "boolean":
      case "null":
        return this.keywordFailures([typeCheck(shape.kind)], site);
      case "string":
        return [this.typed(STRING_TYPE, stringChecks(shape), site)];
      case "number": {
        const typed = this.typed(numberType(shape), numberChecks(shape), site);
        if (shape.wire === undefined) return [typed];
        // A decoder reads digits into the number; what follows the type's test is of a number.
        return [readsWire(typed, binary(typeOf(subject), "===", literal("string")))];
      }
      case "array":
        return [this.isArray(shape, site)];
      case "object":
        return [this.isObject(shape, site)];
      case "map":
        return [this.isObject({ ...shape, fields: [], additional: shape.values }, site)];
      case "nullable": {
        const inner = this.checks(shape.shape, site);
        return inner.length === 0 ? [] : [{ kind: "non-null", subject, checks: inner }];
      }
      case "constrained": {
        const types = jsonTypes(shape.shape, this.shapes);
        const boxMayPass = types.has("string") || types.has("number") || types.has("boolean");
        return [
          ...this.checks(shape.shape, site),
          ...shape.constraints.flatMap((constraint) => this.constraint(constraint, site, boxMayPass)),
        ];
      }
      case "union":
      case "tagged-union":
      case "keyed-union":
        return [{ kind: "delegate", subject, target: { kind: "helper", shape, owner }, at }];
    }
  }

  /** The checks of a constraint; the site's owner names the helpers of its shapes. */
  private constraint(constraint: Constraint, site: Site, boxMayPass: boolean): Check[] {
    const { subject, owner, at } = site;
    switch (constraint.kind) {
      case "also":
        return this.checks(constraint.shape, site);
      case "not":
        return [
          {
            kind: "matches",
            subject,
            target: { kind: "helper", shape: constraint.shape, owner: `${owner}Not` },
            keyword: "not",
            message: notMessage(constraint.shape),
            at,
          },
        ];
      case "unevaluated":
        if (constraint.of === "items") return [this.unevaluatedItems(constraint, site)];
        return [this.unevaluated(constraint, site, boxMayPass)];
      case "if": {
        const then = this.checks(constraint.then, { ...site, owner: `${owner}Then` });
        const otherwise = this.checks(constraint.else, { ...site, owner: `${owner}Else` });
        if (then.length === 0 && otherwise.length === 0) return [];
        return [{ kind: "conditional", subject, test: { kind: "helper", shape: constraint.if, owner: `${owner}If` }, then, otherwise }];
      }
    }
  }

  /**
   * `unevaluatedProperties`, of objects alone: one loop over the keys, in which a key
   * evaluated for every value is passed by name, one a pattern or a passed subschema
   * evaluates by a test, and the rest is checked.
   */
  private unevaluated(constraint: Constraint & { kind: "unevaluated" }, site: Site, boxMayPass: boolean): When {
    const { subject, scope, owner, at } = site;
    const key = scope.local("key");
    const property = scope.local("property");
    const passed: { local: Name; test: Target }[] = [];
    const names = (evaluated: Evaluated, nested: boolean): Expression[] => [
      ...(nested ? evaluated.names.map((name) => binary(key, "===", literal(name))) : []),
      ...evaluated.patterns.map((source) => call(member(this.pattern(source, owner), "test"), [key])),
    ];
    const evaluated = this.evaluatedTest(constraint.evaluated, false, names, site, passed);
    const rest =
      constraint.rest.kind === "never" ? "closed" : this.checks(constraint.rest, inside(site, property, `${owner}Property`, keyToken(key)));
    const loop: Properties = {
      kind: "properties",
      subject,
      at,
      key,
      property,
      counters: [],
      cases: [],
      unchecked: constraint.evaluated.names,
      names: [],
      patterns: [],
      rest,
      after: [],
      unevaluated: { passed, ...(evaluated === undefined ? {} : { evaluated }) },
    };
    // A boxed string, number or boolean is not an object to JSON.
    return { kind: "when", test: isJsonObjectTest(subject, (name) => this.runtime(name), boxMayPass), checks: [loop] };
  }

  /**
   * The test that a key or an item is evaluated, for both unevaluated keywords: `own` gives
   * the tests of what a schema's own keywords evaluate (`nested` within a subschema, where
   * what every value evaluates, which the loop passes over, is tested too); each subschema
   * whose passing decides more is tested once, into a local that `passed` collects.
   */
  private evaluatedTest(
    evaluated: Evaluated,
    nested: boolean,
    own: (evaluated: Evaluated, nested: boolean) => Expression[],
    site: Site,
    passed: { local: Name; test: Target }[],
  ): Expression | undefined {
    const { scope, owner } = site;
    if (evaluated.all) return literal(true);
    const tests = own(evaluated, nested);
    for (const each of evaluated.when) {
      const local = scope.local("passed");
      passed.push({ local, test: { kind: "helper", shape: each.shape, owner: `${owner}Evaluates` } });
      const then = this.evaluatedTest(each.then, true, own, site, passed);
      const otherwise = this.evaluatedTest(each.else, true, own, site, passed);
      if (then !== undefined) tests.push(isTrue(then) ? local : and([local, then]));
      if (otherwise !== undefined) tests.push(isTrue(otherwise) ? not(local) : and([not(local), otherwise]));
    }
    return tests.length === 0 ? undefined : or(tests);
  }

  /**
   * `unevaluatedItems`, of arrays alone, as `unevaluated` checks properties: one loop over
   * the items after the positions every value has evaluated, in which an item a passed
   * subschema's positions or a `contains` shape evaluates is skipped, and the rest checked.
   * Each subschema is tested once, before the loop, and each `contains` shape once an item,
   * so that the code is as large as the schema however many branches there are.
   */
  private unevaluatedItems(constraint: Constraint & { kind: "unevaluated" }, site: Site): When {
    const { subject, scope, owner, at } = site;
    const index = scope.local("i");
    const item = scope.local("item");
    const passed: { local: Name; test: Target }[] = [];
    const matched: { local: Name; test: Target }[] = [];
    const items = (evaluated: Evaluated, nested: boolean): Expression[] => [
      ...(nested && evaluated.prefix > 0 ? [binary(index, "<", literal(evaluated.prefix))] : []),
      ...evaluated.contains.map((shape) => {
        const local = scope.local("matched");
        matched.push({ local, test: { kind: "helper", shape, owner: `${owner}Contains` } });
        return local;
      }),
    ];
    // The positions every value has evaluated are not looked at.
    const evaluated = this.evaluatedTest(constraint.evaluated, false, items, site, passed);
    const itemAt: Location = [...at, index];
    const checks =
      constraint.rest.kind === "never"
        ? [failure(literal(true), "unevaluatedItems", "must not be present", itemAt)]
        : this.checks(constraint.rest, inside(site, item, `${owner}Item`, index));
    const loop: Items = {
      kind: "items",
      subject,
      start: constraint.evaluated.prefix,
      index,
      item,
      checks,
      unevaluated: { passed, matched, ...(evaluated === undefined ? {} : { evaluated }) },
    };
    return { kind: "when", test: not(notJsonArray(subject, (name) => this.runtime(name))), checks: checks.length === 0 ? [] : [loop] };
  }

  /**
   * An object JSON writes as one, and its properties. Where a boxed primitive could pass
   * (nothing it lacks is required), a closed object, which refuses the indices of a
   * string's box, asks whether it is one only when it has turned out empty: a counter
   * costs less than a walk up every object's prototypes.
   */
  private isObject(spec: PropertiesSpec, site: Site): Failure {
    const { subject, at } = site;
    const members = spec.members ?? [];
    const boxMayPass = boxMayPassFields(spec.fields, members);
    // A pattern may match the indices of a string's box, so with patterns a box is refused first.
    const whenEmpty =
      boxMayPass &&
      spec.additional.kind === "never" &&
      spec.patterns === undefined &&
      ![...members, ...spec.fields].some((field) => isArrayIndex(field.name));
    const then = this.properties({ ...spec, boxMayPassWhenEmpty: whenEmpty }, site);
    const test = notJsonObject(subject, (name) => this.runtime(name), boxMayPass && !whenEmpty);
    return failure(test, "type", "must be an object", at, then);
  }

  /** The failures of the keyword modules' checks, in order; the site's owner names hoisted patterns. */
  private keywordFailures(checks: readonly KeywordCheck[], site: Site, propertyCount?: Name): Failure[] {
    const { subject, owner, at } = site;
    const context: TestContext = {
      runtime: (name) => this.runtime(name),
      format: (test) => this.f.import(test, FORMATS),
      pattern: (source) => this.pattern(source, owner),
      value: (value) =>
        this.f.constant(`value:${JSON.stringify(value)}`, `${owner}Value`, (name) => constant(name, asConst(jsonLiteral(value)))),
      values: (values) =>
        this.f.constant(`values:${JSON.stringify(values)}`, `${owner}Values`, (name) =>
          constant(name, construct(identifier("Set"), [jsonLiteral(values)]), {
            type: typeReference(identifier("ReadonlySet"), [keywordType("unknown")]),
          }),
        ),
      ...(propertyCount === undefined ? {} : { propertyCount }),
    };
    return checks.map((check) => failure(failingTest(check.fails, subject, context), check.keyword, check.message, at));
  }

  /** What a property name, a string, must be: a string shape's own checks, without the test of its type. */
  private nameChecks(names: Shape, site: Site): Check[] {
    if (names.kind === "string") return this.keywordFailures(stringChecks(names), site);
    return this.checks(names, site);
  }

  /** A pattern as a module-level regex (with the `u` flag), one per source in a file, tested through the runtime's `matches`. */
  private pattern(source: string, owner: string): Name {
    return this.f.constant(`pattern:${source}`, `${owner}Pattern`, (name) => constant(name, regex(source)));
  }

  /** A type's check, and what a value of the type is checked for then. */
  private typed(type: KeywordCheck, then: readonly KeywordCheck[], site: Site): Failure {
    const [test] = this.keywordFailures([type], site);
    return { ...test!, then: this.keywordFailures(then, site) };
  }

  /**
   * An array JSON writes as one: its length and uniqueness, a tuple's positions, the rest
   * of its items in one loop, then each `contains` count.
   */
  private isArray(shape: Shape & { kind: "array" }, site: Site): Failure {
    const { subject, scope, owner, at } = site;
    const then: Check[] = this.keywordFailures(arrayChecks(shape), site);
    const prefix = shape.prefixItems ?? [];
    for (const [i, each] of prefix.entries()) {
      const item = scope.local(`item${i}`);
      const checks = this.checks(each, inside(site, item, `${owner}${i}`, String(i)));
      if (checks.length > 0) then.push({ kind: "position", subject, index: i, item, checks });
    }
    // A closed rest is the length's check.
    if (shape.items.kind !== "never") {
      const item = scope.local("item");
      const position = scope.local("i");
      const checks = this.checks(shape.items, inside(site, item, owner, position));
      if (checks.length > 0) then.push({ kind: "items", subject, start: prefix.length, index: position, item, checks });
    }
    for (const [i, each] of (shape.contains ?? []).entries()) {
      const bounds = containsBounds(each);
      if (bounds.length === 0) continue;
      // Every item is of any shape, as JSON writes it (an undefined item as null): the count is the length.
      if (each.shape.kind === "unknown") {
        const length = member(subject, "length");
        then.push(...bounds.map((bound) => failure(binary(length, bound.op, literal(bound.bound)), bound.keyword, bound.message, at)));
        continue;
      }
      const counter = scope.local("matched");
      const upper = bounds.find((bound) => bound.op === ">");
      then.push({
        kind: "counted",
        subject,
        index: scope.local("i"),
        item: scope.local("item"),
        counter,
        target: { kind: "helper", shape: each.shape, owner: `${owner}Contains${i === 0 ? "" : i + 1}` },
        enough: upper === undefined ? binary(counter, "===", literal(each.min)) : binary(counter, ">", literal(upper.bound)),
        bounds: bounds.map((bound) => failure(binary(counter, bound.op, literal(bound.bound)), bound.keyword, bound.message, at)),
      });
    }
    return failure(
      notJsonArray(subject, (name) => this.runtime(name)),
      "type",
      "must be an array",
      at,
      then,
    );
  }

  private properties(spec: PropertiesSpec, site: Site): Check[] {
    const { subject, scope, owner, at } = site;
    const key = scope.local("key");
    const property = scope.local("property");
    const members = spec.members ?? [];
    const required = spec.fields.filter((field) => field.required);
    const requiredCount = required.length > 0 ? scope.local("required") : undefined;
    const present = spec.members !== undefined ? scope.local("present") : undefined;
    // Counted for bounds, the properties JSON writes; for emptiness, any.
    const bounded = spec.minProperties !== undefined || spec.maxProperties !== undefined;
    const counter = bounded || spec.boxMayPassWhenEmpty ? scope.local("count") : undefined;
    const cases: PropertyCase[] = [];
    const unchecked: string[] = [];
    const patterns = spec.patterns ?? [];
    const patternOwner = (i: number) => `${owner}PatternProperty${patterns.length === 1 ? "" : i + 1}`;
    const aliasCounters: Name[] = [];
    const onePerField: Failure[] = [];
    for (const field of [...members, ...spec.fields]) {
      const fieldOwner = `${owner}${pascalCase(field.name)}`;
      // A declared property whose name a pattern matches is of the pattern's shape too: known here, not tested.
      const checksOf = (name: string): Check[] => [
        ...this.checks(field.shape, inside(site, property, fieldOwner, name)),
        ...patterns.flatMap((each, i) =>
          new RegExp(each.pattern, "u").test(name) ? this.checks(each.shape, inside(site, property, patternOwner(i), name)) : [],
        ),
      ];
      const checks = checksOf(field.name);
      const counts: Name[] = [];
      if (field.required) counts.push(requiredCount!);
      if (members.includes(field)) counts.push(present!);
      // A value of any type is there only if JSON writes it; a typed one is refused if not.
      const countsWhenWritten = acceptsAnything(field.shape, this.shapes);
      // Where other properties are allowed, an alias is one, of its field's shape; a field has one of its names at most.
      const aliases = spec.additional.kind === "never" ? [] : (field.aliases ?? []);
      const aliasCases: PropertyCase[] = [];
      if (aliases.length > 0) {
        const named = scope.local("named");
        aliasCounters.push(named);
        counts.push(named);
        for (const alias of aliases)
          aliasCases.push({
            name: alias,
            checks: checksOf(alias),
            counts: [named],
            countsWhenWritten,
            wire: literal(true),
          });
        const names = describeValues([field.name, ...aliases]);
        onePerField.push(failure(binary(named, ">", literal(1)), "dependentSchemas", `must have one of ${names} at most`, at));
      }
      // A null for the field absent is a wire form, which a decoder drops.
      const wire = field.nullIsAbsent ? { wire: binary(property, "===", literal(null)) } : {};
      if (checks.length === 0 && counts.length === 0 && !field.nullIsAbsent) unchecked.push(field.name);
      else cases.push({ name: field.name, checks, counts, countsWhenWritten: counts.length > 0 && countsWhenWritten, ...wire });
      cases.push(...aliasCases);
    }
    const rest =
      spec.additional.kind === "never" ? "closed" : this.checks(spec.additional, inside(site, property, `${owner}Property`, keyToken(key)));
    const closedAliases = rest === "closed" ? [...members, ...spec.fields].flatMap((field) => field.aliases ?? []) : [];
    const patternChecks = patterns.map((each, i) => ({
      test: call(this.runtime("matches"), [this.pattern(each.pattern, owner), key]),
      checks: this.checks(each.shape, inside(site, property, patternOwner(i), keyToken(key))),
    }));
    const names = spec.names === undefined ? [] : this.nameChecks(spec.names, inside(site, key, `${owner}Name`, keyToken(key)));
    // An object whose keys need no look (a map of anything) is not walked.
    if (
      cases.length === 0 &&
      rest.length === 0 &&
      counter === undefined &&
      names.length === 0 &&
      patternChecks.every((each) => each.checks.length === 0)
    )
      return [];
    const after: Failure[] = [...onePerField];
    if (present !== undefined) {
      const names = describeValues(members.map((each) => each.name));
      after.push(failure(binary(present, "!==", literal(1)), "oneOf", `must have exactly one of ${names}`, at));
    }
    if (counter !== undefined) after.push(...this.keywordFailures(propertyChecks(spec), site, counter));
    if (spec.boxMayPassWhenEmpty)
      after.push(
        failure(and([binary(counter!, "===", literal(0)), call(this.runtime("isBoxed"), [subject])]), "type", "must be an object", at),
      );
    return [
      {
        kind: "properties",
        subject,
        at,
        key,
        property,
        ...(requiredCount === undefined
          ? {}
          : { required: { counter: requiredCount, fields: required, flags: required.map((field) => scope.local(`has ${field.name}`)) } }),
        counters: [requiredCount, present, counter, ...aliasCounters].filter((each) => each !== undefined),
        ...(counter === undefined ? {} : { count: { counter, bounded } }),
        cases,
        unchecked,
        names,
        // Patterns matter for the rest only where it is checked.
        patterns: rest !== "closed" && rest.length === 0 ? patternChecks.filter((each) => each.checks.length > 0) : patternChecks,
        rest,
        ...(closedAliases.length === 0 ? {} : { aliases: closedAliases }),
        after,
      },
    ];
  }

  private taggedUnion(shape: TaggedUnionShape, { scope, owner }: Site): TaggedBody {
    return {
      kind: "tagged",
      shape,
      owner,
      tagValue: ownTag(VALUE, shape.tag, (name) => this.runtime(name)),
      // Read once: a missing or unknown tag is one error, which names it, not one per member.
      tagLocal: scope.local("tag"),
      ...(dispatchesByTable(shape.members.length) ? { memberLocal: scope.local("member") } : {}),
      members: shape.members.map((each) => ({
        value: each.value,
        target:
          each.shape.kind === "ref"
            ? { kind: "named", name: each.shape.name }
            : { kind: "helper", shape: each.shape, owner: `${owner}${pascalCase(String(each.value))}` },
      })),
      // A boxed primitive may pass where the tag, which is required, is one of a string's indices.
      notObject: failure(
        notJsonObject(VALUE, (name) => this.runtime(name), isArrayIndex(shape.tag)),
        "type",
        "must be an object",
        HERE,
      ),
      expected: describeValues(shape.members.map((each) => each.value)),
    };
  }

  private union(shape: UnionShape, { scope, owner }: Site): UnionBody {
    const overlapping = shape.exclusive && !disjoint(shape.members, this.shapes);
    const alternatives = shape.members.map((each, i) => {
      const test = passes(each, VALUE, this.guard);
      const target: Target = { kind: "helper", shape: each, owner: `${owner}${i + 1}` };
      return test === undefined ? { target } : { test, target };
    });
    const typed: { test: Expression; checks: readonly Check[] }[] = [];
    if (!overlapping)
      for (const [i, each] of shape.members.entries()) {
        const types = [...jsonTypes(each, this.shapes)];
        if (types.length !== 1) continue;
        const test = TYPE_TESTS[types[0]!]!(VALUE, (name) => this.runtime(name));
        typed.push({ test, checks: this.checks(each, functionSite(`${owner}${i + 1}`)) });
      }
    const described = shape.members.map(describe).join(", or ");
    return {
      kind: "union",
      self: { kind: "helper", shape, owner },
      alternatives,
      overlapping,
      matches: scope.local("matches"),
      typed,
      ...(overlapping
        ? { keyword: "oneOf", message: `must be exactly one of: ${described}` }
        : { keyword: "anyOf", message: `must be ${described}` }),
    };
  }
}

/** The shapes whose checks are loops, worth a function when met twice; other checks are a test or two, written in place. */
const SHARED_KINDS: ReadonlySet<Shape["kind"]> = new Set(["object", "map", "array"]);

/** Whether a check is one test, which costs less in place than a call. */
function isOneTest(check: Check): boolean {
  return check.kind === "delegate" || (check.kind === "failure" && (check.then ?? []).length === 0);
}

/** A failure whose value is, where `wire` holds, in a wire form that a decoder reads into another. */
function readsWire(failure: Failure, wire: Expression): Failure {
  return { ...failure, wire };
}

function failure(test: Expression, keyword: string, message: string, at: Location, then?: readonly Check[]): Failure {
  return then === undefined ? { kind: "failure", test, keyword, message, at } : { kind: "failure", test, keyword, message, at, then };
}

/** The tests that a value has one JSON type. */
const TYPE_TESTS: Readonly<Record<string, (subject: Expression, runtime: (name: RuntimeValue) => Name) => Expression>> = {
  string: (subject) => binary(typeOf(subject), "===", literal("string")),
  number: (subject) => binary(typeOf(subject), "===", literal("number")),
  boolean: (subject) => binary(typeOf(subject), "===", literal("boolean")),
  null: (subject) => binary(subject, "===", literal(null)),
  array: (subject, runtime) => call(runtime("isArray"), [subject]),
  object: (subject, runtime) => call(runtime("isRecord"), [subject]),
};

/** The test a value passes, for a shape one test checks; undefined for the others. */
function passes(shape: Shape, subject: Expression, guard: (type: string) => Name): Expression | undefined {
  switch (shape.kind) {
    case "ref":
      return call(guard(shape.name), [subject]);
    case "unknown":
      return literal(true);
    case "literal":
      // An object or an array is compared by its own checks.
      return isJsonPrimitive(shape.value) ? binary(subject, "===", literal(shape.value)) : undefined;
    case "null":
      return binary(subject, "===", literal(null));
    case "boolean":
      return binary(typeOf(subject), "===", literal("boolean"));
    case "string":
      return Object.keys(shape).length === 1 ? binary(typeOf(subject), "===", literal("string")) : undefined;
    case "number": {
      if (Object.keys(shape).some((key) => !["kind", "integer", "format", "wire"].includes(key))) return undefined;
      return call(member(identifier("Number"), shape.integer ? "isInteger" : "isFinite"), [subject]);
    }
    default:
      return undefined;
  }
}

/** Whether no value can be of two of the shapes: their JSON types do not overlap. */
function disjoint(members: readonly Shape[], shapes: ReadonlyMap<string, Shape>): boolean {
  const seen = new Set<string>();
  for (const each of members)
    for (const type of jsonTypes(each, shapes)) {
      if (seen.has(type)) return false;
      seen.add(type);
    }
  return true;
}

function isTrue(test: Expression): boolean {
  return test.kind === "literal" && test.value === true;
}

/** What `not` forbids, in words where a description says it all; else where it is said. */
function notMessage(shape: Shape): string {
  const exact =
    ["ref", "literal", "enum", "boolean", "null"].includes(shape.kind) ||
    jsonEqual(shape as never, { kind: "string" }) ||
    (shape.kind === "number" && Object.keys(shape).length === 2);
  return exact ? `must not be ${describe(shape)}` : "must not match the schema of its not";
}
