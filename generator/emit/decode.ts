import type { EnumWire, Field, Ir, Shape } from "../ir/model.js";
import { recursiveTypes } from "../ir/graph.js";
import { escapeToken } from "../schema/pointer.js";
import { access, boxMayPass, isPrototypeName, jsonTypes, notJsonArray, notJsonObject, RUNTIME } from "./access.js";
import { article } from "../ir/describe.js";
import { checkName, decoderName, GUARDS, guardName, readerName, TYPES, upperFirst } from "./names.js";
import type { Code } from "./printer/code.js";
import { ts } from "./printer/code.js";
import { jsDoc } from "./printer/comments.js";
import { identifier, literal, stringLiteral, templateLiteral } from "./printer/escape.js";
import type { GeneratedFile } from "./printer/file.js";
import { regexLiteral } from "./printer/regex.js";
import {
  assign,
  block,
  call,
  constant,
  forLoop,
  functionDeclaration,
  ifThen,
  logical,
  switchStatement,
  tryFinally,
} from "./printer/statements.js";

/**
 * The decoders: for every named type T, `decodeT(input, options)`, which reads the wire
 * form into a new value in the canonical form and checks it. Reading is done by `readT`,
 * which copies what the schema models (objects, arrays) and turns wire forms into
 * canonical ones: a snake_case alias into its field, an enum's number into its name, a
 * string of digits into a number. In tolerant mode it also drops properties a closed
 * object does not know and notes values this version does not recognize. What the read
 * produces is then checked by `isT`, and on failure explained by `checkT`.
 */
export function generateDecoders(f: GeneratedFile, ir: Ir): void {
  const emitter = new DecodeEmitter(f, ir);
  f.reserve(ir.types.flatMap((type) => [decoderName(type.name), ...(emitter.reads(type.shape) ? [readerName(type.name)] : [])]));
  const options = f.import("DecodeOptions", RUNTIME, { typeOnly: true });
  const result = f.import("DecodeResult", RUNTIME, { typeOnly: true });
  for (const type of ir.types) {
    const name = type.name;
    const reader = ts`reader`;
    const read = emitter.reads(type.shape) ? call(identifier(readerName(name)), [ts`input`, ts`""`, reader]) : ts`input`;
    f.declare(
      jsDoc([
        `Reads ${article(name)} {@link ${name}} from its wire form into a new, canonical value; see {@link DecodeOptions} for the modes.`,
      ]),
      functionDeclaration({
        exported: true,
        name: identifier(decoderName(name)),
        parameters: [
          { name: ts`input`, type: ts`unknown` },
          { name: ts`options?`, type: options },
        ],
        returns: ts`${result}<${f.import(name, TYPES, { typeOnly: true })}>`,
        body: [
          constant(reader, ts`new ${f.import("Reader", RUNTIME)}(options)`),
          ts`return ${call(ts`${reader}.finish`, [read, f.import(guardName(name), GUARDS), identifier(checkName(name))])};`,
        ],
      }),
    );
  }
  const recursive = recursiveTypes(ir);
  for (const type of ir.types)
    if (emitter.reads(type.shape))
      f.declare(emitter.readFunction(identifier(readerName(type.name)), type.shape, type.name, { recursive: recursive.has(type.name) }));
  for (const helper of emitter.helpers) f.declare(helper);
}

const INPUT = ts`input`;
const PATH = ts`path`;
const READER = ts`reader`;
const OUTPUT = ts`output`;

class DecodeEmitter {
  readonly helpers: Code[] = [];
  private readonly helperNames = new Map<string, Code>();
  private readonly shapes: ReadonlyMap<string, Shape>;

  constructor(
    private readonly f: GeneratedFile,
    ir: Ir,
  ) {
    this.shapes = new Map(ir.types.map((type) => [type.name, type.shape]));
  }

  private runtime(name: string): Code {
    return this.f.import(name, RUNTIME);
  }

  private access(object: Code, name: string): Code {
    return access(object, name, () => this.runtime("own"));
  }

  /**
   * Whether reading a value of the shape does anything: copying objects and arrays,
   * turning wire forms into canonical ones, or noticing values this version does not know.
   */
  reads(shape: Shape, seen: ReadonlySet<string> = new Set()): boolean {
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
        return seen.has(shape.name) || this.reads(this.shapes.get(shape.name)!, new Set([...seen, shape.name]));
      case "nullable":
        return this.reads(shape.shape, seen);
      case "union":
        return shape.members.some((member) => this.reads(member, seen));
      default:
        return false;
    }
  }

  /** An expression reading `value` (at `path`) as the shape; the value itself when reading does nothing. */
  private read(shape: Shape, value: Code, path: Code, owner: string): Code {
    if (!this.reads(shape)) return value;
    if (shape.kind === "ref") return call(identifier(readerName(shape.name)), [value, path, READER]);
    if (shape.kind === "nullable") return this.read(shape.shape, value, path, owner);
    if (shape.kind === "number") {
      const digits = this.f.constant(`digits:${shape.wire!.numericString}`, "Decimal", (name) =>
        constant(name, regexLiteral(shape.wire!.numericString)),
      );
      return call(this.runtime("fromDecimal"), [value, digits]);
    }
    return call(this.helper(shape, owner), [value, path, READER]);
  }

  private helper(shape: Shape, owner: string): Code {
    const key = `${owner}:${JSON.stringify(shape)}`;
    const known = this.helperNames.get(key);
    if (known !== undefined) return known;
    const name = identifier(this.f.allocate(readerName(owner)));
    this.helperNames.set(key, name);
    this.helpers.push(this.readFunction(name, shape, owner));
    return name;
  }

  /** `readOwner(input, path, reader): unknown`. */
  /** A recursive type's reader leaves a value nested too deep as it is, for checking to refuse. */
  readFunction(name: Code, shape: Shape, owner: string, options: { readonly recursive?: boolean } = {}): Code {
    const body = this.body(shape, owner);
    return functionDeclaration({
      exported: false,
      name,
      parameters: [
        { name: INPUT, type: ts`unknown` },
        { name: PATH, type: ts`string` },
        { name: READER, type: this.f.import("Reader", RUNTIME, { typeOnly: true }) },
      ],
      returns: ts`unknown`,
      body: options.recursive
        ? [
            ifThen(ts`!${call(this.runtime("descend"), [])}`, ts`return ${INPUT};`),
            tryFinally(body, [ts`${call(this.runtime("ascend"), [])};`]),
          ]
        : body,
    });
  }

  private body(shape: Shape, owner: string): Code[] {
    switch (shape.kind) {
      case "object":
        return this.objectBody(shape.fields, shape.additional, owner);
      case "keyed-union":
        return this.objectBody([...shape.members, ...shape.fields], shape.additional, owner, shape.members);
      case "map":
        return this.objectBody([], shape.values, owner);
      case "array":
        return this.arrayBody(shape.items, owner);
      case "tagged-union":
        return this.taggedBody(shape, owner);
      case "enum":
        return this.enumBody(shape, owner);
      case "union":
        return this.unionBody(shape.members, owner);
      case "nullable":
      case "number":
      case "ref":
        return [ts`return ${this.read(shape, INPUT, PATH, owner)};`];
      default:
        return [ts`return ${INPUT};`];
    }
  }

  /**
   * A new object with each property read as its field's shape, under its canonical name.
   * What the object does not name is read as its other properties; for a closed object,
   * the reader decides (kept to be rejected, or dropped when tolerant).
   */
  private objectBody(fields: readonly Field[], rest: Shape, owner: string, members: readonly Field[] = []): Code[] {
    const key = ts`key`;
    const value = ts`value`;
    // Fields read as they are share one case: the key is one of their known names.
    const copied = fields.filter((field) => !this.reads(field.shape) && (field.aliases ?? []).length === 0 && !isPrototypeName(field.name));
    const cases = fields
      .filter((field) => !copied.includes(field))
      .map((field) => {
        const names = [field.name, ...(field.aliases ?? [])];
        const where = templateLiteral([{ name: "path" }, `/${escapeToken(field.name)}`]);
        const read = this.read(field.shape, value, where, `${owner}${upperFirst(field.name)}`);
        const store = isPrototypeName(field.name)
          ? ts`${call(this.runtime("define"), [OUTPUT, stringLiteral(field.name), read])};`
          : assign(this.access(OUTPUT, field.name), read);
        const twice = ifThen(
          ts`${this.access(OUTPUT, field.name)} !== undefined`,
          ts`${call(ts`${READER}.twice`, [PATH, key, stringLiteral(field.name)])};`,
        );
        return { labels: names.map(literal), body: [...(names.length > 1 ? [twice] : []), store, ts`break;`] };
      });
    if (copied.length > 0)
      cases.unshift({ labels: copied.map((field) => literal(field.name)), body: [ts`${OUTPUT}[${key}] = ${value};`, ts`break;`] });
    const other =
      rest.kind === "never"
        ? ts`${call(ts`${READER}.unknownProperty`, [OUTPUT, PATH, key, value])};`
        : ts`${call(this.runtime("define"), [OUTPUT, key, this.read(rest, value, call(this.runtime("pointer"), [PATH, key]), `${owner}Property`)])};`;
    const loop = forLoop("in", key, INPUT, [
      // As the checks read an object: its own properties, and undefined is absent.
      ifThen(ts`!Object.prototype.hasOwnProperty.call(${INPUT}, ${key})`, ts`continue;`),
      constant(value, ts`${INPUT}[${key}]`),
      ifThen(ts`${value} === undefined`, ts`continue;`),
      cases.length === 0 ? other : switchStatement(key, [...cases, { labels: [], body: [other] }]),
    ]);
    // What the checks would not take for an object is left for them to refuse.
    const notObject = notJsonObject(INPUT, (name) => this.runtime(name), boxMayPass(fields, members));
    return [
      ifThen(notObject, ts`return ${INPUT};`),
      constant(OUTPUT, ts`{}`, { type: ts`{ [key: string]: unknown }` }),
      loop,
      ts`return ${OUTPUT};`,
    ];
  }

  private arrayBody(items: Shape, owner: string): Code[] {
    const index = ts`i`;
    const read = this.read(items, ts`${INPUT}[${index}]`, templateLiteral([{ name: "path" }, "/", { name: "i" }]), `${owner}Item`);
    return [
      ifThen(
        notJsonArray(INPUT, (name) => this.runtime(name)),
        ts`return ${INPUT};`,
      ),
      constant(OUTPUT, ts`[]`, { type: ts`unknown[]` }),
      ts`for (let ${index} = 0; ${index} < ${INPUT}.length; ${index}++) ${block([ts`${call(ts`${OUTPUT}.push`, [read])};`])}`,
      ts`return ${OUTPUT};`,
    ];
  }

  private taggedBody(shape: Shape & { kind: "tagged-union" }, owner: string): Code[] {
    const tag = call(this.runtime("jsonProperty"), [INPUT, stringLiteral(shape.tag)]);
    const where = templateLiteral([{ name: "path" }, `/${escapeToken(shape.tag)}`]);
    const cases = shape.members.map((member) => ({
      labels: [literal(member.value)],
      body: [ts`return ${this.read(member.shape, INPUT, PATH, `${owner}${upperFirst(String(member.value))}`)};`],
    }));
    const types = [...new Set(shape.members.map((member) => typeof member.value))];
    const what = `${article(owner)} ${owner} ${shape.tag}`;
    const unknown = types.length === 1 ? [ts`${call(ts`${READER}.unknownValue`, [tag, where, literal(types[0]!), literal(what)])};`] : [];
    return [switchStatement(tag, [...cases, { labels: [], body: [...unknown, ts`return ${INPUT};`] }])];
  }

  private enumBody(shape: Shape & { kind: "enum" }, owner: string): Code[] {
    const numbers = Object.entries(shape.wire?.numbers ?? {}).map(([value, number]) => ({
      labels: [literal(number)],
      body: [ts`return ${literal(value)};`],
    }));
    const types = new Set(shape.values.map((value) => (value === null ? "object" : typeof value)));
    const what = literal(`${article(owner)} ${owner}`);
    const fallback = shape.fallback === undefined ? [] : [literal(shape.fallback)];
    const unknown = ts`return ${call(ts`${READER}.unknownValue`, [INPUT, PATH, literal([...types].join(" ")), what, ...fallback])};`;
    return [
      switchStatement(INPUT, [
        { labels: shape.values.map(literal), body: [ts`return ${INPUT};`] },
        ...numbers,
        { labels: [], body: shape.wire === undefined ? [unknown] : [this.unnamedNumber(shape.wire, what, fallback), unknown] },
      ]),
    ];
  }

  /**
   * An integer the wire accepts in place of a proto enum's names (any int32) for which
   * this version has no name: the schema accepts it, but no canonical value stands for it.
   */
  private unnamedNumber(wire: EnumWire, what: Code, fallback: readonly Code[]): Code {
    const bounds = [
      ...(wire.minimum === undefined ? [] : [ts`${INPUT} >= ${literal(wire.minimum)}`]),
      ...(wire.maximum === undefined ? [] : [ts`${INPUT} <= ${literal(wire.maximum)}`]),
    ];
    return ifThen(
      logical("&&", [ts`typeof ${INPUT} === "number"`, ts`Number.isInteger(${INPUT})`, ...bounds]),
      ts`return ${call(ts`${READER}.unnamedNumber`, [INPUT, PATH, what, ...fallback])};`,
    );
  }

  /** A union is read as the member of the value's JSON type, when only one member has it. */
  private unionBody(members: readonly Shape[], owner: string): Code[] {
    const statements: Code[] = [];
    const seen = new Map<string, number>();
    for (const member of members) for (const type of jsonTypes(member, this.shapes)) seen.set(type, (seen.get(type) ?? 0) + 1);
    for (const [i, member] of members.entries()) {
      const types = [...jsonTypes(member, this.shapes)];
      if (types.length !== 1 || seen.get(types[0]!) !== 1 || !this.reads(member)) continue;
      const test =
        types[0] === "array"
          ? call(this.runtime("isArray"), [INPUT])
          : types[0] === "object"
            ? call(this.runtime("isRecord"), [INPUT])
            : undefined;
      if (test === undefined) continue;
      statements.push(ifThen(test, ts`return ${this.read(member, INPUT, PATH, `${owner}${i + 1}`)};`));
    }
    return [...statements, ts`return ${INPUT};`];
  }
}
