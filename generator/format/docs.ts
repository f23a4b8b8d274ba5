import type { builders } from "prettier/doc";
import { builders as b } from "prettier/doc";

/**
 * Prettier's document builders as the layout uses them: concatenations are flattened and
 * adjacent text joined as they are made, since the printer walks a smaller document
 * faster and prints the same.
 *
 * Inside `flatText` the same builders make, instead of a document, the text it prints
 * flat (every group on one line), or `UNFLAT` where it holds a line that always breaks or
 * is wider than a line: the layout's functions then say what a node is on one line, when
 * it can be, without a document built.
 */

export type Doc = builders.Doc;

export const { line, softline, hardline } = b;

/** While `flatText` runs: the builders make flat text. */
let flat = false;

/** What a document that cannot print on one line is made into by the flat builders (never printed). */
const UNFLAT: Doc = Object.freeze({ type: "break-parent" as const });

/**
 * The text the document `build` makes prints when every group in it is flat, or undefined
 * when it holds a hard line or a group that always breaks, or is wider than a line.
 */
export function flatText(build: () => Doc): string | undefined {
  flat = true;
  try {
    const doc = build();
    return typeof doc === "string" ? doc : undefined;
  } finally {
    flat = false;
  }
}

/**
 * Documents made by the flat builders, joined: texts and soft and plain lines, else
 * `UNFLAT`; `UNFLAT` too once the text is longer than any line, which it cannot fit on.
 */
function flatConcat(docs: readonly Doc[]): Doc {
  let text = "";
  for (const doc of docs) {
    if (typeof doc === "string") text += doc;
    else if (doc === line) text += " ";
    else if (doc !== softline) return UNFLAT;
  }
  return text.length > LONGEST ? UNFLAT : text;
}

/** The width of a line (`PRINT_OPTIONS.printWidth`): a text longer than that never prints flat. */
const LONGEST = 80;

/** Appends a document to a concatenation, flattening nested ones and joining adjacent text. */
function append(parts: Doc[], doc: Doc): void {
  if (typeof doc === "string") {
    if (doc === "") return;
    const last = parts.length - 1;
    if (last >= 0 && typeof parts[last] === "string") parts[last] += doc;
    else parts.push(doc);
  } else if (Array.isArray(doc)) for (const part of doc) append(parts, part);
  else parts.push(doc);
}

export function concat(...docs: readonly Doc[]): Doc {
  if (flat) return flatConcat(docs);
  const parts: Doc[] = [];
  for (const doc of docs) append(parts, doc);
  return parts.length === 1 ? parts[0]! : parts;
}

/** Printed flat when it fits on the line, else with every line in it broken. */
export function group(...docs: readonly Doc[]): Doc {
  return flat ? flatConcat(docs) : b.group(concat(...docs));
}

/** A group printed broken whatever its width. */
export function brokenGroup(...docs: readonly Doc[]): Doc {
  return flat ? UNFLAT : b.group(concat(...docs), { shouldBreak: true });
}

/** The first of several layouts that fits; the last one when none does. */
export function firstFitting(states: readonly Doc[]): Doc {
  return flat ? states[0]! : b.conditionalGroup([...states]);
}

export function indent(...docs: readonly Doc[]): Doc {
  return flat ? flatConcat(docs) : b.indent(concat(...docs));
}

/** Indents broken lines by a fixed width, as prettier aligns union members after "| ". */
export function align(width: number, ...docs: readonly Doc[]): Doc {
  return flat ? flatConcat(docs) : b.align(width, concat(...docs));
}

export function join(separator: Doc, docs: readonly Doc[]): Doc {
  const parts: Doc[] = [];
  if (flat) {
    docs.forEach((doc, i) => {
      if (i > 0) parts.push(separator);
      parts.push(doc);
    });
    return flatConcat(parts);
  }
  docs.forEach((doc, i) => {
    if (i > 0) append(parts, separator);
    append(parts, doc);
  });
  return parts;
}

export function ifBreak(broken: Doc, flatContents: Doc = ""): Doc {
  return flat ? flatConcat([flatContents]) : b.ifBreak(broken, flatContents);
}

/** Lines, one after the other. */
export function lines(docs: readonly Doc[]): Doc {
  return join(hardline, docs);
}

/** `(a, b)` or `<A, B>`: items one per line with a trailing comma when they do not fit. */
export function list(open: string, items: readonly Doc[], close: Doc, options: { readonly trailingComma?: boolean } = {}): Doc {
  return group(
    open,
    indent(softline, join(concat(",", line), items)),
    options.trailingComma === false ? "" : ifBreak(","),
    softline,
    close,
  );
}

/**
 * A group whose breaking another group follows: `right` is indented when the group of
 * `id` breaks, as prettier's fluid assignment layout does.
 */
export function breakAfter(left: Doc, right: Doc): Doc {
  if (flat) return flatConcat([left, " ", right]);
  const id = Symbol("assignment");
  return concat(left, b.group(b.indent(b.line), { id }), b.indentIfBreak(right, { groupId: id }));
}
