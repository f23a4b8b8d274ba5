/** What every protocol's index re-exports from the shared runtime, values and types: names no definition may take. */
export const RUNTIME_VALUES = ["assertNever", "UnmatchedError", "useRegExp"] as const;
export const RUNTIME_TYPES = [
  "BuildOptions",
  "DecodeOptions",
  "DecodeResult",
  "Fields",
  "Member",
  "RegExpEngine",
  "RegExpLike",
  "ValidateOptions",
  "ValidationError",
  "ValidationResult",
] as const;
