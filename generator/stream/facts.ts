import { InputError } from "../errors.js";
import type { JsonObject, JsonValue } from "../json.js";
import { isJsonObject } from "../json.js";
import { appendPointer, parsePointer } from "../pointer.js";

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

const ACTIONS = ["set", "add", "merge", "append", "patch"] as const;

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

interface RuleBase {
  readonly name: string;
  readonly because: string;
  readonly pointer: string;
}

export type RuleFact = RuleBase &
  (
    | { readonly kind: "first"; readonly events: readonly SelectorFact[]; readonly resumed?: readonly SelectorFact[] }
    | { readonly kind: "only-first"; readonly events: readonly SelectorFact[] }
    | { readonly kind: "terminal"; readonly events: readonly SelectorFact[]; readonly required: boolean }
    | { readonly kind: "inside"; readonly span: string; readonly except: readonly SelectorFact[] }
    | {
        readonly kind: "span";
        readonly opens: readonly SelectorFact[];
        readonly continues: readonly SelectorFact[];
        readonly closes: readonly SelectorFact[];
        readonly aborts: readonly SelectorFact[];
        readonly key?: KeyFact;
        readonly owner?: KeyFact;
        readonly attribution?: KeyFact;
        readonly within?: string;
        readonly implicit: boolean;
        readonly resumable: boolean;
        readonly once: boolean;
        readonly reopens: boolean;
      }
    | {
        readonly kind: "refers";
        readonly events: readonly SelectorFact[];
        readonly key: KeyFact;
        readonly to: readonly SelectorFact[];
        readonly toKey: KeyFact;
        /**
         * Per kind, where an event shows every key there is (the conversation a run
         * resumes): until one has, a key no event carried may be one the stream never
         * showed, and is no violation.
         */
        readonly shownBy?: KeyFact;
        /** Where the request that opened the stream holds its keys, for a verifier given it. */
        readonly request?: readonly string[];
      }
    | {
        readonly kind: "chunk";
        readonly events: readonly SelectorFact[];
        readonly span: string;
        readonly key: KeyFact;
        readonly passThrough: readonly SelectorFact[];
        /** Templates of the events a chunk stands for. */
        readonly standsFor?: { readonly opens: JsonValue; readonly continues: JsonValue; readonly closes: JsonValue };
      }
  );

/** The verbs of a rule, each with the keys it takes besides `name`, `because` and itself. */
const VERBS = {
  first: ["resumed"],
  onlyFirst: [],
  terminal: ["required"],
  inside: ["except"],
  span: [],
  refers: [],
  chunk: [],
} as const satisfies Record<string, readonly string[]>;

type Verb = keyof typeof VERBS;

/** Reads the `stream` section of an overlay, checking its shape; where it is wrong, says where. */
export function readStreamFacts(section: JsonValue, file: string, pointer: string): StreamFacts {
  const fail = (at: string, problem: string, hint?: string): never => {
    throw new InputError({ file, pointer: at }, problem, hint);
  };
  const object = (value: JsonValue | undefined, at: string, what: string): JsonObject =>
    isJsonObject(value) ? value : fail(at, `${what} must be an object`);
  const only = (value: JsonObject, at: string, keys: readonly string[]) => {
    for (const key of Object.keys(value)) if (!keys.includes(key)) fail(appendPointer(at, key), `unknown key "${key}"`);
  };
  const text = (value: JsonValue | undefined, at: string, what: string): string =>
    typeof value === "string" && value.trim() !== "" ? value : fail(at, `${what} must be a string`);
  const flag = (value: JsonValue | undefined, at: string): boolean =>
    value === undefined ? false : typeof value === "boolean" ? value : fail(at, "must be true or false");
  const path = (value: JsonValue | undefined, at: string): string[] =>
    typeof value === "string" && value.startsWith("/")
      ? parsePointer(value)
      : fail(at, 'must be a JSON Pointer into the event, such as "/messageId"');

  const conditions = (value: JsonValue | undefined, at: string): ConditionFact[] => {
    if (value === undefined) return [];
    return Object.entries(object(value, at, "conditions")).map(([pointerText, values]) => {
      const here = appendPointer(at, pointerText);
      if (!Array.isArray(values) || values.length === 0) return fail(here, "must list the values the event may have there");
      return { path: path(pointerText, here), values };
    });
  };
  const selector = (value: JsonValue, at: string): SelectorFact => {
    if (typeof value === "string") return { event: value, where: [], unless: [], pointer: at };
    const fields = object(value, at, "an event selector");
    only(fields, at, ["event", "where", "unless"]);
    return {
      event: text(fields["event"], appendPointer(at, "event"), '"event"'),
      where: conditions(fields["where"], appendPointer(at, "where")),
      unless: conditions(fields["unless"], appendPointer(at, "unless")),
      pointer: at,
    };
  };
  const selectors = (value: JsonValue | undefined, at: string, required = true): SelectorFact[] => {
    if (value === undefined && !required) return [];
    if (!Array.isArray(value) || value.length === 0)
      return fail(at, 'must list events: their kinds ("RUN_STARTED"), or selectors ({ "event": …, "where": … })');
    return value.map((each, i) => selector(each, appendPointer(at, i)));
  };
  // A key is one value of the event; only where a rule takes keys in (a refers rule's
  // "toKey") may "*" stand for every element of an array, and the event carry many.
  const key = (value: JsonValue | undefined, at: string, many = false): KeyFact => {
    const keyPath = (pointerText: JsonValue | undefined, here: string): string[] => {
      const tokens = path(pointerText, here);
      if (!many && tokens.includes("*"))
        fail(here, 'names every element ("*"), which only a refers rule\'s "toKey" may: a key here is one value of the event');
      return tokens;
    };
    if (typeof value === "string") return { "*": keyPath(value, at) };
    return Object.fromEntries(
      Object.entries(object(value, at, "a key")).map(([kind, pointerText]) => [kind, keyPath(pointerText, appendPointer(at, kind))]),
    );
  };
  // A rule's or a step's name, which a violation reports.
  const named = (value: JsonValue | undefined, at: string, what: string): string => {
    const name = text(value, at, '"name"');
    return /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/.test(name)
      ? name
      : fail(at, `"${name}" is not a ${what} name: lower-case words joined by hyphens, such as "text-message"`);
  };
  const spanName = (value: JsonValue | undefined, at: string): string => text(value, at, "the name of a span rule");

  const root = object(section, pointer, '"stream"');
  only(root, pointer, ["event", "framing", "jsonRpc", "errorEvent", "because", "rules", "assembly"]);
  const framing = root["framing"];
  if (framing !== "sse" && framing !== "jsonl") fail(appendPointer(pointer, "framing"), '"framing" is "sse" or "jsonl"');
  const rulesAt = appendPointer(pointer, "rules");
  if (!Array.isArray(root["rules"])) return fail(rulesAt, '"rules" must be an array of rules');
  const rules = root["rules"].map((entry, index): RuleFact => {
    const at = appendPointer(rulesAt, index);
    const fields = object(entry, at, "a rule");
    const verbs = (Object.keys(VERBS) as Verb[]).filter((verb) => verb in fields);
    if (verbs.length !== 1) fail(at, `a rule has exactly one of ${Object.keys(VERBS).join(", ")}; this one has ${verbs.length}`);
    const verb = verbs[0]!;
    only(fields, at, ["name", "because", verb, ...VERBS[verb]]);
    const name = named(fields["name"], appendPointer(at, "name"), "rule");
    const base = { name, because: text(fields["because"], appendPointer(at, "because"), '"because"'), pointer: at };
    const here = appendPointer(at, verb);
    const value = fields[verb];
    switch (verb) {
      case "first":
        return {
          ...base,
          kind: "first",
          events: selectors(value, here),
          ...("resumed" in fields ? { resumed: selectors(fields["resumed"], appendPointer(at, "resumed")) } : {}),
        };
      case "onlyFirst":
        return { ...base, kind: "only-first", events: selectors(value, here) };
      case "terminal":
        return {
          ...base,
          kind: "terminal",
          events: selectors(value, here),
          required: flag(fields["required"], appendPointer(at, "required")),
        };
      case "inside":
        return {
          ...base,
          kind: "inside",
          span: spanName(value, here),
          except: selectors(fields["except"], appendPointer(at, "except"), false),
        };
      case "span": {
        const span = object(value, here, '"span"');
        only(span, here, [
          "opens",
          "continues",
          "closes",
          "aborts",
          "key",
          "owner",
          "attribution",
          "within",
          "implicit",
          "resumable",
          "once",
          "reopens",
        ]);
        const within = span["within"];
        return {
          ...base,
          kind: "span",
          opens: selectors(span["opens"], appendPointer(here, "opens")),
          continues: selectors(span["continues"], appendPointer(here, "continues"), false),
          closes: selectors(span["closes"], appendPointer(here, "closes")),
          aborts: selectors(span["aborts"], appendPointer(here, "aborts"), false),
          ...(span["key"] === undefined ? {} : { key: key(span["key"], appendPointer(here, "key")) }),
          ...(span["owner"] === undefined ? {} : { owner: key(span["owner"], appendPointer(here, "owner")) }),
          ...(span["attribution"] === undefined ? {} : { attribution: key(span["attribution"], appendPointer(here, "attribution")) }),
          ...(within === undefined ? {} : { within: spanName(within, appendPointer(here, "within")) }),
          implicit: flag(span["implicit"], appendPointer(here, "implicit")),
          resumable: flag(span["resumable"], appendPointer(here, "resumable")),
          once: flag(span["once"], appendPointer(here, "once")),
          reopens: flag(span["reopens"], appendPointer(here, "reopens")),
        };
      }
      case "refers": {
        const refers = object(value, here, '"refers"');
        only(refers, here, ["events", "key", "to", "toKey", "shownBy", "request"]);
        return {
          ...base,
          kind: "refers",
          events: selectors(refers["events"], appendPointer(here, "events")),
          key: key(refers["key"], appendPointer(here, "key")),
          to: selectors(refers["to"], appendPointer(here, "to")),
          toKey: key(refers["toKey"] ?? refers["key"] ?? null, appendPointer(here, "toKey"), true),
          ...(refers["shownBy"] === undefined ? {} : { shownBy: key(refers["shownBy"], appendPointer(here, "shownBy")) }),
          ...(refers["request"] === undefined ? {} : { request: path(refers["request"], appendPointer(here, "request")) }),
        };
      }
      case "chunk": {
        const chunk = object(value, here, '"chunk"');
        only(chunk, here, ["events", "span", "key", "passThrough", "standsFor"]);
        const standsFor = chunk["standsFor"];
        const templates = standsFor === undefined ? undefined : object(standsFor, appendPointer(here, "standsFor"), '"standsFor"');
        if (templates !== undefined) {
          only(templates, appendPointer(here, "standsFor"), ["opens", "continues", "closes"]);
          for (const key of ["opens", "continues", "closes"])
            if (!isJsonObject(templates[key])) fail(appendPointer(here, "standsFor", key), "must be the template of an event");
        }
        return {
          ...(templates === undefined
            ? {}
            : { standsFor: { opens: templates["opens"]!, continues: templates["continues"]!, closes: templates["closes"]! } }),
          ...base,
          kind: "chunk",
          events: selectors(chunk["events"], appendPointer(here, "events")),
          span: spanName(chunk["span"], appendPointer(here, "span")),
          key: key(chunk["key"], appendPointer(here, "key")),
          passThrough: selectors(chunk["passThrough"], appendPointer(here, "passThrough"), false),
        };
      }
    }
  });
  return {
    ...(root["event"] === undefined ? {} : { event: text(root["event"], appendPointer(pointer, "event"), '"event"') }),
    framing: framing as "sse" | "jsonl",
    jsonRpc: flag(root["jsonRpc"], appendPointer(pointer, "jsonRpc")),
    ...(root["errorEvent"] === undefined
      ? {}
      : { errorEvent: text(root["errorEvent"], appendPointer(pointer, "errorEvent"), '"errorEvent"') }),
    because: text(root["because"], appendPointer(pointer, "because"), '"because"'),
    rules,
    ...(root["assembly"] === undefined ? {} : { assembly: assembly(root["assembly"], appendPointer(pointer, "assembly")) }),
    file,
    pointer,
  };

  function assembly(value: JsonValue, at: string): AssemblyFacts {
    const fields = object(value, at, '"assembly"');
    only(fields, at, ["snapshot", "steps"]);
    const snapshotAt = appendPointer(at, "snapshot");
    const snapshot = Object.entries(object(fields["snapshot"], snapshotAt, '"snapshot"')).map(([name, entry]): SnapshotField => {
      const here = appendPointer(snapshotAt, name);
      const field = object(entry, here, "a snapshot field");
      only(field, here, ["type", "list", "nullable", "partial", "initial"]);
      const list = flag(field["list"], appendPointer(here, "list"));
      const nullable = flag(field["nullable"], appendPointer(here, "nullable"));
      return {
        name,
        type: text(field["type"], appendPointer(here, "type"), '"type", the name of a type of the schema or "unknown",'),
        list,
        nullable,
        partial: flag(field["partial"], appendPointer(here, "partial")),
        initial: field["initial"] ?? (list ? [] : null),
        pointer: here,
      };
    });
    const stepsAt = appendPointer(at, "steps");
    if (!Array.isArray(fields["steps"])) return fail(stepsAt, '"steps" must be an array of steps');
    const steps = fields["steps"].map((entry, index): StepFact => {
      const here = appendPointer(stepsAt, index);
      const step = object(entry, here, "a step");
      const verbs = ACTIONS.filter((verb) => verb in step);
      if (verbs.length !== 1) fail(here, `a step has exactly one of ${ACTIONS.join(", ")}; this one has ${verbs.length}`);
      const verb = verbs[0]!;
      only(step, here, ["name", "because", "on", verb, "value", ...(verb === "add" || verb === "merge" ? ["key"] : [])]);
      const name = named(step["name"], appendPointer(here, "name"), "step");
      const path = step[verb];
      if (!Array.isArray(path) || path.length === 0 || typeof path[0] !== "string")
        fail(appendPointer(here, verb), 'must be a path into the snapshot: a field, then properties, "*" or { field: value }');
      for (const [i, segment] of (path as JsonValue[]).entries())
        if (typeof segment !== "string" && !(isJsonObject(segment) && Object.keys(segment).length === 1))
          fail(appendPointer(here, verb, i), 'a step of a path is a property, "*", or { field: value } for an element');
      if (!("value" in step)) fail(here, 'a step needs a "value": JSON, with { "$from": "/pointer" } for the event\'s values');
      const key =
        verb === "add" || verb === "merge"
          ? text(step["key"], appendPointer(here, "key"), '"key", the field that identifies an element,')
          : undefined;
      return {
        name,
        because: text(step["because"], appendPointer(here, "because"), '"because"'),
        on: selectors(step["on"], appendPointer(here, "on")),
        verb,
        path: path as (string | JsonObject)[],
        ...(key === undefined ? {} : { key }),
        value: step["value"]!,
        pointer: here,
      };
    });
    return { snapshot, steps, pointer: at };
  }
}
