/**
 * The drafts of JSON Schema agentwire reads, told by `$schema`: their metaschemas' URIs,
 * over http or https, with or without the empty fragment. Without `$schema` a schema is
 * 2020-12. The drafts differ in what some keywords mean (`items`, `$ref` beside other
 * keywords, `dependencies`), which the normalize rules ask of the context.
 */
export type Dialect = "draft4" | "draft6" | "draft7" | "draft2019-09" | "draft2020-12";

const METASCHEMAS: Readonly<Record<string, Dialect>> = {
  "json-schema.org/draft-04/schema": "draft4",
  "json-schema.org/draft-06/schema": "draft6",
  "json-schema.org/draft-07/schema": "draft7",
  "json-schema.org/draft/2019-09/schema": "draft2019-09",
  "json-schema.org/draft/2020-12/schema": "draft2020-12",
};

/** The dialect `$schema` names; undefined for a metaschema agentwire does not know. */
export function dialectOf(schemaKeyword: unknown): Dialect | undefined {
  if (schemaKeyword === undefined) return "draft2020-12";
  if (typeof schemaKeyword !== "string") return undefined;
  const match = /^https?:\/\/(.*?)#?$/.exec(schemaKeyword);
  return match === null ? undefined : METASCHEMAS[match[1]!];
}

/** Up to draft 7, a `$ref` replaces its schema: the keywords beside it are ignored. */
export function refReplacesSiblings(dialect: Dialect): boolean {
  return dialect === "draft4" || dialect === "draft6" || dialect === "draft7";
}
