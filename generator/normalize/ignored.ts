import type { InputWarning } from "../errors.js";
import { describeValues } from "../ir/describe.js";
import { isJsonObject } from "../json.js";
import type { ResolvedSchema } from "../resolve/index.js";
import { dialectOf, isKeywordOf, readAs, refReplacesSiblings } from "../schema/dialect.js";
import { MODELLED } from "../schema/vocabulary.js";
import { walkSchemas } from "../schema/walk.js";

/**
 * The places where the schema's draft ignores an assertion its author may have meant, once
 * a place: keywords beside a `$ref` up to draft 7, and keywords of a later draft. The draft's
 * reading stands (the official test suite asks for it); ajv 8 applies them, and so does a
 * protocol configured `"compatibleWith": "ajv"`, which these warnings name.
 */
export function ignoredAssertions(effective: ResolvedSchema): InputWarning[] {
  const compatibleWith = effective.protocol.config.compatibleWith;
  const dialect = dialectOf(effective.schema["$schema"]);
  if (dialect === undefined || compatibleWith === "ajv") return [];
  const warnings: InputWarning[] = [];
  const seen = new Set<string>();
  const warn = (pointer: string, problem: string, hint: string) => {
    const location = effective.provenance.locate(pointer);
    const key = `${location.file}#${location.pointer}`;
    if (seen.has(key)) return;
    seen.add(key);
    warnings.push({ location, problem, hint });
  };
  walkSchemas(effective.schema, "", (schema, pointer) => {
    if (!isJsonObject(schema)) return;
    const keywords = Object.keys(schema).filter((keyword) => keyword !== "$ref" && MODELLED.has(keyword));
    if ("$ref" in schema && refReplacesSiblings(dialect)) {
      const beside = keywords.filter((keyword) => isKeywordOf(keyword, dialect));
      if (beside.length > 0)
        warn(
          pointer,
          `${describeValues(beside)} beside "$ref" ${beside.length === 1 ? "is" : "are"} ignored in ${dialect}, where a $ref replaces its schema`,
          'ajv 8 applies keywords beside a $ref: to read the schema as ajv does, set "compatibleWith": "ajv" on the protocol in the config',
        );
    }
    const later = keywords.filter((keyword) => !isKeywordOf(keyword, dialect));
    if (later.length > 0) {
      const applied = later.filter((keyword) => isKeywordOf(keyword, readAs(dialect, "ajv")));
      warn(
        pointer,
        `${describeValues(later)} ${later.length === 1 ? "is not a keyword" : "are not keywords"} of ${dialect}, so ${later.length === 1 ? "it is" : "they are"} ignored`,
        applied.length > 0
          ? `ajv 8 applies ${describeValues(applied)}: to read the schema as ajv does, set "compatibleWith": "ajv" on the protocol in the config`
          : "name the draft that has it in $schema, or remove it",
      );
    }
  });
  return warnings;
}
