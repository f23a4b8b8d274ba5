import { Code, concat, hardline, join, lines } from "./code.js";
import { lineComment } from "./comments.js";

/**
 * One generated TypeScript file: a header of comment lines, then declarations separated
 * by a blank line, each made of lines printed in order.
 */
export class GeneratedFile {
  private readonly declarations: Code[] = [];

  constructor(
    readonly path: string,
    private readonly header: readonly string[],
  ) {}

  /** Adds a top-level declaration, each part on its own line. */
  declare(...parts: readonly (Code | undefined)[]): void {
    this.declarations.push(lines(parts.filter((part): part is Code => part !== undefined)));
  }

  get isEmpty(): boolean {
    return this.declarations.length === 0;
  }

  toCode(): Code {
    const header = lines(this.header.map(lineComment));
    return concat(join(concat(hardline, hardline), [header, ...this.declarations]), hardline);
  }
}
