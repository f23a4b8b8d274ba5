import type { builders } from "prettier/doc";
import { builders as b } from "prettier/doc";
import type { JsonPrimitive } from "../../json.js";
import { literal } from "./escape.js";

type Doc = builders.Doc;

/**
 * A piece of TypeScript, held as a prettier document so that prettier's layout algorithm
 * decides where lines break. Only this module makes one: text from a schema reaches the
 * output only through `ts` interpolation (quoted as a literal) or an escaping function
 * (identifiers, property keys, JSDoc), never as raw text.
 */
export class Code {
  private constructor(readonly doc: Doc) {}

  /** @internal For the printer's own modules, which escape what they pass. */
  static trusted(doc: Doc): Code {
    return new Code(doc);
  }
}

/**
 * Code from a template: the template's text is code; an interpolated Code is inserted as
 * it is; an interpolated string, number, boolean or null becomes its literal.
 */
export function ts(strings: TemplateStringsArray, ...values: readonly (Code | JsonPrimitive)[]): Code {
  const texts = templateTexts(strings);
  const parts: Doc[] = [];
  texts.forEach((text, i) => {
    append(parts, text);
    if (i < values.length) {
      const value = values[i]!;
      append(parts, value instanceof Code ? value.doc : literal(value).doc);
    }
  });
  return Code.trusted(parts.length === 1 ? parts[0]! : parts);
}

/**
 * A template's texts as documents, a line break as a hardline. A template's strings are
 * the same array on every call from one place, so each is split once.
 */
function templateTexts(strings: TemplateStringsArray): readonly Doc[] {
  let texts = splitTemplates.get(strings);
  if (texts === undefined) {
    texts = strings.map((text) => {
      if (!text.includes("\n")) return text;
      const parts: Doc[] = [];
      text.split("\n").forEach((line, j) => append(parts, j === 0 ? line : [b.hardline, line]));
      return parts;
    });
    splitTemplates.set(strings, texts);
  }
  return texts;
}

const splitTemplates = new WeakMap<TemplateStringsArray, readonly Doc[]>();

/**
 * Appends a document to a concatenation, flattening nested concatenations and joining
 * adjacent text: prettier prints the same, and walks a smaller document faster.
 */
function append(parts: Doc[], doc: Doc): void {
  if (typeof doc === "string") {
    if (doc === "") return;
    const last = parts.length - 1;
    if (last >= 0 && typeof parts[last] === "string") parts[last] += doc;
    else parts.push(doc);
  } else if (Array.isArray(doc)) for (const part of doc) append(parts, part);
  else parts.push(doc);
}

/** The codes as one flat concatenation. */
function flat(codes: readonly Code[]): Doc {
  const parts: Doc[] = [];
  for (const code of codes) append(parts, code.doc);
  return parts.length === 1 ? parts[0]! : parts;
}

export const line = Code.trusted(b.line);
export const softline = Code.trusted(b.softline);
export const hardline = Code.trusted(b.hardline);
export const nothing = Code.trusted("");

export function concat(...codes: readonly Code[]): Code {
  return Code.trusted(flat(codes));
}

/** Printed flat when it fits on the line, else with every line in it broken. */
export function group(...codes: readonly Code[]): Code {
  return Code.trusted(b.group(flat(codes)));
}

/** A group printed broken whatever its width. */
export function brokenGroup(...codes: readonly Code[]): Code {
  return Code.trusted(b.group(flat(codes), { shouldBreak: true }));
}

/**
 * The first of several layouts that fits, as prettier tries them for a call whose last
 * argument can hug the parentheses; the last one when none does.
 */
export function firstFitting(states: readonly Code[]): Code {
  return Code.trusted(b.conditionalGroup(states.map((state) => state.doc)));
}

export function indent(...codes: readonly Code[]): Code {
  return Code.trusted(b.indent(flat(codes)));
}

/** Indents broken lines by a fixed width, as prettier aligns union members after "| ". */
export function align(width: number, ...codes: readonly Code[]): Code {
  return Code.trusted(b.align(width, flat(codes)));
}

export function join(separator: Code, codes: readonly Code[]): Code {
  const parts: Doc[] = [];
  codes.forEach((code, i) => {
    if (i > 0) append(parts, separator.doc);
    append(parts, code.doc);
  });
  return Code.trusted(parts);
}

export function ifBreak(broken: Code, flat: Code = nothing): Code {
  return Code.trusted(b.ifBreak(broken.doc, flat.doc));
}

/** Lines, one after the other. */
export function lines(codes: readonly Code[]): Code {
  return join(hardline, codes);
}
