import type {
  Call,
  Declaration,
  Documentation,
  ExportNames,
  Expression,
  For,
  Function,
  If,
  Import,
  Module,
  Parameter,
  Statement,
  Type,
  TypeMember,
  Variable,
} from "../code/tree.js";
import { jsDoc, lineComment } from "./comments.js";
import type { Doc } from "./docs.js";
import {
  align,
  breakAfter,
  brokenGroup,
  concat,
  firstFitting,
  group,
  hardline,
  ifBreak,
  indent,
  join,
  line,
  lines,
  list,
  softline,
} from "./docs.js";
import { isIdentifier } from "../identifiers.js";
import { literalText, objectKey, propertyKey, regexLiteral, stringLiteral, templateText } from "./escape.js";

/**
 * The code tree laid out with the groups prettier's TypeScript printer builds for each
 * node, so that the printed text is what prettier would print. What a node looks like
 * depends at places on where it is (a `&&` in an `if` test, a union after `=`), and
 * those places are named here, not by the emitters.
 */
export function layOutModule(module: Module): Doc {
  return concat(
    join(
      concat(hardline, hardline),
      moduleSections(module).map((parts) => lines(parts.map((part) => part()))),
    ),
    hardline,
  );
}

/** A top-level part of a module (a line of the header, an import, a declaration), laid out when called. */
export type Part = () => Doc;

/**
 * The module's sections (the header, the imports, the constants, then the emitters'
 * sections of declarations), each a list of top-level parts: a module is its sections
 * with a blank line between them, and its parts with a line break between them. A line
 * break at the top level ends every group, so a part prints alone as it prints in the
 * module, and a large module can be laid out and printed a part at a time.
 */
export function moduleSections(module: Module): Part[][] {
  const sections: Part[][] = module.header.length > 0 ? [module.header.map((text) => () => lineComment(text))] : [];
  if (module.imports.length > 0) sections.push(module.imports.map((node) => () => importDeclaration(node)));
  if (module.constants.length > 0) sections.push(module.constants.map((node) => () => statement(node)));
  for (const section of module.sections) sections.push(section.map((node) => () => declaration(node)));
  return sections;
}

function importDeclaration(node: Import): Doc {
  return braced(bracedNames(node));
}

/** `keyword { a, b } tail`: an import or an `export { … } from`, its names inside the braces. */
export interface Braced {
  readonly keyword: string;
  readonly names: readonly string[];
  readonly tail: string;
}

export function bracedNames(node: Import | ExportNames): Braced {
  const tail = `} from ${stringLiteral(node.from)};`;
  if (node.kind === "export-names")
    return { keyword: node.typeOnly ? "export type {" : "export {", names: node.names.map((name) => name.text), tail };
  const names = node.specifiers.map(({ name, local }) => (name.text === local.text ? name.text : `${name.text} as ${local.text}`));
  return { keyword: node.typeOnly ? "import type {" : "import {", names, tail };
}

/** One name per line when they do not fit. */
export function braced({ keyword, names, tail }: Braced): Doc {
  return group(keyword, indent(line, join(concat(",", line), names)), ifBreak(","), line, tail);
}

function declaration(node: Declaration): Doc {
  return concat("doc" in node ? documented(node.doc) : "", undocumented(node));
}

/** A declaration without its JSDoc. */
export function undocumented(node: Declaration): Doc {
  switch (node.kind) {
    case "function":
      return functionDeclaration(node);
    case "interface":
      if (node.members.length === 0) return `export interface ${node.name.text} {}`;
      return concat(
        `export interface ${node.name.text} {`,
        indent(hardline, lines(node.members.map((member) => concat(typeMember(member), ";")))),
        hardline,
        "}",
      );
    case "type-alias":
      if (node.type.kind !== "union-type") return concat(`export type ${node.name.text} = `, type(node.type), ";");
      return group(`export type ${node.name.text} =`, indent(line, group(unionBody(node.type.members))), ";");
    case "variable":
      return variable(node);
    case "export-all":
      return `export * from ${stringLiteral(node.from)};`;
    case "export-names":
      return braced(bracedNames(node));
  }
}

/** A declaration's JSDoc and the line break after it; nothing when it has none. */
function documented(doc: Documentation | undefined): Doc {
  const printed = doc === undefined ? undefined : jsDoc(doc.paragraphs);
  return printed === undefined ? "" : concat(printed, hardline);
}

/**
 * A function declaration, or without a body an overload signature. Its parameters, then
 * its type parameters, break one per line when the signature does not fit.
 */
function functionDeclaration(node: Function): Doc {
  const signature = functionSignature(node);
  return node.body === undefined ? concat(signature, ";") : concat(signature, " ", block(node.body));
}

/** A function's head, up to its return type. */
export function functionSignature(node: Function): Doc {
  const typeParameters =
    node.typeParameters.length === 0
      ? ""
      : list(
          "<",
          node.typeParameters.map(({ name, constraint }) =>
            constraint === undefined ? name.text : concat(`${name.text} extends `, type(constraint)),
          ),
          ">",
        );
  return concat(
    `${node.exported ? "export " : ""}function ${node.name.text}`,
    typeParameters,
    // No parameters: nothing to break between the parentheses (a list would print a lone comma).
    node.parameters.length === 0
      ? concat("(): ", type(node.returns))
      : list("(", node.parameters.map(parameter), concat("): ", type(node.returns))),
  );
}

export function parameter(node: Parameter): Doc {
  return concat(node.name.text, node.optional ? "?: " : ": ", type(node.type));
}

export function statement(node: Statement): Doc {
  switch (node.kind) {
    case "expression-statement":
      if (node.expression.kind === "assignment")
        // Prettier's fluid layout: the value stays after `=` when its head fits there.
        return group(breakAfter(concat(expression(node.expression.target), " ="), expression(node.expression.value)), ";");
      return concat(expression(node.expression), ";");
    case "return":
      return node.value === undefined ? "return;" : concat("return ", returned(node.value), ";");
    case "throw":
      return concat("throw ", returned(node.value), ";");
    case "if":
      return ifStatement(node);
    case "block":
      return block(node.body);
    case "switch": {
      const cases = node.cases.map(({ labels, body }) => {
        const heads = labels.length === 0 ? ["default:"] : labels.map(caseLabel);
        return body.length === 0 ? lines(heads) : concat(lines(heads), indent(hardline, lines(body.map(statement))));
      });
      return concat("switch (", parenthesized(node.discriminant), ") {", indent(hardline, lines(cases)), hardline, "}");
    }
    case "for-in":
      return concat(`for (const ${node.binding.text} in `, expression(node.object), ") ", block(node.body));
    case "for":
      return concat(forHead(node), " ", block(node.body));
    case "variable":
      return variable(node);
    case "jump":
      return `${node.keyword};`;
    case "try-finally":
      return concat("try ", block(node.body), " finally ", block(node.cleanup));
  }
}

/** `case label:`. */
export function caseLabel(label: Expression): Doc {
  return concat("case ", expression(label), ":");
}

/** `for (let i = 0; i < bound; i++)`. */
export function forHead(node: For): Doc {
  const index = node.index.text;
  const clauses = [`let ${index} = ${node.start}`, ";", line, concat(`${index} < `, expression(node.bound)), ";", line, `${index}++`];
  return concat("for (", group(indent(softline, ...clauses), softline), ")");
}

/** The test of an `if` or `switch`, in its parentheses, broken onto its own lines when it does not fit. */
export function parenthesized(test: Expression): Doc {
  return group(indent(softline, expression(test, "parenthesized")), softline);
}

/** `{ … }` with one statement per line. */
function block(body: readonly Statement[]): Doc {
  return body.length === 0 ? "{}" : concat("{", indent(hardline, lines(body.map(statement))), hardline, "}");
}

/**
 * `if (test) statement`: the statement moves to its own line when the whole does not fit,
 * a block stays on the line of its `if`; each `else` starts a line after a statement and
 * follows a block's brace.
 */
function ifStatement(node: If): Doc {
  const opening = ifOpening(node);
  if (node.otherwise === undefined) return opening;
  const separator = node.then.kind === "block" ? " " : hardline;
  const otherwise = node.otherwise;
  if (otherwise.kind === "if") return concat(opening, separator, "else ", ifStatement(otherwise));
  return concat(
    opening,
    separator,
    "else",
    otherwise.kind === "block" ? concat(" ", block(otherwise.body)) : group(indent(line, statement(otherwise))),
  );
}

/** `if (test) statement`, without its `else`. */
export function ifOpening(node: If): Doc {
  const test = parenthesized(node.test);
  return node.then.kind === "block"
    ? concat("if (", test, ") ", block(node.then.body))
    : group("if (", test, ")", indent(line, statement(node.then)));
}

/**
 * `const name = value;`, breaking after `=` when it does not fit; a value `as const`
 * stays after `=` and breaks inside its brackets instead.
 */
function variable(node: Variable): Doc {
  const declared = variableHead(node);
  if (node.value.kind === "as-const") return concat(declared, " = ", expression(node.value), ";");
  // Prettier's "break-after-operator" layout for a conditional whose test is a chain of
  // operators: the value moves to the next line as a whole when it does not fit.
  if (node.value.kind === "conditional" && (node.value.test.kind === "logical" || node.value.test.kind === "binary"))
    return concat(group(declared, " =", group(indent(line, expression(node.value)))), ";");
  // Prettier's fluid layout, as for an assignment: the value stays after `=` when its head fits there.
  return group(breakAfter(concat(declared, " ="), expression(node.value)), ";");
}

/** `const name: type`, before the value. */
function variableHead(node: Variable): Doc {
  const head = `${node.exported ? "export " : ""}${node.declaration} ${node.name.text}`;
  return node.type === undefined ? head : concat(head, ": ", type(node.type));
}

/**
 * A property of an object literal. As prettier lays it out: a string after a key as wide
 * as five characters or more moves to the next line when it does not fit; after a shorter
 * key, breaking would gain too little.
 */
export function property(key: string, value: Expression): Doc {
  if (value.kind === "literal" && typeof value.value === "string" && key.length >= 5)
    return group(key, ":", group(indent(line, expression(value))));
  return concat(key, ": ", expression(value));
}

/** A returned or thrown value: a binary one is wrapped in parentheses when it breaks. */
function returned(value: Expression): Doc {
  if (value.kind !== "binary" && value.kind !== "logical") return expression(value);
  return group(ifBreak("("), indent(softline, expression(value, "returned")), softline, ifBreak(")"));
}

/**
 * Where a binary or logical expression is, which decides how its operands break:
 * directly in the parentheses of an `if` or `switch` (no indent: the parentheses do
 * it), as a returned value (one group), or anywhere else (operands after the first
 * indented).
 */
type Position = "parenthesized" | "returned" | "nested";

export function expression(node: Expression, position: Position = "nested"): Doc {
  switch (node.kind) {
    case "name":
      return node.text;
    case "literal":
      return literalText(node.value);
    case "template": {
      const parts: Doc[] = ["`", templateText(node.texts[0]!)];
      node.expressions.forEach((part, i) => parts.push("${", expression(part), "}", templateText(node.texts[i + 1]!)));
      return concat(...parts, "`");
    }
    case "regex":
      return regexLiteral(node.pattern);
    case "member": {
      const dot = node.optional ? "?." : ".";
      const object = operand(node.object, MEMBER);
      if (isIdentifier(node.property)) return concat(object, dot, node.property);
      return concat(object, node.optional ? "?.[" : "[", stringLiteral(node.property), "]");
    }
    case "index":
      return concat(operand(node.object, MEMBER), "[", expression(node.index), "]");
    case "call":
      return node.construct ? concat("new ", call(node)) : call(node);
    case "unary":
      return concat(node.operator === "typeof" ? "typeof " : "!", operand(node.operand, UNARY));
    case "update":
      return concat(operand(node.operand, MEMBER), "++");
    case "binary":
    case "logical":
      return binaryish(node, position);
    case "conditional":
      return group(
        expression(node.test),
        indent(line, "? ", align(2, expression(node.consequent)), line, ": ", align(2, expression(node.alternate))),
      );
    case "object":
      if (node.properties.length === 0) return "{}";
      return group(
        "{",
        indent(
          line,
          join(
            concat(",", line),
            node.properties.map(({ key, value }) =>
              value.kind === "name" && value.text === key && key !== "__proto__" ? key : property(objectKey(key), value),
            ),
          ),
        ),
        ifBreak(","),
        line,
        "}",
      );
    case "array":
      if (node.elements.length === 0) return "[]";
      return list(
        "[",
        node.elements.map((element) => expression(element)),
        "]",
      );
    case "assignment":
      return concat(expression(node.target), " = ", expression(node.value));
    case "as-const":
      return concat(expression(node.expression), " as const");
  }
}

/** Binding strength, for parentheses: an operand binding less tightly than its place is wrapped. */
export const MEMBER = 9;
export const UNARY = 8;
export const PRECEDENCE: Readonly<Record<string, number>> = {
  "/": 7,
  "<": 5,
  "<=": 5,
  ">": 5,
  ">=": 5,
  "===": 4,
  "!==": 4,
  "&&": 2,
  "||": 1,
};

export function strength(node: Expression): number {
  switch (node.kind) {
    case "binary":
    case "logical":
      return PRECEDENCE[node.operator]!;
    case "conditional":
    case "assignment":
      return 0;
    case "unary":
      return UNARY;
    case "as-const":
      return 3;
    default:
      return MEMBER + 1;
  }
}

/** An operand in a place that binds `place` tightly, in parentheses when it binds less. */
function operand(node: Expression, place: number): Doc {
  const printed = expression(node);
  return strength(node) < place ? concat("(", printed, ")") : printed;
}

/**
 * `a && b && c` or `a === b`, as prettier prints binary expressions: the operator ends a
 * line, and the operands after the first are indented unless the place indents them.
 */
function binaryish(node: Expression & { kind: "binary" | "logical" }, position: Position): Doc {
  const parts: Doc[] = [];
  const place = PRECEDENCE[node.operator]!;
  if (node.kind === "logical") {
    node.operands.forEach((each, i) => {
      // Mixed `&&` and `||` are parenthesized, as prettier does, though precedence needs no parentheses.
      const printed =
        each.kind === "logical" && each.operator !== node.operator ? concat("(", expression(each), ")") : operand(each, place + 1);
      parts.push(i === 0 ? group(printed) : concat(` ${node.operator}`, line, printed));
    });
  } else parts.push(group(operand(node.left, place)), " ", group(node.operator, line, operand(node.right, place + 1)));
  if (position === "parenthesized") return concat(...parts);
  if (position === "returned") return group(...parts);
  return group(parts[0]!, indent(...parts.slice(1)));
}

/**
 * `callee(a, b)`, its arguments one per line when they do not fit. A last argument that
 * is an object or array literal hugs the parentheses instead, `callee(a, {` … `})`, when that fits.
 */
function call(node: Call): Doc {
  const callee = concat(operand(node.callee, MEMBER), typeArguments(node.typeArguments));
  const args = node.arguments;
  const last = args.at(-1);
  const penultimate = args.at(-2);
  if (last === undefined || !isHuggable(last) || (penultimate !== undefined && isHuggable(penultimate)))
    return concat(callee, argumentList(args));
  const printed = args.map((arg) => expression(arg));
  const leading = printed.slice(0, -1).map((arg) => concat(arg, ", "));
  return concat(
    callee,
    firstFitting([
      concat("(", ...leading, printed.at(-1)!, ")"),
      concat("(", ...leading, brokenGroup(printed.at(-1)!), ")"),
      brokenGroup(list("(", printed, ")")),
    ]),
  );
}

function isHuggable(node: Expression): boolean {
  return (node.kind === "object" && node.properties.length > 0) || (node.kind === "array" && node.elements.length > 0);
}

function argumentList(args: readonly Expression[]): Doc {
  return args.length === 0
    ? "()"
    : list(
        "(",
        args.map((arg) => expression(arg)),
        ")",
      );
}

/**
 * `<A, B>` after a generic's name: one per line when they do not fit, except a lone
 * keyword, name without arguments or object type, which prettier never breaks out.
 */
function typeArguments(args: readonly Type[]): Doc {
  if (args.length === 0) return "";
  const only = args.length === 1 ? args[0]! : undefined;
  if (
    only !== undefined &&
    (only.kind === "keyword-type" || only.kind === "object-type" || (only.kind === "type-reference" && only.arguments.length === 0))
  )
    return concat("<", type(only), ">");
  return list(
    "<",
    args.map((arg) => type(arg, "argument")),
    ">",
    { trailingComma: false },
  );
}

/**
 * Where a union type is: prettier breaks one after `=` of an alias, after a property's
 * colon, in an index signature, in an array's parentheses or among type arguments each
 * its own way.
 */
type TypePosition = "argument" | "other";

export function type(node: Type, position: TypePosition = "other"): Doc {
  switch (node.kind) {
    case "type-reference":
      return concat(node.name.text, typeArguments(node.arguments));
    case "keyword-type":
      return node.keyword;
    case "literal-type":
      return literalText(node.value);
    case "union-type":
      return position === "argument"
        ? group(unionBody(node.members))
        : group(
            indent(
              ifBreak(concat(line, "| ")),
              join(
                concat(line, "| "),
                node.members.map((member) => align(2, type(member))),
              ),
            ),
          );
    case "array-type":
      if (node.element.kind === "union-type") return group("(", indent(softline, group(unionBody(node.element.members))), softline, ")[]");
      if (node.element.kind === "function-type") return concat("(", type(node.element), ")[]");
      return concat(type(node.element), "[]");
    case "tuple-type": {
      const elements = node.elements.map((element) => {
        // `?` and `...` bind tighter than `|` and `=>`.
        const inner = element.type.kind === "union-type" || element.type.kind === "function-type";
        return element.optional
          ? concat(inner ? concat("(", type(element.type), ")") : type(element.type), "?")
          : type(element.type, "argument");
      });
      if (node.rest !== undefined) elements.push(concat("...", type({ kind: "array-type", element: node.rest })));
      return elements.length === 0 ? "[]" : list("[", elements, "]");
    }
    case "object-type":
      if (node.members.length === 0) return "{}";
      return group("{", indent(line, join(concat(";", line), node.members.map(typeMember))), ifBreak(";"), line, "}");
    case "function-type":
      return list("(", node.parameters.map(parameter), concat(") => ", type(node.returns)));
    case "indexed-access-type":
      return concat(type(node.object), "[", type(node.index), "]");
    case "type-predicate":
      return concat(`${node.parameter.text} is `, type(node.type));
  }
}

/** A union's members after an optional leading `|`, each aligned under the one before. */
function unionBody(members: readonly Type[]): Doc {
  return concat(
    ifBreak("| "),
    join(
      concat(line, "| "),
      members.map((member) => align(2, type(member))),
    ),
  );
}

function typeMember(node: TypeMember): Doc {
  return node.kind === "index-signature" ? typeMemberBody(node) : concat(documented(node.doc), typeMemberBody(node));
}

/** A type member without its JSDoc. */
export function typeMemberBody(node: TypeMember): Doc {
  if (node.kind === "index-signature") {
    const key = node.prefix === undefined ? "[key: string]:" : `[key: \`${templateText(node.prefix)}\${string}\`]:`;
    if (node.type.kind !== "union-type") return concat(key, " ", type(node.type));
    return group(key, indent(line, group(unionBody(node.type.members))));
  }
  const key = concat(node.readonly ? "readonly " : "", propertyKey(node.key), node.optional ? "?:" : ":");
  const value =
    node.type.kind === "union-type" ? concat(" ", group(indent(softline, unionBody(node.type.members)))) : concat(" ", type(node.type));
  return concat(key, value);
}
