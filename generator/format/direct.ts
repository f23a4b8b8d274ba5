import type {
  ArrayLiteral,
  Call,
  Declaration,
  Documentation,
  Expression,
  Function,
  If,
  Module,
  ObjectLiteral,
  Statement,
  Type,
  TypeMember,
} from "../code/tree.js";
import { jsDocLines, lineComment } from "./comments.js";
import { literalText, objectKey } from "./escape.js";
import type { Doc } from "./docs.js";
import { concat, flatText, group, indent as indented, line } from "./docs.js";
import {
  caseLabel,
  expression,
  forHead,
  functionSignature,
  ifOpening,
  parameter,
  braced,
  bracedNames,
  parenthesized,
  PRECEDENCE,
  property,
  statement,
  strength,
  type,
  typeMemberBody,
  undocumented,
} from "./layout.js";
import type { Braced } from "./layout.js";
import { narrowWidth, printDoc } from "./printer.js";
import {
  flatCallHead,
  flatDeclaration,
  flatExpression,
  flatForHead,
  flatList,
  flatIfOpening,
  flatParameter,
  flatSignature,
  flatStatement,
  flatType,
  flatTypeMemberBody,
  flatVariableHead,
  suffixed,
  UNKNOWN,
} from "./flat.js";

/**
 * The text of a module's parts, written directly where the layout is known without
 * printing a document: a statement on a line of its own (in a block, or at the top of a
 * module) is followed by a line break, so when its flat text fits on its line every group
 * in it prints flat, and that text is what prettier prints. Only where it does not fit is
 * its document (`layout.ts`) printed, at its place (`printer.ts`); blocks, the members of
 * an interface and JSDoc are written a line at a time around those.
 */

/** `PRINT_OPTIONS.printWidth`. */
const WIDTH = 80;

/** A top-level part of a module (a line of the header, an import, a declaration), printed when called. */
export type Part = () => string;

/** The module's sections, each a list of top-level parts, as `moduleSections` in `layout.ts` lays them out. */
export function moduleTexts(module: Module): Part[][] {
  const sections: Part[][] = module.header.length > 0 ? [module.header.map((text) => () => lineComment(text))] : [];
  if (module.imports.length > 0) sections.push(module.imports.map((node) => () => bracedText(bracedNames(node))));
  if (module.constants.length > 0) sections.push(module.constants.map((node) => () => statementText(node, 0)));
  for (const section of module.sections) sections.push(section.map((node) => () => declarationText(node)));
  return sections;
}

/**
 * What `build`'s document prints at a column (`position`) of a line indented by `indent`,
 * with a line break after it: its flat text when that fits, else the document printed.
 */
function printed(build: () => Doc, indent: number, position: number, flat: Flat): string {
  const text = flat === UNKNOWN ? flatText(build) : flat;
  if (text !== undefined) {
    const width = narrowWidth(text);
    if (width !== undefined && position + width <= WIDTH) return text;
  }
  return withoutTrailingBlanks(printDoc(build(), WIDTH, indent, position));
}

/** A flat text from `flat.ts`: undefined where there is none that fits, `UNKNOWN` for the layout's builders to make. */
type Flat = string | undefined | typeof UNKNOWN;

/** The flat text of a node when it is no wider than the room, else undefined. */
function narrow(text: string | undefined, room: number): string | undefined {
  if (text === undefined) return undefined;
  const width = narrowWidth(text);
  return width !== undefined && width <= room ? text : undefined;
}

function withoutTrailingBlanks(text: string): string {
  const last = text.charCodeAt(text.length - 1);
  return last === 0x20 || last === 0x09 ? text.replace(/[ \t]+$/, "") : text;
}

const indentations: string[] = [];
/** A line break and the indentation of the next line. */
function newLine(indent: number): string {
  return (indentations[indent] ??= `\n${" ".repeat(indent)}`);
}

function declarationText(node: Declaration): string {
  const doc = "doc" in node ? documentedText(node.doc, 0) : "";
  if (node.kind === "function") return doc + functionText(node);
  if (node.kind === "interface" && node.members.length > 0)
    return `${doc}export interface ${node.name.text} {${node.members.map((member) => newLine(2) + typeMemberText(member)).join("")}\n}`;
  if (node.kind === "export-names") return bracedText(bracedNames(node));
  // A variable's layout is a statement's.
  if (node.kind === "variable") return doc + statementText(node, 0);
  if (node.kind === "type-alias" && node.type.kind === "union-type") return doc + unionAliasText(node.name.text, node.type.members);
  return doc + printed(() => undocumented(node), 0, 0, flatDeclaration(node, WIDTH));
}

/**
 * `export type Name = A | B;` on one line when it fits; else the union on the next line,
 * and when it does not fit there either a member per line after `| `, each laid out at its
 * place (a member's own lines are aligned under it), as prettier breaks a union alias.
 */
function unionAliasText(name: string, members: readonly Type[]): string {
  const head = `export type ${name} =`;
  const union = narrow(flatList(members, " | ", WIDTH, flatType), WIDTH);
  if (union !== undefined && head.length + union.length + 2 <= WIDTH) return `${head} ${union};`;
  if (union !== undefined && union.length + 3 <= WIDTH) return `${head}${newLine(2)}${union};`;
  let text = head;
  members.forEach((member, i) => {
    const after = i === members.length - 1 ? ";" : "";
    text += `${newLine(2)}| ${printed(() => concat(type(member), after), 4, 4, suffixed(flatType(member, WIDTH), after))}`;
  });
  return text;
}

/** An import or `export { … } from` at the top of a module: on one line when it fits, else a name per line. */
function bracedText(node: Braced): string {
  const flat = `${node.keyword} ${node.names.join(", ")} ${node.tail}`;
  const width = narrowWidth(flat);
  if (width !== undefined && width <= WIDTH) return flat;
  if (width === undefined) return printed(() => braced(node), 0, 0, undefined);
  return `${node.keyword}${node.names.map((name) => `${newLine(2)}${name},`).join("")}\n${node.tail}`;
}

/** A declaration's JSDoc at an indentation, and the line break after it; nothing when it has none. */
function documentedText(doc: Documentation | undefined, indent: number): string {
  const lines = doc === undefined ? undefined : jsDocLines(doc.paragraphs);
  return lines === undefined ? "" : lines.join(newLine(indent)) + newLine(indent);
}

function functionText(node: Function): string {
  if (node.body === undefined) return signatureText(node, ";");
  if (node.body.length === 0) return printed(() => undocumented(node), 0, 0, UNKNOWN);
  return signatureText(node, " {") + blockRest(node.body, 0);
}

/**
 * A function's signature and what follows it on its line: flat when it fits, else (with
 * no type parameters to break first) a parameter per line.
 */
function signatureText(node: Function, after: string): string {
  const flat = narrow(flatSignature(node, WIDTH - after.length), WIDTH - after.length);
  if (flat !== undefined) return flat + after;
  // The flat signature does not fit (or has a character wider than a column).
  if (node.typeParameters.length > 0 || node.parameters.length === 0)
    return printed(() => concat(functionSignature(node), after), 0, 0, undefined);
  let text = `${node.exported ? "export " : ""}function ${node.name.text}(`;
  for (const each of node.parameters)
    text += newLine(2) + printed(() => concat(parameter(each), ","), 2, 2, suffixed(flatParameter(each, WIDTH), ","));
  const returns = flatType(node.returns, WIDTH);
  return `${text}\n${printed(() => concat("): ", type(node.returns), after), 0, 0, returns === undefined ? undefined : `): ${returns}${after}`)}`;
}

function typeMemberText(node: TypeMember): string {
  const doc = node.kind === "index-signature" ? "" : documentedText(node.doc, 2);
  return doc + printed(() => concat(typeMemberBody(node), ";"), 2, 2, suffixed(flatTypeMemberBody(node, WIDTH), ";"));
}

/** A block's statements, one per line, and its closing brace: what follows its opening brace. */
function blockRest(body: readonly Statement[], indent: number): string {
  let text = "";
  for (const node of body) text += newLine(indent + 2) + statementText(node, indent + 2);
  return `${text}${newLine(indent)}}`;
}

/** Whether a statement holds an empty block, whose `{}` the text of its head would have to measure. */
function holdsEmptyBlock(node: Statement): boolean {
  switch (node.kind) {
    case "block":
    case "for-in":
    case "for":
      return node.body.length === 0;
    case "try-finally":
      return node.body.length === 0 || node.cleanup.length === 0;
    case "switch":
      return node.cases.length === 0;
    case "if":
      return holdsEmptyBlock(node.then) || (node.otherwise !== undefined && holdsEmptyBlock(node.otherwise));
    default:
      return false;
  }
}

/** A statement at the start of a line indented by `indent`. */
function statementText(node: Statement, indent: number): string {
  if (holdsEmptyBlock(node)) return printed(() => statement(node), indent, indent, flatStatement(node, WIDTH - indent));
  switch (node.kind) {
    case "if":
      return ifText(node, indent, indent);
    case "block":
      return `{${blockRest(node.body, indent)}`;
    case "for-in":
      return (
        printed(
          () => concat(`for (const ${node.binding.text} in `, expression(node.object), ") {"),
          indent,
          indent,
          suffixed(flatExpression(node.object, WIDTH), ") {", `for (const ${node.binding.text} in `),
        ) + blockRest(node.body, indent)
      );
    case "for":
      return (
        printed(() => concat(forHead(node), " {"), indent, indent, suffixed(flatForHead(node, WIDTH), " {")) + blockRest(node.body, indent)
      );
    case "try-finally":
      return `try {${blockRest(node.body, indent)} finally {${blockRest(node.cleanup, indent)}`;
    case "switch": {
      let text = parenthesizedText("switch (", node.discriminant, indent, indent, ") {");
      for (const { labels, body } of node.cases) {
        if (labels.length === 0) text += `${newLine(indent + 2)}default:`;
        for (const label of labels)
          text +=
            newLine(indent + 2) +
            printed(() => caseLabel(label), indent + 2, indent + 2, suffixed(flatExpression(label, WIDTH), ":", "case "));
        for (const each of body) text += newLine(indent + 4) + statementText(each, indent + 4);
      }
      return `${text}${newLine(indent)}}`;
    }
    case "return":
    case "throw":
      // A binary value is wrapped in parentheses when it breaks (`returned` in layout.ts).
      if (node.value !== undefined && node.value.kind !== "binary" && node.value.kind !== "logical")
        return expressionText(node.value, indent, indent + node.kind.length + 1, `${node.kind} `, ";");
      break;
    case "expression-statement":
      if (node.expression.kind !== "assignment") return expressionText(node.expression, indent, indent, "", ";");
      break;
    case "variable": {
      // Prettier's "break-after-operator" layout for this conditional (`variable` in layout.ts) is left to the printer.
      if (node.value.kind === "conditional" && (node.value.test.kind === "logical" || node.value.test.kind === "binary")) break;
      const declared = narrow(flatVariableHead(node, WIDTH), WIDTH);
      if (declared === undefined) break;
      const head = `${declared} = `;
      // While `head` and an opening bracket fit, every group in the head is flat: what follows it on the line is ` = {`.
      const value = node.value.kind === "as-const" ? node.value.expression : node.value;
      if (isBracketed(value) && indent + head.length + 1 <= WIDTH)
        return bracketedText(value, indent, indent + head.length, head, node.value.kind === "as-const" ? " as const;" : ";");
      // Prettier's fluid layout keeps a call after `=` when its callee and parenthesis fit there; its arguments then break, unless the whole fits.
      const callee = isListCall(node.value) ? callHead(node.value, indent + head.length) : undefined;
      if (callee !== undefined) return callText(node.value as Call, callee, indent, indent + head.length, head, ";");
      break;
    }
    default:
      break;
  }
  return printed(() => statement(node), indent, indent, flatStatement(node, WIDTH - indent));
}

/** A non-empty object or array literal, which breaks an element per line. */
function isBracketed(node: Expression): node is ObjectLiteral | ArrayLiteral {
  return (node.kind === "object" && node.properties.length > 0) || (node.kind === "array" && node.elements.length > 0);
}

/**
 * An expression at a column of a line indented by `indent`, `before` written before it
 * and `after` after it up to the next line break. Object and array literals are written
 * here, a line per element when they do not fit; other expressions are laid out.
 */
function expressionText(node: Expression, indent: number, position: number, before: string, after: string): string {
  if (isBracketed(node)) return bracketedText(node, indent, position, before, after);
  const callee = isListCall(node) ? callHead(node, position) : undefined;
  if (callee !== undefined) return callText(node as Call, callee, indent, position, before, after);
  return (
    before +
    printed(() => concat(expression(node), after), indent, position, suffixed(flatExpression(node, WIDTH - position - after.length), after))
  );
}

/**
 * A call with arguments whose last is not a literal to hug: its arguments are a list
 * (`call` in layout.ts).
 */
function isListCall(node: Expression): node is Call {
  if (node.kind !== "call" || node.arguments.length === 0) return false;
  const last = node.arguments.at(-1)!;
  const penultimate = node.arguments.at(-2);
  return !isBracketed(last) || (penultimate !== undefined && isBracketed(penultimate));
}

/**
 * A call's head (`new`, callee, type arguments) flat when it fits at `position` with the
 * parenthesis after it: then every group in it prints flat, since what follows it on the
 * line is that parenthesis, the arguments' list breaking after it unless the whole fits.
 */
function callHead(node: Call, position: number): string | undefined {
  return narrow(flatCallHead(node, WIDTH - position - 1), WIDTH - position - 1);
}

/** A call whose head fits: flat when the whole fits, else an argument per line, each followed by a comma. */
function callText(node: Call, callee: string, indent: number, position: number, before: string, after: string): string {
  const flat = narrow(flatExpression(node, WIDTH - position - after.length), WIDTH - position - after.length);
  if (flat !== undefined) return before + flat + after;
  const inner = indent + 2;
  let text = `${before}${callee}(`;
  for (const each of node.arguments) text += newLine(inner) + expressionText(each, inner, inner, "", ",");
  return `${text}${newLine(indent)})${after}`;
}

/**
 * An object or array literal: flat when it fits (with what follows it), else its brackets
 * on their lines and each element on one between them, followed by a comma, as
 * prettier's group of the literal prints broken.
 */
function bracketedText(node: ObjectLiteral | ArrayLiteral, indent: number, position: number, before: string, after: string): string {
  const flat = narrow(flatExpression(node, WIDTH - position - after.length), WIDTH - position - after.length);
  if (flat !== undefined) return before + flat + after;
  const inner = indent + 2;
  let text = `${before}${node.kind === "object" ? "{" : "["}`;
  if (node.kind === "object") for (const { key, value } of node.properties) text += newLine(inner) + propertyText(key, value, inner);
  else for (const element of node.elements) text += newLine(inner) + expressionText(element, inner, inner, "", ",");
  return `${text}${newLine(indent)}${node.kind === "object" ? "}" : "]"}${after}`;
}

/** A property of a broken object literal, at the start of a line indented by `indent`, and its comma. */
function propertyText(key: string, value: Expression, indent: number): string {
  if (value.kind === "name" && value.text === key && key !== "__proto__") return `${key},`;
  const printedKey = objectKey(key);
  const width = narrowWidth(printedKey);
  if (width === undefined) return printed(() => concat(property(printedKey, value), ","), indent, indent, UNKNOWN);
  if (value.kind === "literal" && typeof value.value === "string" && width >= 5) {
    // After a key this wide, a string that does not fit moves to the next line (`property` in layout.ts).
    const text = literalText(value.value);
    const textWidth = narrowWidth(text);
    if (textWidth === undefined) return printed(() => concat(property(printedKey, value), ","), indent, indent, undefined);
    return indent + width + 2 + textWidth + 1 <= WIDTH ? `${printedKey}: ${text},` : `${printedKey}:${newLine(indent + 2)}${text},`;
  }
  return expressionText(value, indent, indent + width + 2, `${printedKey}: `, ",");
}

/** `if`, at a column of a line indented by `indent` (after `} else ` for an `else if`), as `ifStatement` lays it out. */
function ifText(node: If, indent: number, position: number): string {
  if (node.then.kind !== "block") {
    // The statement after the test moves to its own line when the whole does not fit; an `else` starts a line.
    const then = node.then;
    const known = flatIfOpening(node, WIDTH - position);
    const flat = narrow(known === UNKNOWN ? flatText(() => ifOpening(node)) : known, WIDTH - position);
    const opening =
      flat !== undefined
        ? flat
        : parenthesizedText("if (", node.test, indent, position, ")") + newLine(indent + 2) + statementText(then, indent + 2);
    return node.otherwise === undefined ? opening : opening + newLine(indent) + otherwiseText(node.otherwise, indent, indent);
  }
  const opening = parenthesizedText("if (", node.test, indent, position, ") {") + blockRest(node.then.body, indent);
  return node.otherwise === undefined ? opening : `${opening} ${otherwiseText(node.otherwise, indent, indent + 2)}`;
}

/**
 * `if (test)` or `switch (test)` and what follows it up to the line break, at a column of a
 * line indented by `indent`: on one line when it fits, else the test on lines of its own
 * inside the parentheses. A chain of `&&` or `||` breaks there an operand per line, each
 * but the last followed by its operator, as `binaryish` in layout.ts lays it out in
 * parentheses; other tests break as their document prints.
 */
function parenthesizedText(head: string, test: Expression, indent: number, position: number, after: string): string {
  const flat = suffixed(flatExpression(test, WIDTH), after, head);
  const build = () => concat(head, parenthesized(test), after);
  if (test.kind !== "logical") return printed(build, indent, position, flat);
  // An operand in parentheses (a mixed `&&` and `||`, or one that binds less) is left to the printer.
  const place = PRECEDENCE[test.operator]! + 1;
  if (test.operands.some((each) => (each.kind === "logical" && each.operator !== test.operator) || strength(each) < place))
    return printed(build, indent, position, flat);
  const fits = narrow(flat, WIDTH - position);
  if (fits !== undefined) return fits;
  const inner = indent + 2;
  let text = head;
  test.operands.forEach((each, i) => {
    text += newLine(inner) + expressionText(each, inner, inner, "", i === test.operands.length - 1 ? "" : ` ${test.operator}`);
  });
  return `${text}${newLine(indent)}${after}`;
}

/** `else …`, at a column of a line indented by `indent`. */
function otherwiseText(node: Statement, indent: number, position: number): string {
  if (node.kind === "if") return `else ${ifText(node, indent, position + 5)}`;
  if (node.kind === "block") return `else {${blockRest(node.body, indent)}`;
  const flat = flatStatement(node, WIDTH);
  return printed(
    () => concat("else", group(indented(line, statement(node)))),
    indent,
    position,
    typeof flat === "string" ? `else ${flat}` : flat,
  );
}
