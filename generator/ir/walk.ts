import type { Constraint, Evaluated, Field, Shape } from "./model.js";

/** The shapes directly inside a shape, in order: what a walk of it visits next. */
export function childShapes(shape: Shape): Shape[] {
  switch (shape.kind) {
    case "array":
      return [...(shape.prefixItems ?? []), shape.items, ...(shape.contains ?? []).map((each) => each.shape)];
    case "map":
      return [shape.values];
    case "nullable":
      return [shape.shape];
    case "constrained":
      return [shape.shape, ...shape.constraints.flatMap(constraintShapes)];
    case "union":
      return [...shape.members];
    case "tagged-union":
      return shape.members.map((member) => member.shape);
    case "object":
      return [
        ...shape.fields.map((field) => field.shape),
        ...(shape.patterns ?? []).map((each) => each.shape),
        shape.additional,
        ...(shape.names === undefined ? [] : [shape.names]),
      ];
    case "keyed-union":
      return [...shape.members, ...shape.fields].map((field) => field.shape).concat(shape.additional);
    default:
      return [];
  }
}

/** Rebuilds a shape bottom up, giving `rewrite` each field after its own shape was rebuilt. */
export function mapFields(shape: Shape, rewrite: (field: Field) => Field): Shape {
  const fields = (list: readonly Field[]) => list.map((field) => rewrite({ ...field, shape: mapFields(field.shape, rewrite) }));
  switch (shape.kind) {
    case "object":
      return {
        ...shape,
        fields: fields(shape.fields),
        ...(shape.patterns === undefined
          ? {}
          : { patterns: shape.patterns.map((each) => ({ ...each, shape: mapFields(each.shape, rewrite) })) }),
        additional: mapFields(shape.additional, rewrite),
        ...(shape.names === undefined ? {} : { names: mapFields(shape.names, rewrite) }),
      };
    case "keyed-union":
      return { ...shape, members: fields(shape.members), fields: fields(shape.fields), additional: mapFields(shape.additional, rewrite) };
    case "array":
      return {
        ...shape,
        ...(shape.prefixItems === undefined ? {} : { prefixItems: shape.prefixItems.map((each) => mapFields(each, rewrite)) }),
        items: mapFields(shape.items, rewrite),
        ...(shape.contains === undefined
          ? {}
          : { contains: shape.contains.map((each) => ({ ...each, shape: mapFields(each.shape, rewrite) })) }),
      };
    case "map":
      return { ...shape, values: mapFields(shape.values, rewrite) };
    case "nullable":
      return { ...shape, shape: mapFields(shape.shape, rewrite) };
    case "constrained":
      return {
        ...shape,
        shape: mapFields(shape.shape, rewrite),
        constraints: shape.constraints.map((each) => mapConstraint(each, (inner) => mapFields(inner, rewrite))),
      };
    case "union":
      return { ...shape, members: shape.members.map((member) => mapFields(member, rewrite)) };
    case "tagged-union":
      return {
        ...shape,
        members: shape.members.map((member) => ({ ...member, shape: mapFields(member.shape, rewrite) as typeof member.shape })),
      };
    default:
      return shape;
  }
}

/** The shapes a constraint holds, in order. */
function constraintShapes(constraint: Constraint): Shape[] {
  switch (constraint.kind) {
    case "if":
      return [constraint.if, constraint.then, constraint.else];
    case "unevaluated":
      return [...evaluatedShapes(constraint.evaluated), constraint.rest];
    default:
      return [constraint.shape];
  }
}

function evaluatedShapes(evaluated: Evaluated): Shape[] {
  return [
    ...evaluated.contains,
    ...evaluated.when.flatMap((each) => [each.shape, ...evaluatedShapes(each.then), ...evaluatedShapes(each.else)]),
  ];
}

function mapEvaluated(evaluated: Evaluated, map: (shape: Shape) => Shape): Evaluated {
  if (evaluated.when.length === 0 && evaluated.contains.length === 0) return evaluated;
  return {
    ...evaluated,
    contains: evaluated.contains.map(map),
    when: evaluated.when.map((each) => ({
      shape: map(each.shape),
      then: mapEvaluated(each.then, map),
      else: mapEvaluated(each.else, map),
    })),
  };
}

/** The constraint with each shape it holds mapped. */
function mapConstraint(constraint: Constraint, map: (shape: Shape) => Shape): Constraint {
  switch (constraint.kind) {
    case "if":
      return { ...constraint, if: map(constraint.if), then: map(constraint.then), else: map(constraint.else) };
    case "unevaluated":
      return { ...constraint, evaluated: mapEvaluated(constraint.evaluated, map), rest: map(constraint.rest) };
    default:
      return { ...constraint, shape: map(constraint.shape) };
  }
}
