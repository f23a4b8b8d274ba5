import path from "node:path";
import { CONFIG_FILE, TOOL_ROOT } from "../files/project.js";
import type { OpenProject, ProtocolConfig } from "./index.js";
import { openProject } from "./index.js";

/**
 * The protocols that ship inside agentwire: those of its own config, which this
 * repository generates from as its users do. `agentwire init --protocol NAME` vendors one
 * into a project; `agentwire verify NAME` runs its built code where no config names NAME.
 */
export interface Preset {
  readonly config: ProtocolConfig;
  /** The real paths of its schema, then its overlays, in agentwire's folder. */
  readonly files: readonly string[];
}

let tool: OpenProject | undefined;

/** agentwire's own project: its config, schemas and built bindings. */
export function toolProject(): OpenProject {
  tool ??= openProject(path.join(TOOL_ROOT, CONFIG_FILE));
  return tool;
}

/** The built-in protocols, by name. */
export function presets(): ReadonlyMap<string, Preset> {
  const project = toolProject();
  return new Map(
    project.config.value.protocols.map((config) => [
      config.name,
      { config, files: [config.schema, ...config.overlays].map((file) => path.join(project.folder.root, file)) },
    ]),
  );
}
