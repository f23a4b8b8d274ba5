import {
  arrayLiteral,
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
import { pascalCase } from "../identifiers.js";
import { article } from "../ir/describe.js";
import { isJsonObject } from "../json.js";
import type { JsonObject } from "../json.js";
import { localRefPointer, parsePointer } from "../pointer.js";
import { walkSchemas } from "../schema/walk.js";
import type { NamedIr } from "../name/index.js";
import { namesOf } from "../name/index.js";
import type { ProtocolShapes } from "../ir/identity.js";
import { decodingKeepsAcceptedOf } from "./decode.js";
import type { GeneratedFile } from "./file.js";
import { TYPES } from "./names.js";
import { STANDARD } from "./templates.js";

const VALIDATE = "./validate.js";
const VALUE = identifier("value");
const OPTIONS = identifier("options");

/**
 * `standard.ts`: for every named type T, `TSchema`, T as a Standard Schema
 * (standardschema.dev) and a Standard JSON Schema. Its `jsonSchema` gives T's schema with
 * the definitions it refers to, from the effective schema's `$defs`; its `validate` accepts
 * what that schema accepts, so a tool that hands the JSON Schema to a producer (a model's
 * tool definition) takes what the producer sends: `validateT`'s verdict where T's wire form
 * is its canonical form, else `decodeT`'s (strict), whose value is canonical (a field sent
 * under another of its names, an enum as its number). The module holds the definitions as
 * a function each, returning an object literal (a schema change shows in its diff as in
 * schema.json's) that names the definitions it refers to itself, so that the module grows
 * as the schema does; the shared `jsonSchemaOf` gathers what a type reaches. Each
 * `TSchema` is an object literal of functions, so a bundle leaves out the TSchemas it does
 * not import, the definitions none of those reaches, and, when it imports none, the shared
 * module.
 */
export function generateStandardSchemas(f: GeneratedFile, ir: NamedIr, protocol: ProtocolShapes): void {
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
  // One function per definition, naming those it refers to: a bundle holds the definitions its
  // TSchemas reach, and only those. A definition is named when first referred to and declared
  // from a worklist, since chains of refs may be thousands long.
  const places = new Map(Object.keys(definitions).map((key, place) => [key, place]));
  const definitionType = typeReference(f.import("JsonSchemaDefinition", STANDARD, { typeOnly: true }));
  const definitionNames = new Map<string, Name>();
  const undeclared: string[] = [];
  const definition = (key: string): Name => {
    let name = definitionNames.get(key);
    if (name === undefined) {
      name = f.allocate(`definition${pascalCase(key)}`);
      definitionNames.set(key, name);
      undeclared.push(key);
    }
    return name;
  };
  /** Declares the definitions named and not yet declared, and those they name in turn. */
  const declareDefinitions = (): void => {
    for (let key = undeclared.pop(); key !== undefined; key = undeclared.pop()) {
      const refers = directRefs(definitions, key)
        .toSorted((a, b) => places.get(a)! - places.get(b)!)
        .map(definition);
      f.declare(
        functionDeclaration({
          name: definitionNames.get(key)!,
          exported: false,
          parameters: [],
          returns: definitionType,
          body: [
            returns(
              objectLiteral([
                { key: "key", value: literal(key) },
                { key: "place", value: literal(places.get(key)!) },
                { key: "schema", value: jsonLiteral(definitions[key]!) },
                ...(refers.length === 0 ? [] : [{ key: "refers", value: arrayLiteral(refers) }]),
              ]),
            ),
          ],
        }),
      );
    }
  };
  const record = typeReference(f.import("JsonSchemaDocument", STANDARD, { typeOnly: true }));
  const keepsAccepted = decodingKeepsAcceptedOf(protocol);
  for (const type of typed) {
    const { name } = type;
    const names = namesOf(ir, name);
    const own = typeReference(f.import(name, TYPES, { typeOnly: true }), []);
    const decodes = !keepsAccepted.has(name);
    const validator = f.import(decodes ? names.decoder : names.validator, VALIDATE);
    const validate: Name = f.allocate(`standard${name}`);
    const jsonSchema: Name = f.allocate(`jsonSchema${name}`);
    const root = definition(definitionKey(type.pointer)!);
    declareDefinitions();
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
            decodes
              ? `{@link ${name}} as a Standard Schema: \`validate\` reads a value from its wire form as {@link ${names.decoder}} does (strict), and gives the canonical value or each error as an issue whose path is its JSON Pointer's keys; \`jsonSchema\` gives the JSON Schema of ${article(name)} ${name}'s wire form, draft 2020-12 or draft-07.`
              : `{@link ${name}} as a Standard Schema: \`validate\` says what {@link ${names.validator}} says of a value, each error an issue whose path is its JSON Pointer's keys; \`jsonSchema\` gives ${article(name)} ${name}'s JSON Schema, draft 2020-12 or draft-07.`,
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
        body: [returns(call(jsonSchemaOf, [root, OPTIONS]))],
      }),
    );
  }
}

/** The definitions that a definition's own schema refers to, not through others. */
function directRefs(definitions: JsonObject, key: string): string[] {
  const targets = new Set<string>();
  walkSchemas(definitions[key]!, "", (schema) => {
    const pointer = isJsonObject(schema) ? localRefPointer(schema["$ref"]) : undefined;
    // The canonical schema's refs are pointers into it: a definition, or a place inside one.
    const [defs, target] = pointer === undefined ? [] : parsePointer(pointer);
    if (defs === "$defs" && target !== undefined && Object.hasOwn(definitions, target)) targets.add(target);
  });
  return [...targets];
}

/** The key of a definition of the root's `$defs` that `pointer` points at, if it does. */
function definitionKey(pointer: string): string | undefined {
  const [defs, key, ...rest] = parsePointer(pointer);
  return defs === "$defs" && key !== undefined && rest.length === 0 ? key : undefined;
}
