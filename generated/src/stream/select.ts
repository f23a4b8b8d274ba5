// Which events a rule or step names, and the values it reads of them: selectors,
// conditions and key paths, and their words in messages. Copied from
// templates/stream/select.ts by agentwire.

import { isRecord } from "../runtime.js";
import type {
  Condition,
  KeyPaths,
  KindMatch,
  Selector,
  SpanRule,
} from "./tables.js";

/** Whether an event of a kind is one a plan's match takes: always, never, or where its selectors say. */
export function matchesKind(
  match: KindMatch,
  event: unknown,
  kind: string,
): boolean {
  return typeof match === "boolean" ? match : matchesAny(match, event, kind);
}

/** Whether an event is one the selectors name. */
export function matchesAny(
  selectors: readonly Selector[],
  event: unknown,
  kind: string,
): boolean {
  for (const selector of selectors)
    if (matches(selector, event, kind)) return true;
  return false;
}

function matches(selector: Selector, event: unknown, kind: string): boolean {
  if (selector.event !== kind) return false;
  if (
    selector.where !== undefined &&
    !selector.where.every((condition) => holds(condition, event))
  )
    return false;
  if (
    selector.unless !== undefined &&
    selector.unless.some((condition) => holds(condition, event))
  )
    return false;
  return true;
}

function holds(condition: Condition, event: unknown): boolean {
  const value = valueAt(event, condition.path);
  return value !== undefined && condition.values.includes(value);
}

/** The value at a path of property names, or undefined where it leads nowhere. */
export function valueAt(value: unknown, path: readonly string[]): unknown {
  let at = value;
  for (const token of path) {
    if (!isRecord(at)) return undefined;
    const next = at[token];
    // One lookup, mostly: what a plain object inherits is a function or, as `__proto__`,
    // the prototype itself, and only then is it asked whose the value is.
    if (
      next === undefined ||
      ((typeof next === "function" || next === Object.prototype) &&
        !Object.hasOwn(at, token))
    )
      return undefined;
    at = next;
  }
  return at;
}

/** A path of a kind's key: its own, or the default; undefined where it has neither. */
export function keyPathOf(
  paths: KeyPaths,
  kind: string | undefined,
): readonly string[] | undefined {
  return kind === undefined ? paths["*"] : (paths[kind] ?? paths["*"]);
}

/** The key at a path, where it leads to a string or a number. */
export function keyAt(
  path: readonly string[] | undefined,
  event: unknown,
): string | undefined {
  if (path === undefined) return undefined;
  const key = valueAt(event, path);
  return typeof key === "string"
    ? key
    : typeof key === "number"
      ? String(key)
      : undefined;
}

/**
 * The keys at a path where `*` stands for every element of an array (a snapshot's
 * messages, each with its tool calls): each a string or a number, as keyAt takes one.
 */
export function keysAt(
  path: readonly string[] | undefined,
  event: unknown,
): string[] {
  if (path === undefined) return [];
  const many = path.indexOf("*");
  if (many === -1) {
    const key = keyAt(path, event);
    return key === undefined ? [] : [key];
  }
  const at = valueAt(event, path.slice(0, many));
  const rest = path.slice(many + 1);
  // Where no array is, "*" is the name of a property.
  return Array.isArray(at)
    ? at.flatMap((element) => keysAt(rest, element))
    : keysAt(rest, valueAt(at, ["*"]));
}

/** An event's key, where its kind's path (or the default) leads to a string or a number. */
export function keyOf(
  paths: KeyPaths,
  event: unknown,
  kind: string,
): string | undefined {
  return keyAt(keyPathOf(paths, kind), event);
}

/** Selectors in words: `RUN_STARTED`, `task (where status/state is "TASK_STATE_SUBMITTED")`, `A or B`. */
/**
 * An event as the selectors it fails would say it: its kind, and where one of them is of
 * that kind, the values found at the paths it asks about.
 */
export function found(
  selectors: readonly Selector[],
  event: unknown,
  kind: string,
): string {
  const paths = selectors
    .filter((selector) => selector.event === kind)
    .flatMap(({ where, unless }) => [...(where ?? []), ...(unless ?? [])])
    .map(({ path }) => path);
  const seen = new Set<string>();
  const values: string[] = [];
  for (const path of paths) {
    const named = path.join("/");
    if (seen.has(named)) continue;
    seen.add(named);
    const value = valueAt(event, path);
    const shown =
      value === undefined
        ? "absent"
        : typeof value === "object" && value !== null
          ? Array.isArray(value)
            ? "an array"
            : "an object"
          : JSON.stringify(value);
    values.push(`${named} is ${shown}`);
  }
  return withConditions(kind, values);
}

export function describe(selectors: readonly Selector[]): string {
  return selectors
    .map(({ event, where, unless }) => {
      const conditions = [
        ...(where ?? []).map(
          ({ path, values }) =>
            `${path.join("/")} is ${values.map((value) => JSON.stringify(value)).join(" or ")}`,
        ),
        ...(unless ?? []).map(
          ({ path, values }) =>
            `${path.join("/")} is not ${values.map((value) => JSON.stringify(value)).join(" or ")}`,
        ),
      ];
      return withConditions(event, conditions);
    })
    .join(" or ");
}

/** An event's kind, and what holds of it where anything is said: "task (where task/status/state is …)". */
function withConditions(kind: string, conditions: readonly string[]): string {
  return conditions.length === 0
    ? kind
    : `${kind} (where ${conditions.join(" and ")})`;
}

/** A span's instance in words: "text message \"m1\"", "the run", "step \"a\" of \"s1\"" (its owner's). */
export function instanceOf(rule: SpanRule, key: string): string {
  const named = (own: string) =>
    rule.key === undefined
      ? `the ${words(rule.name)}`
      : `${words(rule.name)} ${JSON.stringify(own)}`;
  if (rule.owner === undefined) return named(key);
  const [owner, own] = JSON.parse(key) as [string | null, string];
  return owner === null
    ? named(own)
    : `${named(own)} of ${JSON.stringify(owner)}`;
}

/** A rule's name in words: "tool-call" is "tool call". */
export function words(name: string): string {
  return name.replaceAll("-", " ");
}
