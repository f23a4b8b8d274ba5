import {
  call,
  documentation,
  functionDeclaration,
  identifier,
  ifThen,
  keywordType,
  literal,
  objectLiteral,
  parameter,
  returns,
  typeReference,
} from "../code/build.js";
import { article } from "../ir/describe.js";
import type { ProtocolShapes } from "../ir/identity.js";
import type { NamedIr } from "../name/index.js";
import { namesOf } from "../name/index.js";
import { RUNTIME } from "./templates.js";
import { CheckBuilder } from "./checks/build.js";
import { VALUE } from "./checks/tree.js";
import { GuardPrinter } from "./checks/guard.js";
import { ReportPrinter } from "./checks/report.js";
import type { GeneratedFile } from "./file.js";
import { GUARDS, TYPES } from "./names.js";

/**
 * `validate.ts`: for every named type T, `validateT(value, options)`, which returns the
 * value typed when `isT` accepts it, and otherwise the reasons it does not (up to the
 * limit the options give), each with a JSON Pointer, the schema keyword and a message.
 * The reasons come from `checkT`, which prints the check tree `isT` is printed from as
 * reports, so the two cannot disagree. The guard is asked first, so that a valid value
 * costs what `isT` costs.
 */
const OPTIONS = identifier("options");

export function generateValidators(f: GeneratedFile, ir: NamedIr, protocol: ProtocolShapes): void {
  f.reserve(ir.types.flatMap((type) => [namesOf(ir, type.name).validator, namesOf(ir, type.name).check]));
  const guard = (name: string) => f.import(namesOf(ir, name).guard, GUARDS);
  const check = (name: string) => identifier(namesOf(ir, name).check);
  const builder = new CheckBuilder(f, guard, protocol);
  const guards = new GuardPrinter(f, builder, guard);
  const checks = new ReportPrinter(f, builder, guard, check, guards);
  const result = f.import("ValidationResult", RUNTIME, { typeOnly: true });
  const options = typeReference(f.import("ValidateOptions", RUNTIME, { typeOnly: true }));
  for (const type of ir.types) {
    const name = type.name;
    const names = namesOf(ir, name);
    const typed = typeReference(f.import(name, TYPES, { typeOnly: true }));
    const reasons = call(f.import("validated", RUNTIME), [VALUE, check(name), OPTIONS], [typed]);
    f.declare(
      functionDeclaration({
        doc: documentation([
          `Checks a value as {@link ${names.guard}} does, and when it is not ${article(name)} {@link ${name}}, says why; see {@link ValidateOptions} for the limit of errors.`,
        ]),
        exported: true,
        name: identifier(names.validator),
        parameters: [parameter(VALUE, keywordType("unknown")), parameter(OPTIONS, options, { optional: true })],
        returns: typeReference(result, [typed]),
        body: [
          ifThen(
            call(guard(name), [VALUE]),
            returns(
              objectLiteral([
                { key: "ok", value: literal(true) },
                { key: "value", value: VALUE },
              ]),
            ),
          ),
          returns(reasons),
        ],
      }),
    );
  }
  const { recursive } = protocol;
  for (const type of ir.types)
    f.declare(checks.function(check(type.name), type.shape, type.name, { exported: false, recursive: recursive.has(type.name) }));
  for (const helper of [...checks.helpers, ...guards.helpers]) f.declare(helper);
}
