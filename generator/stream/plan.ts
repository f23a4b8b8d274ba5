import type {
  Check,
  ChunkStep,
  KeyPaths,
  KindMatch,
  Plan,
  Plans,
  RefersStep,
  Selector,
  SpanStep,
  StreamRule,
  TerminalStep,
} from "../../templates/stream/tables.js";

// The rules compiled per event kind, once, by the generator: what a push of the runtime's
// verifier asks of an event of each kind (templates/stream/verify.ts), in the form its
// tables declare, so that the runtime reads plans and compiles nothing.

/**
 * The rules compiled per event kind, for the runtime's verifier: a plan for each kind a
 * rule names, and one for the kinds none names.
 */
export function plansOf(rules: readonly StreamRule[]): Plans {
  const byKind = new Map<string, Plan>();
  for (const rule of rules) for (const { event: kind } of selectorsOf(rule)) if (!byKind.has(kind)) byKind.set(kind, planOf(rules, kind));
  return { byKind, unnamed: planOf(rules, undefined) };
}

function kindMatch(selectors: readonly Selector[], kind: string | undefined): KindMatch {
  const named = selectors.filter((selector) => selector.event === kind);
  if (named.length === 0) return false;
  return named.some(({ where, unless }) => where === undefined && unless === undefined) ? true : named;
}

/**
 * The plan of a kind (undefined: a kind no rule names): the rules that look at every
 * event (what comes first, what must come inside a span, a chunk's lane, which any other
 * event ends), and those that name the kind. A rule that does not name a kind lets its
 * events pass, and so does one whose step could never say anything of them (an inside
 * rule that excepts them, a chunk rule they pass through).
 */
function planOf(rules: readonly StreamRule[], kind: string | undefined): Plan {
  const spanRules = rules.filter((rule) => rule.kind === "span");
  const spanIndex = (name: string) => spanRules.findIndex((rule) => rule.name === name);
  const refersRules = rules.filter((rule) => rule.kind === "refers");
  const names = (rule: StreamRule) => selectorsOf(rule).some((selector) => selector.event === kind);
  const asked = rules.filter((rule) => rule.kind === "first" || rule.kind === "inside" || rule.kind === "chunk" || names(rule));
  const chunks: ChunkStep[] = [];
  const checks: Check[] = [];
  const spans: (SpanStep | RefersStep)[] = [];
  const terminals: TerminalStep[] = [];
  for (const rule of asked)
    switch (rule.kind) {
      case "chunk": {
        const events = kindMatch(rule.events, kind);
        const passThrough = kindMatch(rule.passThrough, kind);
        // An event that is no chunk and always passes through leaves the lane as it is.
        if (events === false && passThrough === true) break;
        chunks.push({ rule, span: spanIndex(rule.span), events, passThrough, key: keyPathOf(rule.key, kind) });
        break;
      }
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
      case "inside": {
        const except = kindMatch(rule.except, kind);
        // An event always excepted may come anywhere.
        if (except === true) break;
        checks.push({ kind: "inside", rule, span: spanIndex(rule.span), except });
        break;
      }
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
          owner: rule.owner === undefined ? undefined : keyPathOf(rule.owner, kind),
          attribution: rule.attribution === undefined ? undefined : keyPathOf(rule.attribution, kind),
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
    checks.every((check) => check.kind === "first" || typeof (check.kind === "inside" ? check.except : check.events) === "boolean") &&
    spans.every(
      (step) => step.kind === "span" && step.continues === true && step.opens === false && step.closes === false && step.aborts === false,
    );
  return {
    chunked,
    chunks,
    checks,
    spans,
    terminals,
    // The emitter writes `same` (generator/emit/stream.ts).
    repeats: changesNothing
      ? {
          paths: spans.flatMap((step) =>
            (step.kind === "span" ? [step.key, step.owner, step.attribution] : [step.key]).filter((path) => path !== undefined),
          ),
        }
      : undefined,
  };
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
      return [...rule.events, ...rule.to, ...Object.keys(rule.shownBy ?? {}).map((event) => ({ event }))];
    case "chunk":
      return [...rule.events, ...rule.passThrough];
  }
}

/** A path of a kind's key: its own, or the default; undefined where it has neither. */
function keyPathOf(paths: KeyPaths, kind: string | undefined): readonly string[] | undefined {
  return kind === undefined ? paths["*"] : (paths[kind] ?? paths["*"]);
}
