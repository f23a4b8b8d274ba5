import { decoderName, guardName, validatorName } from "../../generator/name/rules.js";
import type { ProtocolName } from "./protocols.js";

/** What the generated code of a protocol offers for one type, looked up by name. */
export interface TypeFunctions {
  readonly is: (value: unknown) => boolean;
  readonly validate: (
    value: unknown,
  ) => { ok: true; value: unknown } | { ok: false; errors: readonly { path: string; keyword: string; message: string }[] };
  readonly decode: (
    input: unknown,
    options?: { mode?: "strict" | "tolerant"; maxErrors?: number },
  ) =>
    | { ok: true; value: unknown; ignored?: readonly string[] }
    | { ok: false; unrecognized: boolean; errors: readonly { path: string; keyword: string; message: string }[] };
}

/**
 * Each document with what `is`, `validate` and strict `decode` say of it (`ours`), and with
 * what a reference validator says, three times (`theirs`): equal when all three agree with it.
 */
export function answersBeside(
  functions: TypeFunctions,
  reference: (document: unknown) => boolean,
  documents: readonly unknown[],
): { readonly ours: unknown[][]; readonly theirs: unknown[][] } {
  const { is, validate, decode } = functions;
  return {
    ours: documents.map((document) => [document, is(document), validate(document).ok, decode(document).ok]),
    theirs: documents.map((document) => [document, reference(document), reference(document), reference(document)]),
  };
}

/** A protocol's index module in `generated/src`, its exports by name. */
export async function generatedIndex(name: ProtocolName): Promise<Record<string, (...args: unknown[]) => unknown>> {
  return (await import(`../../generated/src/${name}/index.ts`)) as Record<string, (...args: unknown[]) => unknown>;
}

/** The generated modules of a protocol, imported from `generated/src` as the tests see them. */
export async function generatedModules(name: ProtocolName): Promise<{ functions(type: string): TypeFunctions }> {
  return modulesOf(await generatedIndex(name), name);
}

/** The functions of each type, looked up by name in a protocol's index module. */
export function modulesOf(index: Readonly<Record<string, unknown>>, name: string): { functions(type: string): TypeFunctions } {
  return {
    functions(type) {
      const is = index[guardName(type)];
      const validate = index[validatorName(type)];
      const decode = index[decoderName(type)];
      if (typeof is !== "function" || typeof validate !== "function" || typeof decode !== "function")
        throw new Error(`${name}: no functions for ${type}`);
      return { is, validate, decode } as TypeFunctions;
    },
  };
}
