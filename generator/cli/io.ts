/** Where a command writes, and the folder it runs in. */
export interface Io {
  readonly cwd: string;
  /** Standard input, for a command that reads `-`. */
  readonly stdin?: AsyncIterable<Uint8Array | string>;
  /** Stops a command that runs until stopped (`generate --watch`); without it, the process's end does. */
  readonly signal?: AbortSignal;
  out(text: string): void;
  err(text: string): void;
}

/** A command line that does not say what to do: printed with the command's help, exit 2. */
export class UsageError extends Error {
  override readonly name = "UsageError";
}

/** A command line as `util.parseArgs` reads it: `--opt value` and `--opt=value` alike. */
export interface Arguments {
  readonly values: Readonly<Record<string, string | boolean | readonly string[] | undefined>>;
  readonly positionals: readonly string[];
}
