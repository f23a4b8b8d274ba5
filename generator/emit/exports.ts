import { InputError } from "../errors.js";
import type { Ir } from "../ir/model.js";
import type { Provenance } from "../resolve/index.js";
import { hasTags, isMatchable } from "./members.js";
import {
  builderName,
  decoderName,
  guardName,
  handlersName,
  matchName,
  memberBuilderNames,
  partialMatchName,
  validatorName,
  valuesName,
} from "./names.js";

/** What every protocol's index re-exports from the shared runtime, values and types. */
export const RUNTIME_VALUES = ["assertNever", "UnmatchedError"] as const;
export const RUNTIME_TYPES = [
  "BuildOptions",
  "DecodeOptions",
  "DecodeResult",
  "Fields",
  "Member",
  "ValidationError",
  "ValidationResult",
] as const;

/** A name a protocol's module exports, and what it is, for messages. */
interface Export {
  readonly name: string;
  readonly what: string;
  /** The definition that brings it, when one does. */
  readonly pointer?: string;
  /** Whether it is the definition itself, which is what a user can rename. */
  readonly definition?: true;
}

/**
 * Every name a protocol's index exports: its types and, for each, the functions and
 * types generated for it, and what it re-exports from the runtime.
 */
export function exportsOf(ir: Ir): Export[] {
  const exports: Export[] = [
    ...RUNTIME_VALUES.map((name) => ({ name, what: "an export of the runtime" })),
    ...RUNTIME_TYPES.map((name) => ({ name, what: "a type the runtime exports" })),
  ];
  for (const type of ir.types) {
    const from = (name: string, what: string) => exports.push({ name, what: `${what} ${type.name}`, pointer: type.pointer });
    exports.push({ name: type.name, what: `the definition ${type.name}`, pointer: type.pointer, definition: true });
    from(guardName(type.name), "the guard of");
    from(validatorName(type.name), "the validator of");
    from(decoderName(type.name), "the decoder of");
    const shape = type.shape;
    if (shape.kind === "enum") from(valuesName(type.name), "the values of enum");
    if (hasTags(shape)) from(builderName(type.name), "the builder of");
    if (shape.kind === "keyed-union") {
      const names = memberBuilderNames(type.name, shape.members);
      for (const [i, member] of shape.members.entries()) from(names[i]!, `the builder of member "${member.name}" of`);
    }
    if (isMatchable(shape)) {
      from(matchName(type.name), "the match of");
      from(partialMatchName(type.name), "the partial match of");
      from(handlersName(type.name), "the handlers of");
    }
  }
  return exports;
}

/**
 * Refuses a protocol in which two exports would have one name (a definition `FooValues`
 * beside an enum `Foo`, a definition named like a runtime type): TypeScript would hide one
 * of them, or refuse the package.
 */
export function checkExportNames(ir: Ir, provenance: Provenance): void {
  const seen = new Map<string, Export>();
  for (const entry of exportsOf(ir)) {
    const earlier = seen.get(entry.name);
    if (earlier === undefined) {
      seen.set(entry.name, entry);
      continue;
    }
    // Name the definition first, and point at it: renaming it is the fix.
    const [first, second] = entry.definition ? [entry, earlier] : [earlier, entry];
    throw new InputError(
      provenance.locate(first.pointer ?? second.pointer ?? ""),
      `"${entry.name}" would name both ${first.what} and ${second.what}`,
      "rename the definition (its key or its title)",
    );
  }
}
