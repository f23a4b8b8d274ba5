import type { Field, Ir, KeyedUnionShape, NamedType, ObjectShape } from "../ir/model.js";
import type { StampUnit } from "../schema/keywords.js";
import { isPrototypeName, RUNTIME } from "./access.js";
import { article } from "../ir/describe.js";
import { builderName, memberBuilderNames, memberParameterName, TYPES } from "./names.js";
import type { Code } from "./printer/code.js";
import { join, ts } from "./printer/code.js";
import { jsDoc, paragraphs } from "./printer/comments.js";
import { identifier, literal, objectKey, stringLiteral } from "./printer/escape.js";
import type { GeneratedFile } from "./printer/file.js";
import { call, conditional, functionDeclaration, objectLiteral } from "./printer/statements.js";
import { generic, hasTags, memberValueType, tags, variantType } from "./members.js";

/**
 * `builders.ts`: what a producer builds values with. For every object type with constant
 * tags (required fields of one value), `createT(fields)` fills the tags in; for every keyed
 * union, a constructor per member sets that member and no other. Fields given as
 * `undefined` are left out, so that what a builder returns passes `isT`.
 */
export function generateBuilders(f: GeneratedFile, ir: Ir): void {
  const builders = new BuilderEmitter(f);
  f.reserve(ir.types.flatMap((type) => builders.names(type)));
  for (const type of ir.types) builders.declare(type);
}

/** What the current time is in each unit a field can be stamped in. */
const NOW: Readonly<Record<StampUnit, Code>> = { "unix-milliseconds": ts`Date.now()` };
const UNIT: Readonly<Record<StampUnit, string>> = { "unix-milliseconds": "in milliseconds since the Unix epoch" };

class BuilderEmitter {
  constructor(private readonly f: GeneratedFile) {}

  names(type: NamedType): string[] {
    const shape = type.shape;
    if (hasTags(shape)) return [builderName(type.name)];
    if (shape.kind === "keyed-union") return memberBuilderNames(type.name, shape.members);
    return [];
  }

  declare(type: NamedType): void {
    const shape = type.shape;
    if (hasTags(shape)) this.tagged(type, shape);
    if (shape.kind === "keyed-union") {
      const names = memberBuilderNames(type.name, shape.members);
      for (const [i, member] of shape.members.entries()) this.member(type, shape, member, names[i]!);
    }
  }

  /** `createT(fields, options?)`: the tags, then the fields, then any stamps asked for. */
  private tagged(type: NamedType, shape: ObjectShape): void {
    const f = this.f;
    const name = f.import(type.name, TYPES, { typeOnly: true });
    const tagged = tags(shape);
    const isTag = (field: Field) => tagged.some((tag) => tag.name === field.name);
    const given = shape.fields.filter((field) => !isTag(field));
    const stamped = given.filter((field) => field.stamp !== undefined);
    const tagNames = join(
      ts` | `,
      tagged.map((tag) => stringLiteral(tag.name)),
    );
    const args = [objectLiteral(tagged.map((tag) => ts`${objectKey(tag.name)}: ${literal(tag.value)}`)), ts`fields`];
    if (stamped.length > 0)
      args.push(
        conditional(
          ts`options?.stamp === true`,
          objectLiteral(stamped.map((field) => ts`${objectKey(field.name)}: ${NOW[field.stamp!]}`)),
          ts`undefined`,
        ),
      );
    const filled = tagged.map((tag) => `\`${tag.name}\` set to \`${JSON.stringify(tag.value)}\``).join(" and ");
    f.declare(
      jsDoc(
        paragraphs([
          `Builds ${article(type.name)} {@link ${type.name}} with ${filled}. A field given as \`undefined\` is left out.`,
          type.doc.description,
          ...stamped.map(
            (field) => `With \`{ stamp: true }\`, \`${field.name}\` is the current time ${UNIT[field.stamp!]}, unless it is given.`,
          ),
          type.doc.deprecated ? "@deprecated" : undefined,
        ]),
      ),
      functionDeclaration({
        exported: true,
        name: identifier(builderName(type.name)),
        parameters: [
          {
            name: given.some((field) => field.required) ? ts`fields` : ts`fields?`,
            type: generic(f.import("Fields", RUNTIME, { typeOnly: true }), [name, tagNames]),
          },
          ...(stamped.length > 0 ? [{ name: ts`options?`, type: f.import("BuildOptions", RUNTIME, { typeOnly: true }) }] : []),
        ],
        returns: name,
        body: [ts`return ${call(generic(f.import("build", RUNTIME), [name, tagNames]), args)};`],
      }),
    );
  }

  /** `createUMember(member, fields?)`: a keyed union's value with that member set. */
  private member(type: NamedType, shape: KeyedUnionShape, member: Field, name: string): void {
    const f = this.f;
    const variant = variantType(f, type.name, member);
    const parameter = memberParameterName(member.name, ["fields"]);
    const property = parameter === member.name ? identifier(parameter) : ts`${objectKey(member.name)}: ${identifier(parameter)}`;
    const takesFields = shape.fields.length > 0 || shape.additional.kind !== "never";
    const memberNames = join(
      ts` | `,
      shape.members.map((other) => stringLiteral(other.name)),
    );
    const fieldsType = generic(f.import("Fields", RUNTIME, { typeOnly: true }), [variant, memberNames]);
    f.declare(
      jsDoc(
        paragraphs([
          `Builds ${article(type.name)} {@link ${type.name}} with its \`${member.name}\` set, and no other member.`,
          member.doc.description,
          member.doc.deprecated ? "@deprecated" : undefined,
        ]),
      ),
      functionDeclaration({
        exported: true,
        name: identifier(name),
        parameters: [
          { name: identifier(parameter), type: memberValueType(f, type.name, member) },
          ...(takesFields ? [{ name: shape.fields.some((field) => field.required) ? ts`fields` : ts`fields?`, type: fieldsType }] : []),
        ],
        returns: variant,
        // A literal cannot leave out an inherited name such as `constructor`: TypeScript
        // reads it from Object, which is not never. `build` types its tags by name only.
        body: [
          takesFields || shape.members.some((other) => isPrototypeName(other.name))
            ? ts`return ${call(generic(f.import("build", RUNTIME), [variant, stringLiteral(member.name)]), [objectLiteral([property]), ...(takesFields ? [ts`fields`] : [])])};`
            : ts`return ${objectLiteral([property])};`,
        ],
      }),
    );
  }
}
