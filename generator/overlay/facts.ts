import { InputError } from "../errors.js";
import type { Fact as FactFile, Overlay } from "../formats/overlay/types.js";
import { decodeOverlay } from "../formats/overlay/validate.js";
import type { JsonObject, JsonPrimitive, JsonValue } from "../json.js";
import { isJsonObject } from "../json.js";
import { appendPointer } from "../pointer.js";
import type { Refused, Words } from "../refusal.js";
import { refusalError } from "../refusal.js";
import type { StampUnit } from "../schema/vocabulary.js";
import { MODELLED, STAMP_UNITS } from "../schema/vocabulary.js";

/**
 * An overlay states what a protocol's prose says and its schema cannot. Each fact targets
 * a schema by its JSON Pointer in the resolved schema (named types are `/$defs/<Name>`),
 * does one thing, and says where the prose says so. See `schemas/README.md`.
 */
export type Fact = ExactlyOne | Required | Fallback | EnumNumbers | NameMembers | Rename | Stamp | Annotate | NullIsAbsent;

interface FactBase {
  readonly at: string;
  readonly because: string;
  /** Where the fact is, for messages: the overlay file and the fact's pointer in it. */
  readonly file: string;
  readonly pointer: string;
}

/** Exactly one of these properties is present (a proto `oneof`, or prose saying so). */
export interface ExactlyOne extends FactBase {
  readonly verb: "exactlyOne";
  readonly members: readonly string[];
}

/** A property the schema declares is present, under its name or one of its wire aliases. */
export interface Required extends FactBase {
  readonly verb: "required";
  readonly property: string;
}

/** A tolerant receiver reads an enum value it does not know as this one. */
export interface Fallback extends FactBase {
  readonly verb: "fallback";
  readonly value: JsonPrimitive;
}

/** The number each enum value has on the wire, where integers are accepted too. */
export interface EnumNumbers extends FactBase {
  readonly verb: "enumNumbers";
  readonly numbers: Readonly<Record<string, number>>;
}

/** Names the inline members of a union from their tag: PascalCase(tag value) + suffix. */
export interface NameMembers extends FactBase {
  readonly verb: "nameMembers";
  readonly tag: string;
  readonly prefix: string;
  readonly suffix: string;
}

/**
 * Gives a schema the name its type is generated under: a named type (`/$defs/<Name>`) is
 * renamed, references and all; an inline schema is moved into `$defs` under the name.
 */
export interface Rename extends FactBase {
  readonly verb: "rename";
  readonly name: string;
}

/** A field a producer fills with the current time, in the unit the prose states. */
export interface Stamp extends FactBase {
  readonly verb: "stamp";
  readonly unit: StampUnit;
}

/** Adds annotations (never assertions) to a schema, such as `deprecated`. */
export interface Annotate extends FactBase {
  readonly verb: "annotate";
  readonly annotations: JsonObject;
}

/**
 * A null property is that property absent, as proto3 JSON reads one, where the property's
 * schema does not admit null itself (`google.protobuf.Value` does). Of the whole schema:
 * its `at` is the root, "".
 */
export interface NullIsAbsent extends FactBase {
  readonly verb: "nullIsAbsent";
}

/** The verbs, each a key of a fact of the overlay's schema but "at" and "because". */
const VERBS = Object.keys({
  exactlyOne: true,
  required: true,
  fallback: true,
  enumNumbers: true,
  nameMembers: true,
  rename: true,
  stamp: true,
  annotate: true,
  nullIsAbsent: true,
} satisfies Record<Exclude<keyof FactFile, "at" | "because">, true>) as Fact["verb"][];

const KEYS: readonly (keyof Overlay)[] = ["$schema", "description", "facts", "stream"];

const says =
  (problem: string) =>
  ({ pointer }: Refused) => ({ pointer, problem });
/** A verb's words, at the verb, for what is wrong anywhere in its value. */
const verb = (name: string, problem: string): Words[] => [
  { at: `/facts/*/${name}`, say: says(problem) },
  { at: `/facts/*/${name}/*`, say: ({ parent }) => ({ pointer: parent, problem }) },
];

/** The overlay's words for what its schema refuses, where the validator's would say less. */
const WORDS: readonly Words[] = [
  {
    at: "/*",
    keyword: "additionalProperties",
    say: ({ key }) => ({ problem: `unknown key "${key}"`, hint: `known keys: ${KEYS.join(", ")}` }),
  },
  { at: "/facts", say: () => ({ pointer: "", problem: 'expected an object with a "facts" array' }) },
  { at: "/facts/*", keyword: "type", say: says("a fact must be an object") },
  {
    at: "/facts/*",
    keyword: "oneOf",
    say: ({ value }) => {
      const count = VERBS.filter((verb) => isJsonObject(value) && verb in value).length;
      return { problem: `a fact has exactly one of ${VERBS.join(", ")}; this one has ${count}` };
    },
  },
  { at: "/facts/*/at", say: says('"at" must be a JSON Pointer, such as "/$defs/Part"') },
  { at: "/facts/*/because", say: says('"because" must say where the prose states this fact') },
  ...verb("exactlyOne", '"exactlyOne" lists at least two property names'),
  ...verb("required", '"required" is the name of one property'),
  ...verb("fallback", '"fallback" is one of the enum\'s values'),
  ...verb("enumNumbers", '"enumNumbers" maps each enum value to its integer'),
  { at: "/facts/*/nameMembers/prefix", say: ({ key }) => ({ problem: `"${key}" must be letters and digits` }) },
  { at: "/facts/*/nameMembers/suffix", say: ({ key }) => ({ problem: `"${key}" must be letters and digits` }) },
  {
    at: "/facts/*/nameMembers/*",
    keyword: "additionalProperties",
    say: ({ key }) => ({ problem: `unknown key "${key}"`, hint: "known keys: tag, prefix, suffix" }),
  },
  ...verb("nameMembers", '"nameMembers" is { "tag": "<property>", "suffix"?: "…", "prefix"?: "…" }'),
  ...verb("rename", '"rename" is the new name: a letter in upper case, then letters and digits (AgentProviderUrl)'),
  ...verb("stamp", `"stamp" is the time's unit: ${STAMP_UNITS.join(" or ")}`),
  ...verb("annotate", '"annotate" is an object of annotation keywords'),
  ...verb("nullIsAbsent", '"nullIsAbsent" is true'),
];

/**
 * Reads an overlay's facts: the overlay schema's decoder (`formats/overlay/`) checks their
 * shape, the `stream` section left to generator/stream, which reads it against the IR;
 * then what no schema here says, that an annotation is no assertion. Returns them in order.
 */
export function readFacts(document: JsonValue, file: string): Fact[] {
  if (!isJsonObject(document)) throw new InputError({ file, pointer: "" }, 'expected an object with a "facts" array');
  const { stream: _, ...facts } = document;
  const decoded = decodeOverlay(facts, { mode: "strict", maxErrors: 1 });
  if (!decoded.ok) throw refusalError(file, "", facts, decoded.errors, WORDS);
  return (decoded.value.facts ?? []).map((entry, index): Fact => {
    const pointer = appendPointer("/facts", index);
    const base = { at: entry.at, because: entry.because, file, pointer };
    if (entry.exactlyOne !== undefined) return { ...base, verb: "exactlyOne", members: entry.exactlyOne };
    // One property per fact, so that each says where the prose requires it.
    if (entry.required !== undefined) return { ...base, verb: "required", property: entry.required };
    if (entry.fallback !== undefined) return { ...base, verb: "fallback", value: entry.fallback };
    if (entry.enumNumbers !== undefined) return { ...base, verb: "enumNumbers", numbers: entry.enumNumbers };
    if (entry.nameMembers !== undefined) {
      const { tag, prefix = "", suffix = "" } = entry.nameMembers;
      return { ...base, verb: "nameMembers", tag, prefix, suffix };
    }
    if (entry.rename !== undefined) return { ...base, verb: "rename", name: entry.rename };
    if (entry.stamp !== undefined) return { ...base, verb: "stamp", unit: entry.stamp };
    if (entry.nullIsAbsent !== undefined) {
      // Of the whole schema, which the overlay's schema cannot say without losing its oneOf of verbs.
      if (entry.at !== "")
        throw new InputError(
          { file, pointer: appendPointer(pointer, "at") },
          '"nullIsAbsent" is a fact of the whole schema: its "at" is ""',
        );
      return { ...base, verb: "nullIsAbsent" };
    }
    const annotations: JsonObject = isJsonObject(entry.annotate) ? entry.annotate : {};
    for (const keyword of Object.keys(annotations))
      if (MODELLED.has(keyword))
        throw new InputError(
          { file, pointer: appendPointer(pointer, "annotate", keyword) },
          `"${keyword}" constrains values; an overlay only annotates`,
          "state constraints in the schema itself, or as a fact such as exactlyOne",
        );
    return { ...base, verb: "annotate", annotations };
  });
}
