import { existsSync, realpathSync } from "node:fs";
import path from "node:path";
import { InputError } from "../errors.js";
import type { Folder } from "./folder.js";
import { locateIn, whyOutside } from "./folder.js";
import type { FileSystem } from "./fs.js";
import { nodeFileSystem } from "./fs.js";

/** The folders of a project agentwire reads and writes, by real path. */
export interface ProjectFiles {
  /** The project's real path. */
  readonly root: string;
  /** What agentwire reads: the config, schemas, overlays, vendored remotes; and writes: pins, `update`'s schemas. */
  readonly schemas: Folder;
  readonly templates: Folder;
  /** `generated/`, which agentwire writes; it may not exist yet. */
  readonly output: Folder;
}

/** The config, in `schemas/`: the file whose folder is the project. */
export const CONFIG_FILE = "protocols.json";

/** The nearest folder, from `start` upwards, that holds `schemas/protocols.json`. */
export function findProject(start: string): string | undefined {
  for (let dir = path.resolve(start); ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, "schemas", CONFIG_FILE))) return dir;
    if (path.dirname(dir) === dir) return undefined;
  }
}

export function projectFiles(root: string, fs: FileSystem = nodeFileSystem): ProjectFiles {
  const real = realpathSync(root);
  return {
    root: real,
    schemas: projectFolder(real, "schemas", fs),
    templates: projectFolder(real, "templates", fs),
    output: projectFolder(real, "generated", fs),
  };
}

/** A folder of the project by its real path: a link may lead to another folder of the project, not out of it. */
export function projectFolder(root: string, name: string, fs: FileSystem = nodeFileSystem): Folder {
  const project: Folder = { root, path: root };
  const location = locateIn(project, name, { file: `${name}/` }, fs);
  if (!location.inside)
    throw new InputError(
      { file: `${name}/` },
      `${whyOutside(root, location)}, outside the project`,
      `agentwire reads and writes only inside the project: make ${name}/ a folder of it`,
    );
  return { root, path: location.path };
}
