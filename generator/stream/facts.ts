import type { Selector as TableSelector, StreamRule as TableRule } from "../../templates/stream/tables.js";
import { InputError } from "../errors.js";
import type { Key, Selector, Stream, StreamRule } from "../formats/overlay/types.js";
import { decodeStream } from "../formats/overlay/validate.js";
import type { JsonObject, JsonValue } from "../json.js";
import { appendPointer, parsePointer } from "../pointer.js";
import type { Refused, Wording, Words } from "../refusal.js";
import { refusalError } from "../refusal.js";

/**
 * A protocol's stream facts: how its events are framed on the wire, and the ordering
 * rules its prose states and no schema can (what comes first, what opens and closes a
 * span, what ends the stream). An overlay's `stream` section, read here as data: each
 * rule names itself and says where the prose states it. See `schemas/README.md`.
 */
export interface StreamFacts {
  /** The named type every event is, when it is not the schema's root. */
  readonly event?: string;
  readonly framing: "sse" | "jsonl";
  readonly jsonRpc: boolean;
  /** The SSE event name of the transport's own error report, where the protocol or its binding defines one. */
  readonly errorEvent?: string;
  readonly because: string;
  readonly rules: readonly RuleFact[];
  readonly assembly?: AssemblyFacts;
  /** Where the section is, for messages. */
  readonly file: string;
  readonly pointer: string;
}

/**
 * What the stream builds: the snapshot's fields, each a named type of the schema (or
 * `unknown`), a list of them or nullable, and the steps that events take on it.
 */
export interface AssemblyFacts {
  readonly snapshot: readonly SnapshotField[];
  readonly steps: readonly StepFact[];
  readonly pointer: string;
}

export interface SnapshotField {
  readonly name: string;
  readonly type: string;
  readonly list: boolean;
  readonly nullable: boolean;
  /** Its values may lack required properties: built from events that carry only some. */
  readonly partial: boolean;
  readonly initial: JsonValue;
  readonly pointer: string;
}

/** A path into the snapshot: properties, `"*"`, or `{ field: template }` for an element. */
export type PathFact = readonly (string | JsonObject)[];

export interface StepFact {
  readonly name: string;
  readonly because: string;
  readonly on: readonly SelectorFact[];
  readonly verb: "set" | "add" | "merge" | "append" | "patch";
  readonly path: PathFact;
  readonly key?: string;
  readonly value: JsonValue;
  readonly pointer: string;
}

type Action = StepFact["verb"];
const ACTIONS: readonly Action[] = ["set", "add", "merge", "append", "patch"];

/** Events of one kind, where conditions on their values hold: `{ "event": "task", "where": { "/task/status/state": [...] } }`. */
export interface SelectorFact {
  readonly event: string;
  readonly where: readonly ConditionFact[];
  readonly unless: readonly ConditionFact[];
  readonly pointer: string;
}

export interface ConditionFact {
  readonly path: readonly string[];
  readonly values: readonly JsonValue[];
}

/** Per event kind, the path of its key; `"*"` for every other kind. */
export type KeyFact = Readonly<Record<string, readonly string[]>>;

/**
 * A rule as the facts state it: the runtime's rule (`templates/stream/tables.ts`, the one
 * statement of each kind's form), with its selectors as read and its place, for messages.
 */
export type RuleFact = AsStated<TableRule>;

type AsStated<R> = R extends unknown
  ? {
      readonly [K in keyof R]: R[K] extends readonly TableSelector[] | undefined
        ? Exclude<R[K], readonly TableSelector[]> | readonly SelectorFact[]
        : R[K];
    } & { readonly pointer: string }
  : never;

/** The verbs of a rule, and the keys that go with one of them only. */
const VERBS = ["first", "onlyFirst", "terminal", "inside", "span", "refers", "chunk"] as const satisfies readonly (keyof StreamRule)[];
const COMPANIONS: Readonly<Record<string, (typeof VERBS)[number]>> = { resumed: "first", required: "terminal", except: "inside" };

/** Where the section lists events, as patterns of pointers into it. */
const SELECTORS = [
  "/rules/*/first|resumed|onlyFirst|terminal|except",
  "/rules/*/span/opens|continues|closes|aborts",
  "/rules/*/refers/events|to",
  "/rules/*/chunk/events|passThrough",
  "/assembly/steps/*/on",
];
/** Where it has pointers into an event: a key, or one per kind. */
const POINTERS = ["/rules/*/span/key|owner|attribution", "/rules/*/refers/key|toKey", "/rules/*/chunk/key"].flatMap((at) => [
  at,
  `${at}/*`,
]);
const STEP_PATHS = "/assembly/steps/*/set|add|merge|append|patch";
const PATH = 'must be a path into the snapshot: a field, then properties, "*" or { field: value }';

const says =
  (problem: string) =>
  ({ pointer }: Refused): Wording => ({ pointer, problem });
const verbCount = (value: unknown, verbs: readonly string[]): number =>
  typeof value === "object" && value !== null ? verbs.filter((verb) => verb in value).length : 1;
/** A rule's or a step's words where it has other than one verb: that, whatever else is wrong in it. */
const oneVerb =
  (what: string, verbs: readonly string[]) =>
  ({ value }: Refused): Wording | undefined =>
    verbCount(value, verbs) === 1
      ? undefined
      : { problem: `a ${what} has exactly one of ${verbs.join(", ")}; this one has ${verbCount(value, verbs)}` };
const named =
  (what: string) =>
  ({ value }: Refused): Wording => ({
    problem: `${JSON.stringify(value)} is not a ${what} name: lower-case words joined by hyphens, such as "text-message"`,
  });

/** The stream section's words for what the overlay's schema refuses, where the validator's would say less. */
const WORDS: readonly Words[] = [
  { at: "/rules/*", within: true, say: oneVerb("rule", VERBS) },
  { at: "/assembly/steps/*", within: true, say: oneVerb("step", ACTIONS) },
  {
    // A verb's companion without the verb, which the schema requires beside it.
    at: "/rules/*/first|terminal|inside",
    keyword: "required",
    say: ({ parent, container }) => {
      const rule = typeof container === "object" && container !== null ? container : {};
      const companion = Object.keys(COMPANIONS).find((key) => key in rule && !(COMPANIONS[key]! in rule));
      return companion === undefined
        ? undefined
        : {
            pointer: appendPointer(parent, companion),
            problem: `unknown key "${companion}": it goes with "${COMPANIONS[companion]}" only`,
          };
    },
  },
  { at: "/rules/*/name", keyword: "pattern", say: named("rule") },
  { at: "/assembly/steps/*/name", keyword: "pattern", say: named("step") },
  ...SELECTORS.map((at) => ({
    at,
    keyword: "type|minItems",
    say: says('must list events: their kinds ("RUN_STARTED"), or selectors ({ "event": …, "where": … })'),
  })),
  ...[...POINTERS, ...SELECTORS.map((at) => `${at}/*/where|unless/*`), "/rules/*/refers/shownBy/*", "/rules/*/refers/request"].map(
    (at) => ({
      at,
      keyword: "pattern",
      say: says('must be a JSON Pointer into the event, such as "/messageId"'),
    }),
  ),
  ...SELECTORS.map((at) => ({
    at: `${at}/*/where|unless/*`,
    keyword: "type|minItems",
    say: says("must list the values the event may have there"),
  })),
  {
    at: "/assembly/steps/*/value",
    keyword: "required",
    say: ({ parent }) => ({
      pointer: parent,
      problem: 'a step needs a "value": JSON, with { "$from": "/pointer" } for the event\'s values',
    }),
  },
  { at: "/assembly/steps/*/key", keyword: "required", say: says('"add" and "merge" need "key", the field that identifies an element') },
  {
    at: "/assembly/steps/*/key",
    keyword: "false",
    say: ({ key }) => ({ problem: `unknown key "${key}": it goes with "add" and "merge" only` }),
  },
  { at: STEP_PATHS, say: says(PATH) },
  { at: `${STEP_PATHS}/0`, keyword: "type", say: ({ parent }) => ({ pointer: parent, problem: PATH }) },
  { at: `${STEP_PATHS}/*`, say: says('a step of a path is a property, "*", or { field: value } for an element') },
];

/**
 * Reads the `stream` section of an overlay: the overlay schema's decoder
 * (`formats/overlay/`, its `Stream`) checks its shape, and where it is wrong says where;
 * then what no schema says: a key names one value of an event, but where a refers rule
 * takes keys in. The pointers become their tokens, and what is left out its default.
 */
export function readStreamFacts(section: JsonValue, file: string, pointer: string): StreamFacts {
  const decoded = decodeStream(section, { mode: "strict", maxErrors: 1 });
  if (!decoded.ok) throw refusalError(file, pointer, section, decoded.errors, WORDS);
  const stream: Stream = decoded.value;
  const fail = (at: string, problem: string): never => {
    throw new InputError({ file, pointer: at }, problem);
  };

  const selector = (value: Selector, at: string): SelectorFact => {
    if (typeof value === "string") return { event: value, where: [], unless: [], pointer: at };
    const conditions = (given: Record<string, unknown> | undefined): ConditionFact[] =>
      // The values are the overlay's JSON, which the schema says are a list.
      Object.entries(given ?? {}).map(([text, values]) => ({ path: parsePointer(text), values: values as JsonValue[] }));
    return { event: value.event, where: conditions(value.where), unless: conditions(value.unless), pointer: at };
  };
  const selectors = (value: readonly Selector[] | undefined, at: string): SelectorFact[] =>
    (value ?? []).map((each, i) => selector(each, appendPointer(at, i)));
  // A key is one value of the event; only where a rule takes keys in (a refers rule's
  // "toKey") may "*" stand for every element of an array, and the event carry many.
  const key = (value: Key | Readonly<Record<string, string>>, at: string, many = false): KeyFact => {
    const keyPath = (text: string, here: string): string[] => {
      const tokens = parsePointer(text);
      if (!many && tokens.includes("*"))
        fail(here, 'names every element ("*"), which only a refers rule\'s "toKey" may: a key here is one value of the event');
      return tokens;
    };
    if (typeof value === "string") return { "*": keyPath(value, at) };
    return Object.fromEntries(Object.entries(value).map(([kind, text]) => [kind, keyPath(text, appendPointer(at, kind))]));
  };
  const optionalKey = (name: string, value: Key | Readonly<Record<string, string>> | undefined, at: string) =>
    value === undefined ? {} : { [name]: key(value, appendPointer(at, name)) };

  const rulesAt = appendPointer(pointer, "rules");
  const rules = stream.rules.map((rule, index): RuleFact => {
    const at = appendPointer(rulesAt, index);
    const base = { name: rule.name, because: rule.because, pointer: at };
    const here = (...tokens: string[]) => appendPointer(at, ...tokens);
    if (rule.first !== undefined)
      return {
        ...base,
        kind: "first",
        events: selectors(rule.first, here("first")),
        ...(rule.resumed === undefined ? {} : { resumed: selectors(rule.resumed, here("resumed")) }),
      };
    if (rule.onlyFirst !== undefined) return { ...base, kind: "only-first", events: selectors(rule.onlyFirst, here("onlyFirst")) };
    if (rule.terminal !== undefined)
      return { ...base, kind: "terminal", events: selectors(rule.terminal, here("terminal")), required: rule.required ?? false };
    if (rule.inside !== undefined) return { ...base, kind: "inside", span: rule.inside, except: selectors(rule.except, here("except")) };
    if (rule.span !== undefined) {
      const span = rule.span;
      return {
        ...base,
        kind: "span",
        opens: selectors(span.opens, here("span", "opens")),
        continues: selectors(span.continues, here("span", "continues")),
        closes: selectors(span.closes, here("span", "closes")),
        aborts: selectors(span.aborts, here("span", "aborts")),
        ...optionalKey("key", span.key, here("span")),
        ...optionalKey("owner", span.owner, here("span")),
        ...optionalKey("attribution", span.attribution, here("span")),
        ...(span.within === undefined ? {} : { within: span.within }),
        implicit: span.implicit ?? false,
        resumable: span.resumable ?? false,
        once: span.once ?? false,
        reopens: span.reopens ?? false,
      };
    }
    if (rule.refers !== undefined) {
      const refers = rule.refers;
      return {
        ...base,
        kind: "refers",
        events: selectors(refers.events, here("refers", "events")),
        key: key(refers.key, here("refers", "key")),
        to: selectors(refers.to, here("refers", "to")),
        toKey: key(refers.toKey ?? refers.key, here("refers", "toKey"), true),
        ...optionalKey("shownBy", refers.shownBy, here("refers")),
        ...(refers.request === undefined ? {} : { request: parsePointer(refers.request) }),
      };
    }
    const chunk = rule.chunk!;
    const templates = chunk.standsFor;
    return {
      // The templates are the overlay's JSON, which the schema says are objects.
      ...(templates === undefined
        ? {}
        : {
            standsFor: {
              opens: templates.opens as JsonObject,
              continues: templates.continues as JsonObject,
              closes: templates.closes as JsonObject,
            },
          }),
      ...base,
      kind: "chunk",
      events: selectors(chunk.events, here("chunk", "events")),
      span: chunk.span,
      key: key(chunk.key, here("chunk", "key")),
      passThrough: selectors(chunk.passThrough, here("chunk", "passThrough")),
    };
  });
  return {
    ...(stream.event === undefined ? {} : { event: stream.event }),
    framing: stream.framing,
    jsonRpc: stream.jsonRpc ?? false,
    ...(stream.errorEvent === undefined ? {} : { errorEvent: stream.errorEvent }),
    because: stream.because,
    rules,
    ...(stream.assembly === undefined ? {} : { assembly: assembly(stream.assembly, appendPointer(pointer, "assembly")) }),
    file,
    pointer,
  };

  function assembly(value: NonNullable<Stream["assembly"]>, at: string): AssemblyFacts {
    const snapshotAt = appendPointer(at, "snapshot");
    const snapshot = Object.entries(value.snapshot).map(([name, field]): SnapshotField => {
      const list = field.list ?? false;
      return {
        name,
        type: field.type,
        list,
        nullable: field.nullable ?? false,
        partial: field.partial ?? false,
        // The initial value is the overlay's JSON.
        initial: (field.initial as JsonValue | undefined) ?? (list ? [] : null),
        pointer: appendPointer(snapshotAt, name),
      };
    });
    const stepsAt = appendPointer(at, "steps");
    const steps = value.steps.map((step, index): StepFact => {
      const here = appendPointer(stepsAt, index);
      const verb = ACTIONS.find((action) => step[action] !== undefined)!;
      return {
        name: step.name,
        because: step.because,
        on: selectors(step.on, appendPointer(here, "on")),
        verb,
        // A path's elements are the overlay's JSON: properties, or { field: template }.
        path: step[verb] as (string | JsonObject)[],
        ...(step.key === undefined ? {} : { key: step.key }),
        value: step.value as JsonValue,
        pointer: here,
      };
    });
    return { snapshot, steps, pointer: at };
  }
}
