import type * as Decode from "../../templates/decode.js";
import type * as Formats from "../../templates/formats.js";
import type * as Runtime from "../../templates/runtime.js";
import type * as Standard from "../../templates/standard.js";
import type * as Unions from "../../templates/unions.js";
import type * as Assemble from "../../templates/stream/assemble.js";
import type * as Read from "../../templates/stream/read.js";
import type * as Result from "../../templates/stream/result.js";
import type * as Select from "../../templates/stream/select.js";
import type * as Source from "../../templates/stream/source.js";
import type * as Tables from "../../templates/stream/tables.js";
import type * as Transform from "../../templates/stream/transform.js";
import type * as Verify from "../../templates/stream/verify.js";

/**
 * A module of `templates/` as a protocol's modules import it: where from, and what they may
 * import. Its values are the template's own (`keyof typeof`): a name it does not export
 * does not compile. TypeScript cannot list a module's types, so those the generated code
 * names are listed here, and `test/emit/templates.test.ts` finds each in the template.
 * `Value` is carried by the type alone.
 */
export interface Template<Value extends string, Type extends string> {
  /** From a protocol's folder: `../runtime.js`. */
  readonly path: string;
  readonly types: readonly Type[];
}

/** A name a template exports that the generated code may import: a value, or, in a type-only import, also a type. */
export type TemplateValue<Module> = Module extends Template<infer Value, string> ? Value : never;
export type TemplateName<Module> = Module extends Template<infer Value, infer Type> ? Value | Type : never;

/** The template whose module is `Exports`, imported from `path`, with the types named in `types`. */
function template<Exports>(): <const Type extends string>(path: string, types: readonly Type[]) => Template<keyof Exports & string, Type> {
  return (path, types) => ({ path, types });
}

/** The shared runtime, `templates/runtime.ts`: every protocol's generated code imports its helpers from it. */
export const RUNTIME = template<typeof Runtime>()("../runtime.js", ["ValidateOptions", "ValidationResult"]);

/** A value the shared runtime exports. */
export type RuntimeValue = TemplateValue<typeof RUNTIME>;

/** The decoders' shared state, `templates/decode.ts`. */
export const DECODE = template<typeof Decode>()("../decode.js", ["DecodeOptions", "DecodeResult"]);

/** The builders' and the match helpers' shared module, `templates/unions.ts`. */
export const UNIONS = template<typeof Unions>()("../unions.js", ["BuildOptions", "Fields", "Member", "Only", "Returned"]);

/** The shared module of Standard Schema, `templates/standard.ts`. */
export const STANDARD = template<typeof Standard>()("../standard.js", [
  "AgentwireSchema",
  "JsonSchemaDefinition",
  "JsonSchemaDocument",
  "JsonSchemaOptions",
  "StandardResult",
]);

/** The shared format tests, `templates/formats.ts`, emitted where some protocol asserts formats. */
export const FORMATS = template<typeof Formats>()("../formats.js", []);

/** The stream runtime's modules, `templates/stream/`. */
export const STREAM = {
  tables: template<typeof Tables>()("../stream/tables.js", [
    "AssemblyPlan",
    "Check",
    "ChunkRule",
    "ChunkStep",
    "FirstRule",
    "InsideRule",
    "OnlyFirstRule",
    "Plan",
    "Plans",
    "RefersRule",
    "RefersStep",
    "SpanRule",
    "SpanStep",
    "StepPlan",
    "StreamRule",
    "TerminalRule",
    "TerminalStep",
    "Transport",
  ]),
  result: template<typeof Result>()("../stream/result.js", ["StreamFault", "StreamPlace", "StreamResult", "Violation"]),
  source: template<typeof Source>()("../stream/source.js", ["StreamSource"]),
  read: template<typeof Read>()("../stream/read.js", ["ReadOptions"]),
  verify: template<typeof Verify>()("../stream/verify.js", ["Verifier", "VerifyOptions"]),
  select: template<typeof Select>()("../stream/select.js", []),
  assemble: template<typeof Assemble>()("../stream/assemble.js", ["Assembler"]),
  transform: template<typeof Transform>()("../stream/transform.js", [
    "AssemblyStream",
    "CheckStreamOptions",
    "Checked",
    "DecodeStreamOptions",
    "TransformPair",
  ]),
} as const;
