import type { JsonPrimitive } from "../json.js";

/**
 * The generated TypeScript as a closed, typed tree. Emitters build it with the functions
 * of `build.ts`, which check what they are given; `format/` alone knows how each node is
 * laid out and escaped. Text from a schema can enter only as a literal, a property key, a
 * template's text, a regex pattern or documentation, each of which `format/` escapes.
 */

/** An identifier: a declared or imported name, a parameter or a local. */
export interface Name {
  readonly kind: "name";
  readonly text: string;
}

export type Expression =
  | Name
  | Literal
  | Template
  | Regex
  | Member
  | Index
  | Call
  | Unary
  | Update
  | Binary
  | Logical
  | Conditional
  | ObjectLiteral
  | ArrayLiteral
  | Assignment
  | AsConst;

export interface Literal {
  readonly kind: "literal";
  readonly value: JsonPrimitive;
}

/** `` `text${expression}text` ``: one more text than expressions. */
export interface Template {
  readonly kind: "template";
  readonly texts: readonly string[];
  readonly expressions: readonly Expression[];
}

/** A regular expression literal with the `u` flag, from a JSON Schema pattern. */
export interface Regex {
  readonly kind: "regex";
  readonly pattern: string;
}

/** `object.property`, `object["odd name"]`, or with `optional`, `object?.property`. */
export interface Member {
  readonly kind: "member";
  readonly object: Expression;
  readonly property: string;
  readonly optional: boolean;
}

/** `object[index]`. */
export interface Index {
  readonly kind: "index";
  readonly object: Expression;
  readonly index: Expression;
}

/** `callee<T>(arguments)`, or where it constructs, `new callee(arguments)`. */
export interface Call {
  readonly kind: "call";
  readonly callee: Expression;
  readonly typeArguments: readonly Type[];
  readonly arguments: readonly Expression[];
  readonly construct: boolean;
}

export interface Unary {
  readonly kind: "unary";
  readonly operator: "!" | "typeof";
  readonly operand: Expression;
}

/** `operand++`. */
export interface Update {
  readonly kind: "update";
  readonly operand: Expression;
}

export type BinaryOperator = "===" | "!==" | "<" | "<=" | ">" | ">=" | "/";

export interface Binary {
  readonly kind: "binary";
  readonly operator: BinaryOperator;
  readonly left: Expression;
  readonly right: Expression;
}

/** Two or more operands joined by one operator. */
export interface Logical {
  readonly kind: "logical";
  readonly operator: "&&" | "||";
  readonly operands: readonly Expression[];
}

export interface Conditional {
  readonly kind: "conditional";
  readonly test: Expression;
  readonly consequent: Expression;
  readonly alternate: Expression;
}

export interface ObjectLiteral {
  readonly kind: "object";
  readonly properties: readonly Property[];
}

/** `key: value`; printed `key` alone when the value is a name spelled like the key. */
export interface Property {
  readonly key: string;
  readonly value: Expression;
}

export interface ArrayLiteral {
  readonly kind: "array";
  readonly elements: readonly Expression[];
}

/** `target = value`. */
export interface Assignment {
  readonly kind: "assignment";
  readonly target: Expression;
  readonly value: Expression;
}

/** `expression as const`. */
export interface AsConst {
  readonly kind: "as-const";
  readonly expression: Expression;
}

export type Statement = ExpressionStatement | Return | Throw | If | Block | Switch | ForIn | For | Variable | Jump | TryFinally;

export interface ExpressionStatement {
  readonly kind: "expression-statement";
  readonly expression: Expression;
}

export interface Return {
  readonly kind: "return";
  readonly value?: Expression;
}

export interface Throw {
  readonly kind: "throw";
  readonly value: Expression;
}

export interface If {
  readonly kind: "if";
  readonly test: Expression;
  readonly then: Statement;
  readonly otherwise?: Statement;
}

export interface Block {
  readonly kind: "block";
  readonly body: readonly Statement[];
}

export interface Switch {
  readonly kind: "switch";
  readonly discriminant: Expression;
  readonly cases: readonly SwitchCase[];
}

/** The values of `case` labels, none for `default`, and what they run. */
export interface SwitchCase {
  readonly labels: readonly Expression[];
  readonly body: readonly Statement[];
}

/** `for (const binding in object) { … }`. */
export interface ForIn {
  readonly kind: "for-in";
  readonly binding: Name;
  readonly object: Expression;
  readonly body: readonly Statement[];
}

/** `for (let index = start; index < bound; index++) { … }`: a counted loop over a length. */
export interface For {
  readonly kind: "for";
  readonly index: Name;
  readonly start: number;
  readonly bound: Expression;
  readonly body: readonly Statement[];
}

/** `const name: type = value;` or with `let`; exported only at the top of a module. */
export interface Variable {
  readonly kind: "variable";
  readonly declaration: "const" | "let";
  readonly name: Name;
  readonly type?: Type;
  readonly value: Expression;
  readonly exported: boolean;
  readonly doc?: Documentation;
}

/** `break;` or `continue;`. */
export interface Jump {
  readonly kind: "jump";
  readonly keyword: "break" | "continue";
}

export interface TryFinally {
  readonly kind: "try-finally";
  readonly body: readonly Statement[];
  readonly cleanup: readonly Statement[];
}

export type Type =
  | TypeReference
  | KeywordType
  | LiteralType
  | UnionType
  | ArrayType
  | TupleType
  | ObjectType
  | FunctionType
  | IndexedAccessType
  | TypePredicate;

/** `Name` or `Name<A, B>`. */
export interface TypeReference {
  readonly kind: "type-reference";
  readonly name: Name;
  readonly arguments: readonly Type[];
}

export interface KeywordType {
  readonly kind: "keyword-type";
  readonly keyword: "unknown" | "never" | "string" | "number" | "boolean" | "null" | "undefined" | "void";
}

export interface LiteralType {
  readonly kind: "literal-type";
  readonly value: JsonPrimitive;
}

export interface UnionType {
  readonly kind: "union-type";
  readonly members: readonly Type[];
}

export interface ArrayType {
  readonly kind: "array-type";
  readonly element: Type;
}

/** `[A, B?, ...C[]]`: elements by position, some optional, then the rest's element type. */
export interface TupleType {
  readonly kind: "tuple-type";
  readonly elements: readonly { readonly type: Type; readonly optional: boolean }[];
  readonly rest?: Type;
}

export interface ObjectType {
  readonly kind: "object-type";
  readonly members: readonly TypeMember[];
}

export interface FunctionType {
  readonly kind: "function-type";
  readonly parameters: readonly Parameter[];
  readonly returns: Type;
}

/** `Object["index"]`. */
export interface IndexedAccessType {
  readonly kind: "indexed-access-type";
  readonly object: Type;
  readonly index: Type;
}

/** `parameter is Type`, as a guard returns. */
export interface TypePredicate {
  readonly kind: "type-predicate";
  readonly parameter: Name;
  readonly type: Type;
}

export type TypeMember = PropertySignature | IndexSignature;

export interface PropertySignature {
  readonly kind: "property-signature";
  readonly key: string;
  readonly type: Type;
  readonly optional: boolean;
  readonly readonly: boolean;
  readonly doc?: Documentation;
}

/** `[key: string]: Type`. */
export interface IndexSignature {
  readonly kind: "index-signature";
  readonly type: Type;
  /** Keys that start with this text (`` [key: `x-${string}`] ``); any string when absent. */
  readonly prefix?: string;
}

export interface Parameter {
  readonly name: Name;
  readonly type: Type;
  readonly optional: boolean;
}

export interface TypeParameter {
  readonly name: Name;
  readonly constraint?: Type;
}

/** JSDoc: paragraphs of prose, which `format/` wraps and escapes. */
export interface Documentation {
  readonly paragraphs: readonly string[];
}

export type Declaration = Function | Interface | TypeAlias | Variable | ExportAll | ExportNames;

/** A function, or without a body an overload signature. */
export interface Function {
  readonly kind: "function";
  readonly name: Name;
  readonly exported: boolean;
  readonly typeParameters: readonly TypeParameter[];
  readonly parameters: readonly Parameter[];
  readonly returns: Type;
  readonly body?: readonly Statement[];
  readonly doc?: Documentation;
}

export interface Interface {
  readonly kind: "interface";
  readonly name: Name;
  readonly members: readonly TypeMember[];
  readonly doc?: Documentation;
}

export interface TypeAlias {
  readonly kind: "type-alias";
  readonly name: Name;
  readonly type: Type;
  readonly doc?: Documentation;
}

/** `export * from "module";`. */
export interface ExportAll {
  readonly kind: "export-all";
  readonly from: string;
}

/** `export { a, b } from "module";`, or `export type { … }`. */
export interface ExportNames {
  readonly kind: "export-names";
  readonly names: readonly Name[];
  readonly from: string;
  readonly typeOnly: boolean;
}

/** `import { name, name as local } from "module";`, or `import type { … }`. */
export interface Import {
  readonly kind: "import";
  readonly specifiers: readonly { readonly name: Name; readonly local: Name }[];
  readonly from: string;
  readonly typeOnly: boolean;
}

/**
 * A module: a header of line comments, imports, module-level constants, then sections of
 * declarations, a blank line between each two sections and none within one.
 */
export interface Module {
  readonly kind: "module";
  readonly header: readonly string[];
  readonly imports: readonly Import[];
  readonly constants: readonly Variable[];
  readonly sections: readonly (readonly Declaration[])[];
}
