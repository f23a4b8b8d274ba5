import { InputError } from "../errors.js";
import type { JsonObject, JsonPrimitive, JsonValue } from "../json.js";
import { isJsonObject } from "../json.js";
import type { StampUnit } from "../schema/keywords.js";
import { MODELLED, STAMP_UNITS } from "../schema/keywords.js";
import { appendPointer } from "../pointer.js";

/**
 * An overlay states what a protocol's prose says and its schema cannot. Each fact targets
 * a schema by its JSON Pointer in the resolved schema (named types are `/$defs/<Name>`),
 * does one thing, and says where the prose says so. See `schemas/README.md`.
 */
export type Fact = ExactlyOne | Required | Fallback | EnumNumbers | NameMembers | Rename | Stamp | Annotate;

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

const VERBS = ["exactlyOne", "required", "fallback", "enumNumbers", "nameMembers", "rename", "stamp", "annotate"] as const;

/** Checks an overlay file's shape and returns its facts in order. */
export function readFacts(document: JsonValue, file: string): Fact[] {
  const fail = (pointer: string, problem: string, hint?: string): never => {
    throw new InputError({ file, pointer }, problem, hint);
  };
  if (!isJsonObject(document) || !(document["facts"] === undefined || Array.isArray(document["facts"])))
    return fail("", 'expected an object with a "facts" array');
  // The stream facts are read by generator/stream, against the IR.
  for (const key of Object.keys(document))
    if (!["$schema", "description", "facts", "stream"].includes(key)) fail(appendPointer("", key), `unknown key "${key}"`);
  return ((document["facts"] ?? []) as readonly JsonValue[]).map((entry, index): Fact => {
    const pointer = appendPointer("/facts", index);
    if (!isJsonObject(entry)) return fail(pointer, "a fact must be an object");
    const verbs = VERBS.filter((verb) => verb in entry);
    if (verbs.length !== 1) fail(pointer, `a fact has exactly one of ${VERBS.join(", ")}; this one has ${verbs.length}`);
    for (const key of Object.keys(entry))
      if (!["at", "because", ...VERBS].includes(key)) fail(appendPointer(pointer, key), `unknown key "${key}"`);
    const at = entry["at"];
    if (typeof at !== "string" || !(at === "" || at.startsWith("/")))
      return fail(appendPointer(pointer, "at"), '"at" must be a JSON Pointer, such as "/$defs/Part"');
    const because = entry["because"];
    if (typeof because !== "string" || because.trim() === "")
      return fail(appendPointer(pointer, "because"), '"because" must say where the prose states this fact');
    const verb = verbs[0]!;
    const value = entry[verb]!;
    const here = appendPointer(pointer, verb);
    const base = { at, because, file, pointer };
    switch (verb) {
      case "exactlyOne":
        if (!Array.isArray(value) || value.length < 2 || value.some((member) => typeof member !== "string"))
          return fail(here, '"exactlyOne" lists at least two property names');
        return { ...base, verb, members: value as string[] };
      case "required":
        // One property per fact, so that each says where the prose requires it.
        if (typeof value !== "string" || value === "") return fail(here, '"required" is the name of one property');
        return { ...base, verb, property: value };
      case "fallback":
        if (isJsonObject(value) || Array.isArray(value)) return fail(here, '"fallback" is one of the enum\'s values');
        return { ...base, verb, value: value as JsonPrimitive };
      case "enumNumbers":
        if (!isJsonObject(value) || Object.values(value).some((number) => !Number.isSafeInteger(number)))
          return fail(here, '"enumNumbers" maps each enum value to its integer');
        return { ...base, verb, numbers: value as Record<string, number> };
      case "nameMembers": {
        if (!isJsonObject(value) || typeof value["tag"] !== "string")
          return fail(here, '"nameMembers" is { "tag": "<property>", "suffix"?: "…", "prefix"?: "…" }');
        const affix = (key: string) => {
          const text = value[key] ?? "";
          return typeof text === "string" && /^[A-Za-z0-9_]*$/.test(text)
            ? text
            : fail(appendPointer(here, key), `"${key}" must be letters and digits`);
        };
        return { ...base, verb, tag: value["tag"], prefix: affix("prefix"), suffix: affix("suffix") };
      }
      case "rename":
        if (typeof value !== "string" || !/^[A-Z][A-Za-z0-9]*$/.test(value))
          return fail(here, '"rename" is the new name: a letter in upper case, then letters and digits (AgentProviderUrl)');
        return { ...base, verb, name: value };
      case "stamp":
        if (!STAMP_UNITS.includes(value as StampUnit)) return fail(here, `"stamp" is the time's unit: ${STAMP_UNITS.join(" or ")}`);
        return { ...base, verb, unit: value as StampUnit };
      case "annotate": {
        if (!isJsonObject(value)) return fail(here, '"annotate" is an object of annotation keywords');
        for (const keyword of Object.keys(value))
          if (MODELLED.has(keyword))
            fail(
              appendPointer(here, keyword),
              `"${keyword}" constrains values; an overlay only annotates`,
              "state constraints in the schema itself, or as a fact such as exactlyOne",
            );
        return { ...base, verb, annotations: value };
      }
    }
  });
}
