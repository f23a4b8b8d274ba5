import { ERROR_LIMIT } from "./limits.js";

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

  /** The error at another location: a file read from elsewhere named by where it came from. */
  relocated(move: (location: SourceLocation) => SourceLocation): InputError {
    return new InputError(move(this.location), this.problem, this.hint);
  }
}

/**
 * Input errors that do not depend on each other, found in one run: the first ERROR_LIMIT
 * of them, and how many more were found and not kept. It is an InputError, the first of
 * them (its location, problem and hint), so that what handles one handles these; its
 * message is each one's, a line each (the CLI prints them, and counts them). Made by
 * InputErrorList, only for more than one: a single error is thrown as it is.
 */
export class InputErrors extends InputError {
  constructor(
    readonly errors: readonly InputError[],
    readonly unshown: number,
  ) {
    super(errors[0]!.location, errors[0]!.problem, errors[0]!.hint);
    this.message = this.reports.join("\n");
  }

  /** What to print: each error's message, and a line for those not kept. */
  get reports(): string[] {
    const more = this.unshown > 0 ? [`… ${this.unshown} more ${this.unshown === 1 ? "error" : "errors"} not shown`] : [];
    return [...this.errors.map((error) => error.message), ...more];
  }

  /** How many were found, shown or not. */
  get count(): number {
    return this.errors.length + this.unshown;
  }

  override relocated(move: (location: SourceLocation) => SourceLocation): InputError {
    return new InputErrors(
      this.errors.map((error) => error.relocated(move)),
      this.unshown,
    );
  }
}

/**
 * The errors of a run that do not depend on each other, gathered as they are found, so
 * that one run reports them all: the first ERROR_LIMIT kept, the rest counted.
 */
export class InputErrorList {
  private readonly kept: InputError[] = [];
  private unshown = 0;

  /** An error found; the errors of an InputErrors each count as one. */
  add(error: InputError): void {
    for (const one of error instanceof InputErrors ? error.errors : [error]) {
      if (this.kept.length < ERROR_LIMIT) this.kept.push(one);
      else this.unshown++;
    }
    if (error instanceof InputErrors) this.unshown += error.unshown;
  }

  /** Throws what was found, if anything: a single error as it is, more as InputErrors. */
  throwIfAny(): void {
    if (this.kept.length === 1 && this.unshown === 0) throw this.kept[0]!;
    if (this.kept.length > 0) throw new InputErrors(this.kept, this.unshown);
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
