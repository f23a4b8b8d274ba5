import path from "node:path";
import type { Ir } from "../../generator/ir/model.js";
import type { JsonObject, JsonValue } from "../../generator/json.js";
import type { LoadedProtocol, SourceFile } from "../../generator/load/index.js";
import { normalize } from "../../generator/normalize/index.js";
import type { NamedIr } from "../../generator/name/index.js";
import { nameIr } from "../../generator/name/index.js";
import { applyOverlays } from "../../generator/overlay/index.js";
import type { ResolvedSchema } from "../../generator/resolve/index.js";
import { canonicalize } from "../../generator/resolve/canonical.js";
import { Resources } from "../../generator/resolve/resources.js";

/** A project that exists only in memory, for stage tests that read no files: its schemas are in schemas/. */
export const PROJECT_DIR = path.resolve("/virtual");

/** A file of the virtual project's schemas/, by its name there. */
export function sourceFile(name: string, document: JsonValue): SourceFile {
  return { file: `schemas/${name}`, absolutePath: path.join(PROJECT_DIR, "schemas", name), document, sha256: "0".repeat(64) };
}

/** Resolves and overlays one in-memory schema, as the pipeline does with files. */
export function effectiveSchema(schema: JsonValue, facts: readonly JsonObject[] = [], protocol = "test"): ResolvedSchema {
  const source = sourceFile("test.schema.json", schema);
  const overlays = facts.length === 0 ? [] : [sourceFile("overlays/test.json", { facts: facts as JsonValue[] })];
  const loaded: LoadedProtocol = {
    config: { pointer: "/protocols/0", name: protocol, schema: "schemas/test.schema.json", overlays: [], externalSchemas: [] },
    schema: source,
    overlays,
    externalSchemas: [],
  };
  const { schema: canonical, provenance } = canonicalize(new Resources(source, { inputsDir: PROJECT_DIR, remotes: [] }), protocol);
  return applyOverlays({ protocol: loaded, schema: canonical, provenance, files: [source] });
}

export function irOf(schema: JsonValue, facts: readonly JsonObject[] = []): Ir {
  return normalize(effectiveSchema(schema, facts));
}

/** The IR with its names settled, as the emitters take it. */
export function namedIrOf(schema: JsonValue, facts: readonly JsonObject[] = []): NamedIr {
  const effective = effectiveSchema(schema, facts);
  return nameIr(normalize(effective), effective);
}
