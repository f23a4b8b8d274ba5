import type { Declaration, Expression, Module, Statement, Type, TypeMember } from "./tree.js";

/**
 * Passes over a built module, as ajv's code generator runs them before it prints: an
 * emitter may build what a later choice leaves unused, and the printed module holds only
 * what runs. Each pass keeps what it cannot prove dead.
 *
 * - tests a literal decides: `if (false) …` goes, `if (true) a` is `a`, and a logical
 *   operand that cannot change the answer is dropped;
 * - a local never read whose value has no effect;
 * - a hoisted constant or an import that nothing names.
 */
export function optimize(module: Module): Module {
  const sections = module.sections.map((section) => section.map(declaration));
  let constants = module.constants;
  // A constant may name another: drop until none is left unnamed.
  for (;;) {
    const used = namesUsed({ ...module, constants, sections });
    const kept = constants.filter((each) => used.has(each.name.text));
    if (kept.length === constants.length) break;
    constants = kept;
  }
  const used = namesUsed({ ...module, constants, sections });
  const imports = module.imports
    .map((each) => ({ ...each, specifiers: each.specifiers.filter((specifier) => used.has(specifier.local.text)) }))
    .filter((each) => each.specifiers.length > 0);
  return { ...module, imports, constants, sections };
}

function declaration(node: Declaration): Declaration {
  if (node.kind !== "function" || node.body === undefined) return node;
  return { ...node, body: withoutUnusedLocals(fold(node.body)) };
}

/** A list of statements with the tests a literal decides folded: a branch that cannot run goes, one that must stays alone. */
function fold(body: readonly Statement[]): Statement[] {
  return body.flatMap((node): Statement[] => {
    switch (node.kind) {
      case "if": {
        const test = expression(node.test);
        if (test.kind !== "literal") return [withLists({ ...node, test }, fold)];
        const taken = test.value ? node.then : node.otherwise;
        return taken === undefined ? [] : fold([taken]);
      }
      case "return":
        return [node.value === undefined ? node : { ...node, value: expression(node.value) }];
      case "expression-statement":
        return [{ ...node, expression: expression(node.expression) }];
      default:
        return [withLists(node, fold)];
    }
  });
}

/** The statement with `map` applied to each list of statements it holds. */
function withLists(node: Statement, map: (body: readonly Statement[]) => Statement[]): Statement {
  const one = (statement: Statement): Statement | undefined => {
    const body = map([statement]);
    return body.length === 0 ? undefined : body.length === 1 ? body[0] : { kind: "block", body };
  };
  switch (node.kind) {
    case "if": {
      const then = one(node.then) ?? { kind: "block", body: [] };
      const otherwise = node.otherwise === undefined ? undefined : one(node.otherwise);
      return otherwise === undefined ? { kind: "if", test: node.test, then } : { kind: "if", test: node.test, then, otherwise };
    }
    case "block":
    case "for-in":
    case "for-of":
    case "for":
      return { ...node, body: map(node.body) };
    case "switch":
      return { ...node, cases: node.cases.map((each) => ({ ...each, body: map(each.body) })) };
    case "try-finally":
      return { ...node, body: map(node.body), cleanup: map(node.cleanup) };
    default:
      return node;
  }
}

/** An expression with logical operands a literal decides folded away. */
function expression(node: Expression): Expression {
  if (node.kind === "unary" && node.operator === "!") {
    const operand = expression(node.operand);
    return operand.kind === "literal" && typeof operand.value === "boolean"
      ? { kind: "literal", value: !operand.value }
      : { ...node, operand };
  }
  if (node.kind !== "logical") return node;
  // `a || false` is `a` and `a || true || b` is true; `&&` the other way round.
  const absorbing = node.operator === "||";
  const operands: Expression[] = [];
  for (const operand of node.operands.map(expression)) {
    if (operand.kind === "literal" && typeof operand.value === "boolean") {
      if (operand.value === absorbing) return operands.length === 0 ? operand : { ...node, operands: [...operands, operand] };
      continue;
    }
    operands.push(operand);
  }
  if (operands.length === 0) return { kind: "literal", value: !absorbing };
  return operands.length === 1 ? operands[0]! : { ...node, operands };
}

/** The body without the locals nothing reads, where their values have no effect. */
function withoutUnusedLocals(body: readonly Statement[]): Statement[] {
  const counts = new Map<string, number>();
  for (const each of body) statementNames(each, (text) => counts.set(text, (counts.get(text) ?? 0) + 1));
  const prune = (list: readonly Statement[]): Statement[] =>
    list
      .filter((node) => !(node.kind === "variable" && isPure(node.value) && counts.get(node.name.text) === 1))
      .map((node) => withLists(node, prune));
  return prune(body);
}

function isPure(node: Expression): boolean {
  return node.kind === "literal" || node.kind === "undefined" || node.kind === "name" || node.kind === "regex";
}

/** Every name a module's declarations and constants mention. */
function namesUsed(module: Module): Set<string> {
  const used = new Set<string>();
  const add = (text: string) => used.add(text);
  for (const each of module.constants) expressionNames(each.value, add);
  for (const section of module.sections) for (const each of section) declarationNames(each, add);
  return used;
}

function declarationNames(node: Declaration, add: (text: string) => void): void {
  switch (node.kind) {
    case "function":
      for (const each of node.typeParameters) if (each.constraint !== undefined) typeNames(each.constraint, add);
      for (const each of node.parameters) typeNames(each.type, add);
      typeNames(node.returns, add);
      for (const each of node.body ?? []) statementNames(each, add);
      return;
    case "interface":
      for (const each of node.members) memberNames(each, add);
      return;
    case "type-alias":
      typeNames(node.type, add);
      return;
    case "variable":
      statementNames(node, add);
      return;
    case "export-names":
      // Re-exported from another module: they are not this module's imports.
      return;
    case "export-all":
      return;
  }
}

function statementNames(node: Statement, add: (text: string) => void): void {
  const each = (body: readonly Statement[]) => body.forEach((statement) => statementNames(statement, add));
  switch (node.kind) {
    case "expression-statement":
      return expressionNames(node.expression, add);
    case "return":
      if (node.value !== undefined) expressionNames(node.value, add);
      return;
    case "throw":
      return expressionNames(node.value, add);
    case "if":
      expressionNames(node.test, add);
      statementNames(node.then, add);
      if (node.otherwise !== undefined) statementNames(node.otherwise, add);
      return;
    case "block":
      return each(node.body);
    case "switch":
      expressionNames(node.discriminant, add);
      for (const { labels, body } of node.cases) {
        labels.forEach((label) => expressionNames(label, add));
        each(body);
      }
      return;
    case "for-in":
      add(node.binding.text);
      expressionNames(node.object, add);
      return each(node.body);
    case "for-of":
      add(node.binding.text);
      expressionNames(node.iterable, add);
      return each(node.body);
    case "for":
      add(node.index.text);
      expressionNames(node.bound, add);
      return each(node.body);
    case "variable":
      add(node.name.text);
      if (node.type !== undefined) typeNames(node.type, add);
      return expressionNames(node.value, add);
    case "try-finally":
      each(node.body);
      return each(node.cleanup);
    case "break":
    case "continue":
      return;
  }
}

function expressionNames(node: Expression, add: (text: string) => void): void {
  const each = (list: readonly Expression[]) => list.forEach((item) => expressionNames(item, add));
  switch (node.kind) {
    case "name":
      return void add(node.text);
    case "literal":
    case "undefined":
    case "regex":
      return;
    case "template":
      return each(node.expressions);
    case "member":
      return expressionNames(node.object, add);
    case "index":
      return each([node.object, node.index]);
    case "call":
      node.typeArguments.forEach((type) => typeNames(type, add));
      return each([node.callee, ...node.arguments]);
    case "new":
      return each([node.callee, ...node.arguments]);
    case "unary":
    case "update":
      return expressionNames(node.operand, add);
    case "binary":
      return each([node.left, node.right]);
    case "logical":
      return each(node.operands);
    case "conditional":
      return each([node.test, node.consequent, node.alternate]);
    case "object":
      return each(node.properties.map((property) => property.value));
    case "array":
      return each(node.elements);
    case "assignment":
      return each([node.target, node.value]);
    case "as-const":
      return expressionNames(node.expression, add);
  }
}

function typeNames(node: Type, add: (text: string) => void): void {
  switch (node.kind) {
    case "type-reference":
      add(node.name.text);
      return node.arguments.forEach((each) => typeNames(each, add));
    case "keyword-type":
    case "literal-type":
      return;
    case "union-type":
      return node.members.forEach((each) => typeNames(each, add));
    case "array-type":
      return typeNames(node.element, add);
    case "object-type":
      return node.members.forEach((each) => memberNames(each, add));
    case "function-type":
      node.parameters.forEach((each) => typeNames(each.type, add));
      return typeNames(node.returns, add);
    case "indexed-access-type":
      typeNames(node.object, add);
      return typeNames(node.index, add);
    case "type-predicate":
      return typeNames(node.type, add);
  }
}

function memberNames(node: TypeMember, add: (text: string) => void): void {
  typeNames(node.type, add);
}
