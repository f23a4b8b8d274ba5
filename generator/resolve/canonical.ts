import type { JsonObject, JsonValue } from "../json.js";
import { isJsonObject } from "../json.js";
import { DYNAMIC_REF_KEYWORDS, USE_SITE_ANNOTATIONS, VOCABULARIES_KEYWORD } from "../schema/vocabulary.js";
import { mapSchemas } from "../schema/walk.js";
import { nameCycles } from "./cycles.js";
import type { CustomDialect } from "./metaschema.js";
import { hoistTitled, NamedSchemas, nameDefinitions, nameRefTargets, nameRootRef, nameRoots } from "./named.js";
import type { Named } from "./naming.js";
import { CONTAINERS } from "./naming.js";
import { Provenance } from "./provenance.js";
import type { RefResolver } from "./ref-pointers.js";
import { refResolver } from "./ref-pointers.js";
import { pointerToFragment } from "./refs.js";
import type { Resources } from "./resources.js";
import type { Scope } from "./scopes.js";
import { DynamicScopes } from "./scopes.js";

const DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema";

/**
 * Turns the protocol's files into one self-contained schema in which every named type
 * is an entry of the root `$defs`, under its generated name:
 *
 * - each definition (`$defs` or `definitions`, in any file) is named by its key;
 * - a file whose root constrains values is a type named by its title, where the title
 *   reads as a name (`isNameLike`), else by its file;
 * - an inline schema with a title that reads as a name is hoisted into `$defs` and named
 *   by its title;
 *   identical titled schemas share one entry, and the annotations of each use
 *   (description, default…) stay where it is used;
 * - a schema a ref leads to that no named schema holds as a subschema (outside any
 *   `$defs`, or under a key that is no keyword: `#/definitions/group/x`) is named by its
 *   key, and resolved as any other;
 * - a ref's target at a keyword place of a named schema that lies on a cycle of refs
 *   through schemas without a name (ESLint's `#/properties/overrides`) is named by its
 *   key and hoisted, as a titled schema is; a target on no such cycle stays inline;
 * - every `$ref` is rewritten to a pointer into this document.
 *
 * An embedded schema resource (a schema with its own `$id`) stays where it is: its `$id`
 * only changes what the refs in it resolve against.
 */
export function canonicalize(
  resources: Resources,
  protocol: string,
  dialect?: CustomDialect,
): { schema: JsonObject; provenance: Provenance } {
  const named = new NamedSchemas(resources, protocol);
  nameRoots(named);
  for (const file of resources.files) nameDefinitions(named, file, file.document, "");
  hoistTitled(named);
  nameRefTargets(named);
  nameRootRef(named);
  nameCycles(named);

  const { names, root } = named;
  const resolveRef = refResolver(resources, names);
  const scopes = new DynamicScopes(resources, names, resolveRef);
  const rewriting: Rewriting = { named, scopes, resolveRef };
  const document = root.document;
  // A custom metaschema's dialect is the draft it extends, less the vocabularies it leaves out.
  const effective: Record<string, JsonValue> =
    dialect !== undefined
      ? { $schema: dialect.draft, [VOCABULARIES_KEYWORD]: [...dialect.vocabularies] }
      : { $schema: isJsonObject(document) && typeof document["$schema"] === "string" ? document["$schema"] : DRAFT_2020_12 };
  if (isJsonObject(document)) {
    if (names.relocated.get(root)!.get("") !== undefined) effective["$ref"] = pointerToFragment(names.relocated.get(root)!.get("")!);
    else {
      for (const key of ["title", "description"]) if (document[key] !== undefined) effective[key] = document[key]!;
      if (typeof document["$ref"] === "string")
        effective["$ref"] = scopes.retarget(resolveRef(root, "", document["$ref"]), scopes.of(resources.baseOf(root, "")));
    }
  }
  const definitions = names.named.map((entry): [string, JsonValue] => [
    entry.name,
    rewriteBody(entry, scopes.standalone(entry), rewriting),
  ]);
  // Types seen in another dynamic scope than their own, as refs above found them, in turn.
  for (let instance = scopes.next(); instance !== undefined; instance = scopes.next())
    definitions.push([instance.name, rewriteBody(instance.entry, instance.scope, rewriting)]);
  effective["$defs"] = Object.fromEntries(definitions);
  const relocations = [
    ...[...names.relocated].flatMap(([file, places]) =>
      [...places].map(([pointer, effectivePointer]) => ({ effective: effectivePointer, file: file.file, pointer })),
    ),
    ...scopes.instances.map(({ name, entry }) => ({ effective: `/$defs/${name}`, file: entry.source.file, pointer: entry.pointer })),
  ];
  return { schema: effective, provenance: new Provenance(root.file, relocations) };
}

/** What rewriting a named type's body reads: the named schemas, the dynamic scopes, and where refs lead. */
interface Rewriting {
  readonly named: NamedSchemas;
  readonly scopes: DynamicScopes;
  readonly resolveRef: RefResolver;
}

/**
 * A named type's schema as the effective schema has it: every `$ref` a pointer into this
 * document, a hoisted schema inside it a ref to its type beside its use-site annotations,
 * and what identified schemas (`$id`, anchors) gone, as it has done its work.
 */
export function rewriteBody(entry: Named, scope: Scope, { named, scopes, resolveRef }: Rewriting): JsonValue {
  const { resources } = named;
  return mapSchemas(entry.body, entry.pointer, (schema, pointer) => {
    const here = scopes.at(entry, pointer, scope);
    if (pointer !== entry.pointer && named.isHoisted(entry.source, pointer)) {
      const annotations = Object.keys(schema).filter((key) => USE_SITE_ANNOTATIONS.has(key));
      return {
        $ref: pointerToFragment(named.names.relocated.get(entry.source)!.get(pointer)!),
        ...Object.fromEntries(annotations.map((key) => [key, schema[key]!])),
      };
    }
    // What identifies a schema has done its work once its refs are pointers into this document.
    const identifier = resources.identifierAt(entry.source, pointer);
    const kept = Object.keys(schema).filter(
      (key) =>
        !["$schema", "$id", identifier, "$anchor", "$dynamicAnchor", "$recursiveAnchor", ...DYNAMIC_REF_KEYWORDS, ...CONTAINERS].includes(
          key,
        ),
    );
    const rewritten: Record<string, JsonValue> = Object.fromEntries(
      kept.map((key) => [
        key,
        key === "$ref" && typeof schema[key] === "string"
          ? scopes.retarget(resolveRef(entry.source, pointer, schema[key]), here)
          : schema[key]!,
      ]),
    );
    // Resolved, a $dynamicRef or $recursiveRef is a $ref; beside a $ref of its own, an allOf member.
    const dynamic = DYNAMIC_REF_KEYWORDS.flatMap((keyword) => {
      const ref = schema[keyword];
      if (typeof ref !== "string") return [];
      const bound = scopes.bound(entry.source, pointer, ref, here);
      return [{ $ref: scopes.retarget(bound ?? resolveRef(entry.source, pointer, ref, keyword), here) }];
    });
    if (dynamic.length === 0) return rewritten;
    if (!("$ref" in rewritten) && dynamic.length === 1) return { ...rewritten, ...dynamic[0]! };
    return { ...rewritten, allOf: [...(Array.isArray(rewritten["allOf"]) ? rewritten["allOf"] : []), ...dynamic] };
  });
}
