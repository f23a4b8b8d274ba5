import { placeKey } from "./named.js";
import { statSync } from "node:fs";
import { InputError } from "../errors.js";
import type { JsonValue } from "../json.js";
import { isJsonObject } from "../json.js";
import type { Schemas, SourceFile } from "../load/index.js";
import { readSource } from "../load/index.js";
import { REF_KEYWORDS } from "../schema/vocabulary.js";
import { getAtPointer } from "../pointer.js";
import { isSubschemaPlace, walkSchemas } from "../schema/walk.js";
import { isRefused } from "./refs.js";
import type { Place, Target } from "./resources.js";
import { Resources } from "./resources.js";

/**
 * The protocol's schema and every file it refs, directly or through other files, root
 * first, with their URIs. A `$ref` is resolved as `resolve/canonical` will resolve it
 * (`Resources.target`), so the files read are exactly those the canonical schema needs:
 * files of the schemas folder, and documents of a mapped remote base read from its folder.
 * The refs looked at are those of each file's schemas, and of each schema a ref leads to
 * where keywords do not lead from its file's root (`#/definitions/group/x`).
 * A ref to the network or out of the folder is refused here, before anything is read.
 * The external schemas are known from the start, by their `$id`s as by their paths.
 */
export function readReferencedFiles(root: SourceFile, project: Schemas, externals: readonly SourceFile[] = []): Resources {
  const resources = new Resources(root, project);
  // Each file once, though the config lists it twice or lists the schema itself.
  const files = [root, ...externals].filter((file, i, all) => all.findIndex((each) => each.absolutePath === file.absolutePath) === i);
  for (const external of files.slice(1)) resources.add(external);
  // The places whose schemas are looked at, in turn: each file's root as it is read, and each such target.
  const places: Place[] = files.map((file) => ({ file, pointer: "" }));
  const queued = new Set<string>();
  const enqueue = (place: Place): void => {
    const key = placeKey(place.file, place.pointer);
    if (queued.has(key)) return;
    queued.add(key);
    places.push(place);
  };
  /** Looks at the schemas of a target that keywords do not lead to from its file's root. */
  const enqueueTarget = (target: Target): void => {
    if (!("place" in target)) return;
    const pointer = resources.pointerOf(target.place, target.fragment);
    const document = target.place.file.document;
    if (pointer === undefined || getAtPointer(document, pointer) === undefined || isSubschemaPlace(document, "", pointer)) return;
    resources.addTarget({ file: target.place.file, pointer });
    enqueue({ file: target.place.file, pointer });
  };
  for (let i = 0; i < places.length; i++) {
    const { file, pointer: at } = places[i]!;
    walkSchemas(getAtPointer(file.document, at) as JsonValue, at, (schema, pointer) => {
      if (!isJsonObject(schema)) return;
      for (const keyword of REF_KEYWORDS) {
        const ref = schema[keyword];
        if (typeof ref !== "string") continue;
        const location = { file: file.file, pointer: `${pointer}/${keyword}` };
        let target = resources.target(file, pointer, ref);
        if (isRefused(target)) throw new InputError(location, target.refused, target.hint);
        // A missing file may be a bundled definition named by file; resolve/canonical decides.
        if ("path" in target && isFile(target.path)) {
          const added = readSource(project.root, target.path, location);
          resources.add(added);
          enqueue({ file: added, pointer: "" });
          target = { place: { file: added, pointer: "" }, fragment: target.fragment };
        }
        enqueueTarget(target);
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
