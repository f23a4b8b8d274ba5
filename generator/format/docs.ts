import type { builders } from "prettier/doc";
import { builders as b } from "prettier/doc";

/**
 * Prettier's document builders as the layout uses them: concatenations are flattened and
 * adjacent text joined as they are made, since the printer walks a smaller document
 * faster and prints the same.
 */

export type Doc = builders.Doc;

export const { line, softline, hardline } = b;

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
  const parts: Doc[] = [];
  for (const doc of docs) append(parts, doc);
  return parts.length === 1 ? parts[0]! : parts;
}

/** Printed flat when it fits on the line, else with every line in it broken. */
export function group(...docs: readonly Doc[]): Doc {
  return b.group(concat(...docs));
}

/** A group printed broken whatever its width. */
export function brokenGroup(...docs: readonly Doc[]): Doc {
  return b.group(concat(...docs), { shouldBreak: true });
}

/** The first of several layouts that fits; the last one when none does. */
export function firstFitting(states: readonly Doc[]): Doc {
  return b.conditionalGroup([...states]);
}

export function indent(...docs: readonly Doc[]): Doc {
  return b.indent(concat(...docs));
}

/** Indents broken lines by a fixed width, as prettier aligns union members after "| ". */
export function align(width: number, ...docs: readonly Doc[]): Doc {
  return b.align(width, concat(...docs));
}

export function join(separator: Doc, docs: readonly Doc[]): Doc {
  const parts: Doc[] = [];
  docs.forEach((doc, i) => {
    if (i > 0) append(parts, separator);
    append(parts, doc);
  });
  return parts;
}

export function ifBreak(broken: Doc, flat: Doc = ""): Doc {
  return b.ifBreak(broken, flat);
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
  const id = Symbol("assignment");
  return concat(left, b.group(b.indent(b.line), { id }), b.indentIfBreak(right, { groupId: id }));
}
