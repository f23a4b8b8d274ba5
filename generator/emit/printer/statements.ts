import { builders as b } from "prettier/doc";
import {
  align,
  brokenGroup,
  Code,
  concat,
  firstFitting,
  group,
  hardline,
  ifBreak,
  indent,
  join,
  line,
  lines,
  softline,
  ts,
} from "./code.js";

/**
 * Statements and expressions laid out with the groups prettier's TypeScript printer
 * builds for them, so that the printed code is what prettier would print.
 */

/**
 * `if (test) statement`: the statement moves to its own line when the whole does not fit;
 * a block stays on the line of its `if`.
 */
export function ifThen(test: Code, statement: Code): Code {
  if (blocks.has(statement)) return concat(ts`if (`, group(indent(softline, test), softline), ts`) `, statement);
  return group(ts`if (`, group(indent(softline, test), softline), ts`)`, indent(line, statement));
}

/**
 * `if (a) x; else if (b) y; else z;` with single statements, as prettier lays out an
 * if without braces: each `else` starts a line.
 */
export function ifChain(branches: readonly { readonly test: Code; readonly statement: Code }[], otherwise?: Code): Code {
  const [first, ...rest] = branches;
  const opening = ifThen(first!.test, first!.statement);
  // After a block, `else` stays on its line; after a statement, it starts the next.
  const separator = blocks.has(first!.statement) ? ts` ` : hardline;
  if (rest.length > 0) return concat(opening, separator, ts`else `, ifChain(rest, otherwise));
  if (otherwise === undefined) return opening;
  return concat(opening, separator, ts`else`, blocks.has(otherwise) ? ts` ${otherwise}` : group(indent(line, otherwise)));
}

/** `if (test) { … }`. */
export function ifBlock(test: Code, body: readonly Code[]): Code {
  return ifThen(test, block(body));
}

/** `try { … } finally { … }`. */
export function tryFinally(body: readonly Code[], cleanup: readonly Code[]): Code {
  return concat(ts`try `, block(body), ts` finally `, block(cleanup));
}

/** `{ … }` with one statement per line. */
export function block(body: readonly Code[]): Code {
  const printed = body.length === 0 ? ts`{}` : concat(ts`{`, indent(hardline, lines(body)), hardline, ts`}`);
  blocks.add(printed);
  return printed;
}

const blocks = new WeakSet<Code>();

/**
 * Operands joined by `&&` or `||`, which break one per line inside an enclosing group. An
 * operand that is itself a `||` of several is not allowed in an `&&`: callers nest such
 * tests in an if instead, rather than print parentheses.
 */
export function logical(operator: "&&" | "||", operands: readonly Code[]): Code {
  if (operator === "&&" && operands.some(isDisjunction)) throw new Error("an || inside an && needs parentheses");
  const joined = join(concat(ts` ${operator === "&&" ? ts`&&` : ts`||`}`, line), operands);
  if (operator === "||" && operands.length > 1) disjunctions.add(joined);
  return joined;
}

const disjunctions = new WeakSet<Code>();

/**
 * Operands joined by `&&` or `||` outside the parentheses of an `if`, such as the test of
 * a returned conditional: prettier indents the operands after the first.
 */
export function nestedLogical(operator: "&&" | "||", operands: readonly Code[]): Code {
  const [first, ...rest] = operands;
  if (rest.length === 0) return first!;
  const symbol = operator === "&&" ? ts`&&` : ts`||`;
  return group(first!, indent(...rest.map((operand) => concat(ts` ${symbol}`, line, operand))));
}

/** Whether a test is an `||` of several operands. */
export function isDisjunction(code: Code): boolean {
  return disjunctions.has(code);
}

/**
 * `callee(a, b)`, its arguments one per line when they do not fit. A last argument that
 * is an object literal hugs the parentheses instead, `callee(a, {` … `})`, when that fits.
 */
export function call(callee: Code, args: readonly Code[]): Code {
  if (args.length === 0) return ts`${callee}()`;
  const brokenOut = group(ts`(`, indent(softline, join(concat(ts`,`, line), args)), ifBreak(ts`,`), softline, ts`)`);
  const last = args.at(-1)!;
  const penultimate = args.at(-2);
  if (!objects.has(last) || (penultimate !== undefined && objects.has(penultimate))) return concat(callee, brokenOut);
  const leading = args.slice(0, -1).map((arg) => ts`${arg}, `);
  return concat(
    callee,
    firstFitting([
      concat(ts`(`, ...leading, last, ts`)`),
      concat(ts`(`, ...leading, brokenGroup(last), ts`)`),
      brokenGroup(ts`(`, indent(softline, join(concat(ts`,`, line), args)), ifBreak(ts`,`), softline, ts`)`),
    ]),
  );
}

export interface SwitchCase {
  /** The values of `case` labels; none for `default`. */
  readonly labels: readonly Code[];
  readonly body: readonly Code[];
}

export function switchStatement(discriminant: Code, cases: readonly SwitchCase[]): Code {
  const printed = cases.map(({ labels, body }) => {
    const heads = labels.length === 0 ? [ts`default:`] : labels.map((label) => ts`case ${label}:`);
    return body.length === 0 ? lines(heads) : concat(lines(heads), indent(hardline, lines(body)));
  });
  return concat(ts`switch (`, group(indent(softline, discriminant), softline), ts`) {`, indent(hardline, lines(printed)), hardline, ts`}`);
}

/** `for (const binding of iterable) { … }` or `for (const binding in object) { … }`. */
export function forLoop(kind: "of" | "in", binding: Code, iterable: Code, body: readonly Code[]): Code {
  return concat(ts`for (const ${binding} ${kind === "of" ? ts`of` : ts`in`} `, iterable, ts`) `, block(body));
}

export interface Parameter {
  readonly name: Code;
  readonly type: Code;
}

/**
 * A function declaration, or without a body an overload signature. Its parameters, then
 * its type parameters, break one per line when the signature does not fit.
 */
export function functionDeclaration(options: {
  readonly exported: boolean;
  readonly name: Code;
  readonly typeParameters?: readonly Code[];
  readonly parameters: readonly Parameter[];
  readonly returns: Code;
  readonly body?: readonly Code[];
}): Code {
  const parameters = options.parameters.map(({ name, type }) => ts`${name}: ${type}`);
  const typeParameters =
    options.typeParameters === undefined
      ? ts``
      : group(ts`<`, indent(softline, join(concat(ts`,`, line), options.typeParameters)), ifBreak(ts`,`), softline, ts`>`);
  const signature = concat(
    ts`${options.exported ? ts`export ` : ts``}function ${options.name}`,
    typeParameters,
    group(ts`(`, indent(softline, join(concat(ts`,`, line), parameters)), ifBreak(ts`,`), softline, ts`): ${options.returns}`),
  );
  return options.body === undefined ? concat(signature, ts`;`) : concat(signature, ts` `, block(options.body));
}

/** A function type, `(a: A, b: B) => R`, its parameters one per line when it does not fit. */
export function functionType(parameters: readonly Parameter[], returns: Code): Code {
  const printed = parameters.map(({ name, type }) => ts`${name}: ${type}`);
  return group(ts`(`, indent(softline, join(concat(ts`,`, line), printed)), ifBreak(ts`,`), softline, ts`) => ${returns}`);
}

/**
 * `left = right;` as prettier's "fluid" assignment layout prints a call: the right side
 * stays after `=` when its head fits there, and moves to the next line when it does not.
 */
export function assign(left: Code, right: Code): Code {
  const id = Symbol("assignment");
  return group(
    left,
    ts` =`,
    Code.trusted(b.group(b.indent(b.line), { id })),
    Code.trusted(b.indentIfBreak(right.doc, { groupId: id })),
    ts`;`,
  );
}

/** `const name = value;`, breaking after `=` when it does not fit. */
export function constant(name: Code, value: Code, options: { readonly exported?: boolean; readonly type?: Code } = {}): Code {
  const declared = options.type === undefined ? name : ts`${name}: ${options.type}`;
  return group(ts`${options.exported ? ts`export ` : ts``}const ${declared} =`, group(indent(line, value)), ts`;`);
}

/** `export type { A, B } from "module";`, one name per line when it does not fit. */
export function exportFrom(names: readonly Code[], from: string, options: { readonly typeOnly?: boolean } = {}): Code {
  const keyword = options.typeOnly ? ts`export type {` : ts`export {`;
  return group(keyword, indent(line, join(concat(ts`,`, line), names)), ifBreak(ts`,`), line, ts`} from ${from};`);
}

/** `{ a: 1, b }`, one property per line when it does not fit. */
export function objectLiteral(properties: readonly Code[]): Code {
  if (properties.length === 0) return ts`{}`;
  const printed = group(ts`{`, indent(line, join(concat(ts`,`, line), properties)), ifBreak(ts`,`), line, ts`}`);
  objects.add(printed);
  return printed;
}

/** Object literals with properties, which a call lets hug its parentheses when last. */
const objects = new WeakSet<Code>();

/**
 * `test ? consequent : alternate`, its branches on lines of their own when it does not
 * fit. A test of several operands (`nestedLogical`) indents all but its first.
 */
export function conditional(test: Code, consequent: Code, alternate: Code): Code {
  return group(test, indent(line, ts`? `, align(2, consequent), line, ts`: `, align(2, alternate)));
}

/**
 * `<A, B>` after a generic's name: one per line when they do not fit, except a lone name
 * without arguments of its own, which stays where it is.
 */
export function typeArguments(args: readonly Code[], options: { readonly simple?: boolean } = {}): Code {
  if (args.length === 1 && options.simple) return ts`<${args[0]!}>`;
  return group(ts`<`, indent(softline, join(concat(ts`,`, line), args)), softline, ts`>`);
}
