import { InputError } from "../errors.js";
import type { JsonObject, JsonValue } from "../json.js";
import { isJsonObject } from "../json.js";
import type { Provenance, Relocation, ResolvedSchema } from "../resolve/index.js";
import { pointerToFragment } from "../resolve/index.js";
import { aliasExclusion, dependentSchemasKeyword, exactName, wireAliases } from "../schema/aliases.js";
import { dialectOf } from "../schema/dialect.js";
import { DEPENDENT_KEYWORDS, ENUM_NUMBERS_KEYWORD, FALLBACK_KEYWORD, STAMP_KEYWORD } from "../schema/vocabulary.js";
import { pascalCase } from "../identifiers.js";
import { appendPointer, getAtPointer, isWithin, localRefPointer, parsePointer } from "../pointer.js";
import { admitsNull, nullOrAbsent } from "../schema/nulls.js";
import { presence, presenceNames } from "../schema/presence.js";
import { walkSchemas } from "../schema/walk.js";
import type { Fact } from "./facts.js";
import { readFacts } from "./facts.js";

export type { Fact } from "./facts.js";

/**
 * Applies the protocol's overlays to its resolved schema. The result, the effective
 * schema, is still JSON Schema 2020-12: constraints become standard keywords (exactly one
 * member → `oneOf` of `required`, a required property → `required`, or an `allOf` member
 * when it has wire aliases), names become titled `$defs` entries, and what has no keyword
 * (enum fallbacks and numbers, stamps) becomes an `x-agentwire-*` annotation. A field with
 * wire aliases arrives under one of its names at most, which its aliases' dependent
 * schemas say.
 */
export function applyOverlays(resolved: ResolvedSchema): ResolvedSchema {
  // Facts write into a copy; without any, nor aliases, the resolved schema is the effective one as it is.
  if (resolved.protocol.overlays.length === 0 && aliased(resolved.schema).length === 0) return resolved;
  const schema = structuredClone(resolved.schema) as Record<string, JsonValue>;
  let provenance = resolved.provenance;
  const deferred: Fact[] = [];
  for (const overlay of resolved.protocol.overlays)
    for (const fact of readFacts(overlay.document, overlay.file)) {
      // Null is absent for the properties no fact requires, so it applies once the others have.
      if (fact.verb === "nullIsAbsent") deferred.push(fact);
      else provenance = provenance.with(apply(schema, fact, provenance));
    }
  for (const fact of deferred) provenance = provenance.with(apply(schema, fact, provenance));
  provenance = provenance.with(excludeAliases(schema, provenance));
  return { ...resolved, schema, provenance };
}

/** The schemas of a document that have wire aliases, with their pointers. */
function aliased(document: JsonValue): { schema: Record<string, JsonValue>; pointer: string }[] {
  const found: { schema: Record<string, JsonValue>; pointer: string }[] = [];
  walkSchemas(document, "", (schema, pointer) => {
    if (isJsonObject(schema) && wireAliases(schema).size > 0) found.push({ schema: schema as Record<string, JsonValue>, pointer });
  });
  return found;
}

/**
 * Says, of every object with wire aliases, that a field arrives under one of its names at
 * most: the dependent schema of each alias excludes its property (`aliasExclusion`, which
 * says why), as the decoders read it. Located at the alias's pattern property.
 */
function excludeAliases(document: Record<string, JsonValue>, provenance: Provenance): Relocation[] {
  const keyword = dependentSchemasKeyword(dialectOf(document["$schema"]));
  const written: Relocation[] = [];
  for (const { schema, pointer } of aliased(document)) {
    const patterns = Object.keys(schema["patternProperties"] as JsonObject);
    const dependents: Record<string, JsonValue> = isJsonObject(schema[keyword]) ? { ...schema[keyword] } : {};
    for (const [alias, property] of wireAliases(schema)) {
      const exclusion = aliasExclusion(property);
      // One the schema states already stays, the exclusion beside it; defined, since an alias may be "__proto__".
      const value = Object.hasOwn(dependents, alias) ? { allOf: [dependents[alias]!, exclusion] } : exclusion;
      Object.defineProperty(dependents, alias, { value, enumerable: true, writable: true, configurable: true });
      const pattern = patterns.find((each) => exactName(each) === alias)!;
      const source = provenance.locate(appendPointer(pointer, "patternProperties", pattern));
      written.push({ effective: appendPointer(pointer, keyword, alias), file: source.file, pointer: source.pointer ?? "" });
    }
    schema[keyword] = dependents;
  }
  return written;
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
  const written = (...tokens: readonly (string | number)[]): Relocation[] => [
    { effective: appendPointer(fact.at, ...tokens), file: fact.file, pointer: appendPointer(fact.pointer, fact.verb) },
  ];
  switch (fact.verb) {
    case "exactlyOne": {
      if ("oneOf" in schema) fail("the schema already has a oneOf");
      schema["oneOf"] = fact.members.map((member) => {
        const names = wireNames(schema, member, fail);
        if (requiresAny(schema, names)) fail(`"${member}" is required, so it cannot be one of several of which exactly one is present`);
        return presence(names);
      });
      return written("oneOf");
    }
    case "required": {
      const names = wireNames(schema, fact.property, fail);
      if (requiresAny(schema, names)) fail(`"${fact.property}" is already required`, "remove this fact");
      if (list(schema, "oneOf", fail).some((branch) => presenceNames(branch)?.some((name) => names.includes(name))))
        fail(`"${fact.property}" is one of several of which exactly one is present, so it cannot be required alone`);
      // Without aliases the plain keyword; with them, present under any of its names.
      if (names.length === 1) {
        const required = list(schema, "required", fail);
        schema["required"] = [...required, fact.property];
        return written("required", required.length);
      }
      const allOf = list(schema, "allOf", fail);
      schema["allOf"] = [...allOf, presence(names)];
      return written("allOf", allOf.length);
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
      return Object.keys(fact.annotations).flatMap((key) => written(key));
    case "nameMembers":
      return nameMembers(document, schema, fact, provenance, fail);
    case "rename":
      return rename(document, fact, provenance, fail);
    case "nullIsAbsent":
      return nullsAreAbsent(document, provenance);
  }
}

/**
 * Says, of every object's optional properties whose schemas do not admit null, that a null
 * is the property absent, as proto3 JSON reads one: each property's schema becomes an anyOf
 * of null and itself, marked (`nullOrAbsent`), its aliases' alike, so that they still pair;
 * and a branch that says such a property is present (an exactlyOne's) says present and not
 * null. A required property stays as it is: absent, it is refused, and so is its null, which
 * the schema refuses as it stands, where an anyOf would accept a null the decoder then finds
 * missing. So does a property whose null the schema would count otherwise than its absence:
 * in an object with a property count, matched by a pattern besides its own, or naming a
 * dependent schema or requirement. The inner schema is located where the property was written.
 */
function nullsAreAbsent(document: Record<string, JsonValue>, provenance: Provenance): Relocation[] {
  const written: Relocation[] = [];
  const rewrite = (holder: Record<string, JsonValue>, key: string, at: string) => {
    Object.defineProperty(holder, key, {
      value: nullOrAbsent(holder[key] as JsonObject),
      enumerable: true,
      writable: true,
      configurable: true,
    });
    const source = provenance.locate(at);
    written.push({ effective: appendPointer(at, "anyOf", 1), file: source.file, pointer: source.pointer ?? "" });
  };
  walkSchemas(document, "", (node, pointer) => {
    // A branch saying a property is present has properties of its own, which are no object's.
    if (!isJsonObject(node) || !isJsonObject(node["properties"]) || presenceNames(node) !== undefined) return;
    const schema = node as Record<string, JsonValue>;
    // A null counts as a property where properties are counted, so there it stays one.
    if ("minProperties" in schema || "maxProperties" in schema) return;
    const properties = schema["properties"] as Record<string, JsonValue>;
    const patterns = (isJsonObject(schema["patternProperties"]) ? schema["patternProperties"] : {}) as Record<string, JsonValue>;
    const aliases = [...wireAliases(schema)];
    // What else a property's presence or value answers to: a pattern that is no alias, a dependent schema or requirement.
    const others = Object.keys(patterns).filter((pattern) => !aliases.some(([alias]) => exactName(pattern) === alias));
    const dependents = DEPENDENT_KEYWORDS.flatMap((keyword) => (isJsonObject(schema[keyword]) ? Object.keys(schema[keyword]) : []));
    const answers = (name: string) => dependents.includes(name) || others.some((pattern) => mayMatch(pattern, name));
    const absent = new Set<string>();
    for (const name of Object.keys(properties)) {
      const names = [name, ...aliases.filter(([, property]) => property === name).map(([alias]) => alias)];
      const property = properties[name]!;
      if (requiresAny(schema, names) || names.some(answers) || !isJsonObject(property) || admitsNull(property, document)) continue;
      rewrite(properties, name, appendPointer(pointer, "properties", name));
      for (const alias of names.slice(1)) {
        const pattern = Object.keys(patterns).find((each) => exactName(each) === alias)!;
        rewrite(patterns, pattern, appendPointer(pointer, "patternProperties", pattern));
      }
      for (const each of names) absent.add(each);
    }
    for (const keyword of ["oneOf", "anyOf"] as const) {
      if (!Array.isArray(schema[keyword])) continue;
      schema[keyword] = schema[keyword].map((branch) => {
        const names = presenceNames(branch);
        return names !== undefined && names.every((name) => absent.has(name)) ? presence(names, true) : branch;
      });
    }
  });
  return written;
}

/** Whether a pattern property's pattern matches a name; one that does not compile may (normalize refuses it, located). */
function mayMatch(pattern: string, name: string): boolean {
  try {
    return new RegExp(pattern, "u").test(name);
  } catch {
    return true;
  }
}

/** A declared property's names on the wire: its own, then its snake_case aliases. */
function wireNames(schema: JsonObject, property: string, fail: (problem: string, hint?: string) => never): string[] {
  const properties = isJsonObject(schema["properties"]) ? schema["properties"] : {};
  const aliases = [...wireAliases(schema)];
  if (!Object.hasOwn(properties, property)) {
    const canonical = aliases.find(([alias]) => alias === property)?.[1];
    fail(
      `"${property}" is not a property of that schema`,
      canonical === undefined ? undefined : `"${property}" is a wire alias of "${canonical}": name the property, its aliases count too`,
    );
  }
  return [property, ...aliases.filter(([, canonical]) => canonical === property).map(([alias]) => alias)];
}

/** Whether the schema already requires a property by one of these names, itself or in an allOf member. */
function requiresAny(schema: JsonObject, names: readonly string[]): boolean {
  const required = Array.isArray(schema["required"]) ? schema["required"] : [];
  const members = Array.isArray(schema["allOf"]) ? schema["allOf"] : [];
  return names.some((name) => required.includes(name) || members.some((member) => presenceNames(member)?.includes(name)));
}

/** A keyword whose value is an array, or none yet. */
function list(schema: JsonObject, keyword: string, fail: (problem: string) => never): readonly JsonValue[] {
  const value = schema[keyword] ?? [];
  return Array.isArray(value) ? value : fail(`the schema's "${keyword}" is not an array`);
}

/**
 * Names a schema: a named type's `$defs` entry takes the new key in its place, an inline
 * schema is moved into `$defs` after the type that holds it; every `$ref` to it, or into
 * it, follows.
 */
function rename(
  document: Record<string, JsonValue>,
  fact: Fact & { verb: "rename" },
  provenance: Provenance,
  fail: (problem: string) => never,
): Relocation[] {
  const [defs, holder, ...inside] = parsePointer(fact.at);
  if (defs !== "$defs" || holder === undefined) return fail("only a schema in /$defs, or inside one, can be renamed");
  const to = appendPointer("/$defs", fact.name);
  if (Object.hasOwn(document["$defs"] as JsonObject, fact.name)) fail(`the name "${fact.name}" is taken by ${to}`);
  const schema = getAtPointer(document, fact.at) as JsonValue;
  if (inside.length > 0) {
    const parent = getAtPointer(document, appendPointer("/$defs", holder, ...inside.slice(0, -1))) as Record<string, JsonValue>;
    parent[inside.at(-1)!] = { $ref: pointerToFragment(to) };
  }
  // A named type keeps its place among the definitions; an inline schema follows the type that holds it.
  const entries = Object.entries(document["$defs"] as JsonObject).flatMap(([name, definition]): [string, JsonValue][] => {
    if (name !== holder) return [[name, definition]];
    return inside.length === 0
      ? [[fact.name, definition]]
      : [
          [name, definition],
          [fact.name, schema],
        ];
  });
  document["$defs"] = Object.fromEntries(entries);
  redirectRefs(document, fact.at, to);
  const source = provenance.locate(fact.at);
  return [{ effective: to, file: source.file, pointer: source.pointer ?? "" }];
}

/** Points every local `$ref` to `from`, or into it, at `to` instead. */
function redirectRefs(document: JsonValue, from: string, to: string): void {
  walkSchemas(document, "", (schema) => {
    const pointer = isJsonObject(schema) ? localRefPointer(schema["$ref"]) : undefined;
    if (pointer !== undefined && isWithin(pointer, from))
      (schema as Record<string, JsonValue>)["$ref"] = pointerToFragment(to + pointer.slice(from.length));
  });
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
