/** What every protocol's index re-exports from the shared runtime, values and types: names no definition may take. */
export const RUNTIME_VALUES = ["assertNever", "UnmatchedError"] as const;
export const RUNTIME_TYPES = [
  "BuildOptions",
  "DecodeOptions",
  "DecodeResult",
  "Fields",
  "Member",
  "ValidateOptions",
  "ValidationError",
  "ValidationResult",
] as const;
