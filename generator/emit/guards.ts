import type { Ir } from "../ir/model.js";
import { recursiveTypes } from "../ir/graph.js";
import { CheckEmitter } from "./checks.js";
import { article } from "../ir/describe.js";
import { guardName, TYPES } from "./names.js";
import { ts } from "./printer/code.js";
import { jsDoc } from "./printer/comments.js";
import { identifier } from "./printer/escape.js";
import type { GeneratedFile } from "./printer/file.js";

/**
 * `guards.ts`: for every named type T, `isT(value: unknown): value is T`, the strict check
 * of the canonical form. Each is straight-line code that returns false at the first
 * thing that does not fit: a tagged union switches on its tag, a closed object checks its
 * keys in a loop that allocates nothing, patterns are module-level regexes with the `u`
 * flag, and `unknown` values are not walked.
 */
export function generateGuards(f: GeneratedFile, ir: Ir): void {
  f.reserve(ir.types.map((type) => guardName(type.name)));
  const shapes = new Map(ir.types.map((type) => [type.name, type.shape]));
  const guards = new CheckEmitter(f, shapes, "reject", (name) => identifier(guardName(name)));
  const recursive = recursiveTypes(ir);
  for (const type of ir.types) {
    const name = type.name;
    const returns = ts`value is ${f.import(name, TYPES, { typeOnly: true })}`;
    f.declare(
      jsDoc([`Whether a value is ${article(name)} {@link ${name}}.`]),
      guards.function(identifier(guardName(name)), type.shape, name, { exported: true, returns, recursive: recursive.has(name) }),
    );
  }
  for (const helper of guards.helpers) f.declare(helper);
}
