import type { Expression, Function, Name, Parameter, Statement, SwitchCase, Variable } from "../code/tree.js";
import { and, arrayLiteral, assign, binary, call, construct, identifier, index } from "../code/build.js";
import { literal, member, not, objectLiteral, regex, template, typeOf, UNDEFINED } from "../code/build.js";
import { BREAK, constant, evaluate, forIndex, ifThen, returns, switchStatement, tryFinally, variable } from "../code/build.js";
import { Scope } from "../code/scope.js";
import {
  arrayType,
  documentation,
  functionDeclaration,
  functionType,
  indexSignature,
  keywordType,
  objectType,
  parameter,
  typeReference,
} from "../code/build.js";
import { article } from "../ir/describe.js";
import { ThroughRefs } from "../ir/graph.js";
import type { ProtocolShapes } from "../ir/identity.js";
import type { EnumWire, Field, PatternProperty, Shape, TaggedMember } from "../ir/model.js";
import type { NamedIr } from "../name/index.js";
import { namesOf } from "../name/index.js";
import { pascalCase } from "../identifiers.js";
import { readerName } from "../name/rules.js";
import { escapeToken } from "../pointer.js";
import { access, boxMayPassFields, forEachProperty, isPrototypeName, jsonTypes, notJsonArray, notJsonObject, ownTag } from "./access.js";
import { dispatchesByTable, tagTable } from "./dispatch.js";
import type { GeneratedFile } from "./file.js";
import { GUARDS, TYPES } from "./names.js";
import type { RuntimeValue } from "./templates.js";
import { DECODE, RUNTIME } from "./templates.js";

/**
 * The decoders: for every named type T, `decodeT(input, options)`, which reads the wire
 * form into a value in the canonical form and checks it. Reading is done by `readT`,
 * which copies what the schema models (objects, arrays) and turns wire forms into
 * canonical ones: a snake_case alias into its field, an enum's number into its name, a
 * string of digits into a number, a null that stands for a field absent dropped. In tolerant mode it also drops properties a closed
 * object does not know and notes values this version does not recognize; in strict mode
 * such a property is a problem, not copied. What the read produces is then checked by
 * `checkT`, printed from the check tree `isT` is printed from, up to the limit of errors.
 *
 * The guard is asked first: a value it accepts is canonical already (it refuses every wire
 * form: an alias, an enum's number, digits, a null for a field absent), and has nothing a
 * tolerant reader would drop or not recognize, so it is the decoded value itself, not a
 * copy, and a valid value costs what `isT` costs. The tests hold every type to it: what
 * `isT` accepts, both modes decode to an equal value. A value the guard refuses is read,
 * and what was read checked; where decoding keeps what the guard accepts (no wire form
 * anywhere in the type), a strict decoder gives the reasons `validateT` gives instead,
 * since reading would only copy it (`decodeRefused` in templates/decode.ts); where a type
 * has wire forms but its checks see each one reading reads (`settlesOnInput`), the same
 * when the checks of the input met none.
 */
export function generateDecoders(f: GeneratedFile, ir: NamedIr, protocol: ProtocolShapes): void {
  const emitter = new DecodeEmitter(f, ir, protocol);
  f.reserve(
    ir.types.flatMap((type) => [namesOf(ir, type.name).decoder, ...(emitter.reads(type.shape) ? [namesOf(ir, type.name).reader] : [])]),
  );
  const options = typeReference(f.import("DecodeOptions", DECODE, { typeOnly: true }));
  const result = f.import("DecodeResult", DECODE, { typeOnly: true });
  const keeps = decodingKeepsAcceptedOf(protocol);
  for (const type of ir.types) {
    const name = type.name;
    const names = namesOf(ir, name);
    const typed = typeReference(f.import(name, TYPES, { typeOnly: true }));
    const read = emitter.reads(type.shape) ? identifier(names.reader) : UNDEFINED;
    const accepted = ifThen(
      call(f.import(names.guard, GUARDS), [INPUT]),
      returns(
        objectLiteral([
          { key: "ok", value: literal(true) },
          { key: "value", value: INPUT },
        ]),
      ),
    );
    // Where the checks see what reading reads and nothing depends on unknown properties, a reading that drops only those is not checked again.
    const dropsOnly = settlesOnInput(type.shape, protocol.byName) && unknownFirst(type.shape, protocol.byName);
    const refused = keeps.has(name)
      ? call(f.import("decodeRefused", DECODE), [
          INPUT,
          read,
          identifier(names.check),
          identifier("options"),
          ...(dropsOnly ? [UNDEFINED, literal(true)] : []),
        ])
      : settlesOnInput(type.shape, protocol.byName)
        ? call(f.import("decodeRefused", DECODE), [
            INPUT,
            read,
            identifier(names.check),
            identifier("options"),
            literal(true),
            ...(unknownFirst(type.shape, protocol.byName) ? [literal(true)] : []),
          ])
        : call(
            member(construct(f.import("Reader", DECODE), [identifier("options")]), "decode"),
            [INPUT, read, identifier(names.check)],
            [typed],
          );
    f.declare(
      functionDeclaration({
        doc: documentation([
          `Reads ${article(name)} {@link ${name}} from its wire form into its canonical form: a value {@link ${names.guard}} accepts is canonical already, and is the decoded value itself, not a copy; any other value that decodes is read into a new one. See {@link DecodeOptions} for the modes and the limit of errors.`,
        ]),
        exported: true,
        name: identifier(names.decoder),
        parameters: [parameter(INPUT, keywordType("unknown")), parameter(identifier("options"), options, { optional: true })],
        returns: typeReference(result, [typed]),
        body: [accepted, returns(refused)],
      }),
    );
  }
  const { recursive } = protocol;
  for (const type of ir.types)
    if (emitter.reads(type.shape))
      f.declare(
        emitter.readFunction(identifier(namesOf(ir, type.name).reader), type.shape, type.name, {
          recursive: recursive.has(type.name),
          named: true,
        }),
      );
  for (const helper of emitter.helpers) f.declare(helper);
}

/** `typesDecodingKeepsAccepted` of a protocol's types, found once for the emitters that ask. */
export function decodingKeepsAcceptedOf(protocol: ProtocolShapes): ReadonlySet<string> {
  let kept = keptByProtocol.get(protocol);
  if (kept === undefined) {
    kept = typesDecodingKeepsAccepted(protocol.byName);
    keptByProtocol.set(protocol, kept);
  }
  return kept;
}

const keptByProtocol = new WeakMap<ProtocolShapes, ReadonlySet<string>>();

/**
 * The named types for which decoding a value the guard accepts gives an equal value, so
 * that the decoder and the standard schema may take the guard's verdict for the decoder's:
 * no field is read under another of its names, no null dropped as a field absent, no enum
 * from a number, no number from digits. A type keeps what its guard accepts unless a wire
 * form is among its own shapes or a type it refers to does not keep it; all at once, one
 * walk of each type's shapes and one of the refs backwards, so that a schema of many types
 * costs their size, not their number squared.
 */
export function typesDecodingKeepsAccepted(shapes: ReadonlyMap<string, Shape>): ReadonlySet<string> {
  const referrers = new Map<string, string[]>();
  const converting: string[] = [];
  for (const [name, root] of shapes) {
    const pending: Shape[] = [root];
    let converts = false;
    while (pending.length > 0 && !converts) {
      const shape = pending.pop()!;
      if (shape.kind === "ref") {
        const list = referrers.get(shape.name);
        if (list === undefined) referrers.set(shape.name, [name]);
        else list.push(name);
        continue;
      }
      converts = convertsItself(shape);
      pending.push(...decoded(shape));
    }
    if (converts) converting.push(name);
  }
  const converts = new Set(converting);
  while (converting.length > 0)
    for (const referrer of referrers.get(converting.pop()!) ?? [])
      if (!converts.has(referrer)) {
        converts.add(referrer);
        converting.push(referrer);
      }
  return new Set([...shapes.keys()].filter((name) => !converts.has(name)));
}

/**
 * Whether the checks of an input a type's guard refused can say what reading it would
 * give, when they meet no wire form (`Errors.wired`): every wire form is in a place the
 * checks look at whenever reading reads it, and no check asks a guard of a part that may
 * hold one (a union's alternatives, `not`, `if`, `contains`, the unevaluated keywords),
 * whose verdict on the input might not be the one on what reading gives.
 */
function settlesOnInput(root: Shape, shapes: ReadonlyMap<string, Shape>): boolean {
  const pending: Shape[] = [root];
  const seen = new Set<string>();
  while (pending.length > 0) {
    const shape = pending.pop()!;
    switch (shape.kind) {
      case "ref":
        if (!seen.has(shape.name)) {
          seen.add(shape.name);
          pending.push(shapes.get(shape.name)!);
        }
        continue;
      case "union":
        return false;
      case "array":
        if ((shape.contains ?? []).length > 0) return false;
        break;
      case "constrained":
        for (const constraint of shape.constraints) {
          if (constraint.kind !== "also") return false;
          pending.push(constraint.shape);
        }
        break;
    }
    pending.push(...decoded(shape));
  }
  return true;
}

/**
 * Whether what the checks find of an object but its unknown properties is found as well
 * without them, as a strict reading drops them: no count of properties, no test of their
 * names, no further schema of the same value (`allOf`, dependencies) that may read them.
 */
function unknownFirst(root: Shape, shapes: ReadonlyMap<string, Shape>): boolean {
  const pending: Shape[] = [root];
  const seen = new Set<string>();
  while (pending.length > 0) {
    const shape = pending.pop()!;
    if (shape.kind === "ref") {
      if (!seen.has(shape.name)) {
        seen.add(shape.name);
        pending.push(shapes.get(shape.name)!);
      }
      continue;
    }
    if (shape.kind === "constrained") return false;
    if ((shape.kind === "object" || shape.kind === "map") && (shape.minProperties !== undefined || shape.maxProperties !== undefined))
      return false;
    if (shape.kind === "object" && shape.names !== undefined) return false;
    pending.push(...decoded(shape));
  }
  return true;
}

/** Whether a shape itself (not what it holds) has a wire form that decoding turns into another value. */
function convertsItself(shape: Shape): boolean {
  const fields = shape.kind === "object" ? shape.fields : shape.kind === "keyed-union" ? [...shape.members, ...shape.fields] : [];
  if (fields.some((field) => (field.aliases ?? []).length > 0 || field.nullIsAbsent)) return true;
  return (shape.kind === "enum" || shape.kind === "number") && shape.wire !== undefined;
}

/** The shapes inside a shape that decoding reads (not those only checked: constraints, `contains`, property names). */
function decoded(shape: Shape): readonly Shape[] {
  switch (shape.kind) {
    case "object":
      return [...shape.fields.map((field) => field.shape), ...(shape.patterns ?? []).map((each) => each.shape), shape.additional];
    case "keyed-union":
      return [...[...shape.members, ...shape.fields].map((field) => field.shape), shape.additional];
    case "map":
      return [shape.values];
    case "array":
      return [...(shape.prefixItems ?? []), shape.items];
    case "tagged-union":
      return shape.members.map((member) => member.shape);
    case "union":
      return shape.members;
    case "nullable":
    case "constrained":
      return [shape.shape];
    default:
      return [];
  }
}

/** The shapes a reader copies, whose reading says nothing of the type it reads. */
const COPIED: ReadonlySet<Shape["kind"]> = new Set(["object", "keyed-union", "map", "array"]);

const INPUT = identifier("input");
const PATH = identifier("path");
const READER = identifier("reader");
const OUTPUT = identifier("output");
const KEY = identifier("key");
const READ = identifier("read");
const VALUE = identifier("value");

class DecodeEmitter {
  readonly helpers: Function[] = [];
  private readonly helperNames = new Map<number, Name>();
  private readonly shapes: ReadonlyMap<string, Shape>;
  /** Whether reading a named type does anything; a type met again on the way does (it is an object or an array). */
  private readonly namedReads = new ThroughRefs(true);

  /** @param protocol the protocol's shapes by what they accept: a reader serves every place of its shape */
  constructor(
    private readonly f: GeneratedFile,
    private readonly ir: NamedIr,
    private readonly protocol: ProtocolShapes,
  ) {
    this.shapes = protocol.byName;
  }

  private runtime(name: RuntimeValue): Name {
    return this.f.import(name, RUNTIME);
  }

  private access(object: Expression, name: string): Expression {
    return access(object, name, () => this.runtime("own"));
  }

  /** `reader.method(args…);`. */
  private report(method: string, args: readonly Expression[]): Expression {
    return call(member(READER, method), args);
  }
  /**
   * Whether reading a value of the shape does anything: copying objects and arrays,
   * turning wire forms into canonical ones, or noticing values this version does not know.
   */
  reads(shape: Shape): boolean {
    switch (shape.kind) {
      case "object":
      case "keyed-union":
      case "map":
      case "array":
      case "tagged-union":
      case "enum":
        return true;
      case "number":
        return shape.wire !== undefined;
      case "ref":
        return this.namedReads.follow(shape.name, () => this.reads(this.shapes.get(shape.name)!));
      case "nullable":
      case "constrained":
        return this.reads(shape.shape);
      case "union":
        return shape.members.some((member) => this.reads(member));
      default:
        return false;
    }
  }

  /** An expression reading `value` (at `path`) as the shape; the value itself when reading does nothing. */
  private read(shape: Shape, value: Expression, path: Expression, owner: string): Expression {
    if (!this.reads(shape)) return value;
    // Reading turns wire forms canonical; what a constraint requires, the checks after it say.
    if (shape.kind === "nullable" || shape.kind === "constrained") return this.read(shape.shape, value, path, owner);
    if (shape.kind === "number") {
      const digits = this.f.constant(`digits:${shape.wire!.numericString}`, "Decimal", (name) =>
        constant(name, regex(shape.wire!.numericString)),
      );
      return call(this.runtime("fromDecimal"), [value, digits]);
    }
    return call(this.readerOf(shape, owner), [value, path, READER]);
  }

  /** The function that reads a ref, an object, an array or a union: an object or an array that is a named type's shape is read by that type's reader. */
  private readerOf(shape: Shape, owner: string): Name {
    if (shape.kind === "ref") return identifier(namesOf(this.ir, shape.name).reader);
    const named = COPIED.has(shape.kind) ? this.protocol.namedTypeOf(shape) : undefined;
    return named === undefined ? this.helper(shape, owner) : identifier(namesOf(this.ir, named).reader);
  }

  /** The reader of a shape without a name: one per shape, named by the first owner to ask. */
  private helper(shape: Shape, owner: string): Name {
    const key = this.protocol.ids.id(shape);
    const known = this.helperNames.get(key);
    if (known !== undefined) return known;
    const name = this.f.allocate(readerName(owner));
    this.helperNames.set(key, name);
    this.helpers.push(this.readFunction(name, shape, owner, { named: false }));
    return name;
  }

  /**
   * `readOwner(input, path, reader): unknown`. A recursive type's reader leaves a value
   * nested too deep as it is, for checking to refuse.
   */
  readFunction(name: Name, shape: Shape, owner: string, options: { readonly recursive?: boolean; readonly named: boolean }): Function {
    const body = this.body(shape, owner, options.named);
    return functionDeclaration({
      exported: false,
      name,
      parameters: this.readerParameters(),
      returns: keywordType("unknown"),
      body: options.recursive
        ? [ifThen(not(call(this.runtime("descend"), [])), returns(INPUT)), tryFinally(body, [evaluate(call(this.runtime("ascend"), []))])]
        : body,
    });
  }

  private readerParameters(): Parameter[] {
    return [
      parameter(INPUT, keywordType("unknown")),
      parameter(PATH, keywordType("string")),
      parameter(READER, typeReference(this.f.import("Reader", DECODE, { typeOnly: true }))),
    ];
  }

  /** `named`: the owner is a named type, which a tolerant reader's note of a value it does not know names. */
  private body(shape: Shape, owner: string, named: boolean): Statement[] {
    switch (shape.kind) {
      case "object":
        return this.objectBody(shape.fields, shape.additional, owner, [], shape.patterns);
      case "keyed-union":
        return this.objectBody([...shape.members, ...shape.fields], shape.additional, owner, shape.members);
      case "map":
        return this.objectBody([], shape.values, owner);
      case "array":
        return this.arrayBody(shape.prefixItems ?? [], shape.items, owner);
      case "tagged-union":
        return this.taggedBody(shape, owner, named);
      case "enum":
        return this.enumBody(shape, owner, named);
      case "union":
        return this.unionBody(shape.members, owner);
      case "nullable":
      case "constrained":
      case "number":
      case "ref":
        return [returns(this.read(shape, INPUT, PATH, owner))];
      default:
        return [returns(INPUT)];
    }
  }

  /**
   * A new object with each property read as its field's shape, under its canonical name.
   * What the object does not name is read as the first pattern that matches its name, or
   * else as its other properties; for a closed object, the reader decides (kept to be
   * rejected, or dropped when tolerant).
   */
  private objectBody(
    fields: readonly Field[],
    rest: Shape,
    owner: string,
    members: readonly Field[] = [],
    patterns: readonly PatternProperty[] = [],
  ): Statement[] {
    // Fields read as they are share one case: the key is one of their known names.
    const copied = fields.filter(
      (field) => !this.reads(field.shape) && (field.aliases ?? []).length === 0 && !isPrototypeName(field.name) && !field.nullIsAbsent,
    );
    const scope = new Scope([INPUT, PATH, READER, OUTPUT, KEY, VALUE].map(({ text }) => text));
    // Whether a field whose null is absent was given under one of its names, null or not: a second name is a duplicate either way.
    const given: Variable[] = [];
    const cases: SwitchCase[] = fields
      .filter((field) => !copied.includes(field))
      .map((field) => {
        const names = [field.name, ...(field.aliases ?? [])];
        const where = template([PATH, `/${escapeToken(field.name)}`]);
        const read = this.read(field.shape, VALUE, where, `${owner}${pascalCase(field.name)}`);
        const assigned = isPrototypeName(field.name)
          ? evaluate(call(this.runtime("define"), [OUTPUT, literal(field.name), read]))
          : evaluate(assign(this.access(OUTPUT, field.name), read));
        // A null the wire sends for the field absent is not copied.
        const store = field.nullIsAbsent ? ifThen(binary(VALUE, "!==", literal(null)), assigned) : assigned;
        const twice = (seen: Expression) => ifThen(seen, evaluate(this.report("twice", [PATH, KEY, literal(field.name)])));
        if (names.length === 1) return { labels: names.map(literal), body: [store, BREAK] };
        if (!field.nullIsAbsent)
          return { labels: names.map(literal), body: [twice(binary(this.access(OUTPUT, field.name), "!==", UNDEFINED)), store, BREAK] };
        const flag = scope.local(`${field.name}Given`);
        given.push(variable(flag, literal(false)));
        return { labels: names.map(literal), body: [twice(flag), evaluate(assign(flag, literal(true))), store, BREAK] };
      });
    if (copied.length > 0)
      cases.unshift({ labels: copied.map((field) => literal(field.name)), body: [evaluate(assign(index(OUTPUT, KEY), VALUE)), BREAK] });
    const unmatched =
      rest.kind === "never"
        ? evaluate(this.report("unknownProperty", [PATH, KEY]))
        : evaluate(
            call(this.runtime("define"), [
              OUTPUT,
              KEY,
              this.read(rest, VALUE, call(this.runtime("pointer"), [PATH, KEY]), `${owner}Property`),
            ]),
          );
    const where = call(this.runtime("pointer"), [PATH, KEY]);
    // A pattern needs its branch where its properties are read otherwise than the rest.
    const distinct = (shape: Shape) => this.reads(shape) || rest.kind === "never" || this.reads(rest);
    const other = patterns.reduceRight<Statement>((otherwise, { pattern, shape }, i) => {
      if (!distinct(shape)) return otherwise;
      const source = this.f.constant(`pattern:${pattern}`, `${owner}Pattern`, (name) => constant(name, regex(pattern)));
      const read = this.read(shape, VALUE, where, `${owner}PatternProperty${patterns.length === 1 ? "" : i + 1}`);
      return ifThen(call(this.runtime("matches"), [source, KEY]), evaluate(call(this.runtime("define"), [OUTPUT, KEY, read])), otherwise);
    }, unmatched);
    // As the checks read an object.
    const loop = forEachProperty(INPUT, KEY, VALUE, [
      cases.length === 0 ? other : switchStatement(KEY, [...cases, { labels: [], body: [other] }]),
    ]);
    // What the checks would not take for an object is left for them to refuse.
    const notObject = notJsonObject(INPUT, (name) => this.runtime(name), boxMayPassFields(fields, members));
    return [
      ifThen(notObject, returns(INPUT)),
      constant(OUTPUT, objectLiteral([]), { type: objectType([indexSignature(keywordType("unknown"))]) }),
      ...given,
      loop,
      returns(OUTPUT),
    ];
  }

  /** A copy of the array: a tuple's positions, each while the array is that long, then the rest. */
  private arrayBody(prefixItems: readonly Shape[], items: Shape, owner: string): Statement[] {
    const push = (read: Expression) => evaluate(call(member(OUTPUT, "push"), [read]));
    const positions = prefixItems.map((each, i) =>
      ifThen(
        binary(member(INPUT, "length"), ">", literal(i)),
        push(this.read(each, index(INPUT, literal(i)), template([PATH, `/${i}`]), `${owner}Item${i}`)),
      ),
    );
    const position = identifier("i");
    const read = this.read(items, index(INPUT, position), template([PATH, "/", position]), `${owner}Item`);
    return [
      ifThen(
        notJsonArray(INPUT, (name) => this.runtime(name)),
        returns(INPUT),
      ),
      constant(OUTPUT, arrayLiteral([]), { type: arrayType(keywordType("unknown")) }),
      ...positions,
      forIndex(position, member(INPUT, "length"), [push(read)], prefixItems.length),
      returns(OUTPUT),
    ];
  }

  private taggedBody(shape: Shape & { kind: "tagged-union" }, owner: string, named: boolean): Statement[] {
    const tag = ownTag(INPUT, shape.tag, (name) => this.runtime(name));
    const where = template([PATH, `/${escapeToken(shape.tag)}`]);
    const memberOwner = (each: TaggedMember) => `${owner}${pascalCase(String(each.value))}`;
    const types = [...new Set(shape.members.map((each) => typeof each.value))];
    // A shape without a name is read for every place alike, so its notes name no place.
    const what = named ? `${article(owner)} ${owner} ${shape.tag}` : `${article(shape.tag)} ${shape.tag}`;
    const unknown = types.length === 1 ? [evaluate(this.report("unknownValue", [tag, where, literal(types[0]!), literal(what)]))] : [];
    if (dispatchesByTable(shape.members.length)) {
      const readers = shape.members.map((each) => [each.value, this.readerOf(each.shape, memberOwner(each))] as const);
      const table = tagTable(
        this.f,
        `readers:${this.protocol.ids.id(shape)}`,
        `${owner}Readers`,
        readers,
        functionType(this.readerParameters(), keywordType("unknown")),
      );
      return [
        constant(READ, call(member(table, "get"), [tag])),
        ifThen(binary(READ, "!==", UNDEFINED), returns(call(READ, [INPUT, PATH, READER]))),
        ...unknown,
        returns(INPUT),
      ];
    }
    const cases = shape.members.map((each) => ({
      labels: [literal(each.value)],
      body: [returns(this.read(each.shape, INPUT, PATH, memberOwner(each)))],
    }));
    return [switchStatement(tag, [...cases, { labels: [], body: [...unknown, returns(INPUT)] }])];
  }

  private enumBody(shape: Shape & { kind: "enum" }, owner: string, named: boolean): Statement[] {
    const numbers = Object.entries(shape.wire?.numbers ?? {}).map(([value, number]) => ({
      labels: [literal(number)],
      body: [returns(literal(value))],
    }));
    const types = new Set(shape.values.map((value) => (value === null ? "object" : typeof value)));
    const what = literal(named ? `${article(owner)} ${owner}` : "a value");
    const fallback = shape.fallback === undefined ? [] : [literal(shape.fallback)];
    const unknown = returns(this.report("unknownValue", [INPUT, PATH, literal([...types].join(" ")), what, ...fallback]));
    return [
      switchStatement(INPUT, [
        { labels: shape.values.map(literal), body: [returns(INPUT)] },
        ...numbers,
        { labels: [], body: shape.wire === undefined ? [unknown] : [this.unnamedNumber(shape.wire, what, fallback), unknown] },
      ]),
    ];
  }

  /**
   * An integer the wire accepts in place of a proto enum's names (any int32) for which
   * this version has no name: the schema accepts it, but no canonical value stands for it.
   */
  private unnamedNumber(wire: EnumWire, what: Expression, fallback: readonly Expression[]): Statement {
    const bounds = [
      ...(wire.minimum === undefined ? [] : [binary(INPUT, ">=", literal(wire.minimum))]),
      ...(wire.maximum === undefined ? [] : [binary(INPUT, "<=", literal(wire.maximum))]),
    ];
    return ifThen(
      and([binary(typeOf(INPUT), "===", literal("number")), call(member(identifier("Number"), "isInteger"), [INPUT]), ...bounds]),
      returns(this.report("unnamedNumber", [INPUT, PATH, what, ...fallback])),
    );
  }

  /** A union is read as the member of the value's JSON type, when only one member has it. */
  private unionBody(members: readonly Shape[], owner: string): Statement[] {
    const statements: Statement[] = [];
    const seen = new Map<string, number>();
    for (const each of members) for (const type of jsonTypes(each, this.shapes)) seen.set(type, (seen.get(type) ?? 0) + 1);
    for (const [i, each] of members.entries()) {
      const types = [...jsonTypes(each, this.shapes)];
      if (types.length !== 1 || seen.get(types[0]!) !== 1 || !this.reads(each)) continue;
      const test =
        types[0] === "array"
          ? call(this.runtime("isArray"), [INPUT])
          : types[0] === "object"
            ? call(this.runtime("isRecord"), [INPUT])
            : undefined;
      if (test === undefined) continue;
      statements.push(ifThen(test, returns(this.read(each, INPUT, PATH, `${owner}${i + 1}`))));
    }
    return [...statements, returns(INPUT)];
  }
}
