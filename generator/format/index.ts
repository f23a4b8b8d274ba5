import type { EmittedFile } from "../emit/index.js";
import type { Doc } from "./docs.js";
import { concat, hardline } from "./docs.js";
import { jsonDoc, jsonText } from "./json.js";
import type { Module } from "../code/tree.js";
import { optimizeSection, withoutUnused } from "../code/passes.js";
import type { ModulePrinter } from "../emit/index.js";
import { layOutModule } from "./layout.js";
import { moduleTexts } from "./direct.js";
import type { Part } from "./direct.js";

/** A file as it is written: its path under `generated/` and its exact bytes. */
export interface OutputFile {
  readonly path: string;
  readonly content: string;
}

/**
 * The layout every generated file gets. Fixed here rather than read from a prettier
 * config, so that a user's settings cannot change the bytes.
 */
export const PRINT_OPTIONS = { printWidth: 80, tabWidth: 2, useTabs: false } as const;

/**
 * Prints emitted files: code and JSON are laid out with the groups prettier builds for
 * them (`layout.ts`, `json.ts`) and printed with a port of prettier's document printer,
 * so the text is what prettier would write, without parsing the code again; a test
 * checks that for every file.
 */
export function format(files: Iterable<EmittedFile>): OutputFile[] {
  return Array.from(files, (file) => ({ path: file.path, content: render(file) }));
}

function render(file: EmittedFile): string {
  if ("text" in file) return file.text;
  if ("json" in file) return jsonText(file.json, PRINT_OPTIONS.printWidth);
  return `${printSections(moduleTexts(file.module))}\n`;
}

/**
 * Prints modules as `emitProtocol` emits them, a section at a time, each through the
 * passes it would have had in the whole module (`code/passes.ts`): the text `format`
 * prints of the whole module.
 */
export const PRINT_AS_EMITTED: ModulePrinter = {
  start() {
    const used = new Set<string>();
    const printed: string[] = [];
    return {
      sink: (declarations) => {
        const module: Module = { kind: "module", header: [], imports: [], constants: [], sections: [optimizeSection(declarations, used)] };
        printed.push(printSections(moduleTexts(module)));
      },
      finish: (module) => {
        const head = printSections(moduleTexts({ ...withoutUnused(module, used), sections: [] }));
        return printed.length === 0 ? `${head}\n` : `${head === "" ? "" : `${head}\n\n`}${printed.join("\n\n")}\n`;
      },
    };
  },
};

/**
 * Sections printed a part at a time, so that the documents of one part are all that is
 * alive, not those of a module of many megabytes; without the line break at the end.
 */
function printSections(sections: readonly (readonly Part[])[]): string {
  const text: string[] = [];
  for (const section of sections) {
    if (text.length > 0) text.push("");
    for (const part of section) text.push(flattened(part()));
  }
  return text.join("\n");
}

/**
 * The text as one string in memory. A part's text is made by concatenation, which V8
 * keeps as a tree of the pieces until the string is read; kept until its section is
 * joined, that tree is many small objects for the garbage collector to copy, each
 * collection, where the string read once is one. Reading a character makes it one.
 */
function flattened(text: string): string {
  return text.charCodeAt(0) >= 0 ? text : text;
}

/** The document a file of code or JSON is printed from. */
export function documentOf(file: Exclude<EmittedFile, { readonly text: string }>): Doc {
  return "module" in file ? layOutModule(file.module) : concat(jsonDoc(file.json), hardline);
}
