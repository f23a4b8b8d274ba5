import type { Ir, Shape } from "./model.js";
import { constraintShapes } from "./walk.js";

/** The named types a shape refers to, directly. */
export function refsOf(shape: Shape): string[] {
  switch (shape.kind) {
    case "ref":
      return [shape.name];
    case "array":
      return [...(shape.prefixItems ?? []), shape.items, ...(shape.contains ?? []).map((each) => each.shape)].flatMap(refsOf);
    case "map":
      return refsOf(shape.values);
    case "nullable":
      return refsOf(shape.shape);
    case "constrained":
      return [...refsOf(shape.shape), ...shape.constraints.flatMap(constraintShapes).flatMap(refsOf)];
    case "union":
      return shape.members.flatMap(refsOf);
    case "tagged-union":
      return shape.members.flatMap((member) => refsOf(member.shape));
    case "object":
      return [
        ...shape.fields.flatMap((field) => refsOf(field.shape)),
        ...(shape.patterns ?? []).flatMap((each) => refsOf(each.shape)),
        ...refsOf(shape.additional),
        ...(shape.names === undefined ? [] : refsOf(shape.names)),
      ];
    case "keyed-union":
      return [...shape.members, ...shape.fields].flatMap((field) => refsOf(field.shape)).concat(refsOf(shape.additional));
    default:
      return [];
  }
}

/**
 * The named types that contain themselves, directly or through others (a JSON value that
 * holds JSON values): the types whose checks recurse as deep as a value nests. A type is
 * one iff its strongly connected component of the ref graph has more than one member or
 * it refers to itself, so one pass finds them all, in time linear in the types and refs.
 */
export function recursiveTypes(ir: Ir): ReadonlySet<string> {
  const position = new Map(ir.types.map((type, i) => [type.name, i]));
  const successors = ir.types.map((type) => {
    const targets = new Set<number>();
    for (const name of refsOf(type.shape)) {
      const target = position.get(name);
      if (target !== undefined) targets.add(target);
    }
    return [...targets];
  });
  const recursive = new Set<string>();
  for (const component of stronglyConnected(successors.length, (node) => successors[node]!)) {
    const only = component[0]!;
    if (component.length > 1 || successors[only]!.includes(only)) for (const node of component) recursive.add(ir.types[node]!.name);
  }
  return recursive;
}

/**
 * The strongly connected components of a graph of nodes 0 … count − 1, by Tarjan's
 * algorithm with an explicit stack (a graph of 100,000 types is deeper than the call
 * stack): each node's successors are asked once, each edge followed once. A component
 * comes after every component it reaches.
 */
export function stronglyConnected(count: number, successorsOf: (node: number) => readonly number[]): number[][] {
  const order = new Int32Array(count).fill(-1);
  const lowest = new Int32Array(count);
  const onStack = new Uint8Array(count);
  const open: number[] = [];
  const components: number[][] = [];
  // The depth-first walk: the nodes being visited, their successors, and the next one to follow.
  const path: number[] = [];
  const pathSuccessors: (readonly number[])[] = [];
  const pathNext: number[] = [];
  let visited = 0;
  const enter = (node: number) => {
    order[node] = lowest[node] = visited++;
    open.push(node);
    onStack[node] = 1;
    path.push(node);
    pathSuccessors.push(successorsOf(node));
    pathNext.push(0);
  };
  for (let root = 0; root < count; root++) {
    if (order[root] !== -1) continue;
    enter(root);
    while (path.length > 0) {
      const top = path.length - 1;
      const node = path[top]!;
      const successors = pathSuccessors[top]!;
      if (pathNext[top]! < successors.length) {
        const next = successors[pathNext[top]!++]!;
        if (order[next] === -1) enter(next);
        else if (onStack[next] === 1) lowest[node] = Math.min(lowest[node]!, order[next]!);
        continue;
      }
      path.pop();
      pathSuccessors.pop();
      pathNext.pop();
      if (path.length > 0) lowest[path.at(-1)!] = Math.min(lowest[path.at(-1)!]!, lowest[node]!);
      if (lowest[node] !== order[node]) continue;
      const component: number[] = [];
      let member: number;
      do {
        member = open.pop()!;
        onStack[member] = 0;
        component.push(member);
      } while (member !== node);
      components.push(component);
    }
  }
  return components;
}

/**
 * A property a ref has as its target has it (the JSON types a value can have, whether
 * reading it does anything), computed once per named type rather than once per path to
 * it: a chain of thousands of names is then followed once, not once from each. A name met
 * again while its own answer is being computed gets `onCycle`, as on a path that cuts the
 * cycle there; an answer that depended on such a cut is not kept, since from another
 * entry it could differ, and every other one is.
 */
export class ThroughRefs<T> {
  private readonly known = new Map<string, T>();
  private readonly open = new Set<string>();
  private cut = false;

  constructor(private readonly onCycle: T) {}

  /** The answer for the named type, `compute`d (by following its shape) when not known. */
  follow(name: string, compute: () => T): T {
    const known = this.known.get(name);
    if (known !== undefined) return known;
    if (this.open.has(name)) {
      this.cut = true;
      return this.onCycle;
    }
    const cutBefore = this.cut;
    this.cut = false;
    this.open.add(name);
    const answer = compute();
    this.open.delete(name);
    if (!this.cut) this.known.set(name, answer);
    this.cut ||= cutBefore;
    return answer;
  }
}
