import type { Expression, Name, Parameter, Statement, Type } from "../code/tree.js";
import {
  and,
  binary,
  call,
  conditional,
  construct,
  documentation,
  functionDeclaration,
  functionType,
  identifier,
  ifThen,
  interfaceDeclaration,
  keywordType,
  literal,
  literalType,
  member,
  objectType,
  or,
  parameter,
  propertySignature,
  returns,
  switchStatement,
  throws,
  typeOf,
  typeParameter,
  typeReference,
  UNDEFINED,
  unionType,
} from "../code/build.js";
import type { KeyedUnionShape, NamedType, TaggedMember, TaggedUnionShape } from "../ir/model.js";
import { isMatchable } from "../ir/members.js";
import type { DeclaredNames, NamedIr } from "../name/index.js";
import { namesOf } from "../name/index.js";
import { isPrototypeName } from "./access.js";
import { dispatchesByTable, tagTable } from "./dispatch.js";
import { UNIONS } from "./templates.js";
import type { GeneratedFile } from "./file.js";
import { memberValueType, variantType } from "./members.js";
import { memberParameterName, parameterName, TYPES } from "./names.js";

/**
 * `match.ts`: for every tagged or keyed union U, `matchU(value, handlers)`, which calls
 * the handler of the value's member and returns what it returns. Its handlers are one
 * per member, all required and no others, so that a member the schema adds stops
 * consumers from compiling until they handle it. `matchUPartial(value, handlers,
 * otherwise)` takes any of them and a fallback. Both dispatch with a switch on the tag,
 * or a test per member of a keyed union; a value no handler takes (a tag newer than this
 * version) goes to the fallback, which in the exhaustive form throws `UnmatchedError`.
 */
export function generateMatches(f: GeneratedFile, ir: NamedIr): void {
  const unions = ir.types.filter((type) => isMatchable(type.shape));
  f.reserve(unions.flatMap((type) => Object.values(namesOf(ir, type.name).match!)));
  for (const type of unions) new UnionMatch(f, type, namesOf(ir, type.name).match!).declare();
}

/** One union's handlers, matches and the function that throws for a value no handler takes. */
class UnionMatch {
  private readonly shape: TaggedUnionShape | KeyedUnionShape;
  private readonly union: Type;
  private readonly handlers: Type;
  /** The value's parameter: the type name's last word, `address`. */
  private readonly valueName: string;
  private readonly value: Name;

  constructor(
    private readonly f: GeneratedFile,
    private readonly type: NamedType,
    private readonly names: NonNullable<DeclaredNames["match"]>,
  ) {
    this.shape = type.shape as TaggedUnionShape | KeyedUnionShape;
    this.union = typeReference(f.import(type.name, TYPES, { typeOnly: true }));
    this.handlers = typeReference(identifier(names.handlers));
    const taken = ["handlers", "otherwise", ...(this.shape.kind === "keyed-union" ? this.shape.members.map((member) => member.name) : [])];
    this.valueName = parameterName(type.name, taken);
    this.value = identifier(this.valueName);
  }

  declare(): void {
    this.declareHandlers();
    this.declareMatch();
    this.declarePartialMatch();
    this.declareUnmatched();
  }

  /** What selects the handler, for docs: `` `payment.kind` ``, or "the member `method` has". */
  private get selector(): string {
    return this.shape.kind === "tagged-union" ? `\`${this.valueName}.${this.shape.tag}\`` : `the member \`${this.valueName}\` has`;
  }

  /** What the handlers are one for, for docs: "`type`", or "member". */
  private get what(): string {
    return this.shape.kind === "tagged-union" ? `\`${this.shape.tag}\`` : "member";
  }

  private declareHandlers(): void {
    const shape = this.shape;
    const unknown = keywordType("unknown");
    const entries =
      shape.kind === "tagged-union"
        ? shape.members.map((member) => ({
            key: handlerKey(member),
            type: functionType([parameter(this.value, this.taggedMember(member))], unknown),
          }))
        : shape.members.map((member) => ({
            key: member.name,
            type: functionType(
              [
                parameter(identifier(memberParameterName(member.name, [this.valueName])), memberValueType(this.f, this.type.name, member)),
                parameter(this.value, variantType(this.f, this.type.name, member)),
              ],
              unknown,
            ),
          }));
    const summary =
      shape.kind === "tagged-union"
        ? `one for each \`${shape.tag}\`, called with the ${this.valueName} as that member.`
        : `one for each member, called with its value and the ${this.valueName}.`;
    this.f.declare(
      interfaceDeclaration(
        identifier(this.names.handlers),
        entries.map(({ key, type }) => propertySignature(key, type, { readonly: true })),
        documentation([`The handlers of {@link ${this.names.exhaustive}}: ${summary}`]),
      ),
    );
  }

  private declareMatch(): void {
    const name = identifier(this.names.exhaustive);
    const value = parameter(this.value, this.union);
    const generic = typeReference(H);
    this.f.declare(
      functionDeclaration({
        doc: documentation([
          `Calls the handler for ${this.selector} and returns what it returns. Exhaustive: every ${this.what} has a handler, so one that the schema adds does not compile until it is handled. At run time, a ${this.what} this version does not know throws {@link UnmatchedError}.`,
        ]),
        exported: true,
        name,
        typeParameters: [typeParameter(H, this.handlers)],
        parameters: [value, parameter(HANDLERS, this.only(generic))],
        returns: this.returned(generic),
      }),
      functionDeclaration({
        exported: true,
        name,
        parameters: [value, parameter(HANDLERS, this.handlers)],
        returns: keywordType("unknown"),
        body: [returns(call(identifier(this.names.partial), [this.value, HANDLERS, identifier(this.names.unmatched)]))],
      }),
    );
  }

  private declarePartialMatch(): void {
    const name = identifier(this.names.partial);
    const value = parameter(this.value, this.union);
    const otherwise = (returned: Type): Parameter => parameter(OTHERWISE, functionType([value], returned));
    const partial = typeReference(identifier("Partial"), [this.handlers]);
    const generic = typeReference(H);
    const result = typeReference(R);
    this.f.declare(
      functionDeclaration({
        doc: documentation([
          `Calls the handler for ${this.selector} if there is one, else \`otherwise\`, and returns what it returns. For consumers that handle some of them: a ${this.what} without a handler, including one the schema adds or one this version does not know, goes to \`otherwise\`.`,
        ]),
        exported: true,
        name,
        typeParameters: [typeParameter(H, partial), typeParameter(R)],
        parameters: [value, parameter(HANDLERS, this.only(generic)), otherwise(result)],
        returns: unionType([this.returned(generic), result]),
      }),
      functionDeclaration({
        exported: true,
        name,
        parameters: [value, parameter(HANDLERS, partial), otherwise(keywordType("unknown"))],
        returns: keywordType("unknown"),
        body: this.dispatch(),
      }),
    );
  }

  /** `Only<H, Handlers>`: the handlers given, refusing keys the union has no member for. */
  private only(handlers: Type): Type {
    return typeReference(this.f.import("Only", UNIONS, { typeOnly: true }), [handlers, this.handlers]);
  }

  /** `Returned<H>`: what the handlers given return. */
  private returned(handlers: Type): Type {
    return typeReference(this.f.import("Returned", UNIONS, { typeOnly: true }), [handlers]);
  }

  /** A switch on the tag, or a test per member; each case calls its handler if there is one. */
  private dispatch(): Statement[] {
    const shape = this.shape;
    const fallback = returns(call(OTHERWISE, [this.value]));
    // Untyped code may pass anything: what is not an object has no member to dispatch on.
    const notObject = ifThen(
      or([binary(typeOf(this.value), "!==", literal("object")), binary(this.value, "===", literal(null))]),
      fallback,
    );
    const handle = (key: string, args: readonly Expression[]) =>
      returns(conditional(and(present(HANDLERS, key)), call(member(HANDLERS, key), args), call(OTHERWISE, [this.value])));
    if (shape.kind === "tagged-union" && dispatchesByTable(shape.members.length)) {
      const keys = shape.members.map((each) => [each.value, literal(handlerKey(each))] as const);
      const table = tagTable(this.f, `handlers:${this.type.name}`, `${this.type.name}HandlerKeys`, keys, keywordType("string"));
      const key = call(member(table, "get"), [member(this.value, shape.tag)]);
      const own = shape.members.some((each) => isPrototypeName(handlerKey(each)));
      return [
        notObject,
        returns(call(this.f.import(own ? "callOwnHandler" : "callHandler", UNIONS), [HANDLERS, key, this.value, OTHERWISE])),
      ];
    }
    if (shape.kind === "tagged-union") {
      const cases = shape.members.map((each) => ({ labels: [literal(each.value)], body: [handle(handlerKey(each), [this.value])] }));
      return [notObject, switchStatement(member(this.value, shape.tag), [...cases, { labels: [], body: [fallback] }])];
    }
    return [
      notObject,
      ...shape.members.map((each) =>
        ifThen(and(present(this.value, each.name)), handle(each.name, [member(this.value, each.name), this.value])),
      ),
      fallback,
    ];
  }

  private declareUnmatched(): void {
    const tag = this.shape.kind === "tagged-union" ? literal(this.shape.tag) : UNDEFINED;
    this.f.declare(
      functionDeclaration({
        exported: false,
        name: identifier(this.names.unmatched),
        parameters: [parameter(this.value, this.union)],
        returns: keywordType("never"),
        body: [throws(construct(this.f.import("UnmatchedError", UNIONS), [literal(this.type.name), tag, this.value]))],
      }),
    );
  }

  /** A tagged member's type: its name, or the union narrowed to its tag when the schema left it unnamed. */
  private taggedMember(each: TaggedMember): Type {
    if (each.shape.kind === "ref") return typeReference(this.f.import(each.shape.name, TYPES, { typeOnly: true }));
    const shape = this.shape as TaggedUnionShape;
    return typeReference(identifier("Extract"), [this.union, objectType([propertySignature(shape.tag, literalType(each.value))])]);
  }
}

const H = identifier("H");
const R = identifier("R");
const HANDLERS = identifier("handlers");
const OTHERWISE = identifier("otherwise");

/** The handler's key for a tag: the tag's value as a property name. */
function handlerKey(each: TaggedMember): string {
  return String(each.value);
}

/**
 * The tests that an object has a property that is not undefined, which together narrow.
 * A name every object inherits is looked for among its own properties first.
 */
function present(subject: Expression, key: string): Expression[] {
  const defined = binary(member(subject, key), "!==", UNDEFINED);
  return isPrototypeName(key) ? [call(member(identifier("Object"), "hasOwn"), [subject, literal(key)]), defined] : [defined];
}
