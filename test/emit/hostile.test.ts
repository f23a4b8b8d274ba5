import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { memberBuilderNames } from "../../generator/name/index.js";
import { builderName, matchName, partialMatchName } from "../../generator/name/rules.js";
import { recursiveTypes, refsOf } from "../../generator/ir/graph.js";
import type { Ir, NamedType, Shape } from "../../generator/ir/model.js";
import type { JsonObject } from "../../generator/json.js";
import { renamedDocument, renamedReference } from "../helpers/differential.js";
import type { TypeFunctions } from "../helpers/generated.js";
import { generatedIndex, generatedModules } from "../helpers/generated.js";
import { PROTOCOLS, protocol } from "../helpers/protocols.js";
import { Random, SampleMaker } from "../helpers/samples.js";

/**
 * Hostile input: values as deep, as long and as large as the issue names, at the top and
 * in place of a property of an otherwise valid document. Every generated function
 * answers without throwing, and answers right:
 *
 * - `isT`, `validateT` and `decodeT` (strict) agree with the reference validator, ajv on
 *   the effective schema, as in test/emit/guards.test.ts; validate is is with reasons;
 *   a decoder's value is one `isT` accepts, the value `isT` accepted as it was, and the
 *   tolerant decoder returns what the strict one does wherever the strict one succeeds;
 * - builders copy the tags and then the fields they are given, matches with no handler
 *   fall back or throw `UnmatchedError`;
 * - and nothing reaches a prototype.
 *
 * The values are made once. The cheap ones are tried at every named type; the ones with a
 * hundred thousand items, whose cost is in walking them, once per kind of shape that receives
 * them, which is what decides how the generated code walks them.
 */

interface Hostile {
  readonly label: string;
  readonly value: unknown;
  /** The value as the reference validator reads it (see renamedDocument). */
  readonly forReference: unknown;
  /** Tried once per kind of shape that receives it rather than at every type. */
  readonly large: boolean;
}

const HOSTILE: readonly Hostile[] = (() => {
  const deepObject: Record<string, unknown> = {};
  let object = deepObject;
  for (let i = 0; i < 10_000; i++) object = object["a"] = {} as Record<string, unknown>;
  const deepArray: unknown[] = [];
  let array = deepArray;
  for (let i = 0; i < 10_000; i++) array.push((array = []));
  const proto = JSON.parse('{"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}}') as unknown;
  // The values are JSON data as JSON.parse makes it, so the reference reads them as they
  // are. Only the last has keys an object inherits; renaming the others, which have none,
  // would copy a hundred thousand items or recurse 10,000 deep for nothing.
  const value = (label: string, made: unknown, large = false): Hostile => ({ label, value: made, forReference: made, large });
  return [
    value("an object nested 10,000 deep", deepObject),
    value("an array nested 10,000 deep", deepArray),
    value("an array of 100,000 items", new Array<number>(100_000).fill(0), true),
    value(
      "an array of 100,000 objects",
      Array.from({ length: 100_000 }, () => ({})),
      true,
    ),
    value("a string of 10 MB", "x".repeat(10 * 1024 * 1024)),
    { label: "__proto__ as JSON.parse makes it", value: proto, forReference: renamedDocument(proto), large: false },
  ];
})();

/** One value to try on a type's functions, and the same value as the reference reads it. */
interface Case {
  readonly type: NamedType;
  readonly where: string;
  readonly value: unknown;
  readonly forReference: unknown;
}

/** What the reference says: valid or not, or "too deep" when it overflows the stack. */
type Expected = boolean | "too deep";

describe.each(PROTOCOLS)("the generated functions of %s on hostile input", (name) => {
  it("answer as the reference does: the cheap values at every named type, at the top and inside", async () => {
    const tester = await Tester.of(name);
    const random = new Random(0x4057);
    const samples = new SampleMaker(tester.ir, random);
    const tried = new Set<string>();
    for (const hostile of HOSTILE.filter((candidate) => !candidate.large))
      for (const type of tester.ir.types) {
        tester.judge({ type, where: "at the top", value: hostile.value, forReference: hostile.forReference }, hostile.label);
        tried.add(type.name);
        // In place of one of a valid document's properties, drawn from a fixed seed.
        const document = samples.valid(type.shape);
        if (!isPlainObject(document) || Object.keys(document).length === 0) continue;
        const key = random.pick(Object.keys(document));
        tester.judge(inside(type, document, key, hostile), hostile.label);
      }
    expect(tester.problems.slice(0, 10)).toEqual([]);
    expect([...tried]).toEqual(tester.ir.types.map((type) => type.name));
    expect(tester.judged).toBeGreaterThan(4 * tester.ir.types.length);
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
  }, 60_000);
});

/**
 * The values of a hundred thousand items cost their length in every function that walks
 * them (what that length costs as it grows is bench/linear.bench.js's to measure). How
 * the generated code walks a value is decided by the kind of shape that receives it, and
 * the four protocols' code is emitted alike: each kind is tried once, where it is first
 * found (in the protocols' order, then the types', at the top of a type and then in its
 * properties).
 */
it("the generated functions answer as the reference does on a hundred thousand items, once per kind of shape that receives them", async () => {
  const seen = new Set<string>();
  for (const name of PROTOCOLS) {
    const tester = await Tester.of(name);
    const cases = largeCases(tester.ir, new SampleMaker(tester.ir, new Random(0x10a4)), seen);
    for (const hostile of HOSTILE.filter((candidate) => candidate.large))
      for (const { type, where, document, key } of cases)
        tester.judge(
          document === undefined
            ? { type, where, value: hostile.value, forReference: hostile.forReference }
            : inside(type, document, key, hostile, where),
          hostile.label,
        );
    expect(tester.problems.slice(0, 10)).toEqual([]);
    expect(tester.judged).toBe(2 * cases.length);
  }
  // The kinds that walk a value, and those that refuse an array at once, were all tried.
  expect([...seen]).toEqual(
    expect.arrayContaining([
      "array",
      "union",
      "tagged-union",
      "keyed-union",
      "object",
      "map",
      "unknown",
      "string",
      "any other property: unknown",
    ]),
  );
  expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
}, 60_000);

/** A valid document with one property replaced by a hostile value, for the functions and for the reference. */
function inside(type: NamedType, document: JsonObject, key: string, hostile: Hostile, where = `in place of "${key}"`): Case {
  const [renamedKey] = Object.keys(renamedDocument({ [key]: null }) as object);
  return {
    type,
    where,
    value: { ...document, [key]: hostile.value },
    forReference: { ...(renamedDocument(document) as object), [renamedKey!]: hostile.forReference },
  };
}

/** A protocol's generated functions, judged against the reference; what went wrong, collected. */
class Tester {
  readonly problems: string[] = [];
  judged = 0;

  private constructor(
    readonly ir: Ir,
    private readonly generated: { functions(type: string): TypeFunctions },
    private readonly index: Record<string, (...args: unknown[]) => unknown>,
    private readonly reference: (type: string) => (renamed: unknown) => boolean,
    /** The types that reach a recursive type, whose checks stop at MAX_DEPTH. */
    private readonly reachesRecursion: ReadonlySet<string>,
  ) {}

  static async of(name: (typeof PROTOCOLS)[number]): Promise<Tester> {
    const { ir, schema } = await protocol(name);
    const compile = renamedReference(schema, new Ajv2020({ strict: false, validateFormats: false }));
    const compiled = new Map<string, (renamed: unknown) => boolean>();
    const reference = (type: string) => {
      if (!compiled.has(type)) compiled.set(type, compile(type));
      return compiled.get(type)!;
    };
    return new Tester(ir, await generatedModules(name), await generatedIndex(name), reference, reaching(ir, recursiveTypes(ir)));
  }

  judge(found: Case, label: string): void {
    this.judged++;
    const { type, value } = found;
    const expected = this.expected(type, found.forReference);
    const problems = [
      ...answers(this.generated.functions(type.name), value, expected),
      ...this.builders(type, value),
      ...this.matches(type, value),
    ];
    if (expected === "too deep" && !this.reachesRecursion.has(type.name))
      problems.push("the reference overflows the stack on a type that reaches no recursive type");
    for (const problem of problems) this.problems.push(`${type.name} with ${label} ${found.where}: ${problem}`);
  }

  /**
   * The reference's answer. ajv recurses as deep as a value nests where the schema does,
   * which only a recursive type can; where it overflows, the rule is that the checks of
   * recursive types refuse values nested deeper than MAX_DEPTH (generated/src/runtime.ts).
   */
  private expected(type: NamedType, forReference: unknown): Expected {
    try {
      return this.reference(type.name)(forReference);
    } catch (error) {
      if (error instanceof RangeError) return "too deep";
      throw error;
    }
  }

  /** A tagged object's builder copies its tags, then the fields given; a keyed union's member builders set their member. */
  private builders(type: NamedType, value: unknown): string[] {
    const shape = type.shape;
    const problems: string[] = [];
    if (shape.kind === "object") {
      const tags = Object.fromEntries(
        shape.fields.flatMap((field) => (field.required && field.shape.kind === "literal" ? [[field.name, field.shape.value]] : [])),
      );
      if (Object.keys(tags).length > 0)
        problems.push(...builds(builderName(type.name), () => this.index[builderName(type.name)]!(value), tags, value));
    }
    if (shape.kind === "keyed-union") {
      // As README says: `createUMember(value, fields?)`, the fields where the union has any besides its members.
      const takesFields = shape.fields.length > 0 || shape.additional.kind !== "never";
      memberBuilderNames(type.name, shape.members).forEach((builder, i) =>
        problems.push(
          ...builds(
            builder,
            () => this.index[builder]!(value, value),
            { [shape.members[i]!.name]: value },
            takesFields ? value : undefined,
          ),
        ),
      );
    }
    return problems;
  }

  /** With no handlers, a partial match falls back with the value, an exhaustive one throws UnmatchedError. */
  private matches(type: NamedType, value: unknown): string[] {
    if (type.shape.kind !== "tagged-union" && type.shape.kind !== "keyed-union") return [];
    const problems: string[] = [];
    const fallback = Symbol("otherwise");
    let given: unknown;
    try {
      const returned = this.index[partialMatchName(type.name)]!(value, {}, (otherwise: unknown) => ((given = otherwise), fallback));
      if (returned !== fallback || given !== value) problems.push("the partial match does not fall back with the value");
    } catch (error) {
      problems.push(`the partial match throws ${String(error)}`);
    }
    try {
      this.index[matchName(type.name)]!(value, {});
      problems.push("the exhaustive match returns without a handler");
    } catch (error) {
      const unmatched = error as { name?: unknown; union?: unknown };
      if (unmatched.name !== "UnmatchedError" || unmatched.union !== type.name)
        problems.push(`the exhaustive match throws ${String(error)}, not an UnmatchedError for ${type.name}`);
    }
    return problems;
  }
}

/**
 * How the answers of a type's guard, validator and decoders on one value break the rules,
 * given the reference's answer: one line per problem.
 */
function answers(functions: TypeFunctions, value: unknown, expected: Expected): string[] {
  const problems: string[] = [];
  const attempt = <T>(what: string, run: () => T): T | undefined => {
    try {
      return run();
    } catch (error) {
      problems.push(`${what} throws ${String(error)}`);
      return undefined;
    }
  };
  const { is, validate, decode } = functions;
  const accepted = attempt("is", () => is(value));
  const validated = attempt("validate", () => validate(value));
  const strict = attempt("strict decode", () => decode(value, { mode: "strict" }));
  const tolerant = attempt("tolerant decode", () => decode(value, { mode: "tolerant" }));
  if (accepted === undefined || validated === undefined || strict === undefined || tolerant === undefined) return problems;

  // validate is is with reasons.
  if (validated.ok !== accepted) problems.push(`validate says ${validated.ok}, is says ${accepted}`);
  if (validated.ok && validated.value !== value) problems.push("validate returns another value than it was given");
  if (!validated.ok && validated.errors.length === 0) problems.push("validate refuses without a reason");

  // A decoder returns what is accepts, and what is accepted as it was.
  if (strict.ok && !is(strict.value)) problems.push("strict decode returns a value is refuses");
  if (!strict.ok && strict.errors.length === 0) problems.push("strict decode refuses without a reason");
  if (accepted && !(strict.ok && sameJson(strict.value, value))) problems.push("strict decode does not return what is accepts, as it was");
  // Decoding accepts more than is only by reading a wire form into the canonical one.
  if (strict.ok && !accepted && sameJson(strict.value, value)) problems.push("strict decode accepts, unchanged, what is refuses");
  if (tolerant.ok && !is(tolerant.value)) problems.push("tolerant decode returns a value is refuses");
  if (!tolerant.ok && tolerant.errors.length === 0) problems.push("tolerant decode refuses without a reason");
  if (strict.ok && !(tolerant.ok && tolerant.ignored === undefined && sameJson(tolerant.value, strict.value)))
    problems.push("tolerant decode does not return what strict decode does");

  if (expected === "too deep") {
    if (accepted) problems.push("is accepts a value nested deeper than recursive types are followed");
    if (validated.ok || !validated.errors.some((error) => error.keyword === "depth"))
      problems.push("validate does not refuse it for its depth");
    if (strict.ok || tolerant.ok) problems.push("decode accepts a value nested deeper than recursive types are followed");
    return problems;
  }
  // Pinned in test/emit/decode.test.ts: a proto enum's integer that names none of its values is unrecognized.
  const unnamedNumber = expected && !strict.ok && strict.unrecognized && strict.errors.every((error) => error.keyword === "unrecognized");
  if (strict.ok !== expected && !unnamedNumber) problems.push(`strict decode says ${strict.ok}, the reference ${expected}`);
  const wireForm = expected && strict.ok && !sameJson(strict.value, value);
  if (accepted !== expected && !unnamedNumber && !wireForm) problems.push(`is says ${accepted}, the reference ${expected}`);
  return problems;
}

/**
 * How a builder's value differs from what it should build: `tags` first, then the fields
 * given (when they are an object, which is all a builder can copy from) in their order,
 * the same values, leaving out those undefined and those named like a tag.
 */
function builds(builder: string, run: () => unknown, tags: Readonly<Record<string, unknown>>, fields: unknown): string[] {
  let built: unknown;
  try {
    built = run();
  } catch (error) {
    return [`${builder} throws ${String(error)}`];
  }
  const expected = Object.entries(tags);
  if (isPlainObject(fields))
    for (const key of Object.keys(fields)) if (fields[key] !== undefined && !Object.hasOwn(tags, key)) expected.push([key, fields[key]]);
  if (!isPlainObject(built) || Object.getPrototypeOf(built) !== Object.prototype) return [`${builder} builds no plain object`];
  const keys = Object.keys(built);
  const same = keys.length === expected.length && expected.every(([key, item], i) => keys[i] === key && built[key] === item);
  return same ? [] : [`${builder} builds {${keys.join(", ")}}, not {${expected.map(([key]) => key).join(", ")}}`];
}

/** Whether two JSON values are equal, compared with a stack rather than recursion: they may nest 10,000 deep. */
function sameJson(a: unknown, b: unknown): boolean {
  const stack: [unknown, unknown][] = [[a, b]];
  while (stack.length > 0) {
    const [x, y] = stack.pop()!;
    if (x === y) continue;
    if (typeof x !== "object" || typeof y !== "object" || x === null || y === null || Array.isArray(x) !== Array.isArray(y)) return false;
    if (Array.isArray(x) && Array.isArray(y)) {
      if (x.length !== y.length) return false;
      for (let i = 0; i < x.length; i++) stack.push([x[i], y[i]]);
      continue;
    }
    const keys = Object.keys(x);
    if (keys.length !== Object.keys(y).length) return false;
    for (const key of keys) {
      if (!Object.hasOwn(y, key)) return false;
      stack.push([(x as Record<string, unknown>)[key], (y as Record<string, unknown>)[key]]);
    }
  }
  return true;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The types from which a recursive type can be reached, by refs, itself included. */
function reaching(ir: Ir, recursive: ReadonlySet<string>): ReadonlySet<string> {
  const edges = new Map(ir.types.map((type) => [type.name, refsOf(type.shape)]));
  const found = new Set<string>();
  for (const type of ir.types) {
    const seen = new Set<string>();
    const stack = [type.name];
    while (stack.length > 0) {
      const next = stack.pop()!;
      if (seen.has(next)) continue;
      seen.add(next);
      if (recursive.has(next)) found.add(type.name);
      stack.push(...(edges.get(next) ?? []));
    }
  }
  return found;
}

/**
 * Where to put a value of a hundred thousand items: for each kind of shape not yet in `seen`, the
 * first place that kind receives a value, at the top of a type or in place of a property
 * of a valid document of it.
 */
function largeCases(
  ir: Ir,
  samples: SampleMaker,
  seen: Set<string>,
): { type: NamedType; where: string; document?: JsonObject; key: string }[] {
  const shapes = new Map(ir.types.map((type) => [type.name, type.shape]));
  const cases: { type: NamedType; where: string; document?: JsonObject; key: string }[] = [];
  for (const type of ir.types) {
    const kind = kindOf(type.shape, shapes);
    if (!seen.has(kind)) {
      seen.add(kind);
      cases.push({ type, where: `at the top, a ${kind}`, key: "" });
    }
    for (const slot of slotsOf(type.shape)) {
      const kind = `${slot.key === OTHER ? "any other property: " : ""}${kindOf(slot.shape, shapes)}`;
      if (seen.has(kind)) continue;
      const document = samples.valid(slot.owner);
      if (!isPlainObject(document)) continue;
      seen.add(kind);
      cases.push({
        type,
        where: slot.key === OTHER ? `in any other property, a ${kind}` : `in place of "${slot.key}", a ${kind}`,
        document,
        key: slot.key,
      });
    }
  }
  return cases;
}

/** A key that no object declares. */
const OTHER = "another property";

/** The properties of the objects a type is: a field, or any other key where others are allowed, and the object it is in. */
function slotsOf(shape: Shape): { owner: Shape; key: string; shape: Shape }[] {
  const others = (owner: Shape, additional: Shape) => (additional.kind === "never" ? [] : [{ owner, key: OTHER, shape: additional }]);
  switch (shape.kind) {
    case "object":
      return [...shape.fields.map((field) => ({ owner: shape, key: field.name, shape: field.shape })), ...others(shape, shape.additional)];
    case "keyed-union":
      return [
        ...[...shape.members, ...shape.fields].map((field) => ({ owner: shape, key: field.name, shape: field.shape })),
        ...others(shape, shape.additional),
      ];
    case "map":
      return [{ owner: shape, key: OTHER, shape: shape.values }];
    case "tagged-union":
      // Members that are named types have their own slots; anonymous ones are only here.
      return shape.members.flatMap((member) => (member.shape.kind === "object" ? slotsOf(member.shape) : []));
    default:
      return [];
  }
}

/** What kind of shape a value meets, refs followed: "array", "nullable array". */
function kindOf(shape: Shape, shapes: ReadonlyMap<string, Shape>): string {
  let resolved = shape;
  for (let hops = 0; resolved.kind === "ref" && hops < 100; hops++) resolved = shapes.get(resolved.name)!;
  return resolved.kind === "nullable" ? `nullable ${kindOf(resolved.shape, shapes)}` : resolved.kind;
}
