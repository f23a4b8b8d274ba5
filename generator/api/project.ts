import path from "node:path";
import { InputError } from "../errors.js";
import { CONFIG_FILE, findConfig } from "../files/project.js";
import type { OpenProject } from "../load/index.js";
import { openProject } from "../load/index.js";

/**
 * Where a command finds its project: the config named (`--config`), else the nearest
 * `agentwire.config.json` from the working folder up. `open` reads and checks it, and
 * says what to do where there is none.
 */
export interface ProjectLookup {
  /** The config's path, where one was given or found. */
  readonly config: string | undefined;
  open(): OpenProject;
}

export function lookUpProject(cwd: string, given: string | undefined): ProjectLookup {
  const config = given === undefined ? findConfig(cwd) : path.resolve(cwd, given);
  return {
    config,
    open: () => {
      if (config === undefined)
        throw new InputError(
          { file: CONFIG_FILE },
          `no ${CONFIG_FILE} in ${cwd} or any folder above it`,
          "run `agentwire init` to write one, or name one with --config FILE",
        );
      return openProject(config);
    },
  };
}
