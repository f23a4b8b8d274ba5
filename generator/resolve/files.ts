import { statSync } from "node:fs";
import { InputError } from "../errors.js";
import { isJsonObject } from "../json.js";
import type { Schemas, SourceFile } from "../load/index.js";
import { readSource } from "../load/index.js";
import { REF_KEYWORDS } from "../schema/keywords.js";
import { walkSchemas } from "../schema/walk.js";
import { isRefused } from "./refs.js";
import { Resources } from "./resources.js";

/**
 * The protocol's schema and every file it refs, directly or through other files, root
 * first, with their URIs. A `$ref` is resolved as `resolve/canonical` will resolve it
 * (`Resources.target`), so the files read are exactly those the canonical schema needs:
 * files of the schemas folder, and documents of a mapped remote base read from its folder.
 * A ref to the network or out of the folder is refused here, before anything is read.
 */
export function readReferencedFiles(root: SourceFile, project: Schemas): Resources {
  const resources = new Resources(root, project);
  for (let i = 0; i < resources.files.length; i++) {
    const file = resources.files[i]!;
    walkSchemas(file.document, "", (schema, pointer) => {
      if (!isJsonObject(schema)) return;
      for (const keyword of REF_KEYWORDS) {
        const ref = schema[keyword];
        if (typeof ref !== "string") continue;
        const at = { file: file.file, pointer: `${pointer}/${keyword}` };
        const target = resources.target(file, pointer, ref);
        if (isRefused(target)) throw new InputError(at, target.refused, target.hint);
        // A missing file may be a bundled definition named by file; resolve/canonical decides.
        if ("path" in target && isFile(target.path)) resources.add(readSource(project.root, target.path, at));
      }
    });
  }
  return resources;
}

/** Whether a path is a file that can be read. */
export function isFile(absolutePath: string): boolean {
  try {
    return statSync(absolutePath).isFile();
  } catch {
    return false;
  }
}
