/**
 * Where a problem is: a file (relative to the working directory, as the user typed it)
 * and, inside it, a JSON Pointer or a line and column.
 */
export interface SourceLocation {
  readonly file: string;
  readonly pointer?: string;
  readonly line?: number;
  readonly column?: number;
}

/**
 * A problem with the input (config, schema, overlay) that the user must fix. The CLI
 * prints it and exits with code 2; nothing is written. Every other exception is a bug.
 */
export class InputError extends Error {
  override readonly name = "InputError";

  constructor(
    readonly location: SourceLocation,
    readonly problem: string,
    readonly hint?: string,
  ) {
    super(`${formatLocation(location)}: ${problem}${hint === undefined ? "" : `\n  ${hint}`}`);
  }
}

/**
 * Something in the input that works but may hurt: the CLI prints it on standard error,
 * `warning: <file>#<pointer>: <problem>`, and its exit code does not change.
 */
export interface InputWarning {
  readonly location: SourceLocation;
  readonly problem: string;
  readonly hint?: string;
}

/** A warning as the CLI prints it. */
export function describeWarning({ location, problem, hint }: InputWarning): string {
  return `warning: ${formatLocation(location)}: ${problem}${hint === undefined ? "" : `\n  ${hint}`}`;
}

function formatLocation({ file, pointer, line, column }: SourceLocation): string {
  if (line !== undefined) return `${file}:${line}:${column ?? 1}`;
  if (pointer !== undefined && pointer !== "") return `${file}#${pointer}`;
  return file;
}
