import { InputError } from "./errors.js";
import { appendPointer, getAtPointer, parsePointer } from "./pointer.js";

/**
 * A failure a generated decoder of agentwire's own formats (`formats/`) reports: where in
 * the value, the keyword that failed, and the validator's words.
 */
export interface Refusal {
  readonly path: string;
  readonly keyword: string;
  readonly message: string;
}

/** What a reader says of a refusal instead of the validator's words, and where, when not at the refusal's place. */
export interface Wording {
  readonly problem: string;
  readonly hint?: string;
  readonly pointer?: string;
}

/**
 * A reader's words for the refusals at some places of its format. `at` is a pattern of
 * JSON Pointers into the section read: `*` is any one token ("/facts/*"), `a|b` either
 * token. `keyword` is the keyword that failed ("type|minItems": either), any unless given.
 * `say` is told where the refusal is and what is there; undefined leaves the validator's
 * words, or the next words that match.
 */
export interface Words {
  readonly at: string;
  readonly keyword?: string;
  /** Whether the words are for a refusal anywhere inside the place too: `say` is told of the place then, not of the refusal's. */
  readonly within?: true;
  readonly say: (refused: Refused) => Wording | undefined;
}

/** A refusal where it is in the file: its pointer, its parent's, the last token, the value there and the one it is in. */
export interface Refused {
  readonly pointer: string;
  readonly parent: string;
  readonly key: string;
  readonly value: unknown;
  readonly container: unknown;
  readonly refusal: Refusal;
}

/**
 * The first refusal of a section of a file (`base`, its pointer in the file) as an
 * InputError naming the file and the JSON Pointer: in the reader's words where it has
 * some for the place, else the validator's, with the key it is of (`"because" is required`,
 * at the property missing); a property not known is an `unknown key "key"`.
 */
export function refusalError(
  file: string,
  base: string,
  section: unknown,
  refusals: readonly Refusal[],
  words: readonly Words[],
): InputError {
  const refusal = refusals[0]!;
  const tokens = parsePointer(refusal.path);
  const place = (length: number): Refused => ({
    pointer: appendPointer(base, ...tokens.slice(0, length)),
    parent: appendPointer(base, ...tokens.slice(0, Math.max(length - 1, 0))),
    key: tokens[length - 1] ?? "",
    value: getAtPointer(section, appendPointer("", ...tokens.slice(0, length))),
    container: getAtPointer(section, appendPointer("", ...tokens.slice(0, Math.max(length - 1, 0)))),
    refusal,
  });
  const { pointer, key } = place(tokens.length);
  for (const each of words) {
    if (each.keyword !== undefined && !each.keyword.split("|").includes(refusal.keyword)) continue;
    const length = parsePointer(each.at).length;
    if (!(each.within === true ? length <= tokens.length : length === tokens.length) || !matchesPattern(tokens.slice(0, length), each.at))
      continue;
    const wording = each.say(place(length));
    if (wording !== undefined)
      return new InputError({ file, pointer: wording.pointer ?? place(length).pointer }, wording.problem, wording.hint);
  }
  if (refusal.keyword === "additionalProperties") return new InputError({ file, pointer }, `unknown key "${key}"`);
  // The formats' Text, a string with more in it than white space.
  if (refusal.keyword === "pattern" && refusal.message === "must match the pattern \\S")
    return new InputError({ file, pointer }, `${whose(tokens)}must not be blank`);
  return new InputError({ file, pointer }, `${whose(tokens)}${refusal.message}`);
}

/** The place's name, before the validator's words: `"upstream" `, `item 0 of "overlays" `; nothing for the section itself. */
function whose(tokens: readonly string[]): string {
  const key = tokens.at(-1);
  if (key === undefined) return "";
  if (!/^(0|[1-9]\d*)$/.test(key)) return `"${key}" `;
  const parent = tokens.at(-2);
  return parent === undefined ? `item ${key} ` : `item ${key} of "${parent}" `;
}

function matchesPattern(tokens: readonly string[], pattern: string): boolean {
  const wanted = parsePointer(pattern);
  return wanted.length === tokens.length && wanted.every((token, i) => token === "*" || token.split("|").includes(tokens[i]!));
}
