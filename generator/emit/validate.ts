import type { Ir } from "../ir/model.js";
import { recursiveTypes } from "../ir/graph.js";
import { RUNTIME } from "./access.js";
import { CheckEmitter } from "./checks.js";
import { article } from "../ir/describe.js";
import { checkName, GUARDS, guardName, TYPES, validatorName } from "./names.js";
import { ts } from "./printer/code.js";
import { jsDoc } from "./printer/comments.js";
import { identifier } from "./printer/escape.js";
import type { GeneratedFile } from "./printer/file.js";
import { call, constant, functionDeclaration, ifThen } from "./printer/statements.js";

/**
 * `validate.ts`: for every named type T, `validateT(value)`, which returns the value typed
 * when `isT` accepts it, and otherwise every reason it does not, each with a JSON Pointer,
 * the schema keyword and a message. The reasons come from `checkT`, which the same check
 * list as `isT` prints in its reporting form, so the two cannot disagree.
 */
export function generateValidators(f: GeneratedFile, ir: Ir): void {
  f.reserve(ir.types.flatMap((type) => [validatorName(type.name), checkName(type.name)]));
  const shapes = new Map(ir.types.map((type) => [type.name, type.shape]));
  const guard = (name: string) => f.import(guardName(name), GUARDS);
  const guards = new CheckEmitter(f, shapes, "reject", guard);
  const checks = new CheckEmitter(f, shapes, "report", guard, guards);
  const result = f.import("ValidationResult", RUNTIME, { typeOnly: true });
  const error = f.import("ValidationError", RUNTIME, { typeOnly: true });
  for (const type of ir.types) {
    const name = type.name;
    const typeName = f.import(name, TYPES, { typeOnly: true });
    const errors = ts`errors`;
    f.declare(
      jsDoc([`Checks a value as {@link ${guardName(name)}} does, and when it is not ${article(name)} {@link ${name}}, says why.`]),
      functionDeclaration({
        exported: true,
        name: identifier(validatorName(name)),
        parameters: [{ name: ts`value`, type: ts`unknown` }],
        returns: ts`${result}<${typeName}>`,
        body: [
          ifThen(call(guard(name), [ts`value`]), ts`return { ok: true, value };`),
          constant(errors, ts`[]`, { type: ts`${error}[]` }),
          ts`${call(identifier(checkName(name)), [ts`value`, ts`""`, errors])};`,
          ts`return { ok: false, errors };`,
        ],
      }),
    );
  }
  const recursive = recursiveTypes(ir);
  for (const type of ir.types)
    f.declare(
      checks.function(identifier(checkName(type.name)), type.shape, type.name, { exported: false, recursive: recursive.has(type.name) }),
    );
  for (const helper of [...checks.helpers, ...guards.helpers]) f.declare(helper);
}
