import type { Declaration, Module, Name, Variable } from "../code/tree.js";
import { identifier, importDeclaration } from "../code/build.js";
import type { Template } from "./templates.js";

/** What takes a module's sections of declarations as they are declared, in order. */
export type SectionSink = (declarations: readonly Declaration[]) => void;

/**
 * One generated TypeScript module as it is built: a header of comment lines, its imports,
 * module-level constants, then sections of declarations.
 *
 * Top-level names are resolved up front: an emitter reserves the names it will declare,
 * and every other name the file needs (an import, a hoisted constant or helper) is
 * allocated here, with a numeric suffix when the preferred one is taken. Imports are
 * symbols rather than text: only those asked for are printed, sorted, types apart.
 */
export class GeneratedFile {
  private readonly sections: (readonly Declaration[])[] = [];
  private streamed = 0;
  private readonly constants: Variable[] = [];
  private readonly constantNames = new Map<string, Name>();
  private readonly taken = new Set<string>();
  /** module → imported name → { local name, type only } */
  private readonly imports = new Map<string, Map<string, { local: string; typeOnly: boolean }>>();

  /**
   * `sink`, when given, takes each section as it is declared, and the module then has
   * none: a consumer that prints a section at once keeps one type's code alive at a time.
   */
  constructor(
    readonly path: string,
    private readonly header: readonly string[],
    private readonly sink?: SectionSink,
  ) {}

  /** Claims names this file declares, so that nothing else the file needs takes them. */
  reserve(names: Iterable<string>): void {
    for (const text of names) {
      if (this.taken.has(text)) throw new Error(`${this.path}: "${text}" is declared twice`);
      this.taken.add(text);
    }
  }

  /** A free top-level name, the preferred one when it is free. */
  allocate(preferred: string): Name {
    let text = preferred;
    for (let i = 1; this.taken.has(text); i++) text = `${preferred}${i}`;
    this.taken.add(text);
    return identifier(text);
  }

  /**
   * The local name of a symbol from another module of the package; the import is printed
   * if asked for. From a template, a value, or in a type-only import also a type, of those
   * it exports; from a module of the protocol's (`./types.js`), a name of the protocol's.
   */
  import<Value extends string, Type extends string>(symbol: NoInfer<Value>, from: Template<Value, Type>): Name;
  import<Value extends string, Type extends string>(
    symbol: NoInfer<Value | Type>,
    from: Template<Value, Type>,
    options: { readonly typeOnly: true },
  ): Name;
  import(symbol: string, from: string, options?: { readonly typeOnly?: boolean }): Name;
  import(symbol: string, module: string | Template<string, string>, options: { readonly typeOnly?: boolean } = {}): Name {
    const from = typeof module === "string" ? module : module.path;
    const symbols = this.imports.get(from) ?? new Map<string, { local: string; typeOnly: boolean }>();
    this.imports.set(from, symbols);
    const known = symbols.get(symbol);
    if (known !== undefined) {
      if (!options.typeOnly) known.typeOnly = false;
      return identifier(known.local);
    }
    const local = this.allocate(symbol).text;
    symbols.set(symbol, { local, typeOnly: options.typeOnly ?? false });
    return identifier(local);
  }

  /** A module-level constant, made once per key; returns its name. */
  constant(key: string, preferredName: string, make: (name: Name) => Variable): Name {
    const known = this.constantNames.get(key);
    if (known !== undefined) return known;
    const allocated = this.allocate(preferredName);
    this.constantNames.set(key, allocated);
    this.constants.push(make(allocated));
    return allocated;
  }

  /** Adds declarations that belong together (overloads, a function and its helpers), printed without a blank line between them. */
  declare(...declarations: readonly Declaration[]): void {
    if (this.sink === undefined) this.sections.push(declarations);
    else {
      this.sink(declarations);
      this.streamed++;
    }
  }

  /** Whether nothing has been declared: such a file is not worth writing. */
  get isEmpty(): boolean {
    return this.sections.length === 0 && this.streamed === 0 && this.constants.length === 0;
  }

  toModule(): Module {
    return { kind: "module", header: this.header, imports: this.importDeclarations(), constants: this.constants, sections: this.sections };
  }

  private importDeclarations(): Module["imports"] {
    const declarations: Module["imports"][number][] = [];
    for (const from of [...this.imports.keys()].sort()) {
      const symbols = [...this.imports.get(from)!].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      for (const typeOnly of [true, false]) {
        const chosen = symbols.filter(([, symbol]) => symbol.typeOnly === typeOnly);
        if (chosen.length > 0)
          declarations.push(
            importDeclaration(
              chosen.map(([imported, { local }]) => ({ name: identifier(imported), local: identifier(local) })),
              from,
              { typeOnly },
            ),
          );
      }
    }
    return declarations;
  }
}
