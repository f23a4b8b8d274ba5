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
 * holds JSON values): the types whose checks recurse as deep as a value nests.
 */
export function recursiveTypes(ir: Ir): ReadonlySet<string> {
  const edges = new Map(ir.types.map((type) => [type.name, [...new Set(refsOf(type.shape))]]));
  const recursive = new Set<string>();
  for (const start of edges.keys()) {
    // Whether start reaches itself: a walk over what it refers to.
    const seen = new Set<string>();
    const stack = [...(edges.get(start) ?? [])];
    while (stack.length > 0) {
      const name = stack.pop()!;
      if (name === start) {
        recursive.add(start);
        break;
      }
      if (seen.has(name)) continue;
      seen.add(name);
      stack.push(...(edges.get(name) ?? []));
    }
  }
  return recursive;
}
