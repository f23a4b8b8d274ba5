import { printDoc } from "./printer.js";
import type { EmittedFile } from "../emit/index.js";

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
 * Prints emitted files with prettier's document printer. The emitters built the documents
 * with the groups prettier's TypeScript printer would build, so the text is what prettier
 * would write, without parsing the code again; a test checks that for every file.
 */
export function format(files: readonly EmittedFile[]): OutputFile[] {
  return files.map((file) => ({
    path: file.path,
    content: "text" in file ? file.text : printDoc(file.code.doc, PRINT_OPTIONS.printWidth),
  }));
}
