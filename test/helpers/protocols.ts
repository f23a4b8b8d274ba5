import { readFileSync } from "node:fs";
import path from "node:path";
import type { Ir } from "../../generator/ir/model.js";
import type { JsonObject } from "../../generator/json.js";
import { load } from "../../generator/load/index.js";
import { normalize } from "../../generator/normalize/index.js";
import { applyOverlays } from "../../generator/overlay/index.js";
import { resolve } from "../../generator/resolve/index.js";
import { REPO } from "./project.js";

export const PROTOCOLS = ["ag-ui", "a2a", "gtm-agent", "app-server"] as const;
export type ProtocolName = (typeof PROTOCOLS)[number];

export interface ProtocolUnderTest {
  readonly name: ProtocolName;
  readonly ir: Ir;
  /** The committed effective schema, `generated/src/<name>/schema.json`. */
  readonly schema: JsonObject;
}

const cache = new Map<string, Promise<ProtocolUnderTest>>();

/** A protocol's IR, from the schemas as the pipeline reads them, and its effective schema. */
export function protocol(name: ProtocolName): Promise<ProtocolUnderTest> {
  let loaded = cache.get(name);
  if (loaded === undefined) {
    loaded = (async () => {
      const project = load(REPO);
      const protocol = project.protocols.find((candidate) => candidate.config.name === name)!;
      const ir = normalize(applyOverlays(resolve(project, protocol)));
      const schema = JSON.parse(readFileSync(path.join(REPO, "generated/src", name, "schema.json"), "utf8")) as JsonObject;
      return { name, ir, schema };
    })();
    cache.set(name, loaded);
  }
  return loaded;
}
