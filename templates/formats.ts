// The format tests of the protocols whose config says "formats": "assert". Copied from
// templates/formats.ts by agentwire; the package has no runtime dependencies.

/**
 * One function per format, each a test of a string, written after the RFC that defines
 * the format, as the JSON-Schema-Test-Suite's optional format tests read it. The
 * expressions are agentwire's own, not copied from a library.
 */

/** RFC 3339 full-date: YYYY-MM-DD, the day one the month has in that year (leap years by the Gregorian rule). */
export function isDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  return (
    match !== null &&
    isDay(Number(match[1]), Number(match[2]), Number(match[3]))
  );
}

/**
 * RFC 3339 full-time: hh:mm:ss, optional fraction, and an offset ("Z", "z" or ±hh:mm).
 * A leap second, 23:59:60 in UTC, is a time: second 60 is one where the time, less its
 * offset, is 23:59 UTC.
 */
export function isTime(value: string): boolean {
  const match =
    /^(\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/.exec(
      value,
    );
  if (match === null) return false;
  const [hour, minute, second] = [
    Number(match[1]),
    Number(match[2]),
    Number(match[3]),
  ];
  const sign = match[4] === "-" ? -1 : 1;
  const [offsetHour, offsetMinute] = [
    Number(match[5] ?? 0),
    Number(match[6] ?? 0),
  ];
  if (
    hour > 23 ||
    minute > 59 ||
    second > 60 ||
    offsetHour > 23 ||
    offsetMinute > 59
  )
    return false;
  if (second < 60) return true;
  const utc =
    (((hour * 60 + minute - sign * (offsetHour * 60 + offsetMinute)) % 1440) +
      1440) %
    1440;
  return utc === 23 * 60 + 59;
}

/** RFC 3339 date-time: a full-date, "T" (or "t"), a full-time. */
export function isDateTime(value: string): boolean {
  const match = /^(.*?)[Tt](.*)$/s.exec(value);
  return match !== null && isDate(match[1]!) && isTime(match[2]!);
}

/**
 * An email address as RFC 5321 writes one: a local part of at most 64 characters, a
 * dot-atom or a quoted string, "@", and a hostname or an address literal.
 */
export function isEmail(value: string): boolean {
  const at = value.lastIndexOf("@");
  if (at < 1) return false;
  const local = value.slice(0, at);
  const domain = value.slice(at + 1);
  const dotAtom =
    /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
  const quoted = /^"(?:[\x20\x21\x23-\x5b\x5d-\x7e]|\\[\x20-\x7e])*"$/;
  if (local.length > 64 || !(dotAtom.test(local) || quoted.test(local)))
    return false;
  const literal = /^\[(?:IPv6:(.*)|(.*))\]$/.exec(domain);
  if (literal !== null)
    return literal[1] !== undefined ? isIpv6(literal[1]) : isIpv4(literal[2]!);
  return isHostname(domain);
}

/**
 * RFC 1123 hostname: labels of letters, digits and hyphens, 1 to 63 long, no hyphen at an
 * end; 253 characters at most, without a trailing dot. An "xn--" label (an A-label) must
 * decode as Punycode (RFC 3492) to a U-label that keeps the rules of RFC 5891 and 5892
 * the suite tests (`isULabel`).
 */
export function isHostname(value: string): boolean {
  if (value.length === 0 || value.length > 253) return false;
  return value.split(".").every((label) => {
    if (!/^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/.test(label))
      return false;
    if (!/^xn--/i.test(label)) return true;
    const decoded = punycode(label.slice(4));
    return decoded !== undefined && isULabel(decoded);
  });
}

/**
 * Some of IDNA's rules for a U-label (RFC 5891 §4.2.3, RFC 5892's exceptions and
 * contextual rules), not its whole table of valid code points: no "--" in the 3rd and 4th
 * positions, no combining mark first, none of the exceptions DISALLOWED, and MIDDLE DOT,
 * Greek KERAIA, Hebrew GERESH and GERSHAYIM, KATAKANA MIDDLE DOT, the Arabic-Indic digits
 * and ZERO WIDTH JOINER each where their context allows them.
 */
function isULabel(label: string): boolean {
  const chars = [...label];
  if (/^..--/su.test(label) || /^\p{M}/u.test(label)) return false;
  if (/[\u0640\u07fa\u302e\u302f\u3031-\u3035\u303b]/u.test(label))
    return false;
  if (/[\u0660-\u0669]/u.test(label) && /[\u06f0-\u06f9]/u.test(label))
    return false;
  if (
    label.includes("\u30fb") &&
    !/[\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Han}]/u.test(
      label.replaceAll("\u30fb", ""),
    )
  )
    return false;
  return chars.every((char, i) => {
    const before = chars[i - 1];
    const after = chars[i + 1];
    switch (char) {
      case "\u00b7":
        return before === "l" && after === "l";
      case "\u0375":
        return after !== undefined && /\p{Script=Greek}/u.test(after);
      case "\u05f3":
      case "\u05f4":
        return before !== undefined && /\p{Script=Hebrew}/u.test(before);
      case "\u200d":
        return before !== undefined && VIRAMAS.test(before);
      default:
        return true;
    }
  });
}

/** The viramas (canonical combining class 9) of the Indic scripts and their neighbours, which a ZERO WIDTH JOINER follows. */
const VIRAMAS =
  /^[\u094d\u09cd\u0a4d\u0acd\u0b4d\u0bcd\u0c4d\u0ccd\u0d3b\u0d3c\u0d4d\u0dca\u0e3a\u0f84\u1039\u103a\u1714\u1734\u17d2\u1a60\u1b44\u1baa\u1bab\u1bf2\u1bf3\u2d7f\ua806\ua8c4\ua953\ua9c0\uaaf6\uabed]$/u;

/** The code points RFC 3492's Punycode encodes, or undefined where it is not Punycode. */
function punycode(input: string): string | undefined {
  const [base, tMin, tMax] = [36, 1, 26];
  const delimiter = input.lastIndexOf("-");
  const output =
    delimiter < 0
      ? []
      : [...input.slice(0, delimiter)].map((char) => char.codePointAt(0)!);
  let [n, i, bias, at] = [128, 0, 72, delimiter + 1];
  while (at < input.length) {
    const old = i;
    for (let w = 1, k = base; ; k += base) {
      if (at >= input.length) return undefined;
      const code = input.charCodeAt(at++);
      const digit =
        code >= 48 && code <= 57
          ? code - 22
          : code >= 65 && code <= 90
            ? code - 65
            : code >= 97 && code <= 122
              ? code - 97
              : base;
      if (digit >= base) return undefined;
      i += digit * w;
      const t = k <= bias ? tMin : k >= bias + tMax ? tMax : k - bias;
      if (digit < t) break;
      w *= base - t;
    }
    const length = output.length + 1;
    bias = adapt(i - old, length, old === 0);
    n += Math.floor(i / length);
    i %= length;
    if (n > 0x10ffff) return undefined;
    output.splice(i++, 0, n);
  }
  return String.fromCodePoint(...output);
}

/** RFC 3492 §6.1: the bias after a code point is decoded. */
function adapt(delta: number, points: number, first: boolean): number {
  let scaled = first ? Math.floor(delta / 700) : Math.floor(delta / 2);
  scaled += Math.floor(scaled / points);
  let k = 0;
  for (; scaled > 455; k += 36) scaled = Math.floor(scaled / 35);
  return k + Math.floor((36 * scaled) / (scaled + 38));
}

/** An IPv4 address in dotted-quad form: four decimal numbers 0 to 255, without leading zeros. */
export function isIpv4(value: string): boolean {
  return /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/.test(
    value,
  );
}

/** An IPv6 address (RFC 4291 §2.2): eight groups of one to four hex digits, "::" once for zeros, an IPv4 tail. */
export function isIpv6(value: string): boolean {
  if (!/^[0-9A-Fa-f:.]+$/.test(value)) return false;
  let head = value;
  let groups = 8;
  const lastColon = value.lastIndexOf(":");
  if (value.includes(".")) {
    if (!isIpv4(value.slice(lastColon + 1))) return false;
    head = value.slice(0, lastColon + 1);
    if (head.endsWith("::")) head = head + "0";
    else head = head.slice(0, -1);
    groups = 6;
    if (head === "") return false;
  }
  const halves = head.split("::");
  if (halves.length > 2) return false;
  const parts = halves.map((half) => (half === "" ? [] : half.split(":")));
  if (
    parts.some((part) =>
      part.some((group) => !/^[0-9A-Fa-f]{1,4}$/.test(group)),
    )
  )
    return false;
  const count = parts.reduce((sum, part) => sum + part.length, 0);
  return halves.length === 2 ? count < groups : count === groups;
}

/** RFC 4122 UUID: 8-4-4-4-12 hex digits, any version. */
export function isUuid(value: string): boolean {
  return /^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$/.test(
    value,
  );
}

/** An RFC 3986 URI: a scheme, then a hierarchical part, a query and a fragment, of the characters the grammar allows. */
export function isUri(value: string): boolean {
  const match = /^[A-Za-z][A-Za-z0-9+.-]*:(.*)$/s.exec(value);
  return match !== null && isRelativeOrRest(match[1]!);
}

/** An RFC 3986 URI-reference: a URI or a relative reference. */
export function isUriReference(value: string): boolean {
  if (isUri(value)) return true;
  // A relative reference's first segment has no ":" (else it would read as a scheme).
  const first = /^[^/?#]*/.exec(value)![0];
  return !first.includes(":") && isRelativeOrRest(value);
}

/** A regular expression: one that compiles as an ECMAScript RegExp with the `u` flag. */
export function isRegex(value: string): boolean {
  try {
    new RegExp(value, "u");
    return true;
  } catch {
    return false;
  }
}

/**
 * An RFC 3339 duration (its Appendix A): "P", then a date (days; months, then days; or
 * years, then months, then days) and a time after "T" (hours, minutes, seconds, each
 * following the one before), or a time alone, or weeks alone. Whole numbers only.
 */
export function isDuration(value: string): boolean {
  return DURATION.test(value);
}

const DURATION_TIME =
  "T(?:[0-9]+H(?:[0-9]+M(?:[0-9]+S)?)?|[0-9]+M(?:[0-9]+S)?|[0-9]+S)";
const DURATION_DATE =
  "(?:[0-9]+D|[0-9]+M(?:[0-9]+D)?|[0-9]+Y(?:[0-9]+M(?:[0-9]+D)?)?)";
const DURATION = new RegExp(
  `^P(?:${DURATION_DATE}(?:${DURATION_TIME})?|${DURATION_TIME}|[0-9]+W)$`,
);

/** An RFC 6901 JSON Pointer: "" or tokens each after a "/", in which "~" escapes only "0" and "1". */
export function isJsonPointer(value: string): boolean {
  return /^(?:\/(?:[^~/]|~[01])*)*$/s.test(value);
}

/**
 * A relative JSON Pointer (draft-bhutton-relative-json-pointer): a non-negative integer
 * without a leading zero, then "#" or a JSON Pointer.
 */
export function isRelativeJsonPointer(value: string): boolean {
  const match = /^(?:0|[1-9][0-9]*)(.*)$/s.exec(value);
  return match !== null && (match[1] === "#" || isJsonPointer(match[1]!));
}

/**
 * An RFC 6570 URI Template: literals (what a URI allows, the characters past ASCII, and
 * %-escapes) and expressions, "{", an optional operator, then varspecs apart by ",": a
 * name of letters, digits, "_" and %-escapes, dots only between them, and a prefix
 * length of 1 to 9999 or the explode "*".
 */
export function isUriTemplate(value: string): boolean {
  return URI_TEMPLATE.test(value) && [...value].every(isTemplateCharacter);
}

const PERCENT = "%[0-9A-Fa-f]{2}";
const VARCHAR = `(?:[A-Za-z0-9_]|${PERCENT})`;
const VARSPEC = `${VARCHAR}+(?:\\.${VARCHAR}+)*(?::[1-9][0-9]{0,3}|\\*)?`;
const EXPRESSION = `\\{[+#./;?&=,!@|]?${VARSPEC}(?:,${VARSPEC})*\\}`;
const LITERAL = `(?:[!#$&'()*+,\\-./0-9:;=?@A-Z\\[\\]_a-z~]|[^\\u0000-\\u009F]|${PERCENT})`;
const URI_TEMPLATE = new RegExp(`^(?:${LITERAL}|${EXPRESSION})*$`, "u");

/** A character a URI Template may hold past ASCII: RFC 3987's ucschar and iprivate, which leave out surrogates, noncharacters and E0000–E0FFF. */
function isTemplateCharacter(character: string): boolean {
  const code = character.codePointAt(0)!;
  if (code < 0xa0) return true;
  if (code >= 0xd800 && code <= 0xdfff) return false;
  if (code >= 0xfdd0 && code <= 0xfdef) return false;
  if ((code & 0xfffe) === 0xfffe) return false;
  return !(code >= 0xe0000 && code <= 0xe0fff);
}

/** Gregorian: a year divisible by 4, but not by 100 unless by 400, is a leap year. */
function isDay(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][
    month - 1
  ]!;
  return day <= days;
}

/** RFC 3986 pchar and the like: unreserved, sub-delims, ":", "@", and %-escapes of two hex digits. */
const CHAR = String.raw`(?:[A-Za-z0-9\-._~!$&'()*+,;=:@]|%[0-9A-Fa-f]{2})`;
const PATH = new RegExp(String.raw`^(?:${CHAR}|/)*$`);
const QUERY = new RegExp(String.raw`^(?:${CHAR}|[/?])*$`);
const USERINFO = new RegExp(
  String.raw`^(?:[A-Za-z0-9\-._~!$&'()*+,;=:]|%[0-9A-Fa-f]{2})*$`,
);
const REG_NAME = new RegExp(
  String.raw`^(?:[A-Za-z0-9\-._~!$&'()*+,;=]|%[0-9A-Fa-f]{2})*$`,
);

/** What follows a URI's scheme, or a whole relative reference: `//authority` and a path, or a path; `?query`; `#fragment`. */
function isRelativeOrRest(rest: string): boolean {
  const match = /^([^?#]*)(?:\?([^#]*))?(?:#(.*))?$/s.exec(rest)!;
  const [, hierarchy, query, fragment] = match;
  if (query !== undefined && !QUERY.test(query)) return false;
  if (fragment !== undefined && !QUERY.test(fragment)) return false;
  if (!hierarchy!.startsWith("//")) return PATH.test(hierarchy!);
  const slash = hierarchy!.indexOf("/", 2);
  const authority =
    slash < 0 ? hierarchy!.slice(2) : hierarchy!.slice(2, slash);
  const path = slash < 0 ? "" : hierarchy!.slice(slash);
  return isAuthority(authority) && PATH.test(path);
}

/** RFC 3986 authority: [userinfo "@"] host [":" port], the host a name, an IPv4 address or an IP literal. */
function isAuthority(authority: string): boolean {
  const at = authority.lastIndexOf("@");
  if (at >= 0 && !USERINFO.test(authority.slice(0, at))) return false;
  const hostPort = authority.slice(at + 1);
  const match = /^(\[[^\]]*\]|[^:]*)(?::(\d*))?$/.exec(hostPort);
  if (match === null) return false;
  const host = match[1]!;
  if (host.startsWith("[")) {
    const inside = host.slice(1, -1);
    return (
      isIpv6(inside) ||
      /^v[0-9A-Fa-f]+\.[A-Za-z0-9\-._~!$&'()*+,;=:]+$/.test(inside)
    );
  }
  return REG_NAME.test(host);
}
