import { documentation, identifier, typePredicate, typeReference } from "../code/build.js";
import { article } from "../ir/describe.js";
import type { ProtocolShapes } from "../ir/identity.js";
import type { NamedIr } from "../name/index.js";
import { namesOf } from "../name/index.js";
import { CheckBuilder } from "./checks/build.js";
import { VALUE } from "./checks/tree.js";
import { GuardPrinter } from "./checks/guard.js";
import type { GeneratedFile } from "./file.js";
import { TYPES } from "./names.js";

/**
 * `guards.ts`: for every named type T, `isT(value: unknown): value is T`, the strict check
 * of the canonical form. Each is straight-line code that returns false at the first
 * thing that does not fit: a tagged union switches on its tag, a closed object checks its
 * keys in a loop that allocates nothing, patterns are module-level regexes with the `u`
 * flag, and `unknown` values are not walked.
 */
export function generateGuards(f: GeneratedFile, ir: NamedIr, protocol: ProtocolShapes): void {
  f.reserve(ir.types.map((type) => namesOf(ir, type.name).guard));
  const guard = (name: string) => identifier(namesOf(ir, name).guard);
  const guards = new GuardPrinter(f, new CheckBuilder(f, guard, protocol), guard);
  const { recursive } = protocol;
  for (const type of ir.types) {
    const name = type.name;
    const returns = typePredicate(VALUE, typeReference(f.import(name, TYPES, { typeOnly: true })));
    f.declare({
      ...guards.function(guard(name), type.shape, name, { exported: true, returns, recursive: recursive.has(name) }),
      doc: documentation([`Whether a value is ${article(name)} {@link ${name}}.`]),
    });
  }
  for (const helper of guards.helpers) f.declare(helper);
}
