import type { Doc } from "./docs.js";
import { join, hardline } from "./docs.js";
import { commentText } from "./escape.js";

/**
 * A JSDoc block from paragraphs of text, or nothing when they hold none. An asterisk
 * followed by a slash in the text would end the comment, so that slash is escaped with a
 * backslash, which JSDoc renders as the original text; an invisible character (a
 * bidirectional control, a zero-width space, a control) is shown as its escape.
 */
export function jsDoc(paragraphs: readonly string[]): Doc | undefined {
  const lines = jsDocLines(paragraphs);
  return lines === undefined ? undefined : lines.length === 1 ? lines[0]! : join(hardline, lines);
}

/** The lines of `jsDoc`'s block, or nothing when the paragraphs hold no text. */
export function jsDocLines(paragraphs: readonly string[]): string[] | undefined {
  const lines: string[] = [];
  paragraphs.forEach((paragraph, i) => {
    if (i > 0) lines.push("");
    // Most paragraphs are one line: nothing to split.
    const blocks = BREAK.test(paragraph) ? paragraph.split(BLANK_LINE) : [paragraph];
    blocks.forEach((block, j) => {
      if (j > 0) lines.push("");
      for (const line of layOut(block)) lines.push(commentText(line.includes("*/") ? line.replaceAll("*/", "*\\/") : line).trimEnd());
    });
  });
  while (lines.at(-1) === "") lines.pop();
  if (lines.length === 0) return undefined;
  if (lines.length === 1 && lines[0]!.length <= 60) return [`/** ${lines[0]} */`];
  return ["/**", ...lines.map((line) => (line === "" ? " *" : ` * ${line}`)), " */"];
}

/** A block the author broke into lines keeps its lines; one long line is wrapped. */
function layOut(block: string): string[] {
  const lines = BREAK.test(block) ? block.split(LINE_BREAK) : [block];
  return lines.length === 1 ? wrap(lines[0]!) : lines;
}

/** A line break of any kind. */
const BREAK = /[\n\r\u2028\u2029]/;

const BLANK_LINE = /(?:\r\n|[\n\r\u2028\u2029])[ \t]*(?:\r\n|[\n\r\u2028\u2029])/;

/** Text per line of a comment, so that most comments fit in 80 columns where they are. */
const TEXT_WIDTH = 74;

/**
 * Breaks a long line of prose at spaces. A continuation keeps the line's indentation,
 * and aligns under a list item's text; tag lines (`@pattern …`) are left whole.
 */
function wrap(line: string): string[] {
  if (line.length <= TEXT_WIDTH || line.trimStart().startsWith("@")) return [line];
  const indentation = /^\s*(?:[-*] )?/.exec(line)![0];
  const continuation = " ".repeat(indentation.length);
  const wrapped: string[] = [];
  let current = indentation;
  for (const word of line.slice(indentation.length).split(" ")) {
    if (current.trim() !== "" && current.length + 1 + word.length > TEXT_WIDTH) {
      wrapped.push(current);
      current = continuation + word;
    } else current += current.trim() === "" ? word : ` ${word}`;
  }
  wrapped.push(current);
  return wrapped;
}

/** A `//` comment; a line break in the text would end it, so each becomes a space, and an invisible character shows as its escape. */
export function lineComment(text: string): string {
  return `// ${commentText(text.replace(LINE_BREAK, " "))}`.trimEnd();
}

const LINE_BREAK = /\r\n|[\n\r\u2028\u2029]/g;
