// The rules compiled, once per rule set: per event kind, the rules that can say anything
// of its events, in their order, each with what it asks of that kind resolved (which of
// its selectors can match, the path of the key), so that a push reads no rule it need
// not. Copied from templates/stream/plan.ts by agentwire.

import { keyPathOf, matchesAny } from "./select.js";
import type {
  ChunkRule,
  FirstRule,
  InsideRule,
  KeyPaths,
  OnlyFirstRule,
  RefersRule,
  Selector,
  SpanRule,
  StreamRule,
  TerminalRule,
} from "./tables.js";

/**
 * Whether an event of one kind is among those selectors name: always, never, or where
 * the conditions of these selectors (those of its kind) hold.
 */
type KindMatch = boolean | readonly Selector[];

function kindMatch(
  selectors: readonly Selector[],
  kind: string | undefined,
): KindMatch {
  const named = selectors.filter((selector) => selector.event === kind);
  if (named.length === 0) return false;
  return named.some(
    ({ where, unless }) => where === undefined && unless === undefined,
  )
    ? true
    : named;
}

export function matchesKind(
  match: KindMatch,
  event: unknown,
  kind: string,
): boolean {
  return typeof match === "boolean" ? match : matchesAny(match, event, kind);
}

export interface ChunkStep {
  readonly rule: ChunkRule;
  /** The span's place among the span rules. */
  readonly span: number;
  readonly events: KindMatch;
  readonly passThrough: KindMatch;
  readonly key: readonly string[] | undefined;
}

type Check =
  | { readonly kind: "first"; readonly rule: FirstRule }
  | {
      readonly kind: "only-first";
      readonly rule: OnlyFirstRule;
      readonly events: KindMatch;
    }
  | {
      readonly kind: "inside";
      readonly rule: InsideRule;
      readonly span: number;
      readonly except: KindMatch;
    };

export interface SpanStep {
  readonly kind: "span";
  readonly rule: SpanRule;
  readonly span: number;
  readonly opens: KindMatch;
  readonly continues: KindMatch;
  readonly closes: KindMatch;
  readonly aborts: KindMatch;
  readonly key: readonly string[] | undefined;
  readonly owner: readonly string[] | undefined;
  readonly attribution: readonly string[] | undefined;
}

export interface RefersStep {
  readonly kind: "refers";
  readonly rule: RefersRule;
  /** Its place among the refers rules. */
  readonly refers: number;
  readonly events: KindMatch;
  readonly to: KindMatch;
  readonly key: readonly string[] | undefined;
  readonly toKey: readonly string[] | undefined;
  /** Where an event of the kind shows every key there is. */
  readonly shownBy: readonly string[] | undefined;
}

/** What a push asks of an event of one kind, by phase. */
export interface Plan {
  /** Events of the kind are chunks of some rule. */
  readonly chunked: boolean;
  readonly chunks: readonly ChunkStep[];
  readonly checks: readonly Check[];
  readonly spans: readonly (SpanStep | RefersStep)[];
  readonly terminals: readonly {
    readonly rule: TerminalRule;
    readonly events: KindMatch;
  }[];
  /**
   * Where an event of the kind changes nothing (it only continues spans, and no selector
   * looks past its kind): the key paths its span steps read. An event that found all in
   * order finds the next of its kind with the same keys in order too; undefined where an
   * event of the kind may change what the next one finds.
   */
  readonly repeats: readonly (readonly string[])[] | undefined;
}

export interface Plans {
  readonly byKind: ReadonlyMap<string, Plan>;
  /** For a kind no rule names. */
  readonly unnamed: Plan;
}

/**
 * The plan of a kind (undefined: a kind no rule names): the rules that look at every
 * event (what comes first, what must come inside a span, a chunk's lane, which any other
 * event ends), and those that name the kind. A rule that does not name a kind lets its
 * events pass.
 */
function planOf(rules: readonly StreamRule[], kind: string | undefined): Plan {
  const spanRules = rules.filter((rule) => rule.kind === "span");
  const spanIndex = (name: string) =>
    spanRules.findIndex((rule) => rule.name === name);
  const refersRules = rules.filter((rule) => rule.kind === "refers");
  const names = (rule: StreamRule) =>
    selectorsOf(rule).some((selector) => selector.event === kind);
  const asked = rules.filter(
    (rule) =>
      rule.kind === "first" ||
      rule.kind === "inside" ||
      rule.kind === "chunk" ||
      names(rule),
  );
  const chunks: ChunkStep[] = [];
  const checks: Check[] = [];
  const spans: (SpanStep | RefersStep)[] = [];
  const terminals: Plan["terminals"][number][] = [];
  for (const rule of asked)
    switch (rule.kind) {
      case "chunk":
        chunks.push({
          rule,
          span: spanIndex(rule.span),
          events: kindMatch(rule.events, kind),
          passThrough: kindMatch(rule.passThrough, kind),
          key: keyPathOf(rule.key, kind),
        });
        break;
      case "first":
        checks.push({ kind: "first", rule });
        break;
      case "only-first":
        checks.push({
          kind: "only-first",
          rule,
          events: kindMatch(rule.events, kind),
        });
        break;
      case "inside":
        checks.push({
          kind: "inside",
          rule,
          span: spanIndex(rule.span),
          except: kindMatch(rule.except, kind),
        });
        break;
      case "span":
        spans.push({
          kind: "span",
          rule,
          span: spanIndex(rule.name),
          opens: kindMatch(rule.opens, kind),
          continues: kindMatch(rule.continues, kind),
          closes: kindMatch(rule.closes, kind),
          aborts: kindMatch(rule.aborts, kind),
          key: rule.key === undefined ? undefined : keyPathOf(rule.key, kind),
          owner:
            rule.owner === undefined ? undefined : keyPathOf(rule.owner, kind),
          attribution:
            rule.attribution === undefined
              ? undefined
              : keyPathOf(rule.attribution, kind),
        });
        break;
      case "refers":
        spans.push({
          kind: "refers",
          rule,
          refers: refersRules.indexOf(rule),
          events: kindMatch(rule.events, kind),
          to: kindMatch(rule.to, kind),
          key: keyPathOf(rule.key, kind),
          toKey: keyPathOf(rule.toKey, kind),
          shownBy: kind === undefined ? undefined : rule.shownBy?.[kind],
        });
        break;
      case "terminal":
        terminals.push({ rule, events: kindMatch(rule.events, kind) });
        break;
    }
  const chunked = chunks.some(({ events }) => events !== false);
  const changesNothing =
    !chunked &&
    terminals.length === 0 &&
    checks.every(
      (check) =>
        check.kind === "first" ||
        typeof (check.kind === "inside" ? check.except : check.events) ===
          "boolean",
    ) &&
    spans.every(
      (step) =>
        step.kind === "span" &&
        step.continues === true &&
        step.opens === false &&
        step.closes === false &&
        step.aborts === false,
    );
  return {
    chunked,
    chunks,
    checks,
    spans,
    terminals,
    repeats: changesNothing
      ? spans.flatMap((step) =>
          (step.kind === "span"
            ? [step.key, step.owner, step.attribution]
            : [step.key]
          ).filter((path) => path !== undefined),
        )
      : undefined,
  };
}

const plans = new WeakMap<readonly StreamRule[], Plans>();

export function plansOf(rules: readonly StreamRule[]): Plans {
  let compiled = plans.get(rules);
  if (compiled !== undefined) return compiled;
  const byKind = new Map<string, Plan>();
  for (const rule of rules)
    for (const { event: kind } of selectorsOf(rule))
      if (!byKind.has(kind)) byKind.set(kind, planOf(rules, kind));
  compiled = { byKind, unnamed: planOf(rules, undefined) };
  plans.set(rules, compiled);
  return compiled;
}

/** Every selector of a rule: the kinds it names. */
function selectorsOf(rule: StreamRule): readonly Selector[] {
  switch (rule.kind) {
    case "first":
      return [...rule.events, ...(rule.resumed ?? [])];
    case "only-first":
    case "terminal":
      return rule.events;
    case "inside":
      return rule.except;
    case "span":
      return [...rule.opens, ...rule.continues, ...rule.closes, ...rule.aborts];
    case "refers":
      return [
        ...rule.events,
        ...rule.to,
        ...Object.keys(rule.shownBy ?? {}).map((event) => ({ event })),
      ];
    case "chunk":
      return [...rule.events, ...rule.passThrough];
  }
}
