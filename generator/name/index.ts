import { InputError } from "../errors.js";
import { hasTags, isMatchable } from "../ir/members.js";
import type { Field, Ir, NamedType } from "../ir/model.js";
import type { JsonObject } from "../json.js";
import type { ResolvedSchema } from "../resolve/index.js";
import { pascalCase } from "../schema/names.js";
import { RUNTIME_TYPES, RUNTIME_VALUES } from "./runtime.js";
import {
  builderName,
  checkName,
  decoderName,
  guardName,
  handlersName,
  matchName,
  partialMatchName,
  readerName,
  unmatchedName,
  upperFirst,
  validatorName,
  valuesName,
} from "./rules.js";

/**
 * The names stage, between normalize and emit: every name a protocol's package declares
 * for its types, settled in one pass, and refused where two would clash. Emitters look
 * names up here; they make only the names of locals and of helpers inside a file.
 */

/** What is declared for one named type, each under the name it gets. */
export interface DeclaredNames {
  /** The type itself: `Event`. */
  readonly type: string;
  /** `isEvent`, exported. */
  readonly guard: string;
  /** `validateEvent`, exported. */
  readonly validator: string;
  /** `checkEvent`, the validator's internal walk. */
  readonly check: string;
  /** `decodeEvent`, exported. */
  readonly decoder: string;
  /** `readEvent`, the decoder's internal walk. */
  readonly reader: string;
  /** An enum's values as an array: `RoleValues`. */
  readonly values?: string;
  /** A tagged object's builder: `createTextMessageStartEvent`. */
  readonly builder?: string;
  /** A keyed union's builders, one per member in order. */
  readonly memberBuilders?: readonly string[];
  /** A union's match helpers. */
  readonly match?: { readonly exhaustive: string; readonly partial: string; readonly handlers: string; readonly unmatched: string };
}

/** The IR with where it came from and the names of what is generated for it: all that emitters read. */
export interface NamedIr extends Ir {
  /** The files it was made from, as the project names them: the schema, then its overlays. */
  readonly sources: readonly string[];
  /** The effective schema, with the overlays applied, which the package ships beside the code. */
  readonly schema: JsonObject;
  /** Per type name. */
  readonly names: ReadonlyMap<string, DeclaredNames>;
}

/** Settles the names of a protocol's declarations; a clash is an error at the definition to rename. */
export function nameIr(ir: Ir, effective: ResolvedSchema): NamedIr {
  const preferred = new Map(ir.types.map((type) => [type.name, declaredNames(type)]));
  checkExportNames(ir.types, preferred, effective);
  const names = withInternalNamesApart(ir.types, preferred);
  const { schema, overlays } = effective.protocol;
  return { ...ir, sources: [schema.file, ...overlays.map((overlay) => overlay.file)], schema: effective.schema, names };
}

/** The names a type's declarations get, by the rules of `rules.ts`. */
function declaredNames(type: NamedType): DeclaredNames {
  const { name, shape } = type;
  return {
    type: name,
    guard: guardName(name),
    validator: validatorName(name),
    check: checkName(name),
    decoder: decoderName(name),
    reader: readerName(name),
    ...(shape.kind === "enum" ? { values: valuesName(name) } : {}),
    ...(hasTags(shape) ? { builder: builderName(name) } : {}),
    ...(shape.kind === "keyed-union" ? { memberBuilders: memberBuilderNames(name, shape.members) } : {}),
    ...(isMatchable(shape)
      ? {
          match: {
            exhaustive: matchName(name),
            partial: partialMatchName(name),
            handlers: handlersName(name),
            unmatched: unmatchedName(name),
          },
        }
      : {}),
  };
}

/**
 * The constructors of a keyed union's members, in their order: `create`, the union, then
 * the member's property name in PascalCase (`createPaymentMethodCard`). Where that
 * differs from the member's type only in case, it is spelled as the type
 * (`sepaPaymentMethod: SEPAPaymentMethod` → `SEPA`); where it ends with the
 * union's name, that is dropped (`createPaymentMethodSEPA`), unless nothing would be
 * left or two members would get one name.
 */
export function memberBuilderNames(union: string, members: readonly Field[]): string[] {
  const prefix = upperFirst(union);
  const words = members.map(memberWord);
  const short = words.map((word) => (word.endsWith(prefix) && word.length > prefix.length ? word.slice(0, -prefix.length) : word));
  const alike = (word: string) => short.filter((other) => other === word).length > 1;
  return words.map((word, i) => `create${prefix}${alike(short[i]!) ? word : short[i]!}`);
}

/** A member's property name in PascalCase, or its type's name where the two differ only in case. */
function memberWord(member: Field): string {
  const word = pascalCase(member.name);
  const type = member.shape.kind === "ref" ? member.shape.name : undefined;
  return type !== undefined && type.toLowerCase() === word.toLowerCase() ? type : word;
}

/** A name a protocol's module exports, and what it is, for messages. */
interface Export {
  readonly name: string;
  readonly what: string;
  /** The definition that brings it, when one does. */
  readonly pointer?: string;
  /** Whether it is the definition itself, which is what a user can rename. */
  readonly definition?: true;
}

/** Every name a protocol's index exports: the runtime's, then each type's and what is generated for it. */
function exportsOf(types: readonly NamedType[], names: ReadonlyMap<string, DeclaredNames>): Export[] {
  const exports: Export[] = [
    ...RUNTIME_VALUES.map((name) => ({ name, what: "an export of the runtime" })),
    ...RUNTIME_TYPES.map((name) => ({ name, what: "a type the runtime exports" })),
  ];
  for (const { name, pointer, shape } of types) {
    const declared = names.get(name)!;
    const from = (exported: string, what: string) => exports.push({ name: exported, what: `${what} ${name}`, pointer });
    exports.push({ name, what: `the definition ${name}`, pointer, definition: true });
    from(declared.guard, "the guard of");
    from(declared.validator, "the validator of");
    from(declared.decoder, "the decoder of");
    if (declared.values !== undefined) from(declared.values, "the values of enum");
    if (declared.builder !== undefined) from(declared.builder, "the builder of");
    if (shape.kind === "keyed-union")
      for (const [i, member] of shape.members.entries()) from(declared.memberBuilders![i]!, `the builder of member "${member.name}" of`);
    if (declared.match !== undefined) {
      from(declared.match.exhaustive, "the match of");
      from(declared.match.partial, "the partial match of");
      from(declared.match.handlers, "the handlers of");
    }
  }
  return exports;
}

/**
 * Refuses a protocol in which two exports would have one name (a definition `FooValues`
 * beside an enum `Foo`, a definition named like a runtime type): TypeScript would hide one
 * of them, or refuse the package.
 */
function checkExportNames(types: readonly NamedType[], names: ReadonlyMap<string, DeclaredNames>, effective: ResolvedSchema): void {
  const seen = new Map<string, Export>();
  for (const entry of exportsOf(types, names)) {
    const earlier = seen.get(entry.name);
    if (earlier === undefined) {
      seen.set(entry.name, entry);
      continue;
    }
    // Name the definition first, and point at it: renaming it is the fix.
    const [first, second] = entry.definition ? [entry, earlier] : [earlier, entry];
    throw new InputError(
      effective.provenance.locate(first.pointer ?? second.pointer ?? ""),
      `"${entry.name}" would name both ${first.what} and ${second.what}`,
      "rename the definition (its key or its title)",
    );
  }
}

/**
 * The names of the functions a module declares for a type but does not export (`checkT`,
 * `readT`, `unmatchedT`), each apart from every exported name and from each other: where
 * a definition `readFoo` sits beside `Foo`, Foo's reader is `readFoo1`, the first suffix
 * that no export and no other such function has. Unlike an export, which a user imports
 * by the name the rules give it, such a name is nobody's to rename.
 */
function withInternalNamesApart(types: readonly NamedType[], names: ReadonlyMap<string, DeclaredNames>): Map<string, DeclaredNames> {
  const exported = new Set(exportsOf(types, names).map((entry) => entry.name));
  const internal = (declared: DeclaredNames) => [
    declared.check,
    declared.reader,
    ...(declared.match === undefined ? [] : [declared.match.unmatched]),
  ];
  // Each internal name is claimed by the first type that prefers it and no export has it.
  const taken = new Set(exported);
  const claims = new Map<string, string>();
  for (const { name } of types)
    for (const text of internal(names.get(name)!))
      if (!taken.has(text)) {
        taken.add(text);
        claims.set(text, name);
      }
  const apart = (text: string, owner: string): string => {
    if (claims.get(text) === owner) return text;
    let qualified = text;
    for (let i = 1; taken.has(qualified); i++) qualified = `${text}${i}`;
    taken.add(qualified);
    return qualified;
  };
  return new Map(
    types.map(({ name }) => {
      const declared = names.get(name)!;
      return [
        name,
        {
          ...declared,
          check: apart(declared.check, name),
          reader: apart(declared.reader, name),
          ...(declared.match === undefined ? {} : { match: { ...declared.match, unmatched: apart(declared.match.unmatched, name) } }),
        },
      ];
    }),
  );
}

/** The names of a type's declarations; a type the IR does not have is a mistake of the caller. */
export function namesOf(ir: NamedIr, type: string): DeclaredNames {
  const names = ir.names.get(type);
  if (names === undefined) throw new Error(`no type "${type}" in the IR of ${ir.protocol}`);
  return names;
}
