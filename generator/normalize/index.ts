import type { Field, Ir, NamedType, Shape } from "../ir/model.js";
import { stronglyConnected } from "../ir/graph.js";
import { mapFields } from "../ir/walk.js";
import type { JsonValue } from "../json.js";
import { isJsonObject } from "../json.js";
import type { ResolvedSchema } from "../resolve/index.js";
import { appendPointer, unescapeToken } from "../schema/pointer.js";
import { docOf } from "./docs.js";
import { Context } from "./context.js";
import { readSchema } from "./schema.js";

/** The IR of an effective schema: one named type per `$defs` entry, in order. */
export function normalize(effective: ResolvedSchema): Ir {
  const context = Context.of(effective.schema, effective.provenance, readSchema);
  const definitions = context.definitions;
  const types = Object.keys(definitions).map((name): NamedType => {
    const definition = definitions[name]!;
    return {
      name,
      pointer: appendPointer("/$defs", name),
      doc: isJsonObject(definition) ? docOf(definition) : {},
      shape: context.shapeOf(name),
    };
  });
  const cycle = aliasCycle(types);
  if (cycle !== undefined)
    context.fail(
      appendPointer("/$defs", cycle[0]!),
      `"${cycle[0]}" is defined only in terms of itself (${cycle.join(" → ")})`,
      "a type may contain itself in a property or an array, not be another name for itself",
    );
  const rootRef = effective.schema["$ref"];
  const root = typeof rootRef === "string" ? /^#\/\$defs\/([^/]+)$/.exec(decodeURIComponent(rootRef))?.[1] : undefined;
  const shapes = new Map(types.map((type) => [type.name, type.shape]));
  return {
    protocol: effective.protocol.config.name,
    ...(root === undefined ? {} : { root: unescapeToken(root) }),
    types: types.map((type) => ({ ...type, shape: mapFields(type.shape, (field) => withCanonicalDefault(field, shapes)) })),
  };
}

/**
 * A cycle of names that only stand for each other (`A = B | null`, `B = A`): no value
 * could ever be built, and TypeScript refuses such aliases. A cycle through an object or
 * an array is a recursive type, and fine. The cycle named is the one through the first
 * type that is on one, found in time linear in the types (a schema may have 100,000).
 */
function aliasCycle(types: readonly NamedType[]): string[] | undefined {
  const shapes = new Map(types.map((type) => [type.name, type.shape]));
  const position = new Map(types.map((type, i) => [type.name, i]));
  const aliased = (shape: Shape): string[] => {
    switch (shape.kind) {
      case "ref":
        return shapes.get(shape.name)?.kind === "object" ? [] : [shape.name];
      case "nullable":
        return aliased(shape.shape);
      case "union":
        return shape.members.flatMap(aliased);
      default:
        return [];
    }
  };
  const successors = types.map((type) => aliased(type.shape).flatMap((name) => position.get(name) ?? []));
  const onCycle = new Uint8Array(types.length);
  for (const component of stronglyConnected(types.length, (node) => successors[node]!))
    if (component.length > 1 || successors[component[0]!]!.includes(component[0]!)) for (const node of component) onCycle[node] = 1;
  const start = onCycle.indexOf(1);
  if (start === -1) return undefined;
  // The shortest way back to the start, breadth first: every step stays on the cycle's component.
  const cameFrom = new Map<number, number>();
  const queue = [start];
  for (let at = 0; at < queue.length && !cameFrom.has(start); at++)
    for (const next of successors[queue[at]!]!)
      if (onCycle[next] === 1 && !cameFrom.has(next)) {
        cameFrom.set(next, queue[at]!);
        queue.push(next);
      }
  const cycle = [start];
  for (let node = cameFrom.get(start)!; node !== start; node = cameFrom.get(node)!) cycle.push(node);
  return [...cycle, start].reverse().map((node) => types[node]!.name);
}

/**
 * A default written in a wire form (an enum's number, an integer's digits) documents the
 * canonical value it decodes to: `default: 0` on a proto enum is its zero value's name.
 */
function withCanonicalDefault(field: Field, shapes: ReadonlyMap<string, Shape>): Field {
  const value = field.doc.default;
  if (value === undefined) return field;
  const canonical = canonicalValue(value, field.shape, shapes);
  return canonical === value ? field : { ...field, doc: { ...field.doc, default: canonical } };
}

function canonicalValue(value: JsonValue, shape: Shape, shapes: ReadonlyMap<string, Shape>): JsonValue {
  const target = shape.kind === "ref" ? shapes.get(shape.name) : shape;
  if (target?.kind === "enum" && typeof value === "number" && target.wire?.numbers !== undefined)
    return Object.entries(target.wire.numbers).find(([, number]) => number === value)?.[0] ?? value;
  if (target?.kind === "number" && typeof value === "string" && target.wire !== undefined && /^-?\d+$/.test(value)) return Number(value);
  return value;
}
