import type { Expression, Type } from "../code/tree.js";
import {
  binary,
  call,
  conditional,
  documentation,
  functionDeclaration,
  identifier,
  literal,
  literalType,
  member,
  objectLiteral,
  parameter,
  returns,
  typeReference,
  UNDEFINED,
  unionType,
} from "../code/build.js";
import { article } from "../ir/describe.js";
import type { Field, KeyedUnionShape, NamedType, ObjectShape } from "../ir/model.js";
import { hasTags, tags } from "../ir/members.js";
import type { NamedIr } from "../name/index.js";
import { namesOf } from "../name/index.js";
import type { StampUnit } from "../schema/vocabulary.js";
import { isPrototypeName } from "./access.js";
import { UNIONS } from "./templates.js";
import type { GeneratedFile } from "./file.js";
import { memberValueType, variantType } from "./members.js";
import { memberParameterName, TYPES } from "./names.js";

/**
 * `builders.ts`: what a producer builds values with. For every object type with constant
 * tags (required fields of one value), `createT(fields)` fills the tags in; for every keyed
 * union, a constructor per member sets that member and no other. Fields given as
 * `undefined` are left out, so that what a builder returns passes `isT`.
 */
export function generateBuilders(f: GeneratedFile, ir: NamedIr): void {
  const builders = new BuilderEmitter(f, ir);
  f.reserve(ir.types.flatMap((type) => builders.names(type)));
  for (const type of ir.types) builders.declare(type);
}

/** What the current time is in each unit a field can be stamped in. */
const NOW: Readonly<Record<StampUnit, Expression>> = { "unix-milliseconds": call(member(identifier("Date"), "now"), []) };
const UNIT: Readonly<Record<StampUnit, string>> = { "unix-milliseconds": "in milliseconds since the Unix epoch" };

class BuilderEmitter {
  constructor(
    private readonly f: GeneratedFile,
    private readonly ir: NamedIr,
  ) {}

  names(type: NamedType): string[] {
    const names = namesOf(this.ir, type.name);
    return [...(names.builder === undefined ? [] : [names.builder]), ...(names.memberBuilders ?? [])];
  }

  declare(type: NamedType): void {
    const shape = type.shape;
    if (hasTags(shape)) this.tagged(type, shape);
    if (shape.kind === "keyed-union") {
      const names = namesOf(this.ir, type.name).memberBuilders!;
      for (const [i, member] of shape.members.entries()) this.member(type, shape, member, names[i]!);
    }
  }

  /** `createT(fields, options?)`: the tags, then the fields, then any stamps asked for. */
  private tagged(type: NamedType, shape: ObjectShape): void {
    const f = this.f;
    const typeName = typeReference(f.import(type.name, TYPES, { typeOnly: true }));
    const tagged = tags(shape);
    const isTag = (field: Field) => tagged.some((tag) => tag.name === field.name);
    const given = shape.fields.filter((field) => !isTag(field));
    const stamped = given.filter((field) => field.stamp !== undefined);
    const tagNames = unionType(tagged.map((tag) => literalType(tag.name)));
    const args: Expression[] = [objectLiteral(tagged.map((tag) => ({ key: tag.name, value: literal(tag.value) }))), FIELDS];
    if (stamped.length > 0)
      args.push(
        conditional(
          binary(member(OPTIONS, "stamp", { optional: true }), "===", literal(true)),
          objectLiteral(stamped.map((field) => ({ key: field.name, value: NOW[field.stamp!] }))),
          UNDEFINED,
        ),
      );
    const filled = tagged.map((tag) => `\`${tag.name}\` set to \`${JSON.stringify(tag.value)}\``).join(" and ");
    f.declare(
      functionDeclaration({
        doc: documentation([
          `Builds ${article(type.name)} {@link ${type.name}} with ${filled}. A field given as \`undefined\` is left out.`,
          type.doc.description,
          ...stamped.map(
            (field) => `With \`{ stamp: true }\`, \`${field.name}\` is the current time ${UNIT[field.stamp!]}, unless it is given.`,
          ),
          type.doc.deprecated ? "@deprecated" : undefined,
        ]),
        exported: true,
        name: identifier(namesOf(this.ir, type.name).builder!),
        parameters: [
          parameter(FIELDS, this.fields(typeName, tagNames), { optional: !given.some((field) => field.required) }),
          ...(stamped.length > 0
            ? [parameter(OPTIONS, typeReference(f.import("BuildOptions", UNIONS, { typeOnly: true })), { optional: true })]
            : []),
        ],
        returns: typeName,
        body: [returns(call(f.import("build", UNIONS), args, [typeName, tagNames]))],
      }),
    );
  }

  /** `Fields<T, Tags>`: what a builder of T is given, T without its tags. */
  private fields(type: Type, tagNames: Type): Type {
    return typeReference(this.f.import("Fields", UNIONS, { typeOnly: true }), [type, tagNames]);
  }

  /** `createUMember(member, fields?)`: a keyed union's value with that member set. */
  private member(type: NamedType, shape: KeyedUnionShape, each: Field, name: string): void {
    const f = this.f;
    const variant = variantType(f, type.name, each);
    const takesFields = shape.fields.length > 0 || shape.additional.kind !== "never";
    // A literal cannot leave out an inherited name such as `constructor`: TypeScript
    // reads it from Object, which is not never. `build` types its tags by name only.
    const build = takesFields || shape.members.some((other) => isPrototypeName(other.name)) ? f.import("build", UNIONS) : undefined;
    // The member's value is named after it, unless that would shadow `build`.
    const given = identifier(memberParameterName(each.name, ["fields", ...(build === undefined ? [] : [build.text])]));
    const property = objectLiteral([{ key: each.name, value: given }]);
    const memberNames = unionType(shape.members.map((other) => literalType(other.name)));
    f.declare(
      functionDeclaration({
        doc: documentation([
          `Builds ${article(type.name)} {@link ${type.name}} with its \`${each.name}\` set, and no other member.`,
          each.doc.description,
          each.doc.deprecated ? "@deprecated" : undefined,
        ]),
        exported: true,
        name: identifier(name),
        parameters: [
          parameter(given, memberValueType(f, type.name, each)),
          ...(takesFields
            ? [parameter(FIELDS, this.fields(variant, memberNames), { optional: !shape.fields.some((field) => field.required) })]
            : []),
        ],
        returns: variant,
        body: [
          build === undefined
            ? returns(property)
            : returns(call(build, [property, ...(takesFields ? [FIELDS] : [])], [variant, literalType(each.name)])),
        ],
      }),
    );
  }
}

const FIELDS = identifier("fields");
const OPTIONS = identifier("options");
