import type { Declaration, Expression, Module, Statement } from "./tree.js";

/**
 * Passes over a built module, as ajv's code generator runs them before it prints: an
 * emitter may build what a later choice leaves unused, and the printed module holds only
 * what runs. Each pass keeps what it cannot prove dead.
 *
 * - tests a literal decides: `if (false) …` goes, `if (true) a` is `a`, and a logical
 *   operand that cannot change the answer is dropped; what follows a return goes;
 * - a local never read whose value has no effect;
 * - a hoisted constant or an import that nothing names.
 */
export function optimize(module: Module): Module {
  const used = new Set<string>();
  const sections = module.sections.map((section) => optimizeSection(section, used));
  return withoutUnused({ ...module, sections }, used);
}

/**
 * A section of a module after the passes over its declarations, which can run as each
 * section is emitted: one walk of each declaration counts the names it holds, after its
 * own passes, into `used`, for `withoutUnused` once every section has been through.
 */
export function optimizeSection(section: readonly Declaration[], used: Set<string>): Declaration[] {
  return section.map((node) => declaration(node, used));
}

/** The module without the hoisted constants and imports that nothing of `used` names (and no kept constant). */
export function withoutUnused(module: Module, used: ReadonlySet<string>): Module {
  const kept = new Set(used);
  // A constant is kept when a declaration names it, or a kept constant does.
  const named = new Map(module.constants.map((each) => [each.name.text, namesIn(each.value)]));
  const pending = [...kept].filter((text) => named.has(text));
  while (pending.length > 0)
    for (const text of named.get(pending.pop()!)!) if (!kept.has(text) && (kept.add(text), named.has(text))) pending.push(text);
  const constants = module.constants.filter((each) => kept.has(each.name.text));
  const imports = module.imports
    .map((each) => ({ ...each, specifiers: each.specifiers.filter((specifier) => kept.has(specifier.local.text)) }))
    .filter((each) => each.specifiers.length > 0);
  return { ...module, imports, constants };
}

/** A declaration after the passes over a function's body; the names it holds are added to `used`. */
function declaration(node: Declaration, used: Set<string>): Declaration {
  if (node.kind !== "function" || node.body === undefined) {
    forEachName(node, (text) => used.add(text));
    return node;
  }
  const folded = fold(node.body);
  const counts = new Map<string, number>();
  forEachName(folded, (text) => counts.set(text, (counts.get(text) ?? 0) + 1));
  const body = withoutUnusedLocals(folded, counts);
  forEachName({ ...node, body: [] }, (text) => used.add(text));
  for (const text of counts.keys()) used.add(text);
  return body === node.body ? node : { ...node, body };
}

/** A list of statements with the tests a literal decides folded: a branch that cannot run goes, one that must stays alone. */
function fold(body: readonly Statement[]): readonly Statement[] {
  let changed = false;
  const folded: Statement[] = [];
  for (const [i, node] of body.entries()) {
    const each = foldStatement(node);
    if (each.length !== 1 || each[0] !== node) changed = true;
    folded.push(...each);
    // What follows a return or a jump never runs.
    if (folded.length > 0 && isExit(folded.at(-1)!)) return changed || i < body.length - 1 ? folded : body;
  }
  return changed ? folded : body;
}

function isExit(node: Statement): boolean {
  return node.kind === "return" || node.kind === "jump";
}

function foldStatement(node: Statement): readonly Statement[] {
  switch (node.kind) {
    case "if": {
      const test = expression(node.test);
      if (test.kind === "literal") {
        const taken = test.value ? node.then : node.otherwise;
        return taken === undefined ? [] : fold([taken]);
      }
      return [withLists(test === node.test ? node : { ...node, test }, fold)];
    }
    case "return": {
      const value = node.value === undefined ? undefined : expression(node.value);
      return [value === node.value ? node : { ...node, value: value! }];
    }
    case "expression-statement": {
      const value = expression(node.expression);
      return [value === node.expression ? node : { ...node, expression: value }];
    }
    default:
      return [withLists(node, fold)];
  }
}

/** The statement with `map` applied to each list of statements it holds; the same node when none changes. */
function withLists(node: Statement, map: (body: readonly Statement[]) => readonly Statement[]): Statement {
  const one = (statement: Statement): Statement | undefined => {
    const body = map([statement]);
    return body.length === 0 ? undefined : body.length === 1 ? body[0] : { kind: "block", body };
  };
  switch (node.kind) {
    case "if": {
      const then = one(node.then) ?? { kind: "block", body: [] };
      const otherwise = node.otherwise === undefined ? undefined : one(node.otherwise);
      if (then === node.then && otherwise === node.otherwise) return node;
      return otherwise === undefined ? { kind: "if", test: node.test, then } : { kind: "if", test: node.test, then, otherwise };
    }
    case "block":
    case "for-in":
    case "for": {
      const body = map(node.body);
      return body === node.body ? node : { ...node, body };
    }
    case "switch": {
      const cases = node.cases.map((each) => {
        const body = map(each.body);
        return body === each.body ? each : { ...each, body };
      });
      return cases.every((each, i) => each === node.cases[i]) ? node : { ...node, cases };
    }
    case "try-finally": {
      const [body, cleanup] = [map(node.body), map(node.cleanup)];
      return body === node.body && cleanup === node.cleanup ? node : { ...node, body, cleanup };
    }
    default:
      return node;
  }
}

/** An expression with logical operands a literal decides folded away. */
function expression(node: Expression): Expression {
  if (node.kind === "unary" && node.operator === "!") {
    const operand = expression(node.operand);
    if (operand.kind === "literal" && typeof operand.value === "boolean") return { kind: "literal", value: !operand.value };
    return operand === node.operand ? node : { ...node, operand };
  }
  if (node.kind !== "logical") return node;
  // `a || false` is `a` and `a || true || b` is true; `&&` the other way round.
  const absorbing = node.operator === "||";
  const operands: Expression[] = [];
  let changed = false;
  for (const each of node.operands) {
    const operand = expression(each);
    if (operand !== each) changed = true;
    if (operand.kind === "literal" && typeof operand.value === "boolean") {
      if (operand.value === absorbing) return operands.length === 0 ? operand : { ...node, operands: [...operands, operand] };
      changed = true;
      continue;
    }
    operands.push(operand);
  }
  if (!changed) return node;
  if (operands.length === 0) return { kind: "literal", value: !absorbing };
  return operands.length === 1 ? operands[0]! : { ...node, operands };
}

/** The body without the locals nothing reads (`counts` says how often each name stands in it), where their values have no effect. */
function withoutUnusedLocals(body: readonly Statement[], counts: ReadonlyMap<string, number>): readonly Statement[] {
  const unused = (node: Statement) => node.kind === "variable" && isPure(node.value) && counts.get(node.name.text) === 1;
  const prune = (list: readonly Statement[]): readonly Statement[] => {
    const kept = list.some(unused) ? list.filter((node) => !unused(node)) : list;
    let changed = kept !== list;
    const mapped = kept.map((node) => {
      const each = withLists(node, prune);
      if (each !== node) changed = true;
      return each;
    });
    return changed ? mapped : list;
  };
  return prune(body);
}

function isPure(node: Expression): boolean {
  return node.kind === "literal" || node.kind === "name" || node.kind === "regex";
}

/** The names an expression holds. */
function namesIn(node: Expression): string[] {
  const names: string[] = [];
  forEachName(node, (text) => names.push(text));
  return names;
}

/**
 * Visits every name in a part of the tree, declared or referred to. The tree is plain
 * data whose identifiers are all `Name` nodes (keys, members and texts are strings), so a
 * walk over its values finds them all, whatever kinds of node are added later.
 */
function forEachName(node: object, visit: (text: string) => void): void {
  if (Array.isArray(node)) {
    for (const each of node as readonly unknown[]) if (typeof each === "object" && each !== null) forEachName(each, visit);
    return;
  }
  const record = node as { readonly [key: string]: unknown };
  const kind = record["kind"];
  if (kind === "name") return visit(record["text"] as string);
  // A literal holds a JSON primitive, no name: the most common leaf, not walked.
  if (kind === "literal") return;
  for (const key in record) {
    const value = record[key];
    if (typeof value === "object" && value !== null) forEachName(value, visit);
  }
}
