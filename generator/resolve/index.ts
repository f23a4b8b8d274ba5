import type { JsonObject } from "../json.js";
import type { LoadedProtocol, Schemas } from "../load/index.js";
import { canonicalize } from "./canonical.js";
import { readReferencedFiles } from "./files.js";
import type { Provenance } from "./provenance.js";

export { Provenance } from "./provenance.js";
export type { Relocation } from "./provenance.js";
export { pointerToFragment } from "./refs.js";

/** A protocol's schema as one document whose named types are the entries of `$defs`. */
export interface ResolvedSchema {
  readonly protocol: LoadedProtocol;
  readonly schema: JsonObject;
  readonly provenance: Provenance;
}

export async function resolve(project: Schemas, protocol: LoadedProtocol): Promise<ResolvedSchema> {
  const { schema, provenance } = canonicalize(readReferencedFiles(protocol.schema, project), protocol.config.name);
  return { protocol, schema, provenance };
}
