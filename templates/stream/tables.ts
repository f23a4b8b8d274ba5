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
 * A value built from an event: JSON in which `{ "$from": "/pointer" }` stands for the
 * event's value there (`"$else"` when it has none, or one of the values `"$none"` lists),
 * and an object's properties that come to nothing are left out.
 */
export type Template = unknown;

/**
 * A place in the snapshot: property names, `"*"` for any element of an array, and
 * `{ field: Template }` for the element whose field has that value.
 */
export type Path = readonly (string | { readonly [field: string]: Template })[];

/**
 * One thing an event does to the snapshot, at a path: set a value; add an element to a
 * list unless one has its key, or merge it into the one that has; append text, or items
 * to a list; apply an RFC 6902 patch.
 */
export type Action =
  | {
      readonly verb: "set" | "append" | "patch";
      readonly path: Path;
      readonly value: Template;
    }
  | {
      readonly verb: "add" | "merge";
      readonly path: Path;
      /** The field elements of the list are told apart by. */
      readonly key: string;
      readonly value: Template;
    };

/** What an action does: its verb. */
export type Verb = Action["verb"];

/** What events of some kinds do to the snapshot, with where the prose says so. */
export interface AssemblyStep {
  readonly name: string;
  readonly because: string;
  readonly on: readonly Selector[];
  readonly action: Action;
}
