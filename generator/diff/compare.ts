import type {
  ArrayShape,
  Constraint,
  Doc,
  Field,
  Ir,
  KeyedUnionShape,
  MapShape,
  NamedType,
  ObjectShape,
  PatternProperty,
  RefShape,
  Shape,
  TaggedUnionShape,
  UnionShape,
} from "../ir/model.js";
import type { JsonValue } from "../json.js";
import { jsonEqual } from "../json.js";
import { appendPointer } from "../pointer.js";
import type { Change, ChangeKind } from "../ir/changes.js";
import { classified } from "../ir/changes.js";
import { describe, describeValues } from "../ir/describe.js";
import { patternsMatching } from "../ir/members.js";
import type { KeywordChange } from "../keywords/index.js";
import { arrayChanges } from "../keywords/arrays.js";
import { formatChanges } from "../keywords/format.js";
import { numberChanges } from "../keywords/numbers.js";
import { propertyChanges } from "../keywords/properties.js";
import { stringChanges } from "../keywords/strings.js";
import { isValuesShape, valueChanges, valuesOf } from "../keywords/values.js";
import type { ShapeLookup } from "../normalize/intersect.js";
import { satisfies } from "../normalize/intersect.js";

/**
 * The changes from one version of a protocol's IR to the next. Named types are matched by
 * name and compared once, at their definition; a ref to the same name is no change where
 * it is used. Everything is compared as values: what a version accepts, what its generated
 * API names, what its documentation says.
 */
export function compareIr(before: Ir, after: Ir): Change[] {
  return new Comparison(before, after).run();
}

/** Where a shape is: its pointer in the effective schema, and a name for people. */
interface Place {
  readonly pointer: string;
  readonly subject: string;
}

class Comparison {
  private readonly changes: Change[] = [];
  /**
   * Where each change is in `changes`, by kind, pointer and words: a change inside a named
   * type that several places merge into their own shapes (an `allOf` of it) is found at
   * each, and said once, of the nearest place (the shortest subject: `discussion.category`
   * rather than `discussion$created.discussion.category`).
   */
  private readonly reported = new Map<string, number>();
  /** The pairs of references being compared through, "before→after" by name. */
  private readonly following = new Set<string>();

  constructor(
    private readonly before: Ir,
    private readonly after: Ir,
  ) {}

  run(): Change[] {
    const { before, after } = this;
    if (before.root !== after.root)
      this.add(
        "root-changed",
        { pointer: "", subject: after.protocol },
        `a document is ${after.root ?? "no one type"}, was ${before.root ?? "no one type"}`,
      );
    const older = new Map(before.types.map((type) => [type.name, type]));
    const newer = new Map(after.types.map((type) => [type.name, type]));
    for (const type of before.types)
      if (!newer.has(type.name)) this.add("type-removed", { pointer: type.pointer, subject: type.name }, "removed");
    for (const type of after.types) {
      const old = older.get(type.name);
      if (old === undefined) this.add("type-added", { pointer: type.pointer, subject: type.name }, "added");
      else this.type(old, type);
    }
    return this.changes;
  }

  private add(kind: ChangeKind, place: Place, what: string): void {
    const change = classified(kind, place.pointer, `${place.subject}: ${what}`);
    const key = JSON.stringify([kind, place.pointer, what]);
    const found = this.reported.get(key);
    if (found === undefined) this.reported.set(key, this.changes.push(change) - 1);
    else if (change.message.length < this.changes[found]!.message.length) this.changes[found] = change;
  }

  /** Adds the changes a keyword module found, where they are. */
  private addAll(changes: readonly KeywordChange[], place: Place): void {
    for (const change of changes) this.add(change.kind, place, change.what);
  }

  private type(before: NamedType, after: NamedType): void {
    const place = { pointer: after.pointer, subject: after.name };
    this.docs(before.doc, after.doc, place);
    this.shape(before.shape, after.shape, place);
  }

  private docs(before: Doc, after: Doc, place: Place): void {
    if ((before.description ?? "") !== (after.description ?? "")) this.add("description-changed", place, "its description changed");
    if (before.deprecated !== after.deprecated)
      this.add(
        after.deprecated ? "deprecated-added" : "deprecated-removed",
        place,
        after.deprecated ? "deprecated" : "no longer deprecated",
      );
    if (before.default === undefined && after.default !== undefined) this.add("default-added", place, `defaults to ${show(after.default)}`);
    else if (before.default !== undefined && after.default === undefined)
      this.add("default-removed", place, `no longer defaults to ${show(before.default)}`);
    else if (before.default !== undefined && after.default !== undefined && !jsonEqual(before.default, after.default))
      this.add("default-changed", place, `defaults to ${show(after.default)}, was ${show(before.default)}`);
  }

  private shape(before: Shape, after: Shape, place: Place): void {
    if (before.kind === "nullable" && after.kind !== "nullable") {
      this.add("nullable-removed", place, "can no longer be null");
      return this.shape(before.shape, after, place);
    }
    if (after.kind === "nullable" && before.kind !== "nullable") {
      this.add("nullable-added", place, "can now be null");
      return this.shape(before, after.shape, place);
    }
    if (before.kind === "nullable" && after.kind === "nullable") return this.shape(before.shape, after.shape, place);
    if (before.kind === "constrained" || after.kind === "constrained") return this.constrained(before, after, place);
    if (sameShape(before, after)) return;
    // One type becoming a union that holds it, or the reverse, widens or narrows, a named type as much as any.
    if (alternativesOf(after).some((member) => sameShape(member, before)))
      return this.add("type-widened", place, `is ${describe(after)}, was ${describe(before)}`);
    if (alternativesOf(before).some((member) => sameShape(member, after)))
      return this.add("type-narrowed", place, `is ${describe(after)}, was ${describe(before)}`);
    if (before.kind === "ref" || after.kind === "ref") return this.throughRefs(before, after, place);
    if (before.kind === "unknown") return this.add("type-narrowed", place, `is ${describe(after)}, was any value`);
    if (after.kind === "unknown") return this.add("type-widened", place, `is any value, was ${describe(before)}`);
    const valuesBefore = valuesOf(before);
    const valuesAfter = valuesOf(after);
    if (isValuesShape(before) && isValuesShape(after)) return this.addAll(valueChanges(before, after), place);
    if (valuesBefore !== undefined && this.admitsAll(after, valuesBefore, this.after))
      return this.add("type-widened", place, `is ${describe(after)}, was ${describe(before)}`);
    if (valuesAfter !== undefined && this.admitsAll(before, valuesAfter, this.before))
      return this.add("type-narrowed", place, `is ${describe(after)}, was ${describe(before)}`);
    // A map is an object of other properties alone; one that gains patterns or names is read as an object.
    if (before.kind === "map" && after.kind === "object") return this.object(mapAsObject(before), after, place);
    if (before.kind === "object" && after.kind === "map") return this.object(before, mapAsObject(after), place);
    if (before.kind === "union" && after.kind === "tagged-union") return this.tagging(before, after, place, "union-tagged");
    if (before.kind === "tagged-union" && after.kind === "union") return this.tagging(after, before, place, "union-untagged");
    if (before.kind !== after.kind) return this.add("kind-changed", place, `is ${describe(after)}, was ${describe(before)}`);
    switch (before.kind) {
      case "string": {
        const next = after as typeof before;
        return this.addAll([...stringChanges(before, next), ...formatChanges(before.format, next.format)], place);
      }
      case "number":
        return this.number(before, after as typeof before, place);
      case "array":
        return this.array(before, after as ArrayShape, place);
      case "map": {
        const next = after as typeof before;
        this.addAll(propertyChanges(before, next), place);
        return this.shape(before.values, next.values, {
          pointer: appendPointer(place.pointer, "additionalProperties"),
          subject: `${place.subject}{}`,
        });
      }
      case "object":
        return this.object(before, after as ObjectShape, place);
      case "keyed-union":
        return this.keyed(before, after as KeyedUnionShape, place);
      case "tagged-union":
        return this.tagged(before, after as TaggedUnionShape, place);
      case "union":
        return this.union(before, after as UnionShape, place);
      default:
        return;
    }
  }

  /** Constraints (`not`, `if`) added or removed, then the shapes they constrain. */
  private constrained(before: Shape, after: Shape, place: Place): void {
    const [was, is] = [before, after].map((shape) => (shape.kind === "constrained" ? shape.constraints : []));
    const words = {
      not: "a not",
      if: "an if/then/else",
      also: "another schema's",
      properties: "an unevaluatedProperties",
      items: "an unevaluatedItems",
    } as const;
    const word = (constraint: Constraint) => words[constraint.kind === "unevaluated" ? constraint.of : constraint.kind];
    for (const constraint of is!.filter((each) => !was!.some((other) => jsonEqual(each as never, other as never))))
      this.add("constraint-tightened", place, `must meet ${word(constraint)} constraint it did not`);
    for (const constraint of was!.filter((each) => !is!.some((other) => jsonEqual(each as never, other as never))))
      this.add("constraint-loosened", place, `no longer must meet ${word(constraint)} constraint`);
    const unconstrained = (shape: Shape) => (shape.kind === "constrained" ? shape.shape : shape);
    this.shape(unconstrained(before), unconstrained(after), place);
  }

  /** Whether every one of the values is valid for the shape of a version (a string for a string type…). */
  private admitsAll(shape: Shape, values: readonly JsonValue[], version: Ir): boolean {
    const lookup: ShapeLookup = {
      shapeOf: (name) => version.types.find((type) => type.name === name)!.shape,
      isExpanding: () => false,
      unsupported: (problem) => {
        throw new Error(problem);
      },
    };
    return values.every((value) => satisfies(value, shape, lookup));
  }

  /**
   * A reference on either side, to another name or none: what counts is the shape behind
   * it. Naming a schema, inlining one or referring to another name is a refactoring,
   * reported and breaking no one; what the values gain or lose is then compared shape to
   * shape, at the innermost place it changed. A pair of named types already being
   * compared at this place (a recursive type) is not entered again.
   */
  private throughRefs(before: Shape, after: Shape, place: Place): void {
    const key = `${before.kind === "ref" ? before.name : ""}→${after.kind === "ref" ? after.name : ""}`;
    if (this.following.has(key)) return;
    const expanded = (shape: Shape, ir: Ir) => (shape.kind === "ref" ? ir.types.find((type) => type.name === shape.name)?.shape : shape);
    const [was, is] = [expanded(before, this.before), expanded(after, this.after)];
    if (was === undefined || is === undefined) return this.add("kind-changed", place, `is ${describe(after)}, was ${describe(before)}`);
    const same = sameValues(was, is) ? ", with the same values" : "";
    if (before.kind !== "ref") this.add("type-extracted", place, `is the named type ${(after as RefShape).name}${same}`);
    else if (after.kind !== "ref") this.add("type-inlined", place, `is written in place, was the named type ${before.name}${same}`);
    else this.add("ref-changed", place, `is ${after.name}, was ${before.name}${same}`);
    if (same !== "") return;
    this.following.add(key);
    this.shape(was, is, place);
    this.following.delete(key);
  }

  private number(before: Shape & { kind: "number" }, after: Shape & { kind: "number" }, place: Place): void {
    this.addAll(numberChanges(before, after), place);
    if ((before.wire === undefined) !== (after.wire === undefined))
      this.add(
        after.wire ? "wire-form-added" : "wire-form-removed",
        place,
        after.wire ? "may now arrive as a string of digits" : "may no longer arrive as a string of digits",
      );
    this.addAll(formatChanges(before.format, after.format), place);
  }

  /**
   * Arrays position by position, a position of one that the other's rest covers compared
   * with that rest (a tuple gaining a position narrows what its rest allowed there), then
   * the rests and the keywords. A tuple's parts are located at the array, since the
   * keywords that hold them depend on the dialect (`prefixItems`, or `items` before 2020-12).
   */
  private array(before: ArrayShape, after: ArrayShape, place: Place): void {
    this.addAll(arrayChanges(before, after), place);
    const length = Math.max(before.prefixItems?.length ?? 0, after.prefixItems?.length ?? 0);
    const at = (shape: ArrayShape, i: number) => shape.prefixItems?.[i] ?? shape.items;
    for (let i = 0; i < length; i++) this.items(at(before, i), at(after, i), { pointer: place.pointer, subject: `${place.subject}[${i}]` });
    const rest = length === 0 ? appendPointer(place.pointer, "items") : place.pointer;
    this.items(before.items, after.items, { pointer: rest, subject: `${place.subject}[]` });
  }

  /** Items of a shape: `never` there is no item at all, which a shape widens and which narrows a shape. */
  private items(before: Shape, after: Shape, place: Place): void {
    if (before.kind === "never" && after.kind !== "never") this.add("type-widened", place, `may be ${describe(after)}, was no item`);
    else if (before.kind !== "never" && after.kind === "never")
      this.add("type-narrowed", place, `may no longer be there, was ${describe(before)}`);
    else this.shape(before, after, place);
  }

  private object(before: ObjectShape, after: ObjectShape, place: Place): void {
    this.fields(before, after, place);
    this.patterns(before, after, place);
    this.additional(before.additional, after.additional, place);
    this.names(before.names, after.names, place);
    this.addAll(propertyChanges(before, after), place);
  }

  /**
   * Pattern properties by pattern. A new pattern constrains the properties it matches
   * where the others were open, and admits them where the object was closed; a pattern
   * dropped does the reverse; a kept pattern's shape is compared as a field's is.
   */
  private patterns(before: ObjectShape, after: ObjectShape, place: Place): void {
    const [was, is] = [before.patterns ?? [], after.patterns ?? []];
    for (const pattern of is)
      if (!was.some((each) => each.pattern === pattern.pattern))
        this.add(
          after.additional.kind === "never" ? "constraint-loosened" : "constraint-tightened",
          place,
          after.additional.kind === "never"
            ? `accepts properties matching /${pattern.pattern}/`
            : `properties matching /${pattern.pattern}/ must be ${describe(pattern.shape)}`,
        );
    for (const pattern of was) {
      const kept = is.find((each) => each.pattern === pattern.pattern);
      if (kept !== undefined)
        this.shape(pattern.shape, kept.shape, {
          pointer: appendPointer(place.pointer, "patternProperties", pattern.pattern),
          subject: `${place.subject}{/${pattern.pattern}/}`,
        });
      else
        this.add(
          before.additional.kind === "never" ? "constraint-tightened" : "constraint-loosened",
          place,
          before.additional.kind === "never"
            ? `no longer accepts properties matching /${pattern.pattern}/`
            : `properties matching /${pattern.pattern}/ need no longer be ${describe(pattern.shape)}`,
        );
    }
  }

  /** propertyNames added, dropped, or changed as a shape of strings. */
  private names(before: Shape | undefined, after: Shape | undefined, place: Place): void {
    if (before === undefined && after === undefined) return;
    if (before === undefined) return this.add("constraint-tightened", place, "its property names are constrained (propertyNames)");
    if (after === undefined) return this.add("constraint-loosened", place, "its property names are no longer constrained");
    this.shape(before, after, { pointer: appendPointer(place.pointer, "propertyNames"), subject: `${place.subject} property names` });
  }

  private additional(before: Shape, after: Shape, place: Place): void {
    if (before.kind === "never" && after.kind !== "never") this.add("object-opened", place, "accepts properties it does not declare");
    else if (before.kind !== "never" && after.kind === "never")
      this.add("object-closed", place, "no longer accepts properties it does not declare");
    else if (before.kind !== "never")
      this.shape(before, after, { pointer: appendPointer(place.pointer, "additionalProperties"), subject: `${place.subject}{}` });
  }

  /**
   * Fields by name. A field added or removed is classified by how the other version reads
   * a property of its name that it does not declare: refused (closed), read as other
   * properties it is (open), or read as ones it need not be (unlike other properties). An
   * added field matters so to older receivers; a removed one to older producers, whose
   * values still carry it, and a removed required one to older receivers too.
   */
  private fields(before: Fields, after: Fields, place: Place): void {
    const older = new Map(before.fields.map((field) => [field.name, field]));
    const newer = new Set(after.fields.map((field) => field.name));
    for (const field of before.fields)
      if (!newer.has(field.name)) {
        const open = undeclared(after, field) === "open" ? "open" : "closed";
        this.add(
          field.required ? `required-field-removed-from-${open}-object` : `field-removed-from-${open}-object`,
          { pointer: field.pointer, subject: place.subject },
          `${field.required ? "required " : ""}field "${field.name}" removed`,
        );
      }
    for (const field of after.fields) {
      const at = { pointer: field.pointer, subject: `${place.subject}.${field.name}` };
      const old = older.get(field.name);
      if (old === undefined) {
        const required = field.required ? "required" : "optional";
        const reading = undeclared(before, field);
        this.add(
          reading === "open"
            ? `field-added-${required}`
            : reading === "closed"
              ? `field-added-${required}-to-closed-object`
              : `field-added-${required}-unlike-other-properties`,
          { pointer: field.pointer, subject: place.subject },
          `${required} field "${field.name}" added`,
        );
        continue;
      }
      if (old.required !== field.required)
        this.add(field.required ? "field-became-required" : "field-became-optional", at, field.required ? "now required" : "now optional");
      const aliases = (f: Field) => f.aliases ?? [];
      const added = aliases(field).filter((alias) => !aliases(old).includes(alias));
      const removed = aliases(old).filter((alias) => !aliases(field).includes(alias));
      if (added.length > 0) this.add("wire-form-added", at, `may now arrive as ${describeValues(added)}`);
      if (removed.length > 0) this.add("wire-form-removed", at, `may no longer arrive as ${describeValues(removed)}`);
      if (!old.nullIsAbsent && field.nullIsAbsent) this.add("wire-form-added", at, "may now arrive as null, for absent");
      if (old.nullIsAbsent && !field.nullIsAbsent) this.add("wire-form-removed", at, "may no longer arrive as null, for absent");
      this.docs(old.doc, field.doc, at);
      this.shape(old.shape, field.shape, at);
    }
  }

  private keyed(before: KeyedUnionShape, after: KeyedUnionShape, place: Place): void {
    const older = new Map(before.members.map((member) => [member.name, member]));
    const newer = new Set(after.members.map((member) => member.name));
    for (const member of before.members)
      if (!newer.has(member.name))
        this.add("member-removed", { pointer: member.pointer, subject: place.subject }, `loses the member "${member.name}"`);
    for (const member of after.members) {
      const old = older.get(member.name);
      if (old === undefined)
        this.add("member-added", { pointer: member.pointer, subject: place.subject }, `gains the member "${member.name}"`);
      else {
        const at = { pointer: member.pointer, subject: `${place.subject}.${member.name}` };
        this.docs(old.doc, member.doc, at);
        this.shape(old.shape, member.shape, at);
      }
    }
    this.fields(before, after, place);
    this.additional(before.additional, after.additional, place);
  }

  private tagged(before: TaggedUnionShape, after: TaggedUnionShape, place: Place): void {
    if (before.tag !== after.tag)
      return this.add("tag-changed", place, `members are told apart by "${after.tag}", were by "${before.tag}"`);
    const name = (shape: TaggedUnionShape["members"][number]["shape"]) => (shape.kind === "ref" ? `${shape.name} ` : "");
    for (const member of before.members)
      if (!after.members.some((candidate) => candidate.value === member.value))
        this.add("member-removed", place, `loses the member ${name(member.shape)}(${before.tag} ${show(member.value)})`);
    for (const member of after.members) {
      const old = before.members.find((candidate) => candidate.value === member.value);
      if (old === undefined) this.add("member-added", place, `gains the member ${name(member.shape)}(${after.tag} ${show(member.value)})`);
      else
        this.shape(old.shape, member.shape, { pointer: place.pointer, subject: `${place.subject} (${after.tag} ${show(member.value)})` });
    }
  }

  /**
   * A union that gains a tag its members are told apart by, or loses it: its members are
   * compared as alternatives, and the tag is a change of its own (`match` helpers come or go).
   */
  private tagging(untagged: UnionShape, tagged: TaggedUnionShape, place: Place, kind: "union-tagged" | "union-untagged"): void {
    const asUnion: UnionShape = { kind: "union", members: tagged.members.map((member) => member.shape), exclusive: untagged.exclusive };
    if (kind === "union-tagged") {
      this.add(kind, place, `its members are told apart by "${tagged.tag}"`);
      this.union(untagged, asUnion, place);
    } else {
      this.add(kind, place, `its members are no longer told apart by "${tagged.tag}"`);
      this.union(asUnion, untagged, place);
    }
  }

  /** Alternatives without a tag: matched by what they are; a changed one is one removed and one added. */
  private union(before: UnionShape, after: UnionShape, place: Place): void {
    const contains = (members: readonly Shape[], shape: Shape) => members.some((member) => sameShape(member, shape));
    const removed = before.members.filter((member) => !contains(after.members, member));
    const added = after.members.filter((member) => !contains(before.members, member));
    // Each side reported on its own: what it is no longer, and what it may also be.
    if (removed.length > 0) this.add("type-narrowed", place, `is no longer ${removed.map(describe).join(" or ")}`);
    if (added.length > 0) this.add("type-widened", place, `may also be ${added.map(describe).join(" or ")}`);
    if (before.exclusive !== after.exclusive && added.length === 0 && removed.length === 0)
      this.add(
        after.exclusive ? "constraint-tightened" : "constraint-loosened",
        place,
        after.exclusive ? "must match exactly one alternative" : "may match several alternatives",
      );
  }
}

/** An object's fields and how it reads the properties it does not declare: an object's, or a keyed union's. */
interface Fields {
  readonly fields: readonly Field[];
  readonly patterns?: readonly PatternProperty[];
  readonly additional: Shape;
}

/**
 * How an object reads a property it does not declare, of a field's name and shape: it
 * refuses it (closed: no pattern matches and it has no other properties), or reads it as
 * what the patterns it matches, or else its other properties, hold: any value, or the
 * field's own (open), or something else, which the field's values need not be.
 */
function undeclared(object: Fields, field: Field): "closed" | "open" | "unlike" {
  const matching = patternsMatching(object.patterns, field.name);
  const readings = matching.length > 0 ? matching.map(({ shape }) => shape) : [object.additional];
  if (readings.some((shape) => shape.kind === "never")) return "closed";
  return readings.every((shape) => shape.kind === "unknown" || sameValues(shape, field.shape)) ? "open" : "unlike";
}

/** Whether two shapes accept the same values: the same but for docs and where they are. */
function sameValues(a: Shape, b: Shape): boolean {
  const bare = (shape: Shape) => JSON.stringify(shape, (key, value: unknown) => (key === "doc" || key === "pointer" ? undefined : value));
  return bare(a) === bare(b);
}

/** The alternatives a value of a union may be, or none for a shape that is no union. */
function alternativesOf(shape: Shape): readonly Shape[] {
  if (shape.kind === "union") return shape.members;
  if (shape.kind === "tagged-union") return shape.members.map((member) => member.shape);
  return [];
}

/** Whether two shapes are the same, docs and all: the IR is plain JSON data. */
function sameShape(a: Shape, b: Shape): boolean {
  return jsonEqual(a as unknown as JsonValue, b as unknown as JsonValue);
}

function show(value: unknown): string {
  return JSON.stringify(value);
}

/** A map as the object it is: no fields, its values the other properties. */
function mapAsObject(map: MapShape): ObjectShape {
  return {
    kind: "object",
    fields: [],
    additional: map.values,
    ...(map.minProperties === undefined ? {} : { minProperties: map.minProperties }),
    ...(map.maxProperties === undefined ? {} : { maxProperties: map.maxProperties }),
  };
}
