import type { SourceLocation } from "../errors.js";
import { isWithin } from "../pointer.js";

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
  private readonly relocations: readonly Relocation[];

  constructor(
    private readonly fallback: string,
    relocations: readonly Relocation[],
  ) {
    // Longest first, so the innermost relocation wins.
    this.relocations = [...relocations].sort((a, b) => b.effective.length - a.effective.length);
  }

  with(relocations: readonly Relocation[]): Provenance {
    return new Provenance(this.fallback, [...this.relocations, ...relocations]);
  }

  locate(effectivePointer: string): SourceLocation {
    const found = this.relocations.find((relocation) => isWithin(effectivePointer, relocation.effective));
    if (found === undefined) return { file: this.fallback, pointer: effectivePointer };
    return { file: found.file, pointer: found.pointer + effectivePointer.slice(found.effective.length) };
  }
}
