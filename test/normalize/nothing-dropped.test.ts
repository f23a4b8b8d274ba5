import { describe, expect, it } from "vitest";
import { InputError } from "../../generator/errors.js";
import type { JsonObject, JsonValue } from "../../generator/json.js";
import { isJsonObject } from "../../generator/json.js";
import { unescapeToken } from "../../generator/pointer.js";
import { isKeywordOf } from "../../generator/schema/dialect.js";
import { ANNOTATIONS, MODELLED } from "../../generator/schema/vocabulary.js";
import { mapSchemas, subschemasOf } from "../../generator/schema/walk.js";
import { irOf } from "../helpers/in-memory.js";
import type { Draft } from "../suite/run.js";
import { readGroups, schemaFor } from "../suite/run.js";

/**
 * Nothing dropped: every keyword of every schema agentwire accepts is enforced or an
 * annotation. Enforced is proven, not assumed: without the keyword, the schema's IR
 * differs (or the schema is refused). The schemas are the official suite's groups that
 * normalize in memory, which between them use every keyword.
 */
const DRAFTS: readonly Draft[] = ["draft2020-12", "draft7", "draft4"];

/**
 * JSON Schema's keywords, of drafts 4 to 2020-12, as their metaschemas list them: any
 * other key is unknown, which the drafts ignore.
 */
const STANDARD = new Set(
  [
    // core
    "$schema $id id $ref $anchor $dynamicRef $dynamicAnchor $recursiveRef $recursiveAnchor $vocabulary $comment $defs definitions",
    // applicator (and 2019-09's unevaluated keywords)
    "prefixItems items additionalItems contains additionalProperties properties patternProperties dependentSchemas propertyNames",
    "if then else allOf anyOf oneOf not unevaluatedItems unevaluatedProperties dependencies",
    // validation
    "type const enum multipleOf maximum exclusiveMaximum minimum exclusiveMinimum maxLength minLength pattern",
    "maxItems minItems uniqueItems maxContains minContains maxProperties minProperties required dependentRequired",
    // meta-data, format, content
    "title description default deprecated readOnly writeOnly examples format contentEncoding contentMediaType contentSchema",
  ].flatMap((line) => line.split(" ")),
);

describe("the keywords of JSON Schema", () => {
  it("are each modelled or an annotation", () => {
    expect([...STANDARD].filter((keyword) => !MODELLED.has(keyword) && !ANNOTATIONS.has(keyword))).toEqual([]);
    expect([...MODELLED, ...ANNOTATIONS].filter((keyword) => !STANDARD.has(keyword))).toEqual([]);
  });
});

/**
 * Keywords whose removal leaves the IR as it was, because another keyword of the same
 * schema already says what they say: "file #group pointer keyword", with why.
 */
const REDUNDANT: Readonly<Record<Draft, readonly string[]>> = {
  "draft2020-12": [
    // The other allOf member's additionalProperties already makes foo an integer.
    "infinite-loop-detection.json #0: evaluating the same schema location against the same data location twice is not a sign of an infinite loop /allOf/0/properties/foo $ref",
    // No property is required.
    "required.json #2: required with empty array  required",
    // additionalProperties (own or in an allOf member) evaluates every property, or an
    // inner unevaluatedProperties: true does: nothing is left unevaluated.
    "unevaluatedProperties.json #5: unevaluatedProperties with adjacent bool additionalProperties  unevaluatedProperties",
    "unevaluatedProperties.json #6: unevaluatedProperties with adjacent non-bool additionalProperties  unevaluatedProperties",
    "unevaluatedProperties.json #9: unevaluatedProperties with nested additionalProperties  unevaluatedProperties",
    "unevaluatedProperties.json #10: unevaluatedProperties with nested unevaluatedProperties  unevaluatedProperties",
    "unevaluatedProperties.json #10: unevaluatedProperties with nested unevaluatedProperties /unevaluatedProperties type",
    "unevaluatedProperties.json #10: unevaluatedProperties with nested unevaluatedProperties /unevaluatedProperties maxLength",
    "unevaluatedProperties.json #24: nested unevaluatedProperties, outer false, inner true, properties outside  unevaluatedProperties",
    "unevaluatedProperties.json #25: nested unevaluatedProperties, outer false, inner true, properties inside  unevaluatedProperties",
    // The $ref'd schema is an object too.
    "dynamicRef.json #9: A $dynamicRef that initially resolves to a schema with a matching $dynamicAnchor resolves to the first $dynamicAnchor in the dynamic scope  type",
    "dynamicRef.json #10: A $dynamicRef that initially resolves to a schema without a matching $dynamicAnchor behaves like a normal $ref to $anchor  type",
    // The schema true says nothing.
    "unevaluatedProperties.json #18: unevaluatedProperties with boolean schemas  allOf",
    // unevaluatedProperties: true accepts every property it sees.
    "unevaluatedProperties.json #26: nested unevaluatedProperties, outer true, inner false, properties outside  unevaluatedProperties",
    "unevaluatedProperties.json #27: nested unevaluatedProperties, outer true, inner false, properties inside  unevaluatedProperties",
    "unevaluatedProperties.json #28: cousin unevaluatedProperties, true and false, true with properties /allOf/0 unevaluatedProperties",
    "unevaluatedProperties.json #29: cousin unevaluatedProperties, true and false, false with properties /allOf/0 unevaluatedProperties",
    // minContains 1 is the default.
    "maxContains.json #3: minContains < maxContains  minContains",
    "minContains.json #1: minContains=1 with contains  minContains",
    // minContains 0 without maxContains: contains asks nothing, whatever its schema.
    "minContains.json #6: minContains = 0 /contains const",
    // items, or an inner unevaluatedItems: true, evaluates every item: none is left unevaluated.
    "unevaluatedItems.json #3: unevaluatedItems with uniform items  unevaluatedItems",
    "unevaluatedItems.json #5: unevaluatedItems with items and prefixItems  unevaluatedItems",
    "unevaluatedItems.json #6: unevaluatedItems with items  unevaluatedItems",
    "unevaluatedItems.json #6: unevaluatedItems with items /unevaluatedItems type",
    "unevaluatedItems.json #10: unevaluatedItems with nested unevaluatedItems  unevaluatedItems",
    // The schema true says nothing.
    "unevaluatedItems.json #15: unevaluatedItems with boolean schemas  allOf",
    // foo's own unevaluatedItems: false admits no second item, whatever the uncle says of it.
    "unevaluatedItems.json #20: item is evaluated in an uncle schema to unevaluatedItems /anyOf/0/properties/foo/prefixItems/1 type",
    // uniqueItems: false beside other array keywords says nothing.
    "uniqueItems.json #4: uniqueItems=false with an array of items  uniqueItems",
    "uniqueItems.json #5: uniqueItems=false with an array of items and additionalItems=false  uniqueItems",
  ],
  draft7: [
    "infinite-loop-detection.json #0: evaluating the same schema location against the same data location twice is not a sign of an infinite loop /allOf/0/properties/foo $ref",
    "required.json #2: required with empty array  required",
    // items: {} says nothing.
    "additionalItems.json #2: when items is schema, boolean additionalItems does nothing  items",
    // The allOf member and the schema both say the first item is an integer.
    "additionalItems.json #6: additionalItems does not look in applicators, invalid case /allOf/0/items/0 type",
    "additionalItems.json #6: additionalItems does not look in applicators, invalid case /items/0 type",
    // uniqueItems: false beside other array keywords says nothing.
    "uniqueItems.json #4: uniqueItems=false with an array of items  uniqueItems",
    "uniqueItems.json #5: uniqueItems=false with an array of items and additionalItems=false  uniqueItems",
  ],
  draft4: [
    // items: {} says nothing.
    "additionalItems.json #1: items is schema, no additionalItems  items",
  ],
};

/**
 * Keywords the drafts themselves ignore where they stand, with the schemas beneath them:
 * `then` and `else` without `if`, `if` without either, the content of `contentSchema` (an
 * annotation), keywords of other drafts, `additionalItems` beside an `items` that is no
 * tuple and, up to draft 7, the siblings of `$ref`.
 */
function inert(schema: JsonObject, keyword: string, draft: Draft): boolean {
  if (keyword === "contentSchema" || !isKeywordOf(keyword, draft)) return true;
  if (keyword === "additionalItems") return !Array.isArray(schema["items"]);
  if (keyword === "then" || keyword === "else") return !("if" in schema);
  if (keyword === "if") return !("then" in schema || "else" in schema);
  return draft !== "draft2020-12" && "$ref" in schema && keyword !== "$ref";
}

/** Every keyword of a schema and its subschemas, where the draft reads it. */
function keywordsOf(schema: JsonValue, pointer: string, draft: Draft, found: Occurrence[], group: string): void {
  if (!isJsonObject(schema)) return;
  const live = new Set(Object.keys(schema).filter((keyword) => !inert(schema, keyword, draft)));
  for (const keyword of live) found.push({ group, pointer, keyword });
  for (const child of subschemasOf(schema, pointer)) {
    const keyword = unescapeToken(child.pointer.slice(pointer.length + 1).split("/")[0]!);
    if (live.has(keyword)) keywordsOf(child.schema, child.pointer, draft, found, group);
  }
}

interface Occurrence {
  readonly group: string;
  readonly pointer: string;
  readonly keyword: string;
}

function irText(schema: JsonValue): string | undefined {
  try {
    return JSON.stringify(irOf(schema));
  } catch (error) {
    if (error instanceof InputError) return undefined;
    throw error;
  }
}

/** The schema without one keyword at one place. */
function without(schema: JsonValue, { pointer, keyword }: Occurrence): JsonValue {
  return mapSchemas(schema, "", (each, at) =>
    at === pointer ? Object.fromEntries(Object.entries(each).filter(([key]) => key !== keyword)) : each,
  );
}

function accepted(draft: Draft): { id: string; schema: JsonValue; ir: string }[] {
  return readGroups(draft).groups.flatMap((group) => {
    const { schema } = schemaFor(draft, group.schema);
    const ir = irText(schema);
    return ir === undefined ? [] : [{ id: group.id, schema, ir }];
  });
}

describe.each(DRAFTS)("nothing dropped in %s", (draft) => {
  const groups = accepted(draft);
  const occurrences = groups.flatMap(({ id, schema }) => {
    const found: Occurrence[] = [];
    keywordsOf(schema, "", draft, found, id);
    return found;
  });

  it("reads the accepted groups", () => {
    expect(groups.length).toBeGreaterThan(draft === "draft4" ? 50 : 100);
  });

  it("knows every standard keyword it accepts as modelled or an annotation", () => {
    const unknown = occurrences.filter(({ keyword }) => STANDARD.has(keyword) && !MODELLED.has(keyword) && !ANNOTATIONS.has(keyword));
    expect(unknown.map(({ group, pointer, keyword }) => `${group} ${pointer} ${keyword}`)).toEqual([]);
  });

  it("enforces every modelled keyword: without it, the IR differs", () => {
    const byGroup = new Map(groups.map((group) => [group.id, group]));
    const idle = occurrences
      .filter(({ keyword }) => MODELLED.has(keyword))
      .filter((occurrence) => {
        const group = byGroup.get(occurrence.group)!;
        return irText(without(group.schema, occurrence)) === group.ir;
      })
      .map(({ group, pointer, keyword }) => `${group} ${pointer} ${keyword}`);
    expect(idle.sort()).toEqual([...REDUNDANT[draft]].sort());
  });
});
