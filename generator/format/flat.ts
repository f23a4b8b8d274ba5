import type { Call, Declaration, Expression, For, Function, If, Parameter, Statement, Type, TypeMember, Variable } from "../code/tree.js";
import { isIdentifier } from "../identifiers.js";
import { jsDocLines } from "./comments.js";
import { literalText, objectKey, propertyKey, regexLiteral, stringLiteral, templateText } from "./escape.js";
import { MEMBER, PRECEDENCE, strength, UNARY } from "./layout.js";

/**
 * The text a node's layout (`layout.ts`) prints flat, every group in it on one line,
 * written directly rather than made by the layout's builders in their flat mode: most
 * code is printed flat, and this is the text of most of it. Each function takes the
 * room left on the line and gives up (undefined) as soon as the text is longer, before
 * writing the rest of a large node; undefined too where the layout holds a line that
 * always breaks. Lengths are counted in UTF-16 units: the caller measures the text.
 */

/** A statement flat, or undefined; `unknown` when it is not one of these, for the layout's builders to say. */
export function flatStatement(node: Statement, room: number): string | undefined | typeof UNKNOWN {
  switch (node.kind) {
    case "expression-statement": {
      const expression = node.expression;
      if (expression.kind !== "assignment") return suffixed(flatExpression(expression, room - 1), ";");
      const target = flatExpression(expression.target, room - 4);
      if (target === undefined) return undefined;
      return suffixed(flatExpression(expression.value, room - target.length - 4), ";", `${target} = `);
    }
    case "return":
      if (node.value === undefined) return room >= 7 ? "return;" : undefined;
      return suffixed(flatExpression(node.value, room - 8), ";", "return ");
    case "throw":
      return suffixed(flatExpression(node.value, room - 7), ";", "throw ");
    case "variable": {
      const head = flatVariableHead(node, room - 4);
      if (head === undefined) return undefined;
      return suffixed(flatExpression(node.value, room - head.length - 4), ";", `${head} = `);
    }
    case "jump":
      return `${node.keyword};`;
    case "if":
      return node.otherwise === undefined ? flatIfOpening(node, room) : UNKNOWN;
    default:
      return UNKNOWN;
  }
}

export const UNKNOWN = Symbol("unknown");

/** `if (test) statement` flat, without its `else`; `UNKNOWN` for a block or a statement `flatStatement` does not know. */
export function flatIfOpening(node: If, room: number): string | undefined | typeof UNKNOWN {
  if (node.then.kind === "block") return UNKNOWN;
  const test = flatExpression(node.test, room - 6);
  if (test === undefined) return undefined;
  const then = flatStatement(node.then, room - test.length - 6);
  return typeof then === "string" ? `if (${test}) ${then}` : then;
}

/** A function's signature flat, up to its return type. */
export function flatSignature(node: Function, room: number): string | undefined {
  let text = `${node.exported ? "export " : ""}function ${node.name.text}`;
  if (node.typeParameters.length > 0) {
    const parameters = flatList(node.typeParameters, ", ", room - text.length - 2, ({ name, constraint }, left) => {
      if (constraint === undefined) return name.text;
      const type = flatType(constraint, left - name.text.length - 9);
      return type === undefined ? undefined : `${name.text} extends ${type}`;
    });
    if (parameters === undefined) return undefined;
    text += `<${parameters}>`;
  }
  const parameters = flatList(node.parameters, ", ", room - text.length - 4, flatParameter);
  if (parameters === undefined) return undefined;
  text += `(${parameters}): `;
  const returns = flatType(node.returns, room - text.length);
  return returns === undefined ? undefined : text + returns;
}

/** `for (let i = 0; i < bound; i++)` flat. */
export function flatForHead(node: For, room: number): string | undefined {
  const index = node.index.text;
  const head = `for (let ${index} = ${node.start}; ${index} < `;
  return suffixed(flatExpression(node.bound, room - head.length - index.length - 5), `; ${index}++)`, head);
}

/** A type alias or `export *` flat; `UNKNOWN` for other declarations. */
export function flatDeclaration(node: Declaration, room: number): string | undefined | typeof UNKNOWN {
  if (node.kind === "export-all") return `export * from ${stringLiteral(node.from)};`;
  if (node.kind !== "type-alias") return UNKNOWN;
  const head = `export type ${node.name.text} = `;
  return suffixed(flatType(node.type, room - head.length - 1), ";", head);
}

/** `const name: type`, before a variable's value, flat. */
export function flatVariableHead(node: Variable, room: number): string | undefined {
  const head = `${node.exported ? "export " : ""}${node.declaration} ${node.name.text}`;
  if (node.type === undefined) return head.length <= room ? head : undefined;
  const type = flatType(node.type, room - head.length - 2);
  return type === undefined ? undefined : `${head}: ${type}`;
}

/** `before`, the text and `after`, or undefined when there is no text. */
export function suffixed(text: string | undefined, after: string, before = ""): string | undefined {
  return text === undefined ? undefined : before + text + after;
}

/** An expression flat, no longer than `room`, or undefined. */
export function flatExpression(node: Expression, room: number): string | undefined {
  const text = flatUnbounded(node, room);
  return text !== undefined && text.length <= room ? text : undefined;
}

function flatOperand(node: Expression, place: number, room: number): string | undefined {
  if (strength(node) >= place) return flatExpression(node, room);
  const text = flatExpression(node, room - 2);
  return text === undefined ? undefined : `(${text})`;
}

/** A list of nodes flat, joined by `separator`, or undefined once longer than `room`. */
export function flatList<T>(
  nodes: readonly T[],
  separator: string,
  room: number,
  flat: (node: T, room: number) => string | undefined,
): string | undefined {
  let text = "";
  for (let i = 0; i < nodes.length; i++) {
    if (i > 0) text += separator;
    const each = flat(nodes[i]!, room - text.length);
    if (each === undefined) return undefined;
    text += each;
    if (text.length > room) return undefined;
  }
  return text;
}

function flatUnbounded(node: Expression, room: number): string | undefined {
  switch (node.kind) {
    case "name":
      return node.text;
    case "literal":
      return literalText(node.value);
    case "template": {
      let text = `\`${templateText(node.texts[0]!)}`;
      for (let i = 0; i < node.expressions.length; i++) {
        const part = flatExpression(node.expressions[i]!, room - text.length - 3);
        if (part === undefined) return undefined;
        text += `\${${part}}${templateText(node.texts[i + 1]!)}`;
        if (text.length > room) return undefined;
      }
      return `${text}\``;
    }
    case "regex":
      return regexLiteral(node.pattern);
    case "member": {
      const object = flatOperand(node.object, MEMBER, room - 2);
      if (object === undefined) return undefined;
      if (isIdentifier(node.property)) return `${object}${node.optional ? "?." : "."}${node.property}`;
      return `${object}${node.optional ? "?.[" : "["}${stringLiteral(node.property)}]`;
    }
    case "index": {
      const object = flatOperand(node.object, MEMBER, room - 3);
      if (object === undefined) return undefined;
      const index = flatExpression(node.index, room - object.length - 2);
      return index === undefined ? undefined : `${object}[${index}]`;
    }
    case "call": {
      const head = flatCallHead(node, room - 2);
      if (head === undefined) return undefined;
      // Hugged or not, the arguments flat are a list.
      const args = flatList(node.arguments, ", ", room - head.length - 2, flatExpression);
      return args === undefined ? undefined : `${head}(${args})`;
    }
    case "unary": {
      const prefix = node.operator === "typeof" ? "typeof " : "!";
      const operand = flatOperand(node.operand, UNARY, room - prefix.length);
      return operand === undefined ? undefined : prefix + operand;
    }
    case "update": {
      const operand = flatOperand(node.operand, MEMBER, room - 2);
      return operand === undefined ? undefined : `${operand}++`;
    }
    case "binary": {
      const place = PRECEDENCE[node.operator]!;
      const left = flatOperand(node.left, place, room);
      if (left === undefined) return undefined;
      const head = `${left} ${node.operator} `;
      const right = flatOperand(node.right, place + 1, room - head.length);
      return right === undefined ? undefined : head + right;
    }
    case "logical": {
      const place = PRECEDENCE[node.operator]!;
      return flatList(node.operands, ` ${node.operator} `, room, (each, left) =>
        // Mixed `&&` and `||` are parenthesized, as in layout.ts.
        each.kind === "logical" && each.operator !== node.operator ? flatOperand(each, Infinity, left) : flatOperand(each, place + 1, left),
      );
    }
    case "conditional": {
      const test = flatExpression(node.test, room);
      if (test === undefined) return undefined;
      const consequent = flatExpression(node.consequent, room - test.length - 3);
      if (consequent === undefined) return undefined;
      const alternate = flatExpression(node.alternate, room - test.length - consequent.length - 6);
      return alternate === undefined ? undefined : `${test} ? ${consequent} : ${alternate}`;
    }
    case "object": {
      if (node.properties.length === 0) return "{}";
      const properties = flatList(node.properties, ", ", room - 4, ({ key, value }, left) => {
        if (value.kind === "name" && value.text === key && key !== "__proto__") return key;
        const printedKey = objectKey(key);
        const printedValue = flatExpression(value, left - printedKey.length - 2);
        return printedValue === undefined ? undefined : `${printedKey}: ${printedValue}`;
      });
      return properties === undefined ? undefined : `{ ${properties} }`;
    }
    case "array": {
      const elements = flatList(node.elements, ", ", room - 2, flatExpression);
      return elements === undefined ? undefined : `[${elements}]`;
    }
    case "assignment": {
      const target = flatExpression(node.target, room - 3);
      if (target === undefined) return undefined;
      const value = flatExpression(node.value, room - target.length - 3);
      return value === undefined ? undefined : `${target} = ${value}`;
    }
    case "as-const": {
      const expression = flatExpression(node.expression, room - 9);
      return expression === undefined ? undefined : `${expression} as const`;
    }
  }
}

/** What a call prints before its arguments flat: `new`, the callee and its type arguments. */
export function flatCallHead(node: Call, room: number): string | undefined {
  const callee = flatOperand(node.callee, MEMBER, room);
  if (callee === undefined) return undefined;
  const head = node.construct ? `new ${callee}` : callee;
  if (node.typeArguments.length === 0) return head.length <= room ? head : undefined;
  const args = flatList(node.typeArguments, ", ", room - head.length - 2, flatType);
  return args === undefined || head.length + args.length + 2 > room ? undefined : `${head}<${args}>`;
}

/** A type flat, no longer than `room`, or undefined. */
export function flatType(node: Type, room: number): string | undefined {
  const text = flatTypeUnbounded(node, room);
  return text !== undefined && text.length <= room ? text : undefined;
}

function flatTypeUnbounded(node: Type, room: number): string | undefined {
  switch (node.kind) {
    case "type-reference": {
      if (node.arguments.length === 0) return node.name.text;
      const args = flatList(node.arguments, ", ", room - node.name.text.length - 2, flatType);
      return args === undefined ? undefined : `${node.name.text}<${args}>`;
    }
    case "keyword-type":
      return node.keyword;
    case "literal-type":
      return literalText(node.value);
    case "union-type":
      return flatList(node.members, " | ", room, flatType);
    case "array-type": {
      const element = node.element;
      const parenthesized = element.kind === "union-type" || element.kind === "function-type";
      const text = flatType(element, room - (parenthesized ? 4 : 2));
      return text === undefined ? undefined : parenthesized ? `(${text})[]` : `${text}[]`;
    }
    case "tuple-type": {
      let text = "";
      for (const element of node.elements) {
        if (text.length > 0) text += ", ";
        const inner = element.type.kind === "union-type" || element.type.kind === "function-type";
        const printed = flatType(element.type, room - text.length - 4);
        if (printed === undefined) return undefined;
        text += element.optional ? (inner ? `(${printed})?` : `${printed}?`) : printed;
      }
      if (node.rest !== undefined) {
        if (text.length > 0) text += ", ";
        const rest = flatType({ kind: "array-type", element: node.rest }, room - text.length - 5);
        if (rest === undefined) return undefined;
        text += `...${rest}`;
      }
      return `[${text}]`;
    }
    case "object-type": {
      if (node.members.length === 0) return "{}";
      const members = flatList(node.members, "; ", room - 4, flatTypeMember);
      return members === undefined ? undefined : `{ ${members} }`;
    }
    case "function-type": {
      const parameters = flatList(node.parameters, ", ", room - 6, flatParameter);
      if (parameters === undefined) return undefined;
      const returns = flatType(node.returns, room - parameters.length - 6);
      return returns === undefined ? undefined : `(${parameters}) => ${returns}`;
    }
    case "indexed-access-type": {
      const object = flatType(node.object, room - 3);
      if (object === undefined) return undefined;
      const index = flatType(node.index, room - object.length - 2);
      return index === undefined ? undefined : `${object}[${index}]`;
    }
    case "type-predicate": {
      const type = flatType(node.type, room - node.parameter.text.length - 4);
      return type === undefined ? undefined : `${node.parameter.text} is ${type}`;
    }
  }
}

/** A type member flat, without the `;` after it; undefined when it has JSDoc, which ends in a line break. */
function flatTypeMember(node: TypeMember, room: number): string | undefined {
  if (node.kind === "property-signature" && node.doc !== undefined && jsDocLines(node.doc.paragraphs) !== undefined) return undefined;
  return flatTypeMemberBody(node, room);
}

/** A type member flat without its JSDoc, and without the `;` after it. */
export function flatTypeMemberBody(node: TypeMember, room: number): string | undefined {
  if (node.kind === "index-signature") {
    const key = node.prefix === undefined ? "[key: string]:" : `[key: \`${templateText(node.prefix)}\${string}\`]:`;
    const type = flatType(node.type, room - key.length - 1);
    return type === undefined ? undefined : `${key} ${type}`;
  }
  const key = `${node.readonly ? "readonly " : ""}${propertyKey(node.key)}${node.optional ? "?:" : ":"}`;
  const type = flatType(node.type, room - key.length - 1);
  return type === undefined ? undefined : `${key} ${type}`;
}

export function flatParameter(node: Parameter, room: number): string | undefined {
  const head = `${node.name.text}${node.optional ? "?: " : ": "}`;
  const type = flatType(node.type, room - head.length);
  return type === undefined ? undefined : head + type;
}
