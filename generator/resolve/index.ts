import type { JsonObject } from "../json.js";
import type { LoadedProtocol, Schemas, SourceFile } from "../load/index.js";
import { canonicalize } from "./canonical.js";
import { readReferencedFiles } from "./files.js";
import { customDialect } from "./metaschema.js";
import type { Provenance } from "./provenance.js";

export { Provenance } from "./provenance.js";
export type { Relocation } from "./provenance.js";
export { pointerToFragment } from "./refs.js";

/** A protocol's schema as one document whose named types are the entries of `$defs`. */
export interface ResolvedSchema {
  readonly protocol: LoadedProtocol;
  readonly schema: JsonObject;
  readonly provenance: Provenance;
  /** The files read for it: its schema first, its external schemas, then every other file its refs lead to. */
  readonly files: readonly SourceFile[];
}

export function resolve(project: Schemas, protocol: LoadedProtocol): ResolvedSchema {
  const resources = readReferencedFiles(protocol.schema, project, protocol.externalSchemas);
  const { schema, provenance } = canonicalize(resources, protocol.config.name, customDialect(resources, project));
  return { protocol, schema, provenance, files: resources.files };
}
