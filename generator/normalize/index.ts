import type { Ir, NamedType } from "../ir/model.js";
import { isJsonObject } from "../json.js";
import type { ResolvedSchema } from "../resolve/index.js";
import { appendPointer, unescapeToken } from "../schema/pointer.js";
import { docOf } from "./docs.js";
import { Normalizer } from "./normalizer.js";

/** The IR of an effective schema: one named type per `$defs` entry, in order. */
export function normalize(effective: ResolvedSchema): Ir {
  const normalizer = new Normalizer(effective.schema, effective.provenance);
  const definitions = normalizer.definitions;
  const types = Object.keys(definitions).map((name): NamedType => {
    const definition = definitions[name]!;
    return { name, pointer: appendPointer("/$defs", name), doc: isJsonObject(definition) ? docOf(definition) : {}, shape: normalizer.shapeOf(name) };
  });
  const rootRef = effective.schema["$ref"];
  const root = typeof rootRef === "string" ? /^#\/\$defs\/([^/]+)$/.exec(decodeURIComponent(rootRef))?.[1] : undefined;
  return { protocol: effective.protocol.config.name, ...(root === undefined ? {} : { root: unescapeToken(root) }), types };
}
