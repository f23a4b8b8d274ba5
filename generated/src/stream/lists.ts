// The indexes the assembler keeps of the lists it builds: their elements by a field's
// value, and across the lists their elements hold. Copied from templates/stream/lists.ts
// by agentwire.

import { isObject } from "./patch.js";
import type { Across, Json } from "./steps.js";

/**
 * For the elements of a list and an {@link Across} path, which of them hold, in their list
 * at the path's properties, an element whose field has a value: per value, in the order
 * of the list. Built when first asked, for the list as it is then (a cost in proportion
 * to it, once per list: a MESSAGES_SNAPSHOT makes a new one), and kept exact as the
 * assembler adds elements to either list or makes an element's list (`hold`, `pushOnto`,
 * `placed`); forgotten where a step may change it otherwise (Step.disturbs), or where the
 * list an element holds is replaced.
 */
interface AcrossIndex {
  /** The outer list. */
  readonly list: unknown[];
  readonly across: Across;
  /** Per value of the field, the element that holds one, or those that do, in order. */
  readonly holders: Map<unknown, Held | Held[]>;
  /** Set when forgotten: what still refers to it leaves it alone. */
  forgotten: boolean;
}

/** An element of an outer list, as an {@link AcrossIndex} knows it. */
interface Held {
  readonly index: AcrossIndex;
  readonly element: Json;
  /** Its place in the outer list, which the assembler only adds to. */
  readonly position: number;
  /** The list it holds, once it holds one. */
  list: unknown[] | undefined;
}

/** What indexes a list, each made when first needed. */
export interface IndexesOfList {
  /** Per field, its elements by the field's value: the first of each. */
  byField: Map<string, Map<unknown, Json>> | undefined;
  /** The across indexes of it, by their paths' ids. */
  across: Map<string, AcrossIndex> | undefined;
  /** The elements of across indexes that hold it. */
  heldBy: Held[] | undefined;
}

/**
 * The indexes of an assembler's lists, made when first asked and kept exact as the
 * assembler adds to the lists; a new one where a step may have changed them otherwise.
 */
export class ListIndexes {
  /**
   * Per list, its indexes: per field, its elements by that field's value, built when
   * first asked and kept as elements are added; and the across indexes of it and into it.
   */
  private readonly lists = new WeakMap<unknown[], IndexesOfList>();
  /**
   * Per object that is to hold the list of an element an across index knows, at its
   * last property: where a list made there goes.
   */
  private readonly holders = new WeakMap<object, Held[]>();

  /** The indexes of a list, none made yet where it has none. */
  of(list: unknown[]): IndexesOfList {
    let indexes = this.lists.get(list);
    if (indexes === undefined)
      this.lists.set(
        list,
        (indexes = {
          byField: undefined,
          across: undefined,
          heldBy: undefined,
        }),
      );
    return indexes;
  }

  /** The across index of a list, made as the list is now where there is none. */
  across(list: unknown[], across: Across): AcrossIndex {
    const indexes = this.of(list);
    const byId = (indexes.across ??= new Map());
    let index = byId.get(across.id);
    if (index === undefined) {
      index = { list, across, holders: new Map(), forgotten: false };
      byId.set(across.id, index);
      for (let position = 0; position < list.length; position++)
        this.hold(index, list[position], position);
    }
    return index;
  }

  /**
   * An element of an across index's list, at its position, known to it: the elements of
   * the list it holds filed under their field's values, and the object that holds (or is
   * to hold) that list watched, so that a list made or set there is known too.
   */
  private hold(index: AcrossIndex, element: unknown, position: number): void {
    if (!isObject(element)) return;
    const { properties } = index.across;
    let at: unknown = element;
    for (let k = 0; k < properties.length - 1; k++) {
      at = isObject(at) ? at[properties[k]!] : undefined;
      if (at === undefined || at === null) return;
    }
    if (!isObject(at)) return;
    const held: Held = { index, element, position, list: undefined };
    const watching = this.holders.get(at);
    if (watching === undefined) this.holders.set(at, [held]);
    else this.holders.set(at, [...alive(watching), held]);
    this.heldList(held, at[properties.at(-1)!]);
  }

  /** The list an element holds, known to its index: its elements filed under their field's values. */
  private heldList(held: Held, list: unknown): void {
    if (!Array.isArray(list)) return;
    held.list = list;
    const indexes = this.of(list);
    indexes.heldBy =
      indexes.heldBy === undefined ? [held] : [...alive(indexes.heldBy), held];
    for (const item of list) file(held, item);
  }

  /** Adds an element at the end of a list, and to the indexes of the list. */
  pushOnto(list: unknown[], element: unknown): void {
    list.push(element);
    const indexes = this.lists.get(list);
    if (indexes === undefined) return;
    if (indexes.byField !== undefined && isObject(element))
      for (const [field, index] of indexes.byField)
        if (!index.has(element[field])) index.set(element[field], element);
    if (indexes.across !== undefined)
      for (const index of indexes.across.values())
        this.hold(index, element, list.length - 1);
    if (indexes.heldBy !== undefined)
      for (const held of indexes.heldBy)
        if (!held.index.forgotten) file(held, element);
  }

  /**
   * Tells the across indexes that an object's property now holds a value: where the
   * object holds the list of an element they know, and had none, the value is that list;
   * where it replaces the list, the index is forgotten.
   */
  placed(object: object, property: string, value: unknown): void {
    const watching = this.holders.get(object);
    if (watching === undefined) return;
    for (const held of watching) {
      const { index } = held;
      if (index.forgotten || index.across.properties.at(-1) !== property)
        continue;
      if (held.list === undefined) this.heldList(held, value);
      else if (held.list !== value) this.forget(index);
    }
  }

  /** Forgets an across index: made again, from its list as it is then, when next asked. */
  private forget(index: AcrossIndex): void {
    index.forgotten = true;
    const byId = this.lists.get(index.list)?.across;
    if (byId?.get(index.across.id) === index) byId.delete(index.across.id);
  }
}

/** Files an element of the list `held` holds under its field's value, keeping the order of the outer list. */
function file(held: Held, item: unknown): void {
  if (!isObject(item)) return;
  const { holders } = held.index;
  const value = item[held.index.across.field];
  const there = holders.get(value);
  if (there === undefined) holders.set(value, held);
  else if (!Array.isArray(there)) {
    if (there !== held)
      holders.set(
        value,
        there.position < held.position ? [there, held] : [held, there],
      );
  } else {
    // Mostly after the last: elements are added at the end of the outer list.
    let low = there.at(-1)!.position < held.position ? there.length : 0;
    let high = there.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (there[middle]!.position < held.position) low = middle + 1;
      else high = middle;
    }
    if (there[low] !== held) there.splice(low, 0, held);
  }
}

/** The elements of indexes not forgotten: what a forgotten one left is dropped as another comes. */
function alive(held: readonly Held[]): Held[] {
  return held.filter((each) => !each.index.forgotten);
}
