import type { Ir, KeyedUnionShape, NamedType, TaggedMember, TaggedUnionShape } from "../ir/model.js";
import { isPrototypeName, propertyOf, RUNTIME } from "./access.js";
import { generic, isMatchable, memberValueType, variantType } from "./members.js";
import { handlersName, matchName, memberParameterName, parameterName, partialMatchName, TYPES, unmatchedName } from "./names.js";
import type { Code } from "./printer/code.js";
import { concat, hardline, indent, lines, ts } from "./printer/code.js";
import { jsDoc } from "./printer/comments.js";
import { identifier, literal, propertyKey, stringLiteral } from "./printer/escape.js";
import type { GeneratedFile } from "./printer/file.js";
import type { Parameter } from "./printer/statements.js";
import {
  call,
  conditional,
  functionDeclaration,
  functionType,
  ifThen,
  logical,
  nestedLogical,
  switchStatement,
} from "./printer/statements.js";

/**
 * `match.ts`: for every tagged or keyed union U, `matchU(value, handlers)`, which calls
 * the handler of the value's member and returns what it returns. Its handlers are one
 * per member, all required and no others, so that a member the schema adds stops
 * consumers from compiling until they handle it. `matchUPartial(value, handlers,
 * otherwise)` takes any of them and a fallback. Both dispatch with a switch on the tag,
 * or a test per member of a keyed union; a value no handler takes (a tag newer than this
 * version) goes to the fallback, which in the exhaustive form throws `UnmatchedError`.
 */
export function generateMatches(f: GeneratedFile, ir: Ir): void {
  const unions = ir.types.filter((type) => isMatchable(type.shape));
  f.reserve(
    unions.flatMap((type) => [handlersName(type.name), matchName(type.name), partialMatchName(type.name), unmatchedName(type.name)]),
  );
  for (const type of unions) new UnionMatch(f, type).declare();
}

/** One union's handlers, matches and the function that throws for a value no handler takes. */
class UnionMatch {
  private readonly shape: TaggedUnionShape | KeyedUnionShape;
  private readonly union: Code;
  private readonly handlers: Code;
  /** The value's parameter: the type name's last word, `address`. */
  private readonly valueName: string;
  private readonly value: Code;

  constructor(
    private readonly f: GeneratedFile,
    private readonly type: NamedType,
  ) {
    this.shape = type.shape as TaggedUnionShape | KeyedUnionShape;
    this.union = f.import(type.name, TYPES, { typeOnly: true });
    this.handlers = identifier(handlersName(type.name));
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
    const entries =
      shape.kind === "tagged-union"
        ? shape.members.map((member) => ({
            key: handlerKey(member),
            type: functionType([{ name: this.value, type: this.taggedMember(member) }], ts`unknown`),
          }))
        : shape.members.map((member) => ({
            key: member.name,
            type: functionType(
              [
                {
                  name: identifier(memberParameterName(member.name, [this.valueName])),
                  type: memberValueType(this.f, this.type.name, member),
                },
                { name: this.value, type: variantType(this.f, this.type.name, member) },
              ],
              ts`unknown`,
            ),
          }));
    const summary =
      shape.kind === "tagged-union"
        ? `one for each \`${shape.tag}\`, called with the ${this.valueName} as that member.`
        : `one for each member, called with its value and the ${this.valueName}.`;
    this.f.declare(
      jsDoc([`The handlers of {@link ${matchName(this.type.name)}}: ${summary}`]),
      concat(
        ts`export interface ${this.handlers} {`,
        indent(hardline, lines(entries.map(({ key, type }) => ts`readonly ${propertyKey(key)}: ${type};`))),
        hardline,
        ts`}`,
      ),
    );
  }

  private declareMatch(): void {
    const name = identifier(matchName(this.type.name));
    const only = this.f.import("Only", RUNTIME, { typeOnly: true });
    const returned = this.f.import("Returned", RUNTIME, { typeOnly: true });
    const value = { name: this.value, type: this.union };
    this.f.declare(
      jsDoc([
        `Calls the handler for ${this.selector} and returns what it returns. Exhaustive: every ${this.what} has a handler, so one that the schema adds does not compile until it is handled. At run time, a ${this.what} this version does not know throws {@link UnmatchedError}.`,
      ]),
      functionDeclaration({
        exported: true,
        name,
        typeParameters: [ts`H extends ${this.handlers}`],
        parameters: [value, { name: ts`handlers`, type: generic(only, [ts`H`, this.handlers]) }],
        returns: generic(returned, [ts`H`], { simple: true }),
      }),
      functionDeclaration({
        exported: true,
        name,
        parameters: [value, { name: ts`handlers`, type: this.handlers }],
        returns: ts`unknown`,
        body: [
          ts`return ${call(identifier(partialMatchName(this.type.name)), [this.value, ts`handlers`, identifier(unmatchedName(this.type.name))])};`,
        ],
      }),
    );
  }

  private declarePartialMatch(): void {
    const name = identifier(partialMatchName(this.type.name));
    const only = this.f.import("Only", RUNTIME, { typeOnly: true });
    const returned = this.f.import("Returned", RUNTIME, { typeOnly: true });
    const value = { name: this.value, type: this.union };
    const otherwise = (returns: Code): Parameter => ({ name: ts`otherwise`, type: functionType([value], returns) });
    this.f.declare(
      jsDoc([
        `Calls the handler for ${this.selector} if there is one, else \`otherwise\`, and returns what it returns. For consumers that handle some of them: a ${this.what} without a handler, including one the schema adds or one this version does not know, goes to \`otherwise\`.`,
      ]),
      functionDeclaration({
        exported: true,
        name,
        typeParameters: [ts`H extends ${generic(ts`Partial`, [this.handlers], { simple: true })}`, ts`R`],
        parameters: [value, { name: ts`handlers`, type: generic(only, [ts`H`, this.handlers]) }, otherwise(ts`R`)],
        returns: ts`${generic(returned, [ts`H`], { simple: true })} | R`,
      }),
      functionDeclaration({
        exported: true,
        name,
        parameters: [value, { name: ts`handlers`, type: generic(ts`Partial`, [this.handlers], { simple: true }) }, otherwise(ts`unknown`)],
        returns: ts`unknown`,
        body: this.dispatch(),
      }),
    );
  }

  /** A switch on the tag, or a test per member; each case calls its handler if there is one. */
  private dispatch(): Code[] {
    const shape = this.shape;
    const fallback = ts`return ${call(ts`otherwise`, [this.value])};`;
    // Untyped code may pass anything: what is not an object has no member to dispatch on.
    const notObject = ifThen(logical("||", [ts`typeof ${this.value} !== "object"`, ts`${this.value} === null`]), fallback);
    if (shape.kind === "tagged-union") {
      const cases = shape.members.map((member) => {
        const key = handlerKey(member);
        const handler = propertyOf(ts`handlers`, key);
        return {
          labels: [literal(member.value)],
          body: [
            ts`return ${conditional(nestedLogical("&&", present(ts`handlers`, key)), call(handler, [this.value]), call(ts`otherwise`, [this.value]))};`,
          ],
        };
      });
      return [notObject, switchStatement(propertyOf(this.value, shape.tag), [...cases, { labels: [], body: [fallback] }])];
    }
    return [
      notObject,
      ...shape.members.map((member) =>
        ifThen(
          logical("&&", present(this.value, member.name)),
          ts`return ${conditional(
            nestedLogical("&&", present(ts`handlers`, member.name)),
            call(propertyOf(ts`handlers`, member.name), [propertyOf(this.value, member.name), this.value]),
            call(ts`otherwise`, [this.value]),
          )};`,
        ),
      ),
      fallback,
    ];
  }

  private declareUnmatched(): void {
    const tag = this.shape.kind === "tagged-union" ? stringLiteral(this.shape.tag) : ts`undefined`;
    this.f.declare(
      functionDeclaration({
        exported: false,
        name: identifier(unmatchedName(this.type.name)),
        parameters: [{ name: this.value, type: this.union }],
        returns: ts`never`,
        body: [ts`throw new ${call(this.f.import("UnmatchedError", RUNTIME), [stringLiteral(this.type.name), tag, this.value])};`],
      }),
    );
  }

  /** A tagged member's type: its name, or the union narrowed to its tag when the schema left it unnamed. */
  private taggedMember(member: TaggedMember): Code {
    if (member.shape.kind === "ref") return this.f.import(member.shape.name, TYPES, { typeOnly: true });
    const shape = this.shape as TaggedUnionShape;
    return ts`Extract<${this.union}, { ${propertyKey(shape.tag)}: ${literal(member.value)} }>`;
  }
}

/** The handler's key for a tag: the tag's value as a property name. */
function handlerKey(member: TaggedMember): string {
  return String(member.value);
}

/**
 * The tests that an object has a property that is not undefined, which together narrow.
 * A name every object inherits is looked for among its own properties first.
 */
function present(subject: Code, name: string): Code[] {
  const defined = ts`${propertyOf(subject, name)} !== undefined`;
  return isPrototypeName(name) ? [call(ts`Object.hasOwn`, [subject, stringLiteral(name)]), defined] : [defined];
}
