import { emitProtocol } from "./emit/index.js";
import { emitPackage } from "./emit/package.js";
import type { OutputFile } from "./format/index.js";
import { format, PRINT_AS_EMITTED } from "./format/index.js";
import type { Ir } from "./ir/model.js";
import type { LoadedProtocol, Pin, Schemas } from "./load/index.js";
import { load, pinsOf } from "./load/index.js";
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
  /** Paths relative to `generated/`, in a fixed order. */
  readonly files: readonly OutputFile[];
  readonly protocols: readonly ProtocolSummary[];
  /** Each schema's sha256 and the one its config entry records, which the CLI keeps in step. */
  readonly pins: readonly Pin[];
}

/**
 * The whole pipeline, from `schemas/` to the files of `generated/`, in memory:
 * load → resolve → overlay → normalize → name → emit → format. Nothing is written here.
 */
export async function generate(root: string): Promise<Generation> {
  const project = load(root);
  const files: OutputFile[] = [];
  const protocols: ProtocolSummary[] = [];
  for (const protocol of project.protocols) {
    const { ir } = await intermediate(project, protocol);
    // Each module printed as it is emitted, a section at a time, so that one type's code is alive at a time.
    const formatted = format(emitProtocol(ir, compileStream(protocol, ir), PRINT_AS_EMITTED));
    files.push(...formatted);
    protocols.push({
      name: ir.protocol,
      types: ir.types.length,
      unions: countUnions(ir),
      files: formatted.length,
      stream: formatted.some((file) => file.path.endsWith("/stream.ts")),
    });
  }
  files.push(
    ...format(
      emitPackage(
        project.protocols.map((protocol, i) => ({
          name: protocol.config.name,
          sources: [protocol.schema, ...protocol.overlays],
          types: protocols[i]!.types,
          stream: protocols[i]!.stream,
        })),
        project.templates,
      ),
    ),
  );
  return { files, protocols, pins: pinsOf(project) };
}

/** A protocol's effective schema and IR: the pipeline up to the emitters. */
export async function intermediate(schemas: Schemas, protocol: LoadedProtocol): Promise<{ effective: ResolvedSchema; ir: NamedIr }> {
  const effective = applyOverlays(await resolve(schemas, protocol));
  return { effective, ir: nameIr(normalize(effective), effective) };
}

function countUnions(ir: Ir): number {
  return ir.types.filter((type) => ["union", "tagged-union", "keyed-union"].includes(type.shape.kind)).length;
}
