import type { Code } from "./code.js";
import { concat, group, hardline, ifBreak, indent, join, line, lines, ts } from "./code.js";
import { lineComment } from "./comments.js";
import { identifier } from "./escape.js";

/**
 * One generated TypeScript file: a header of comment lines, its imports, module-level
 * constants, then declarations separated by a blank line.
 *
 * Top-level names are resolved up front: an emitter reserves the names it will declare,
 * and every other name the file needs (an import, a hoisted constant or helper) is
 * allocated here, with a numeric suffix when the preferred one is taken. Imports are
 * symbols rather than text: only those asked for are printed, sorted, types apart.
 */
export class GeneratedFile {
  private readonly declarations: Code[] = [];
  private readonly constants: Code[] = [];
  private readonly constantNames = new Map<string, Code>();
  private readonly taken = new Set<string>();
  /** module → imported name → { local name, type only } */
  private readonly imports = new Map<string, Map<string, { local: string; typeOnly: boolean }>>();

  constructor(
    readonly path: string,
    private readonly header: readonly string[],
  ) {}

  /** Claims names this file declares, so that nothing else the file needs takes them. */
  reserve(names: Iterable<string>): void {
    for (const name of names) {
      if (this.taken.has(name)) throw new Error(`${this.path}: "${name}" is declared twice`);
      this.taken.add(name);
    }
  }

  /** A free top-level name, the preferred one when it is free. */
  allocate(preferred: string): string {
    let name = preferred;
    for (let i = 1; this.taken.has(name); i++) name = `${preferred}${i}`;
    this.taken.add(name);
    return name;
  }

  /** The local name of a symbol from another module of the package; the import is printed if asked for. */
  import(name: string, from: string, options: { readonly typeOnly?: boolean } = {}): Code {
    const symbols = this.imports.get(from) ?? new Map<string, { local: string; typeOnly: boolean }>();
    this.imports.set(from, symbols);
    const known = symbols.get(name);
    if (known !== undefined) {
      if (!options.typeOnly) known.typeOnly = false;
      return identifier(known.local);
    }
    const local = this.allocate(name);
    symbols.set(name, { local, typeOnly: options.typeOnly ?? false });
    return identifier(local);
  }

  /** A module-level constant, made once per key; returns its name. */
  constant(key: string, preferredName: string, make: (name: Code) => Code): Code {
    const known = this.constantNames.get(key);
    if (known !== undefined) return known;
    const name = identifier(this.allocate(preferredName));
    this.constantNames.set(key, name);
    this.constants.push(make(name));
    return name;
  }

  /** Adds a top-level declaration, each part on its own line. */
  declare(...parts: readonly (Code | undefined)[]): void {
    this.declarations.push(lines(parts.filter((part): part is Code => part !== undefined)));
  }

  /** Whether nothing has been declared: such a file is not worth writing. */
  get isEmpty(): boolean {
    return this.declarations.length === 0 && this.constants.length === 0;
  }

  toCode(): Code {
    const sections = [lines(this.header.map(lineComment))];
    const imports = this.importDeclarations();
    if (imports.length > 0) sections.push(lines(imports));
    if (this.constants.length > 0) sections.push(lines(this.constants));
    return concat(join(concat(hardline, hardline), [...sections, ...this.declarations]), hardline);
  }

  private importDeclarations(): Code[] {
    const declarations: Code[] = [];
    for (const from of [...this.imports.keys()].sort()) {
      const symbols = [...this.imports.get(from)!].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      for (const typeOnly of [true, false]) {
        const chosen = symbols.filter(([, symbol]) => symbol.typeOnly === typeOnly);
        if (chosen.length === 0) continue;
        const specifiers = chosen.map(([name, { local }]) =>
          name === local ? identifier(name) : ts`${identifier(name)} as ${identifier(local)}`,
        );
        const keyword = typeOnly ? ts`import type {` : ts`import {`;
        declarations.push(group(keyword, indent(line, join(concat(ts`,`, line), specifiers)), ifBreak(ts`,`), line, ts`} from ${from};`));
      }
    }
    return declarations;
  }
}
