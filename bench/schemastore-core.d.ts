// The types of schemastore-core.js, for test/schemastore.test.ts.
import type { openProject } from "../generator/load/index.js";
import type { decoderName, guardName, validatorName } from "../generator/name/rules.js";
import type { generate } from "../generator/pipeline.js";

export declare const REPO: string;
export declare const SAMPLE: string;
export declare const SCHEMASTORE_BASES: readonly string[];
export declare const CATEGORIES: readonly (readonly [string, RegExp])[];
export declare function categorize(firstLine: string): string;

/** agentwire's functions the harness runs: build/'s or generator/'s. */
export interface Agentwire {
  readonly generate: typeof generate;
  readonly openProject: typeof openProject;
  readonly guardName: typeof guardName;
  readonly validatorName: typeof validatorName;
  readonly decoderName: typeof decoderName;
}

export type Verdict = "valid" | "invalid" | `threw: ${string}`;

export interface DocumentReport {
  /** Relative to the catalog: "test/<name>/<file>" or "negative_test/<name>/<file>". */
  readonly file: string;
  readonly expected: "valid" | "invalid";
  readonly skipped?: string;
  readonly guard?: Verdict;
  /** `validateT(document).ok` and strict `decodeT(document).ok`, asked where the guard is. */
  readonly validator?: Verdict;
  readonly decoder?: Verdict;
  readonly ajv?: Verdict;
}

export interface SchemaReport {
  readonly file: string;
  readonly name: string;
  readonly dialect: string;
  readonly schemaBytes: number;
  readonly status: "generated" | "refused" | "crashed";
  readonly ms: number;
  readonly root?: string | null;
  readonly bytes?: { readonly input: number; readonly generated: number; readonly runtime: number; readonly validate: number };
  readonly inputs?: readonly string[];
  /** Type errors by code ("TS2339"), or null where nothing was type-checked. */
  readonly tsErrors?: Readonly<Record<string, number>> | null;
  readonly loadError?: string;
  readonly error?: string;
  readonly category?: string;
  readonly ajv: { readonly unavailable?: string; readonly error?: string; readonly ms?: number };
  readonly documents: readonly DocumentReport[];
}

export interface Totals {
  readonly schemas: number;
  readonly status: Readonly<Record<string, number>>;
  readonly refused: Readonly<Record<string, number>>;
  readonly noRoot: readonly string[];
  readonly loadErrors: readonly string[];
  readonly typeCheck: {
    readonly checked: number;
    readonly failing: number;
    readonly errors: number;
    readonly byCode: Readonly<Record<string, number>>;
  };
  readonly documents: {
    readonly total: number;
    readonly skipped: Readonly<Record<string, number>>;
    readonly guardAsked: number;
    readonly guardWrong: number;
    readonly ajvAsked: number;
    readonly ajvWrong: number;
    readonly validatorVsGuard: number;
    readonly decoderVsGuard: number;
    readonly guardVsAjv: number;
  };
  readonly ajv: { readonly compiled: number; readonly failed: number; readonly unavailable: Readonly<Record<string, number>> };
  readonly size: {
    readonly input: number;
    readonly generated: number;
    readonly ratio: number | null;
    readonly largestValidate: { readonly file: string; readonly bytes: number } | null;
  };
  readonly time: {
    readonly agentwireAllMs: number;
    readonly ajvAllMs: number;
    readonly both: number;
    readonly agentwireBothMs: number;
    readonly ajvBothMs: number;
  };
}

export interface Report {
  readonly catalog: string;
  readonly commit: string;
  readonly skiptest: readonly string[];
  readonly packages: Readonly<Record<string, boolean>>;
  readonly schemas: readonly SchemaReport[];
  readonly totals: Totals;
}

export declare function runHarness(options: {
  readonly agentwire: Agentwire;
  readonly catalog: string;
  readonly scratch: string;
  readonly only?: readonly string[];
  readonly log?: (line: string) => void;
  readonly importTypeScript?: (file: string) => Promise<Record<string, unknown>>;
  readonly concurrency?: number;
}): Promise<Report>;

export declare function totalsOf(schemas: readonly SchemaReport[]): Totals;
export declare function disagreements(report: Report): (DocumentReport & { readonly schema: string })[];
export declare function summary(report: Report): string;
