import { recursiveTypes } from "./graph.js";
import type { Field, NamedType, Shape } from "./model.js";
import { childShapes } from "./walk.js";

/**
 * Shapes by what they accept: two shapes get one id when they are the same but for what
 * only people read (docs, the pointers of their fields, an enum's descriptions, a field's
 * stamp), so that code checking or reading one serves the other. Ids are interned bottom
 * up, a shape's key holding its parts' ids, so a tree costs its size and not its size
 * times its depth. One table per protocol (`ProtocolShapes`): ids are not comparable across tables.
 */
export class ShapeIds {
  private readonly known = new WeakMap<object, number>();
  private readonly interned = new Map<string, number>();

  id(shape: Shape): number {
    return this.intern(shape);
  }

  /**
   * The ids met more than once in the shapes, where a part met again is not walked again:
   * its code is written once, so what it holds is not met twice through it.
   */
  repeated(shapes: Iterable<Shape>): Set<number> {
    const seen = new Set<number>();
    const repeated = new Set<number>();
    const stack = [...shapes].reverse();
    while (stack.length > 0) {
      const shape = stack.pop()!;
      const id = this.id(shape);
      if (seen.has(id)) {
        repeated.add(id);
        continue;
      }
      seen.add(id);
      stack.push(...childShapes(shape).reverse());
    }
    return repeated;
  }

  private intern(value: object): number {
    const known = this.known.get(value);
    if (known !== undefined) return known;
    const key = this.key(value);
    let id = this.interned.get(key);
    if (id === undefined) {
      id = this.interned.size;
      this.interned.set(key, id);
    }
    this.known.set(value, id);
    return id;
  }

  /** The object's members, each part written as its id: `#n`, unquoted, so it equals no JSON text. */
  private key(value: object): string {
    if (Array.isArray(value)) return `[${value.map((each) => this.part(each)).join(",")}]`;
    const kind = (value as { kind?: unknown }).kind;
    const skipped = isField(value) ? FIELD_ANNOTATIONS : kind === "enum" ? ENUM_ANNOTATIONS : NONE;
    const members: string[] = [];
    for (const [name, member] of Object.entries(value)) {
      if (skipped.has(name)) continue;
      // A literal's value is data, not IR: written whole.
      members.push(`${JSON.stringify(name)}:${kind === "literal" && name === "value" ? JSON.stringify(member) : this.part(member)}`);
    }
    return `{${members.join(",")}}`;
  }

  private part(value: unknown): string {
    return value !== null && typeof value === "object" ? `#${this.intern(value)}` : JSON.stringify(value);
  }
}

const NONE: ReadonlySet<string> = new Set();
const FIELD_ANNOTATIONS: ReadonlySet<string> = new Set(["doc", "pointer", "stamp"]);
const ENUM_ANNOTATIONS: ReadonlySet<string> = new Set(["descriptions"]);

/** A field, told from a record of the IR's data (an enum's wire numbers) by its shape and required flag. */
function isField(value: object): value is Field {
  const field = value as Partial<Field>;
  return typeof field.name === "string" && typeof field.required === "boolean" && typeof field.shape === "object";
}

/**
 * What the emitters of one protocol share of its shapes, settled once for all of them:
 * the named types' shapes by name, the types that contain themselves, the shapes' ids, the
 * ones met in more than one place over every named type, and the named type a shape is
 * the shape of.
 */
export class ProtocolShapes {
  readonly byName: ReadonlyMap<string, Shape>;
  readonly recursive: ReadonlySet<string>;
  readonly ids = new ShapeIds();
  readonly repeated: ReadonlySet<number>;
  private readonly named = new Map<number, string>();

  constructor(types: readonly NamedType[]) {
    this.byName = new Map(types.map((type) => [type.name, type.shape]));
    this.recursive = recursiveTypes({ types });
    this.repeated = this.ids.repeated(types.map((type) => type.shape));
    for (const { name, shape } of types) if (!this.named.has(this.ids.id(shape))) this.named.set(this.ids.id(shape), name);
  }

  /** The first named type whose shape accepts what this one does, if any. */
  namedTypeOf(shape: Shape): string | undefined {
    return this.named.get(this.ids.id(shape));
  }
}
