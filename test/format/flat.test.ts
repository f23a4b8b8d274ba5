import { describe, expect, it } from "vitest";
import type { Expression, Function, Statement, Type, TypeMember } from "../../generator/code/tree.js";
import { emitProtocol } from "../../generator/emit/index.js";
import type { Doc } from "../../generator/format/docs.js";
import { concat, flatText } from "../../generator/format/docs.js";
import { flatExpression, flatSignature, flatStatement, flatType, flatTypeMemberBody, UNKNOWN } from "../../generator/format/flat.js";
import { expression, functionSignature, statement, type, typeMemberBody } from "../../generator/format/layout.js";
import { load } from "../../generator/load/index.js";
import { intermediate } from "../../generator/pipeline.js";
import { REPO } from "../helpers/project.js";

const EXPRESSIONS = new Set([
  "name",
  "literal",
  "template",
  "regex",
  "member",
  "index",
  "call",
  "unary",
  "update",
  "binary",
  "logical",
  "conditional",
  "object",
  "array",
  "assignment",
  "as-const",
]);
const TYPES = new Set([
  "type-reference",
  "keyword-type",
  "literal-type",
  "union-type",
  "array-type",
  "tuple-type",
  "object-type",
  "function-type",
  "indexed-access-type",
  "type-predicate",
]);
const STATEMENTS = new Set([
  "expression-statement",
  "return",
  "throw",
  "if",
  "block",
  "switch",
  "for-in",
  "for",
  "variable",
  "jump",
  "try-finally",
]);

/** Every node of a code tree that has a kind, each once. */
function nodesOf(tree: object, found = new Set<{ readonly kind: string }>()): Set<{ readonly kind: string }> {
  if (Array.isArray(tree)) for (const each of tree as unknown[]) if (typeof each === "object" && each !== null) nodesOf(each, found);
  if (Array.isArray(tree)) return found;
  const record = tree as { readonly [key: string]: unknown };
  if (typeof record["kind"] === "string") found.add(record as { readonly kind: string });
  for (const value of Object.values(record)) if (typeof value === "object" && value !== null) nodesOf(value, found);
  return found;
}

/**
 * flat.ts writes the text the layout prints flat without building it; the layout's own
 * builders make that text too, in their flat mode (`flatText`). On every node of the four
 * protocols' code the two must agree, text for text, and where there is none that fits on
 * a line (a hard line, or wider than 80: flat.ts is given a room of 80).
 */
const onALine = (build: () => Doc): string | undefined => {
  const text = flatText(build);
  return text !== undefined && text.length <= 80 ? text : undefined;
};
describe("flat text", () => {
  it("is the layout's flat text for every expression, type, statement, member and signature of the four protocols", () => {
    const project = load(REPO);
    const nodes = new Set<{ readonly kind: string }>();
    for (const protocol of project.protocols)
      for (const file of emitProtocol(intermediate(project, protocol))) if ("module" in file) nodesOf(file.module, nodes);
    const counts = { expressions: 0, types: 0, statements: 0, members: 0, signatures: 0 };
    for (const node of nodes) {
      if (EXPRESSIONS.has(node.kind)) {
        const each = node as Expression;
        expect(flatExpression(each, 80), JSON.stringify(each)).toBe(onALine(() => expression(each)));
        counts.expressions++;
      } else if (TYPES.has(node.kind)) {
        const each = node as Type;
        expect(flatType(each, 80), JSON.stringify(each)).toBe(onALine(() => type(each)));
        counts.types++;
      } else if (STATEMENTS.has(node.kind)) {
        const each = node as Statement;
        const flat = flatStatement(each, 80);
        if (flat !== UNKNOWN) expect(flat, JSON.stringify(each)).toBe(onALine(() => statement(each)));
        counts.statements++;
      } else if (node.kind === "property-signature" || node.kind === "index-signature") {
        const each = node as TypeMember;
        expect(flatTypeMemberBody(each, 80), JSON.stringify(each)).toBe(onALine(() => typeMemberBody(each)));
        counts.members++;
      } else if (node.kind === "function") {
        const each = node as Function;
        expect(flatSignature(each, 80), each.name.text).toBe(onALine(() => concat(functionSignature(each))));
        counts.signatures++;
      }
    }
    for (const count of Object.values(counts)) expect(count).toBeGreaterThan(100);
  });
});
