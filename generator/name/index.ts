import { InputError } from "../errors.js";
import { pascalCase } from "../identifiers.js";
import { hasTags, isMatchable } from "../ir/members.js";
import type { Field, Ir, NamedType } from "../ir/model.js";
import type { JsonObject } from "../json.js";
import type { ResolvedSchema } from "../resolve/index.js";
import { RUNTIME_NAMES, RUNTIME_VALUES } from "../resolve/naming.js";
import {
  builderName,
  checkName,
  decoderName,
  guardName,
  handlersName,
  matchName,
  partialMatchName,
  readerName,
  standardSchemaName,
  unmatchedName,
  validatorName,
  valuesName,
} from "./rules.js";

/**
 * The names stage, between normalize and emit: every name a protocol's package declares
 * for its types, settled in one pass, and qualified where two would clash. Emitters look
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
  /** The type as a Standard Schema object: `EventSchema`, exported. */
  readonly standard: string;
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

/** Settles the names of a protocol's declarations, each apart from every other. */
export function nameIr(ir: Ir, effective: ResolvedSchema): NamedIr {
  const preferred = new Map(ir.types.map((type) => [type.name, declaredNames(type)]));
  checkTypeNames(ir.types, effective);
  const names = withNamesApart(ir.types, preferred);
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
    standard: standardSchemaName(name),
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
  const prefix = pascalCase(union);
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

/**
 * Refuses a type named like an export of the runtime (`BuildOptions`): resolve names no
 * type so, and only an overlay's `rename` can. TypeScript would hide one of the two.
 */
function checkTypeNames(types: readonly NamedType[], effective: ResolvedSchema): void {
  for (const { name, pointer } of types)
    if (RUNTIME_NAMES.has(name))
      throw new InputError(
        effective.provenance.locate(pointer),
        `"${name}" would name both the definition ${name} and ${(RUNTIME_VALUES as readonly string[]).includes(name) ? "an export of the runtime" : "a type the runtime exports"}`,
        "rename the definition (its key or its title)",
      );
}

/** A type's declared names, each exported one through `exported` and each other through `internal`, in a fixed order. */
function mapNames(declared: DeclaredNames, exported: (text: string) => string, internal: (text: string) => string): DeclaredNames {
  const { type, values, builder, memberBuilders, match } = declared;
  return {
    type,
    guard: exported(declared.guard),
    validator: exported(declared.validator),
    check: internal(declared.check),
    decoder: exported(declared.decoder),
    reader: internal(declared.reader),
    ...(values === undefined ? {} : { values: exported(values) }),
    ...(builder === undefined ? {} : { builder: exported(builder) }),
    ...(memberBuilders === undefined ? {} : { memberBuilders: memberBuilders.map(exported) }),
    ...(match === undefined
      ? {}
      : {
          match: {
            exhaustive: exported(match.exhaustive),
            partial: exported(match.partial),
            handlers: exported(match.handlers),
            unmatched: internal(match.unmatched),
          },
        }),
    // Last of a type's exports, so that the type's other names claim theirs first.
    standard: exported(declared.standard),
  };
}

/**
 * The names of what is generated for each type, each apart from every other name of the
 * module: the runtime's exports and the types' names come first and keep theirs; then
 * each name a type's declarations prefer (`isT`, `validateT`, `TValues`, `createT`…) is
 * claimed by the first declaration, in the order of the types, that prefers it, exports
 * before the functions a module keeps to itself (`checkT`, `readT`, `unmatchedT`); a
 * declaration whose name is claimed gets it with the first numeric suffix that nothing
 * else has or prefers. Where a definition `readFoo` sits beside `Foo`, Foo's reader is
 * `readFoo1`; where `PayCard`'s builder would be named as the builder of `Pay`'s member
 * `card`, which came first, it is `createPayCard1`.
 */
function withNamesApart(types: readonly NamedType[], names: ReadonlyMap<string, DeclaredNames>): Map<string, DeclaredNames> {
  const keep = (text: string) => text;
  const taken = new Set<string>([...RUNTIME_NAMES, ...types.map((type) => type.name)]);
  // Each preferred name is claimed by the first declaration that prefers it and nothing has; declarations are counted in a fixed order.
  const claims = new Map<string, number>();
  let slot = 0;
  const claim = (text: string) => {
    if (!taken.has(text)) {
      taken.add(text);
      claims.set(text, slot);
    }
    slot++;
    return text;
  };
  for (const { name } of types) mapNames(names.get(name)!, claim, keep);
  for (const { name } of types) mapNames(names.get(name)!, keep, claim);
  slot = 0;
  const apart = (text: string): string => {
    if (claims.get(text) === slot++) return text;
    let qualified = text;
    for (let i = 1; taken.has(qualified); i++) qualified = `${text}${i}`;
    taken.add(qualified);
    return qualified;
  };
  const exportsApart = types.map(({ name }) => mapNames(names.get(name)!, apart, keep));
  return new Map(types.map(({ name }, i) => [name, mapNames(exportsApart[i]!, keep, apart)]));
}

/** The names of a type's declarations; a type the IR does not have is a mistake of the caller. */
export function namesOf(ir: NamedIr, type: string): DeclaredNames {
  const names = ir.names.get(type);
  if (names === undefined) throw new Error(`no type "${type}" in the IR of ${ir.protocol}`);
  return names;
}
