import { emitProtocol } from "./emit/index.js";
import type { InputWarning } from "./errors.js";
import { InputError, InputErrorList } from "./errors.js";
import { backtrackingReason } from "./keywords/backtracking.js";
import { patternsOf } from "./schema/patterns.js";
import { emitPackage, outputPath } from "./emit/package.js";
import type { OutputFile } from "./format/index.js";
import { format, PRINT_AS_EMITTED } from "./format/index.js";
import type { Ir } from "./ir/model.js";
import type { LoadedProtocol, Pin, Project, ProjectSource, ReadFile, Schemas } from "./load/index.js";
import { load, pinsOf } from "./load/index.js";
import { ignoredAssertions } from "./normalize/ignored.js";
import { normalize } from "./normalize/index.js";
import type { NamedIr } from "./name/index.js";
import { nameIr } from "./name/index.js";
import { applyOverlays } from "./overlay/index.js";
import type { ResolvedSchema } from "./resolve/index.js";
import { resolve } from "./resolve/index.js";
import { compileStream } from "./stream/index.js";

/** What one protocol came to, for the summary line `agentwire generate` prints. */
export interface ProtocolSummary {
  readonly name: string;
  readonly types: number;
  readonly unions: number;
  readonly files: number;
  /** Whether it has stream facts, and so a `stream` module. */
  readonly stream: boolean;
}

export interface Generation {
  /** Paths relative to the output folder, in a fixed order. */
  readonly files: readonly OutputFile[];
  readonly protocols: readonly ProtocolSummary[];
  /** Each schema's sha256 and the one its config entry records, which the CLI keeps in step. */
  readonly pins: readonly Pin[];
  /** What works but may hurt, such as a pattern that can backtrack catastrophically: printed, not refused. */
  readonly warnings: readonly InputWarning[];
  /** The real path of every file the generation read but the config: schemas, overlays and what their refs lead to. Sorted. */
  readonly inputs: readonly string[];
}

/**
 * The whole pipeline, from the config's schemas to the files of its output folder, in
 * memory: load → resolve → overlay → normalize → name → emit → format. Nothing is
 * written here. `read` reads the schemas' bytes: `update` gives new versions first.
 */
export async function generate(source: ProjectSource, read?: ReadFile): Promise<Generation> {
  const project = load(source, read);
  const files: OutputFile[] = [];
  const protocols: ProtocolSummary[] = [];
  const warnings: Promise<InputWarning[]>[] = [];
  const inputs = new Set<string>();
  // A protocol's errors do not hide another's: each is generated, and all their errors reported.
  const errors = new InputErrorList();
  for (const protocol of project.protocols) {
    let generated: GeneratedProtocol;
    try {
      generated = generateProtocol(project, protocol);
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      errors.add(error);
      continue;
    }
    for (const file of generated.inputs) inputs.add(file);
    files.push(...generated.files);
    protocols.push(generated.summary);
    warnings.push(generated.warnings);
  }
  errors.throwIfAny();
  files.push(
    ...format(
      emitPackage(
        project.protocols.map((protocol, i) => ({
          name: protocol.config.name,
          sources: [protocol.schema, ...protocol.overlays],
          types: protocols[i]!.types,
          stream: protocols[i]!.stream,
          formats: protocol.config.formats === "assert",
        })),
        project.templates,
        project.output,
      ),
    ),
  );
  return {
    files: files.map((file) => ({ ...file, path: outputPath(file.path, project.output) })),
    protocols,
    pins: pinsOf(project),
    warnings: (await Promise.all(warnings)).flat(),
    inputs: [...inputs].sort(),
  };
}

/** What one protocol comes to: its files, its summary line, and its warnings, still being found. */
interface GeneratedProtocol {
  readonly files: readonly OutputFile[];
  readonly summary: ProtocolSummary;
  readonly warnings: Promise<InputWarning[]>;
  /** The real paths of the files it was generated from. */
  readonly inputs: readonly string[];
}

function generateProtocol(project: Project, protocol: LoadedProtocol): GeneratedProtocol {
  const effective = effectiveSchema(project, protocol);
  // The patterns are checked beside the rest of the pipeline, in a worker, from the moment
  // they are known; their warnings are awaited at its end.
  const warnings = patternWarnings(effective).then((patterns) => [...ignoredAssertions(effective), ...patterns]);
  const ir = irOf(effective);
  // Each module printed as it is emitted, a section at a time, so that one type's code is alive at a time.
  const files = format(emitProtocol(ir, compileStream(protocol, ir), PRINT_AS_EMITTED));
  const summary = {
    name: ir.protocol,
    types: ir.types.length,
    unions: countUnions(ir),
    files: files.length,
    stream: files.some((file) => file.path.endsWith("/stream.ts")),
  };
  return { files, summary, warnings, inputs: [...effective.files, ...protocol.overlays].map((file) => file.absolutePath) };
}

/**
 * The patterns of an effective schema that can backtrack catastrophically, where the
 * user wrote them, once a place: the generated checks run each on the built-in engine.
 */
async function patternWarnings(effective: ResolvedSchema): Promise<InputWarning[]> {
  const sites = patternsOf(effective.schema);
  const reasons = await Promise.all(sites.map(({ source }) => backtrackingReason(source)));
  const seen = new Set<string>();
  return sites.flatMap(({ source, pointer }, i) => {
    const reason = reasons[i];
    if (reason === undefined) return [];
    const location = effective.provenance.locate(pointer);
    const key = `${location.file}#${location.pointer}`;
    if (seen.has(key)) return [];
    seen.add(key);
    return [
      {
        location,
        problem: `the pattern ${JSON.stringify(source)} ${reason}`,
        hint: "Rewrite it so that no two of its parts can match the same text, or run the patterns on a linear-time engine such as RE2 (useRegExp, README: Hardening).",
      },
    ];
  });
}

/** A protocol's named IR, of its effective schema: the pipeline up to the emitters. */
export function intermediate(schemas: Schemas, protocol: LoadedProtocol): NamedIr {
  return irOf(effectiveSchema(schemas, protocol));
}

/** The named IR of an effective schema. */
function irOf(effective: ResolvedSchema): NamedIr {
  return nameIr(normalize(effective), effective);
}

/** A protocol's schemas resolved into one, with its overlays applied. */
function effectiveSchema(schemas: Schemas, protocol: LoadedProtocol): ResolvedSchema {
  return applyOverlays(resolve(schemas, protocol));
}

function countUnions(ir: Ir): number {
  return ir.types.filter((type) => ["union", "tagged-union", "keyed-union"].includes(type.shape.kind)).length;
}
