import type { Declaration, Expression, Module, Statement } from "./tree.js";

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
  forEachName(body, (text) => counts.set(text, (counts.get(text) ?? 0) + 1));
  const prune = (list: readonly Statement[]): Statement[] =>
    list
      .filter((node) => !(node.kind === "variable" && isPure(node.value) && counts.get(node.name.text) === 1))
      .map((node) => withLists(node, prune));
  return prune(body);
}

function isPure(node: Expression): boolean {
  return node.kind === "literal" || node.kind === "name" || node.kind === "regex";
}

/** Every name a module's declarations and constants mention. */
function namesUsed(module: Module): Set<string> {
  const used = new Set<string>();
  const add = (text: string) => used.add(text);
  for (const each of module.constants) forEachName(each.value, add);
  for (const section of module.sections) forEachName(section, add);
  return used;
}

/**
 * Visits every name in a part of the tree, declared or referred to. The tree is plain
 * data whose identifiers are all `Name` nodes (keys, members and texts are strings), so a
 * walk over its values finds them all, whatever kinds of node are added later.
 */
function forEachName(node: unknown, visit: (text: string) => void): void {
  if (typeof node !== "object" || node === null) return;
  if (Array.isArray(node)) {
    for (const each of node) forEachName(each, visit);
    return;
  }
  const { kind, text } = node as { kind?: unknown; text?: unknown };
  if (kind === "name" && typeof text === "string") visit(text);
  else for (const value of Object.values(node)) forEachName(value, visit);
}
