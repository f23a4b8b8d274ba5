import { InputError } from "../errors.js";
import type { JsonObject, JsonValue } from "../json.js";
import { isJsonObject } from "../json.js";
import type { Provenance, Relocation, ResolvedSchema } from "../resolve/index.js";
import { pointerToFragment } from "../resolve/index.js";
import { wireAliases } from "../schema/aliases.js";
import { ENUM_NUMBERS_KEYWORD, FALLBACK_KEYWORD, STAMP_KEYWORD } from "../schema/keywords.js";
import { pascalCase } from "../schema/names.js";
import { appendPointer, getAtPointer } from "../schema/pointer.js";
import type { Fact } from "./facts.js";
import { readFacts } from "./facts.js";

export type { Fact } from "./facts.js";

/**
 * Applies the protocol's overlays to its resolved schema. The result, the effective
 * schema, is still JSON Schema 2020-12: constraints become standard keywords (exactly one
 * member → `oneOf` of `required`), names become titled `$defs` entries, and what has no
 * keyword (enum fallbacks and numbers, stamps) becomes an `x-agentwire-*` annotation.
 */
export function applyOverlays(resolved: ResolvedSchema): ResolvedSchema {
  const schema = structuredClone(resolved.schema) as Record<string, JsonValue>;
  let provenance = resolved.provenance;
  for (const overlay of resolved.protocol.overlays)
    for (const fact of readFacts(overlay.document, overlay.file)) {
      provenance = provenance.with(apply(schema, fact, provenance));
    }
  return { ...resolved, schema, provenance };
}

/** Applies one fact in place; returns where what it wrote came from. */
function apply(document: Record<string, JsonValue>, fact: Fact, provenance: Provenance): Relocation[] {
  const fail = (problem: string, hint?: string): never => {
    throw new InputError({ file: fact.file, pointer: fact.pointer }, `${problem} (at "${fact.at}")`, hint);
  };
  const target = getAtPointer(document, fact.at);
  if (!isJsonObject(target))
    return fail(
      target === undefined ? "nothing is there" : "that is not a schema object",
      "point at a schema of the resolved schema, where every named type is /$defs/<Name>",
    );
  const schema = target as Record<string, JsonValue>;
  // What a fact writes is located at the fact, for errors the normalizer finds there.
  const written = (keyword: string): Relocation[] => [
    { effective: appendPointer(fact.at, keyword), file: fact.file, pointer: appendPointer(fact.pointer, fact.verb) },
  ];
  switch (fact.verb) {
    case "exactlyOne": {
      if ("oneOf" in schema) fail("the schema already has a oneOf");
      const properties = isJsonObject(schema["properties"]) ? schema["properties"] : {};
      const aliases = [...wireAliases(schema)];
      schema["oneOf"] = fact.members.map((member) => {
        if (!Object.hasOwn(properties, member)) fail(`"${member}" is not a property of that schema`);
        const names = [member, ...aliases.filter(([, property]) => property === member).map(([alias]) => alias)];
        return names.length === 1 ? { required: [member] } : { anyOf: names.map((name) => ({ required: [name] })) };
      });
      return written("oneOf");
    }
    case "fallback":
      schema[FALLBACK_KEYWORD] = fact.value;
      return written(FALLBACK_KEYWORD);
    case "enumNumbers":
      schema[ENUM_NUMBERS_KEYWORD] = fact.numbers;
      return written(ENUM_NUMBERS_KEYWORD);
    case "stamp":
      schema[STAMP_KEYWORD] = fact.unit;
      return written(STAMP_KEYWORD);
    case "annotate":
      // Defined, not assigned: an annotation named "__proto__" is a property, not a prototype.
      for (const [key, value] of Object.entries(fact.annotations))
        Object.defineProperty(schema, key, { value, enumerable: true, writable: true, configurable: true });
      return Object.keys(fact.annotations).flatMap(written);
    case "nameMembers":
      return nameMembers(document, schema, fact, provenance, fail);
  }
}

/** Moves each inline member of the union into `$defs`, named from its tag's value. */
function nameMembers(
  document: Record<string, JsonValue>,
  union: Record<string, JsonValue>,
  fact: Fact & { verb: "nameMembers" },
  provenance: Provenance,
  fail: (problem: string) => never,
): Relocation[] {
  const keyword = "oneOf" in union ? "oneOf" : "anyOf" in union ? "anyOf" : fail("the schema has no oneOf or anyOf");
  const named: [string, JsonValue][] = [];
  const created: Relocation[] = [];
  union[keyword] = (union[keyword] as JsonValue[]).map((member, index) => {
    if (!isJsonObject(member) || "$ref" in member) return member;
    const tag = isJsonObject(member["properties"]) ? member["properties"][fact.tag] : undefined;
    const value = isJsonObject(tag)
      ? (tag["const"] ?? (Array.isArray(tag["enum"]) && tag["enum"].length === 1 ? tag["enum"][0] : undefined))
      : undefined;
    if (typeof value !== "string") return fail(`a member has no constant "${fact.tag}" to name it by`);
    const name = `${fact.prefix}${pascalCase(value)}${fact.suffix}`;
    if (Object.hasOwn(document["$defs"] as JsonObject, name) || named.some(([taken]) => taken === name))
      fail(`the name "${name}" for the member tagged ${JSON.stringify(value)} is taken`);
    named.push([name, { title: name, ...(member as JsonObject) }]);
    const source = provenance.locate(appendPointer(fact.at, keyword, index));
    created.push({ effective: appendPointer("/$defs", name), file: source.file, pointer: source.pointer ?? "" });
    return { $ref: pointerToFragment(appendPointer("/$defs", name)) };
  });
  // The members follow their union, so that the generated code reads in that order.
  const entries = Object.entries(document["$defs"] as JsonObject);
  const after = entries.findIndex(([name]) => appendPointer("/$defs", name) === fact.at);
  entries.splice(after === -1 ? entries.length : after + 1, 0, ...named);
  document["$defs"] = Object.fromEntries(entries);
  return created;
}
