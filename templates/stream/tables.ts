// The tables a protocol's stream module gives the runtime: how its events are sent, the
// ordering rules its prose states, and the steps that assemble what they build. The
// generator emits them (generator/stream/) typed by these declarations, which are the one
// statement of their form. Copied from templates/stream/tables.ts by agentwire.

/** How events are framed on the wire: server-sent events, or one JSON document per line. */
export type Framing = "sse" | "jsonl";

/** How a protocol's stream is sent, from its stream facts. */
export interface Transport {
  readonly framing: Framing;
  /** Each event may be a JSON-RPC message: a response's result, or a notification. */
  readonly jsonRpc: boolean;
  /**
   * The SSE event name of the transport's own error report (`event: error`), where the
   * protocol or its binding defines one; elsewhere such an event is read as any other.
   */
  readonly errorEvent?: string;
}

/** A JSON value at a path of the event must be one of these values. */
export interface Condition {
  readonly path: readonly string[];
  readonly values: readonly unknown[];
}

/** Events of one kind (a tag's value, or a keyed union's member), where conditions hold. */
export interface Selector {
  readonly event: string;
  readonly where?: readonly Condition[];
  readonly unless?: readonly Condition[];
}

/** Per event kind, the path of its key: `{ "TOOL_CALL_ARGS": ["toolCallId"] }`; `"*"` for any other. */
export type KeyPaths = Readonly<Record<string, readonly string[]>>;

interface RuleBase {
  readonly name: string;
  /** Where the protocol's prose states the rule. */
  readonly because: string;
}

/** The events the stream may start with, and those a resumed stream may start with instead. */
export interface FirstRule extends RuleBase {
  readonly kind: "first";
  readonly events: readonly Selector[];
  readonly resumed?: readonly Selector[];
}

/** Events that may only come first. */
export interface OnlyFirstRule extends RuleBase {
  readonly kind: "only-first";
  readonly events: readonly Selector[];
}

/** Events nothing may follow; when required, the stream must end with one. */
export interface TerminalRule extends RuleBase {
  readonly kind: "terminal";
  readonly events: readonly Selector[];
  readonly required: boolean;
}

/** Every event, but those excepted, comes while a span is open. */
export interface InsideRule extends RuleBase {
  readonly kind: "inside";
  readonly span: string;
  readonly except: readonly Selector[];
}

/**
 * A span, opened by one event and closed by another, per key (one at a time without a
 * key): what may only come while it is open, what it must be inside, whether it may be
 * implicit (continued or closed without being opened), or so in a resumed stream only,
 * whether a key that ended may open again, and whether opening an open key restarts it
 * (an artifact resent from its start).
 */
export interface SpanRule extends RuleBase {
  readonly kind: "span";
  readonly opens: readonly Selector[];
  readonly continues: readonly Selector[];
  readonly closes: readonly Selector[];
  /** Events that close it and every span inside it, open or not: a failure. */
  readonly aborts: readonly Selector[];
  readonly key?: KeyPaths;
  /**
   * Where an instance's owner is (a subagent), absent meaning the stream's own: one key
   * may be open once an owner, and only its owner closes it.
   */
  readonly owner?: KeyPaths;
  /**
   * Where an event names whose an instance is (a subagent): one that continues or closes
   * an instance and names an owner there must name its opener's, absent meaning the
   * stream's own.
   */
  readonly attribution?: KeyPaths;
  readonly within?: string;
  readonly implicit: boolean;
  /**
   * Implicit in a resumed stream (`VerifyOptions.resumed`): its first event carries what
   * came before the reconnection, instances still going among it.
   */
  readonly resumable: boolean;
  readonly once: boolean;
  readonly reopens: boolean;
}

/** An event's key names one an earlier event carried (a tool result, the call it answers). */
export interface RefersRule extends RuleBase {
  readonly kind: "refers";
  readonly events: readonly Selector[];
  readonly key: KeyPaths;
  readonly to: readonly Selector[];
  readonly toKey: KeyPaths;
  /**
   * Per kind, where an event shows every key there is (a run's conversation): until one
   * has, or the verifier was given the request, a key no event carried may be one the
   * stream never showed, and is no violation.
   */
  readonly shownBy?: KeyPaths;
  /** Where the request that opened the stream holds keys (`VerifyOptions.request`). */
  readonly request?: readonly string[];
}

/**
 * A shorthand event that stands for a span's opening, content and closing: a chunk with a
 * new key opens the span, one with its key or none continues it, and the span closes at
 * the next event that is neither such a chunk nor one that passes through.
 */
export interface ChunkRule extends RuleBase {
  readonly kind: "chunk";
  readonly events: readonly Selector[];
  readonly span: string;
  readonly key: KeyPaths;
  readonly passThrough: readonly Selector[];
  /** The events a chunk stands for (templates: see `assemble.ts`), which the assembler reads. */
  readonly standsFor?: {
    readonly opens: unknown;
    readonly continues: unknown;
    readonly closes: unknown;
  };
}

export type StreamRule =
  | FirstRule
  | OnlyFirstRule
  | TerminalRule
  | InsideRule
  | SpanRule
  | RefersRule
  | ChunkRule;

// ---------------------------------------------------------------------------------------
// The rules compiled by the generator, per event kind: the rules that can say anything of
// its events, in their order, each with what it asks of that kind resolved (which of its
// selectors can match, the path of the key), so that a push reads no rule it need not.

/**
 * Whether an event of one kind is among those selectors name: always, never, or where
 * the conditions of these selectors (those of its kind) hold.
 */
export type KindMatch = boolean | readonly Selector[];

export interface ChunkStep {
  readonly rule: ChunkRule;
  /** The span's place among the span rules. */
  readonly span: number;
  readonly events: KindMatch;
  readonly passThrough: KindMatch;
  readonly key: readonly string[] | undefined;
}

export type Check =
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

export interface TerminalStep {
  readonly rule: TerminalRule;
  readonly events: KindMatch;
}

/** What a push asks of an event of one kind, by phase. */
export interface Plan {
  /** Events of the kind are chunks of some rule. */
  readonly chunked: boolean;
  readonly chunks: readonly ChunkStep[];
  readonly checks: readonly Check[];
  readonly spans: readonly (SpanStep | RefersStep)[];
  readonly terminals: readonly TerminalStep[];
  /**
   * Where an event of the kind changes nothing (it only continues spans, and no selector
   * looks past its kind): the keys its span steps read. An event that found all in order
   * finds the next of its kind with the same keys in order too; undefined where an event
   * of the kind may change what the next one finds.
   */
  readonly repeats: Repeats | undefined;
}

/** The keys an event of a kind that changes nothing is read by (see Plan.repeats). */
export interface Repeats {
  /** The paths of the values its span steps read as keys. */
  readonly paths: readonly (readonly string[])[];
  /**
   * Whether an event has the values the last one had at the paths, as `valueAt` read
   * them there (the same values are the same keys): a function the generator writes, where
   * the paths are any, which reads a path of one property by its name. Absent, the
   * verifier reads the paths itself.
   */
  readonly same?: (
    event: Readonly<Record<string, unknown>>,
    values: readonly unknown[],
  ) => boolean;
}

export interface Plans {
  readonly byKind: ReadonlyMap<string, Plan>;
  /** For a kind no rule names. */
  readonly unnamed: Plan;
}

// ---------------------------------------------------------------------------------------
// The steps compiled by the generator: each step's path resolved into places, its
// templates' pointers split, what it may disturb found, and the steps filed under the
// kinds they name, so that the runtime only makes the templates functions.

/**
 * A value built from an event: JSON in which `{ "$from": ["a", "b"] }` stands for the
 * event's value at that path of property names (`"$else"` when it has none, or one of the
 * values `"$none"` lists), and an object's properties that come to nothing are left out.
 */
export type PlannedTemplate = unknown;

/**
 * What a step does to the snapshot, at its path: set a value; add an element to a list
 * unless one has its key, or merge it into the one that has; append text, or items to a
 * list; apply an RFC 6902 patch.
 */
export type Verb = "set" | "add" | "merge" | "append" | "patch";

/**
 * A path through any element of a list to the element of a list each holds whose field
 * has a value (`messages * toolCalls {id}`): the elements of the outer list are found
 * through an index of that field's values, not by trying each.
 */
export interface AcrossPlan {
  /** What tells two such paths apart: their properties and field. */
  readonly id: string;
  /** The properties from an element of the outer list to its list. */
  readonly properties: readonly string[];
  readonly field: string;
  /** The value looked for. */
  readonly wanted: PlannedTemplate;
}

/** A step of a path: a property, any element of a list, or the element whose field has a value. */
export type PlacePlan =
  | { readonly kind: "property"; readonly name: string }
  | {
      readonly kind: "any";
      readonly name: string;
      /** Where the element is the one that holds the element a later step looks for, how. */
      readonly across: AcrossPlan | undefined;
    }
  | {
      readonly kind: "where";
      readonly name: string;
      /** The field's value. */
      readonly value: PlannedTemplate;
    };

/** An assembly step as the assembler runs it. */
export interface StepPlan {
  readonly name: string;
  readonly on: readonly Selector[];
  readonly verb: Verb;
  readonly path: readonly PlacePlan[];
  /** The path's last step, where it is a property. */
  readonly property: string | undefined;
  /** The field elements are told apart by (`add` and `merge`); "" for the other verbs. */
  readonly key: string;
  readonly value: PlannedTemplate;
  /**
   * An append whose object, once found, is found again by an event that wants the same
   * elements, until another step changes the snapshot: appending changes no step of the
   * path, unless a `where` step looks at the very property appended to.
   */
  readonly remembers: boolean;
  /**
   * Where the value and the values its `where` steps look for are each a property of the
   * event, their names: a run of appends reads them where it runs.
   */
  readonly fields:
    { readonly value: string; readonly wanted: readonly string[] } | undefined;
  /**
   * Whether the step can change what the assembler's indexes hold otherwise than by adding
   * to a list or making one (a field elements are found by, a property between an element
   * and the list it holds, a list a patch rewrites): then the indexes are forgotten after
   * it. No step of the four protocols can.
   */
  readonly disturbs: boolean;
}

/** A chunk rule's expansion: the events its chunks stand for, and where a chunk's key goes in them. */
export interface ChunkPlan {
  readonly rule: ChunkRule;
  readonly opens: PlannedTemplate;
  readonly continues: PlannedTemplate;
  readonly closes: PlannedTemplate;
  readonly keyPath: readonly string[];
}

/** What the assembler runs: the steps per kind, and the chunk rules' expansions. */
export interface AssemblyPlan {
  /** Every step, in the order the facts state them. */
  readonly steps: readonly StepPlan[];
  /** Per kind, the steps a selector of which names it, in their order, each `always` where a selector takes any event of the kind. */
  readonly byKind: ReadonlyMap<
    string,
    readonly { readonly step: StepPlan; readonly always: boolean }[]
  >;
  readonly chunks: readonly ChunkPlan[];
  /** The kinds a chunk rule's events name: only they, or an open lane, expand. */
  readonly chunked: readonly string[];
}
