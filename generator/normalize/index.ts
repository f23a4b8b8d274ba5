import type { Field, Ir, NamedType, Shape } from "../ir/model.js";
import { nestingDepths, onCycles, typeGraph } from "../ir/graph.js";
import { NESTING_LIMIT } from "../limits.js";
import { mapFields } from "../ir/walk.js";
import type { JsonValue } from "../json.js";
import { isJsonObject } from "../json.js";
import type { ResolvedSchema } from "../resolve/index.js";
import { appendPointer, localRefPointer, unescapeToken } from "../pointer.js";
import { docOf } from "./docs.js";
import { chainText, Context } from "./context.js";
import { readSchema } from "./schema.js";

/** The IR of an effective schema: one named type per `$defs` entry, in order. */
export function normalize(effective: ResolvedSchema): Ir {
  const context = Context.of(
    effective.schema,
    effective.provenance,
    readSchema,
    effective.protocol.config.compatibleWith,
    effective.protocol.config.formats,
  );
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
  const tooDeep = tooDeeplyNested(types);
  if (tooDeep !== undefined)
    context.fail(
      appendPointer("/$defs", tooDeep[0]!),
      `"${tooDeep[0]}" nests more than ${NESTING_LIMIT} deep` +
        (tooDeep.length > 1 ? `, counting the definitions it is another name for (${chainText(tooDeep)})` : ""),
      tooDeep.length > 1
        ? "agentwire generates types nested at most that deep: make some of the definitions in the chain objects or arrays of the next"
        : "agentwire generates types nested at most that deep, and allOf copies what it composes into the type: move nested schemas into $defs and $ref them",
    );
  const rootRef = effective.schema["$ref"];
  const root = /^\/\$defs\/([^/]+)$/.exec(localRefPointer(rootRef) ?? "")?.[1];
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
  const aliased = (shape: Shape): string[] => {
    switch (shape.kind) {
      case "ref":
        return shapes.get(shape.name)?.kind === "object" ? [] : [shape.name];
      case "nullable":
      case "constrained":
        return aliased(shape.shape);
      case "union":
        return shape.members.flatMap(aliased);
      default:
        return [];
    }
  };
  const successors = typeGraph(types, (type) => aliased(type.shape));
  const onCycle = onCycles(successors);
  const start = onCycle.indexOf(true);
  if (start === -1) return undefined;
  // The shortest way back to the start, breadth first: every step stays on the cycle's component.
  const cameFrom = new Map<number, number>();
  const queue = [start];
  for (let at = 0; at < queue.length && !cameFrom.has(start); at++)
    for (const next of successors[queue[at]!]!)
      if (onCycle[next] && !cameFrom.has(next)) {
        cameFrom.set(next, queue[at]!);
        queue.push(next);
      }
  const cycle = [start];
  for (let node = cameFrom.get(start)!; node !== start; node = cameFrom.get(node)!) cycle.push(node);
  return [...cycle, start].reverse().map((node) => types[node]!.name);
}

/**
 * The first type that nests deeper than `NESTING_LIMIT` as the emitters walk it (its
 * shapes inside each other, through the definitions that are other names for others),
 * and the chain of those definitions: a schema may nest within the limit in each
 * definition, and a composition (`allOf` of a type already read) or a chain of aliases
 * still nest the type past it.
 */
function tooDeeplyNested(types: readonly NamedType[]): string[] | undefined {
  const depths = nestingDepths({ protocol: "", types });
  const first = types.find((type) => depths.get(type.name)!.depth > NESTING_LIMIT);
  if (first === undefined) return undefined;
  const chain = [first.name];
  for (let through = depths.get(first.name)!.through; through !== undefined; through = depths.get(through)!.through) chain.push(through);
  return chain;
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
