import type { Expression, Name, Type } from "../code/tree.js";
import { arrayLiteral, call, constant, literal } from "../code/build.js";
import type { JsonPrimitive } from "../json.js";
import type { GeneratedFile } from "./file.js";
import { RUNTIME } from "./templates.js";

/**
 * The most members a tagged union dispatches on with a `switch`. V8 runs a `switch` on
 * strings as a chain of comparisons, so its last case costs one per case before it (at
 * 1,000 members, 150× the first: bench/dispatch.bench.js); a longer union looks its tag
 * up in a table, one `Map` from tag to the member's function, whatever the member. The
 * table costs about what the switch's 30th to 60th case does (a match helper's table,
 * which reads the handler by its key, the most), so the switch stays up to 32.
 */
export const SWITCH_MEMBERS = 32;

/** Whether a union of this many members is dispatched by a table rather than a switch. */
export function dispatchesByTable(members: number): boolean {
  return members > SWITCH_MEMBERS;
}

/**
 * The module-level table from each tag to what it dispatches to, `ReadonlyMap<unknown, T>`
 * (a tag of another type is not found, as no `case` matches it), made once per key by the
 * runtime's `tableOf`.
 */
export function tagTable(
  f: GeneratedFile,
  key: string,
  preferredName: string,
  entries: readonly (readonly [JsonPrimitive, Expression])[],
  valueType: Type,
): Name {
  const entriesOf = entries.map(([tag, to]) => arrayLiteral([literal(tag), to]));
  return f.constant(`tags:${key}`, preferredName, (name) => constant(name, call(f.import("tableOf", RUNTIME), entriesOf, [valueType])));
}
