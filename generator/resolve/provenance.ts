import type { SourceLocation } from "../errors.js";

/** A place in the effective schema that was moved there from a place in a source file. */
export interface Relocation {
  readonly effective: string;
  readonly file: string;
  readonly pointer: string;
}

/**
 * Maps pointers in the effective schema back to the files they came from, so that an
 * error found late in the pipeline still names the file and pointer the user wrote.
 */
export class Provenance {
  /** By the effective place each moved to; of two relocations of one place, the first. */
  private readonly byPlace = new Map<string, Relocation>();

  constructor(
    private readonly fallback: string,
    private readonly relocations: readonly Relocation[],
  ) {
    for (const relocation of relocations) if (!this.byPlace.has(relocation.effective)) this.byPlace.set(relocation.effective, relocation);
  }

  with(relocations: readonly Relocation[]): Provenance {
    return new Provenance(this.fallback, [...this.relocations, ...relocations]);
  }

  /**
   * Where a place of the effective schema was written: the innermost relocation around it,
   * found by the pointer's own prefixes, longest first (a lookup a level, not a search of
   * every relocation, which made locating every pattern of 10,000 definitions quadratic).
   */
  locate(effectivePointer: string): SourceLocation {
    for (let end = effectivePointer.length; end >= 0; end = end === 0 ? -1 : effectivePointer.lastIndexOf("/", end - 1)) {
      const found = this.byPlace.get(effectivePointer.slice(0, end));
      if (found !== undefined) return { file: found.file, pointer: found.pointer + effectivePointer.slice(end) };
    }
    return { file: this.fallback, pointer: effectivePointer };
  }
}
