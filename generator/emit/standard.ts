import {
  call,
  constant,
  documentation,
  functionDeclaration,
  identifier,
  jsonLiteral,
  keywordType,
  literal,
  objectLiteral,
  parameter,
  returns,
  typeReference,
} from "../code/build.js";
import type { Name } from "../code/tree.js";
import { article } from "../ir/describe.js";
import { isJsonObject } from "../json.js";
import type { NamedIr } from "../name/index.js";
import { namesOf } from "../name/index.js";
import type { GeneratedFile } from "./file.js";
import { TYPES } from "./names.js";

/** The shared module of Standard Schema, `templates/standard.ts`. */
const STANDARD = "../standard.js";
const VALIDATE = "./validate.js";
const VALUE = identifier("value");
const OPTIONS = identifier("options");

/**
 * `standard.ts`: for every named type T, `TSchema`, T as a Standard Schema
 * (standardschema.dev) and a Standard JSON Schema. Its `validate` returns what
 * `validateT` says, as Standard Schema says it; its `jsonSchema` gives T's schema with the
 * definitions it refers to, from the effective schema's `$defs`, which the module holds as
 * one object literal (a schema change shows in its diff as in schema.json's). Each
 * `TSchema` is an object literal of functions, so a bundle that does not import it
 * leaves it, the definitions and the shared module out.
 */
export function generateStandardSchemas(f: GeneratedFile, ir: NamedIr): void {
  const definitions = isJsonObject(ir.schema["$defs"]) ? ir.schema["$defs"] : {};
  const typed = ir.types.filter((type) => definitionKey(type.pointer) !== undefined);
  if (typed.length === 0) return;
  f.reserve(typed.map((type) => namesOf(ir, type.name).standard));
  const standardResult = f.import("standardResult", STANDARD);
  const jsonSchemaOf = f.import("jsonSchemaOf", STANDARD);
  const vendor = f.import("VENDOR", STANDARD);
  const schemaType = f.import("AgentwireSchema", STANDARD, { typeOnly: true });
  const resultType = f.import("StandardResult", STANDARD, { typeOnly: true });
  const optionsType = f.import("JsonSchemaOptions", STANDARD, { typeOnly: true });
  const text = f.constant("definitions", "definitions", (name) => constant(name, jsonLiteral(definitions)));
  const record = typeReference(f.import("JsonSchemaDocument", STANDARD, { typeOnly: true }));
  for (const type of typed) {
    const { name } = type;
    const names = namesOf(ir, name);
    const own = typeReference(f.import(name, TYPES, { typeOnly: true }), []);
    const validator = f.import(names.validator, VALIDATE);
    const validate: Name = f.allocate(`standard${name}`);
    const jsonSchema: Name = f.allocate(`jsonSchema${name}`);
    f.declare(
      constant(
        identifier(names.standard),
        objectLiteral([
          {
            key: "~standard",
            value: objectLiteral([
              { key: "version", value: literal(1) },
              { key: "vendor", value: vendor },
              { key: "validate", value: validate },
              {
                key: "jsonSchema",
                value: objectLiteral([
                  { key: "input", value: jsonSchema },
                  { key: "output", value: jsonSchema },
                ]),
              },
            ]),
          },
        ]),
        {
          exported: true,
          type: typeReference(schemaType, [own]),
          doc: documentation([
            `{@link ${name}} as a Standard Schema: \`validate\` says what {@link ${names.validator}} says of a value, each error an issue whose path is its JSON Pointer's keys; \`jsonSchema\` gives ${article(name)} ${name}'s JSON Schema, draft 2020-12 or draft-07.`,
          ]),
        },
      ),
      functionDeclaration({
        name: validate,
        exported: false,
        parameters: [parameter(VALUE, keywordType("unknown"))],
        returns: typeReference(resultType, [own]),
        body: [returns(call(standardResult, [call(validator, [VALUE]), VALUE]))],
      }),
      functionDeclaration({
        name: jsonSchema,
        exported: false,
        parameters: [parameter(OPTIONS, typeReference(optionsType))],
        returns: record,
        body: [returns(call(jsonSchemaOf, [text, literal(definitionKey(type.pointer)!), OPTIONS]))],
      }),
    );
  }
}

/** The key of a definition of the root's `$defs` that `pointer` points at, if it does. */
function definitionKey(pointer: string): string | undefined {
  const match = /^\/\$defs\/([^/]+)$/.exec(pointer);
  return match === null ? undefined : match[1]!.replaceAll("~1", "/").replaceAll("~0", "~");
}
