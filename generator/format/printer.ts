import { createRequire } from "node:module";
import type { builders } from "prettier/doc";

/**
 * The documents prettier's builders make, with the fields its printer reads (its published
 * types leave out `groupId`, `negate` and the contents of `indentIfBreak`).
 */
type Doc =
  | string
  | readonly Doc[]
  | Group
  | { readonly type: "indent"; readonly contents: Doc }
  | { readonly type: "align"; readonly n: unknown; readonly contents: Doc }
  | { readonly type: "if-break"; readonly breakContents: Doc; readonly flatContents: Doc; readonly groupId?: symbol }
  | { readonly type: "indent-if-break"; readonly contents: Doc; readonly groupId: symbol; readonly negate?: boolean }
  | { readonly type: "line"; readonly hard?: boolean; readonly soft?: boolean; readonly literal?: boolean }
  | { readonly type: "break-parent" }
  | { readonly type: "fill" | "line-suffix" | "line-suffix-boundary" | "trim" | "cursor" | "label" };

interface Group {
  readonly type: "group";
  readonly contents: Doc;
  readonly break?: boolean | "propagated";
  readonly id?: symbol;
  readonly expandedStates?: readonly Doc[];
}

/**
 * Prettier's document printer (`printDocToString`), for the documents the emitters build:
 * strings, concatenations, groups (with `shouldBreak`, ids and conditional states),
 * `indent`, `align` by a number of spaces, lines, `ifBreak`, `indentIfBreak` and
 * `breakParent`, printed with spaces for indentation. It makes the same decisions by the
 * same rules, and a test holds it to prettier's on every generated file. It exists for
 * speed: prettier's walks every document twice, once to propagate breaks and once to
 * print, and builds an indentation object per `indent`; this one propagates breaks once
 * per group and indents by counting.
 *
 * A document can be printed from inside a line: at a column (`position`) of a line
 * indented by `indent`, what is before them written by the caller, as it would print there
 * with nothing after it on its last line.
 */
export function printDoc(doc: builders.Doc, width: number, indent = 0, position = indent): string {
  return new Printer(width).print(doc as Doc, indent, position);
}

const BREAK = 0;
const FLAT = 1;
type Mode = typeof BREAK | typeof FLAT;

/**
 * The documents still to print, each at an indentation (in spaces) and in a mode: three
 * parallel stacks rather than an object per document, since a file has many thousands.
 */
class Commands {
  readonly docs: Doc[] = [];
  readonly indents: number[] = [];
  readonly modes: Mode[] = [];

  get length(): number {
    return this.docs.length;
  }

  push(indent: number, mode: Mode, doc: Doc): void {
    this.docs.push(doc);
    this.indents.push(indent);
    this.modes.push(mode);
  }
}

class Printer {
  /** For each group, once breaks have propagated: whether it must break (`shouldBreak`, or it holds a hard line or such a group). */
  private readonly breaks = new Map<Group, boolean>();
  private readonly groupModes = new Map<symbol, Mode>();
  private readonly lines: string[] = [];
  private line = "";
  /** The width of the current line so far. */
  private position = 0;
  /** The mode `printGroup` chose. */
  private chosenMode: Mode = BREAK;
  /** What `collectFlat` collects, kept to be reused. */
  private readonly flatTexts: string[] = [];
  private readonly flatIds: symbol[] = [];
  /** The stacks of `fits`, kept to be reused. */
  private readonly fitsDocs: Doc[] = [];
  private readonly fitsModes: Mode[] = [];

  constructor(private readonly width: number) {}

  print(root: Doc, indent: number, position: number): string {
    this.forcesBreak(root);
    this.position = position;
    const commands = new Commands();
    commands.push(indent, BREAK, root);
    let remeasure = false;
    while (commands.length > 0) {
      const doc = commands.docs.pop()!;
      const indent = commands.indents.pop()!;
      const mode = commands.modes.pop()!;
      if (typeof doc === "string") {
        this.line += doc;
        if (commands.length > 0) this.position += stringWidth(doc);
        continue;
      }
      if (isConcat(doc)) {
        for (let i = doc.length - 1; i >= 0; i--) commands.push(indent, mode, doc[i]!);
        continue;
      }
      switch (doc.type) {
        case "indent":
          commands.push(indent + 2, mode, doc.contents);
          break;
        case "align":
          if (typeof doc.n !== "number" || doc.n < 0) throw new Error(`unsupported align: ${String(doc.n)}`);
          commands.push(indent + doc.n, mode, doc.contents);
          break;
        case "group": {
          const contents = this.printGroup(doc, mode, commands, remeasure);
          const groupMode = this.chosenMode;
          remeasure = false;
          if (doc.id !== undefined) this.groupModes.set(doc.id, groupMode);
          // Flat contents are most of a file: printed at once, without a command each.
          if (groupMode === FLAT && this.printFlat(contents)) break;
          commands.push(indent, groupMode, contents);
          break;
        }
        case "if-break": {
          const groupMode = doc.groupId === undefined ? mode : this.groupModes.get(doc.groupId);
          const contents = groupMode === BREAK ? doc.breakContents : groupMode === FLAT ? doc.flatContents : undefined;
          if (contents) commands.push(indent, mode, contents);
          break;
        }
        case "indent-if-break": {
          const groupMode = this.groupModes.get(doc.groupId);
          const negate = doc.negate === true;
          const indented = groupMode === BREAK ? !negate : groupMode === FLAT ? negate : undefined;
          if (indented !== undefined) commands.push(indented ? indent + 2 : indent, mode, doc.contents);
          break;
        }
        case "line":
          if (mode === FLAT && !doc.hard) {
            if (!doc.soft) {
              this.line += " ";
              this.position += 1;
            }
            break;
          }
          if (mode === FLAT) remeasure = true;
          if (doc.literal) throw new Error("unsupported: a literal line");
          this.newLine(indent);
          break;
        case "break-parent":
          break;
        default:
          throw new Error(`unsupported document: ${doc.type}`);
      }
    }
    this.lines.push(this.line);
    return this.lines.join("\n");
  }

  /**
   * How to print a group: flat if it fits, else its first conditional state that fits, else
   * broken. Returns what to print, and leaves the mode in `chosenMode` (no pair to allocate).
   */
  private printGroup(group: Group, mode: Mode, rest: Commands, remeasure: boolean): Doc {
    const broken = this.breaks.get(group) === true;
    this.chosenMode = FLAT;
    if (mode === FLAT && !remeasure) {
      if (broken) this.chosenMode = BREAK;
      return group.contents;
    }
    const remaining = this.width - this.position;
    if (!broken && this.fits(group.contents, rest, remaining)) return group.contents;
    const states = group.expandedStates;
    this.chosenMode = BREAK;
    if (states === undefined) return group.contents;
    if (!broken)
      for (let i = 1; i < states.length - 1; i++)
        if (this.fits(states[i]!, rest, remaining)) {
          this.chosenMode = FLAT;
          return states[i]!;
        }
    return states.at(-1)!;
  }

  /**
   * Prints a document in flat mode straight onto the line, as the command loop would, when
   * nothing in it can break it: no hard line, no group that must break. Returns false,
   * having printed nothing, when something can; the loop prints it then.
   */
  private printFlat(doc: Doc): boolean {
    const texts = this.flatTexts;
    const ids = this.flatIds;
    texts.length = 0;
    ids.length = 0;
    if (!this.collectFlat(doc)) return false;
    const text = texts.length === 1 ? texts[0]! : texts.join("");
    this.line += text;
    if (isPrintableAscii(text)) this.position += text.length;
    // Measured a text at a time, as the loop measures: a wide character's width can depend on what is next to it.
    else for (const each of texts) this.position += stringWidth(each);
    for (const id of ids) this.groupModes.set(id, FLAT);
    return true;
  }

  /** A group's mode while `collectFlat` walks: flat if the walk has met it, else the mode it was printed in, if it was. */
  private flatModeOf(id: symbol): Mode | undefined {
    return this.flatIds.includes(id) ? FLAT : this.groupModes.get(id);
  }

  /** The texts of a document printed flat, in `flatTexts`, and the ids of its groups, in `flatIds`; false where it may break. */
  private collectFlat(doc: Doc): boolean {
    if (typeof doc === "string") {
      if (doc !== "") this.flatTexts.push(doc);
      return true;
    }
    if (isConcat(doc)) {
      for (let i = 0; i < doc.length; i++) if (!this.collectFlat(doc[i]!)) return false;
      return true;
    }
    switch (doc.type) {
      case "indent":
        return this.collectFlat(doc.contents);
      case "indent-if-break":
        // Its contents are left out while the group it follows is unprinted, as the loop leaves them.
        return this.flatModeOf(doc.groupId) === undefined || this.collectFlat(doc.contents);
      case "align":
        return typeof doc.n === "number" && doc.n >= 0 && this.collectFlat(doc.contents);
      case "group":
        if (this.breaks.get(doc) === true) return false;
        if (doc.id !== undefined) this.flatIds.push(doc.id);
        return this.collectFlat(doc.contents);
      case "if-break": {
        const groupMode = doc.groupId === undefined ? FLAT : this.flatModeOf(doc.groupId);
        const contents = groupMode === BREAK ? doc.breakContents : groupMode === FLAT ? doc.flatContents : undefined;
        return contents === undefined || this.collectFlat(contents);
      }
      case "line":
        if (doc.hard) return false;
        if (!doc.soft) this.flatTexts.push(" ");
        return true;
      case "break-parent":
        return true;
      default:
        return false;
    }
  }

  /**
   * Whether the document, printed flat, fits in the remaining width, followed by the
   * commands after it up to their first line break.
   */
  private fits(next: Doc, rest: Commands, width: number): boolean {
    let remaining = width;
    let restIndex = rest.length;
    let pendingSpace = false;
    const docs = this.fitsDocs;
    const modes = this.fitsModes;
    docs.length = 0;
    modes.length = 0;
    docs.push(next);
    modes.push(FLAT);
    while (remaining >= 0) {
      if (docs.length === 0) {
        if (restIndex === 0) return true;
        restIndex--;
        docs.push(rest.docs[restIndex]!);
        modes.push(rest.modes[restIndex]!);
        continue;
      }
      const doc = docs.pop()!;
      const mode = modes.pop()!;
      if (typeof doc === "string") {
        if (doc !== "") {
          if (pendingSpace) {
            remaining -= 1;
            pendingSpace = false;
          }
          remaining -= stringWidth(doc);
        }
        continue;
      }
      if (isConcat(doc)) {
        for (let i = doc.length - 1; i >= 0; i--) {
          docs.push(doc[i]!);
          modes.push(mode);
        }
        continue;
      }
      switch (doc.type) {
        case "indent":
        case "align":
        case "indent-if-break":
          docs.push(doc.contents);
          modes.push(mode);
          break;
        case "group": {
          const groupMode = this.breaks.get(doc) === true ? BREAK : mode;
          docs.push(doc.expandedStates !== undefined && groupMode === BREAK ? doc.expandedStates.at(-1)! : doc.contents);
          modes.push(groupMode);
          break;
        }
        case "if-break": {
          const groupMode = doc.groupId === undefined ? mode : (this.groupModes.get(doc.groupId) ?? FLAT);
          const contents = groupMode === BREAK ? doc.breakContents : doc.flatContents;
          if (contents) {
            docs.push(contents);
            modes.push(mode);
          }
          break;
        }
        case "line":
          if (mode === BREAK || doc.hard) return true;
          if (!doc.soft) pendingSpace = true;
          break;
        default:
          break;
      }
    }
    return false;
  }

  /** Ends the line, without the spaces it ends in, and starts the next at the indentation. */
  private newLine(indent: number): void {
    const last = this.line.charCodeAt(this.line.length - 1);
    this.lines.push(last === SPACE || last === TAB ? this.line.replace(TRAILING_BLANKS, "") : this.line);
    this.line = indentation(indent);
    this.position = indent;
  }

  /**
   * Whether the document forces its innermost enclosing group to break, marking the groups
   * that must, as prettier's `propagateBreaks` does: a group with `shouldBreak`, or holding
   * a `breakParent` (every hard line has one) outside any inner group, or holding a group
   * that breaks. A conditional group is not marked by what it holds, and passes no break on.
   */
  private forcesBreak(doc: Doc): boolean {
    if (typeof doc === "string") return false;
    if (isConcat(doc)) {
      let forces = false;
      for (let i = 0; i < doc.length; i++) {
        const part = doc[i]!;
        if (typeof part !== "string" && this.forcesBreak(part)) forces = true;
      }
      return forces;
    }
    switch (doc.type) {
      case "break-parent":
        return true;
      case "group": {
        const known = this.breaks.get(doc);
        if (known !== undefined) return known;
        let holds = false;
        if (doc.expandedStates !== undefined) for (const state of doc.expandedStates) this.forcesBreak(state);
        else holds = this.forcesBreak(doc.contents);
        const breaks = Boolean(doc.break) || (holds && doc.expandedStates === undefined);
        this.breaks.set(doc, breaks);
        return breaks;
      }
      case "if-break": {
        // Both branches are walked, for the groups in each to be marked.
        const inBroken = this.forcesBreak(doc.breakContents);
        const inFlat = this.forcesBreak(doc.flatContents);
        return inBroken || inFlat;
      }
      case "indent":
      case "align":
      case "indent-if-break":
        return this.forcesBreak(doc.contents);
      default:
        return false;
    }
  }
}

/** `Array.isArray`, narrowing to the readonly arrays documents are. */
function isConcat(doc: Doc): doc is readonly Doc[] {
  return Array.isArray(doc);
}

const TRAILING_BLANKS = /[ \t]+$/;
const SPACE = 0x20;
const TAB = 0x09;

const indentations: string[] = [];
function indentation(width: number): string {
  return (indentations[width] ??= " ".repeat(width));
}

/**
 * The columns a string takes: its length when every character is one column wide (ASCII,
 * Latin, Greek, Cyrillic, general punctuation, arrows), else prettier's own measure.
 */
export function stringWidth(text: string): number {
  return narrowWidth(text) ?? prettierStringWidth(text);
}

/** The columns a string takes when every character in it is one column wide, else undefined. */
export function narrowWidth(text: string): number | undefined {
  return isPrintableAscii(text) || NARROW.test(text) ? text.length : undefined;
}

/** Whether the text is printable ASCII, most of what is printed: tested without a regular expression. */
function isPrintableAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code > 0x7e) return false;
  }
  return true;
}

// No control characters, combining marks, emoji presentation or East Asian wide characters.
const NARROW = /^[\x20-\x7E\u00A0-\u02FF\u0370-\u03FF\u0400-\u0482\u2010-\u2027\u2030-\u205E\u2190-\u21FF]*$/;

let measure: ((text: string) => number) | undefined;
/** Prettier's measure of wide and zero-width characters, loaded the first time one is printed. */
function prettierStringWidth(text: string): number {
  measure ??= (createRequire(import.meta.url)("prettier") as { util: { getStringWidth(text: string): number } }).util.getStringWidth;
  return measure(text);
}
