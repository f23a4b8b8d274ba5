import { isIdentifier } from "../identifiers.js";
import type { JsonObject, JsonPrimitive, JsonValue } from "../json.js";
import type {
  ArrayLiteral,
  AsConst,
  Assignment,
  BinaryOperator,
  Block,
  Call,
  Conditional,
  Declaration,
  Documentation,
  ExportAll,
  ExportNames,
  Expression,
  For,
  ForIn,
  Function,
  If,
  Import,
  Index,
  IndexSignature,
  Interface,
  KeywordType,
  Literal,
  Member,
  Name,
  ObjectLiteral,
  ObjectType,
  Parameter,
  Property,
  PropertySignature,
  Return,
  Statement,
  Switch,
  SwitchCase,
  Template,
  TryFinally,
  Type,
  TypeAlias,
  TypeMember,
  TypeParameter,
  TypeReference,
  Variable,
} from "./tree.js";

/**
 * The only way to make nodes of the code tree. Each function checks what only it can
 * (a name is an identifier, a pattern compiles) and folds the trivial cases (one operand
 * is no `&&`), so that every tree an emitter holds is one `format/` can print.
 */

/** Words that cannot name a type or a value in a module. */
const RESERVED = new Set(
  (
    "break case catch class const continue debugger default delete do else enum export extends false finally for function if " +
    "import in instanceof new null return super switch this throw true try typeof var void while with yield " +
    "implements interface let package private protected public static await " +
    "any bigint boolean never number object string symbol undefined unknown " +
    "as infer keyof readonly unique"
  ).split(" "),
);

/**
 * A name the generated code declares or refers to. Names come from the resolve stage
 * already made of identifier characters; a reserved word gets a `$` appended, as
 * protobuf-es does.
 */
export function identifier(text: string): Name {
  let name = names.get(text);
  if (name === undefined) {
    if (!isIdentifier(text)) throw new Error(`not an identifier: ${JSON.stringify(text)}`);
    name = { kind: "name", text: RESERVED.has(text) ? `${text}$` : text };
    names.set(text, name);
  }
  return name;
}

/** Each identifier's node, made once: the emitters ask for the same few names many thousands of times, and nodes are never changed. */
const names = new Map<string, Name>();

/** Whether a name can be declared as it is: an identifier that is not a reserved word. */
export function isPlainIdentifier(text: string): boolean {
  return isIdentifier(text) && !RESERVED.has(text);
}

export function literal(value: JsonPrimitive): Literal {
  if (typeof value === "number" && !Number.isFinite(value)) throw new Error(`not a JSON number: ${value}`);
  return { kind: "literal", value };
}

/** `undefined`: a global, which no declaration may take (`identifier` suffixes it). */
export const UNDEFINED: Expression = { kind: "name", text: "undefined" };

/** A template literal of texts and expressions, in order. */
export function template(parts: readonly (string | Expression)[]): Template {
  const texts = [""];
  const expressions: Expression[] = [];
  for (const part of parts)
    if (typeof part === "string") texts[texts.length - 1] += part;
    else {
      expressions.push(part);
      texts.push("");
    }
  return { kind: "template", texts, expressions };
}

/** A regular expression with the `u` flag; a pattern it cannot compile is refused here. */
export function regex(pattern: string): Expression {
  new RegExp(pattern, "u");
  return { kind: "regex", pattern };
}

export function member(object: Expression, property: string, options: { readonly optional?: boolean } = {}): Member {
  return { kind: "member", object, property, optional: options.optional ?? false };
}

export function index(object: Expression, at: Expression): Index {
  return { kind: "index", object, index: at };
}

export function call(callee: Expression, args: readonly Expression[], typeArguments: readonly Type[] = []): Call {
  return { kind: "call", construct: false, callee, typeArguments, arguments: args };
}

export function construct(callee: Expression, args: readonly Expression[], typeArguments: readonly Type[] = []): Call {
  return { kind: "call", construct: true, callee, typeArguments, arguments: args };
}

export function not(operand: Expression): Expression {
  return { kind: "unary", operator: "!", operand };
}

export function typeOf(operand: Expression): Expression {
  return { kind: "unary", operator: "typeof", operand };
}

export function increment(operand: Expression): Expression {
  return { kind: "update", operand };
}

export function binary(left: Expression, operator: BinaryOperator, right: Expression): Expression {
  return { kind: "binary", operator, left, right };
}

/** `a && b && c`; one operand is itself, and an operand that is an `&&` is flattened. */
export function and(operands: readonly Expression[]): Expression {
  return logical("&&", operands);
}

/** `a || b || c`; one operand is itself, and an operand that is an `||` is flattened. */
export function or(operands: readonly Expression[]): Expression {
  return logical("||", operands);
}

function logical(operator: "&&" | "||", operands: readonly Expression[]): Expression {
  const flat = operands.flatMap((operand) => (operand.kind === "logical" && operand.operator === operator ? operand.operands : [operand]));
  if (flat.length === 0) throw new Error(`an ${operator} of nothing`);
  return flat.length === 1 ? flat[0]! : { kind: "logical", operator, operands: flat };
}

export function conditional(test: Expression, consequent: Expression, alternate: Expression): Conditional {
  return { kind: "conditional", test, consequent, alternate };
}

export function objectLiteral(properties: readonly Property[]): ObjectLiteral {
  return { kind: "object", properties };
}

export function arrayLiteral(elements: readonly Expression[]): ArrayLiteral {
  return { kind: "array", elements };
}

/** A JSON value as an expression: a literal, or an array or object literal of them. */
export function jsonLiteral(value: JsonValue): Expression {
  if (typeof value !== "object" || value === null) return literal(value);
  if (Array.isArray(value)) return arrayLiteral((value as readonly JsonValue[]).map(jsonLiteral));
  return objectLiteral(Object.entries(value as JsonObject).map(([key, item]) => ({ key, value: jsonLiteral(item) })));
}

export function assign(target: Expression, value: Expression): Assignment {
  return { kind: "assignment", target, value };
}

export function asConst(expression: Expression): AsConst {
  return { kind: "as-const", expression };
}

/** An expression evaluated for what it does. */
export function evaluate(expression: Expression): Statement {
  return { kind: "expression-statement", expression };
}

export function returns(value?: Expression): Return {
  return value === undefined ? { kind: "return" } : { kind: "return", value };
}

export function throws(value: Expression): Statement {
  return { kind: "throw", value };
}

export function ifThen(test: Expression, then: Statement, otherwise?: Statement): If {
  return otherwise === undefined ? { kind: "if", test, then } : { kind: "if", test, then, otherwise };
}

export function block(body: readonly Statement[]): Block {
  return { kind: "block", body };
}

/** One statement as it is; several in a block. */
export function statements(body: readonly Statement[]): Statement {
  return body.length === 1 ? body[0]! : block(body);
}

export function switchStatement(discriminant: Expression, cases: readonly SwitchCase[]): Switch {
  return { kind: "switch", discriminant, cases };
}

export function forIn(binding: Name, object: Expression, body: readonly Statement[]): ForIn {
  return { kind: "for-in", binding, object, body };
}

export function forIndex(index: Name, bound: Expression, body: readonly Statement[], start = 0): For {
  if (!Number.isSafeInteger(start) || start < 0) throw new Error(`a loop from ${start}`);
  return { kind: "for", index, start, bound, body };
}

export function constant(
  name: Name,
  value: Expression,
  { type, exported = false, doc }: { readonly type?: Type; readonly exported?: boolean; readonly doc?: Documentation } = {},
): Variable {
  return { kind: "variable", declaration: "const", name, value, exported, ...optional({ type, doc }) };
}

export function variable(name: Name, value: Expression): Variable {
  return { kind: "variable", declaration: "let", name, value, exported: false };
}

export const BREAK: Statement = { kind: "jump", keyword: "break" };
export const CONTINUE: Statement = { kind: "jump", keyword: "continue" };

export function tryFinally(body: readonly Statement[], cleanup: readonly Statement[]): TryFinally {
  return { kind: "try-finally", body, cleanup };
}

export function typeReference(name: Name, args: readonly Type[] = []): TypeReference {
  return { kind: "type-reference", name, arguments: args };
}

export function keywordType(keyword: KeywordType["keyword"]): KeywordType {
  return { kind: "keyword-type", keyword };
}

export function literalType(value: JsonPrimitive): Type {
  literal(value);
  return { kind: "literal-type", value };
}

/** `A | B`; a member that is a union is flattened, and one member is itself. */
export function unionType(members: readonly Type[]): Type {
  const flat = members.flatMap((member) => (member.kind === "union-type" ? member.members : [member]));
  if (flat.length === 0) throw new Error("a union of nothing");
  return flat.length === 1 ? flat[0]! : { kind: "union-type", members: flat };
}

export function arrayType(element: Type): Type {
  return { kind: "array-type", element };
}

/** `[A, B?, ...C[]]`; an optional element follows no required one. */
export function tupleType(elements: readonly { readonly type: Type; readonly optional: boolean }[], rest?: Type): Type {
  if (elements.some((element, i) => element.optional && elements[i + 1]?.optional === false))
    throw new Error("a required tuple element after an optional one");
  return rest === undefined ? { kind: "tuple-type", elements } : { kind: "tuple-type", elements, rest };
}

export function objectType(members: readonly TypeMember[]): ObjectType {
  return { kind: "object-type", members };
}

export function functionType(parameters: readonly Parameter[], returnType: Type): Type {
  return { kind: "function-type", parameters, returns: returnType };
}

export function indexedAccess(object: Type, at: Type): Type {
  return { kind: "indexed-access-type", object, index: at };
}

export function typePredicate(parameter: Name, type: Type): Type {
  return { kind: "type-predicate", parameter, type };
}

/** How a property is declared: `readonly key?: Type`, with its JSDoc. */
export interface SignatureOptions {
  readonly optional?: boolean;
  readonly readonly?: boolean;
  readonly doc?: Documentation;
}

export function propertySignature(
  key: string,
  type: Type,
  { optional: isOptional = false, readonly = false, doc }: SignatureOptions = {},
): PropertySignature {
  return { kind: "property-signature", key, type, optional: isOptional, readonly, ...optional({ doc }) };
}

export function indexSignature(type: Type, prefix?: string): IndexSignature {
  return prefix === undefined ? { kind: "index-signature", type } : { kind: "index-signature", type, prefix };
}

export function parameter(name: Name, type: Type, options: { readonly optional?: boolean } = {}): Parameter {
  return { name, type, optional: options.optional ?? false };
}

export function typeParameter(name: Name, constraint?: Type): TypeParameter {
  return constraint === undefined ? { name } : { name, constraint };
}

/** JSDoc from paragraphs; paragraphs left undefined are left out, and JSDoc without text is not printed. */
export function documentation(paragraphs: readonly (string | undefined)[]): Documentation {
  return { paragraphs: paragraphs.filter((paragraph) => paragraph !== undefined) };
}

export function functionDeclaration(declaration: {
  readonly name: Name;
  readonly exported: boolean;
  readonly typeParameters?: readonly TypeParameter[];
  readonly parameters: readonly Parameter[];
  readonly returns: Type;
  readonly body?: readonly Statement[];
  readonly doc?: Documentation;
}): Function {
  return { kind: "function", typeParameters: [], ...declaration };
}

/** `export interface Name { … }`. */
export function interfaceDeclaration(name: Name, members: readonly TypeMember[], doc?: Documentation): Interface {
  return { kind: "interface", name, members, ...optional({ doc }) };
}

/** `export type Name = Type;`. */
export function typeAlias(name: Name, type: Type, doc?: Documentation): TypeAlias {
  return { kind: "type-alias", name, type, ...optional({ doc }) };
}

export function exportAll(from: string): ExportAll {
  return { kind: "export-all", from };
}

export function exportNames(names: readonly Name[], from: string, options: { readonly typeOnly?: boolean } = {}): ExportNames {
  return { kind: "export-names", names, from, typeOnly: options.typeOnly ?? false };
}

export function importDeclaration(
  specifiers: readonly { readonly name: Name; readonly local: Name }[],
  from: string,
  options: { readonly typeOnly: boolean },
): Import {
  return { kind: "import", specifiers, from, typeOnly: options.typeOnly };
}

export type { Declaration };

/** The options given, without those left undefined: the tree holds no undefined fields. */
function optional<T extends object>(options: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)) as never;
}
