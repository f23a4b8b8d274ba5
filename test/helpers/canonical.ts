import type { JsonObject } from "../../generator/json.js";
import { load } from "../../generator/load/index.js";
import { normalize } from "../../generator/normalize/index.js";
import { applyOverlays } from "../../generator/overlay/index.js";
import { resolve } from "../../generator/resolve/index.js";

/**
 * A project's first protocol as one canonical schema, once normalize has read it too: what
 * resolve leaves unresolved (a ref to nothing, a loop through schemas without a name) is
 * refused there.
 */
export async function canonicalNormalized(root: string): Promise<JsonObject> {
  const project = load(root);
  const result = resolve(project, project.protocols[0]!);
  normalize(applyOverlays(result));
  return result.schema;
}

/** The canonical schema's named types. */
export const defs = (schema: JsonObject) => schema["$defs"] as Record<string, JsonObject>;
