import { InputError } from "../errors.js";
import type { JsonValue } from "../json.js";
import { isJsonObject } from "../json.js";
import type { Schemas } from "../load/index.js";
import { readSource } from "../load/index.js";
import { dialectOf, vocabularyOf } from "../schema/dialect.js";
import { isFile } from "./files.js";
import { isRefused } from "./refs.js";
import type { Resources } from "./resources.js";

/** A dialect a custom metaschema defines: the draft it extends, and the vocabularies it uses. */
export interface CustomDialect {
  /** The `$schema` of the metaschema: a draft agentwire knows. */
  readonly draft: string;
  readonly vocabularies: readonly string[];
}

/** Vocabularies that assert nothing agentwire checks: a dialect may require them. */
const ANNOTATION_VOCABULARIES = ["meta-data", "format-annotation", "format", "content"];

/**
 * The dialect the root's `$schema` names where it is not a draft agentwire knows but a
 * metaschema it can read (a file of schemas/, or a remote mapped to one): its own
 * `$schema` and its `$vocabulary`. A vocabulary it requires (`true`) that agentwire does
 * not know, or one that asserts formats, is refused; one it may do without (`false`) is
 * left out. Undefined where the root's `$schema` is a known draft, absent, or not found,
 * which normalization then refuses as an unknown dialect.
 */
export function customDialect(resources: Resources, project: Schemas): CustomDialect | undefined {
  const root = resources.files[0]!;
  const uri = isJsonObject(root.document) ? root.document["$schema"] : undefined;
  if (typeof uri !== "string" || dialectOf(uri) !== undefined) return undefined;
  const at = { file: root.file, pointer: "/$schema" };
  const target = resources.target(root, "", uri);
  if (isRefused(target)) return undefined;
  const metaschema: JsonValue =
    "place" in target ? target.place.file.document : isFile(target.path) ? readSource(project.root, target.path, at).document : null;
  if (!isJsonObject(metaschema)) return undefined;
  const draft = metaschema["$schema"];
  const declared = metaschema["$vocabulary"];
  if (typeof draft !== "string" || !/\/draft\/(2019-09|2020-12)\//.test(draft) || !isJsonObject(declared))
    throw new InputError(at, `the metaschema ${uri} is not a 2019-09 or 2020-12 metaschema with $vocabulary`);
  const vocabularies: string[] = [];
  for (const [vocabularyUri, required] of Object.entries(declared)) {
    const vocabulary = vocabularyOf(vocabularyUri);
    if (vocabulary !== undefined && vocabulary !== "format-assertion") vocabularies.push(vocabulary);
    else if (required === true)
      throw new InputError(at, `the metaschema ${uri} requires the vocabulary ${vocabularyUri}, which agentwire does not know`);
  }
  return { draft, vocabularies: vocabularies.filter((vocabulary) => !ANNOTATION_VOCABULARIES.includes(vocabulary)) };
}
