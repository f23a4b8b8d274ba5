import type { Ir, NamedType, Shape } from "./model.js";
import { childShapes } from "./walk.js";

/** The named types a shape refers to, directly. */
export function refsOf(shape: Shape): string[] {
  return shape.kind === "ref" ? [shape.name] : childShapes(shape).flatMap(refsOf);
}

/**
 * The named types that contain themselves, directly or through others (a JSON value that
 * holds JSON values): the types whose checks recurse as deep as a value nests. A type is
 * one iff its strongly connected component of the ref graph has more than one member or
 * it refers to itself, so one pass finds them all, in time linear in the types and refs.
 */
export function recursiveTypes({ types }: Pick<Ir, "types">): ReadonlySet<string> {
  const cyclic = onCycles(typeGraph(types, (type) => refsOf(type.shape)));
  return new Set(types.filter((_, i) => cyclic[i]).map((type) => type.name));
}

/** The graph of named types, by their positions: an edge to each type `targetsOf` names, once. */
export function typeGraph(types: readonly NamedType[], targetsOf: (type: NamedType) => readonly string[]): number[][] {
  const position = new Map(types.map((type, i) => [type.name, i]));
  return types.map((type) => [...new Set(targetsOf(type).flatMap((name) => position.get(name) ?? []))]);
}

/** Which nodes of a graph lie on a cycle: in a strongly connected component of more than one node, or with an edge to themselves. */
export function onCycles(successors: readonly (readonly number[])[]): boolean[] {
  const cyclic = new Array<boolean>(successors.length).fill(false);
  for (const component of stronglyConnected(successors.length, (node) => successors[node]!))
    if (component.length > 1 || successors[component[0]!]!.includes(component[0]!)) for (const node of component) cyclic[node] = true;
  return cyclic;
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

/**
 * How deep each named type nests as the emitters walk it: its shapes inside each other,
 * and where a ref names a type that is only another name for others (a ref, nullable,
 * union or constrained shape, which the emitters look through), that type's depth below
 * it. For each type, the depth and the type its deepest ref looks through. The types
 * looked through must not form a cycle (normalize refuses such aliases first).
 */
export function nestingDepths(ir: Ir): Map<string, { readonly depth: number; readonly through?: string }> {
  const shapes = new Map(ir.types.map((type) => [type.name, type.shape]));
  const looksThrough = (name: string) => ["ref", "nullable", "union", "constrained"].includes(shapes.get(name)?.kind ?? "");
  const successors = typeGraph(ir.types, (type) => refsOf(type.shape).filter(looksThrough));
  const depths = new Map<string, { depth: number; through?: string }>();
  // Components come after those they reach, so a type's targets are measured before it.
  for (const component of stronglyConnected(ir.types.length, (node) => successors[node]!))
    for (const node of component) {
      let deepest = { depth: 0 } as { depth: number; through?: string };
      const stack: [Shape, number][] = [[ir.types[node]!.shape, 1]];
      while (stack.length > 0) {
        const [shape, depth] = stack.pop()!;
        const below = shape.kind === "ref" && looksThrough(shape.name) ? (depths.get(shape.name)?.depth ?? 0) : 0;
        if (depth + below > deepest.depth)
          deepest = below > 0 ? { depth: depth + below, through: (shape as { name: string }).name } : { depth };
        for (const child of childShapes(shape)) stack.push([child, depth + 1]);
      }
      depths.set(ir.types[node]!.name, deepest);
    }
  return depths;
}
