import type * as Formats from "../../templates/formats.js";
import type { KeywordChange, KeywordCheck } from "./check.js";

/**
 * `format`, on strings and numbers: by default an annotation only, as in draft 2020-12.
 * It admits every value and checks nothing; under allOf the first one stated stays; a
 * change of it changes documentation. A protocol configured `"formats": "assert"` has a
 * string's format checked where agentwire knows it (`FORMAT_CHECKS`), as 2020-12's
 * format-assertion vocabulary reads it; other formats, and a number's, stay annotations.
 */

/** The config's `formats`: as 2020-12 names its two format vocabularies, format-annotation and format-assertion. */
export const FORMAT_OPTIONS = ["annotate", "assert"] as const;
export type FormatOption = (typeof FORMAT_OPTIONS)[number];

/**
 * The string formats agentwire asserts, each the function of `templates/formats.ts` that
 * tests it and what a value that fails is told.
 */
export const FORMAT_CHECKS: Readonly<Record<string, { readonly test: keyof typeof Formats; readonly message: string }>> = {
  date: { test: "isDate", message: "must be a date" },
  time: { test: "isTime", message: "must be a time" },
  "date-time": { test: "isDateTime", message: "must be a date-time" },
  email: { test: "isEmail", message: "must be an email address" },
  hostname: { test: "isHostname", message: "must be a hostname" },
  ipv4: { test: "isIpv4", message: "must be an IPv4 address" },
  ipv6: { test: "isIpv6", message: "must be an IPv6 address" },
  uuid: { test: "isUuid", message: "must be a UUID" },
  uri: { test: "isUri", message: "must be a URI" },
  "uri-reference": { test: "isUriReference", message: "must be a URI reference" },
  regex: { test: "isRegex", message: "must be a regular expression" },
  duration: { test: "isDuration", message: "must be a duration" },
  "json-pointer": { test: "isJsonPointer", message: "must be a JSON Pointer" },
  "relative-json-pointer": { test: "isRelativeJsonPointer", message: "must be a relative JSON Pointer" },
  "uri-template": { test: "isUriTemplate", message: "must be a URI Template" },
};

/** Whether agentwire asserts a string format, where asked. */
export function isAssertedFormat(format: string | undefined): format is string {
  return format !== undefined && Object.hasOwn(FORMAT_CHECKS, format);
}

/** The check of a string's asserted format, made of values that passed `STRING_TYPE`. */
export function formatCheck(format: string): KeywordCheck {
  return { keyword: "format", message: FORMAT_CHECKS[format]!.message, fails: { op: "notFormat", format } };
}

export function meetFormat(a: string | undefined, b: string | undefined): string | undefined {
  return a ?? b;
}

export function formatChanges(before: string | undefined, after: string | undefined): KeywordChange[] {
  return before === after ? [] : [{ kind: "format-changed", what: `has format ${after ?? "none"}, was ${before ?? "none"}` }];
}
