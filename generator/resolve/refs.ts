import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { isWithin, locate, nameOf, whyOutside } from "../files/folder.js";
import { describeFileError } from "../files/problem.js";
import type { Remote } from "../load/index.js";

/** Where documents are read from: the project's folder, and the base URLs vendored into it, by real paths. */
export interface Addressing {
  /** The folder every document read is inside: the project, or the folder of a lone schema that `diff` reads. */
  readonly inputsDir: string;
  /** Longest base first. */
  readonly remotes: readonly Remote[];
  /** The output folder's real path, where it is inside `inputsDir`: agentwire replaces it, so no ref reads it. */
  readonly outputDir?: string;
}

/** Why a `$ref` will not be followed. */
export interface RefusedRef {
  readonly refused: string;
  readonly hint: string;
}

export function isRefused<T extends object>(target: T | RefusedRef): target is RefusedRef {
  return "refused" in target;
}

/**
 * The URI a file of the project is known by before its `$id` says otherwise: in a
 * remote's folder, the URL it is the vendored copy of; elsewhere, its `file:` URL.
 */
export function uriOfFile(absolutePath: string, addressing: Addressing): string {
  for (const remote of addressing.remotes)
    if (isInside(remote.folder, absolutePath))
      return new URL(path.relative(remote.folder, absolutePath).split(path.sep).map(encodeURIComponent).join("/"), remote.base).href;
  return pathToFileURL(absolutePath).href;
}

/**
 * The file an absolute URI (without fragment) names: a `file:` URL inside the project's
 * folder, or a URL under a mapped base, read from that base's folder. Anything else is
 * refused: generation never reaches the network or the rest of the disk.
 */
export function fileOfUri(uri: string, ref: string, addressing: Addressing): string | RefusedRef {
  const outside: RefusedRef = {
    refused: `$ref "${ref}" points outside the project`,
    hint: "vendor the file into the project and ref it by a relative path",
  };
  const url = new URL(uri);
  if (url.protocol === "file:") {
    // A scheme-relative ref ("//host/x.json") from a file names a file of another machine.
    if (url.host !== "" && url.hostname !== "localhost")
      return { refused: `$ref "${ref}" names ${uri}, a file on the host "${url.host}"`, hint: outside.hint };
    return confined(addressing.inputsDir, fileURLToPath(url), ref, outside, addressing);
  }
  const remote = addressing.remotes.find((candidate) => uri.startsWith(candidate.base));
  if (remote !== undefined) {
    let segments: string[];
    try {
      segments = uri.slice(remote.base.length).split("/").map(decodeURIComponent);
    } catch {
      return malformed(ref);
    }
    // Confined to the base's own folder: "..%2F" may not climb out of it, to the rest of the project or beyond.
    const outsideRemote: RefusedRef = {
      refused: `$ref "${ref}" points outside the folder of "${remote.base}", ${nameOf(addressing.inputsDir, remote.folder)}/`,
      hint: "vendor the documents of that base URL into its folder, keeping their paths below the base",
    };
    return confined(remote.folder, path.join(remote.folder, ...segments), ref, outsideRemote, addressing);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    return {
      refused: `$ref "${ref}" names ${uri}, which no schema here has as its $id`,
      hint: "give agentwire the schema with that $id: in this file, or in a file of the project that a $ref reads",
    };
  return {
    refused: `$ref "${ref}" points to the network`,
    hint:
      "agentwire never fetches schemas while generating: vendor the document into a folder of the project and map its base URL " +
      `there in the config, "remotes": { ${JSON.stringify(new URL("./", url).href)}: "<folder>/" }`,
  };
}

/**
 * The real path a ref's target has inside `folder`, or the refusal: a symbolic link that
 * leads out is as far out as a path that does, and what is outside is never looked at.
 */
function confined(folder: string, target: string, ref: string, outside: RefusedRef, addressing: Addressing): string | RefusedRef {
  if (!isInside(folder, target)) return outside;
  try {
    const location = locate(folder, target);
    const { outputDir } = addressing;
    if (location.inside && outputDir !== undefined && isWithin(outputDir, location.path))
      return {
        refused: `$ref "${ref}" points into the output folder ${nameOf(addressing.inputsDir, outputDir)}/, which agentwire replaces`,
        hint: "keep the files a schema refs out of the output folder",
      };
    if (location.inside && location.path !== folder) return location.path;
    return location.inside ? outside : { ...outside, refused: `${outside.refused}: ${whyOutside(addressing.inputsDir, location)}` };
  } catch (error) {
    return { refused: `$ref "${ref}" cannot be followed: ${describeFileError(error)}`, hint: "let agentwire read the folders on the way" };
  }
}

/** Whether a path is inside a folder, not the folder itself. */
function isInside(folder: string, target: string): boolean {
  return target !== folder && isWithin(folder, target);
}

export function malformed(ref: string): RefusedRef {
  return {
    refused: `$ref "${ref}" has a malformed percent-encoding`,
    hint: "encode a JSON Pointer's special characters as in RFC 6901 section 6",
  };
}

/** A JSON Pointer as a URI fragment: characters a fragment may not hold are percent-encoded. */
export function pointerToFragment(pointer: string): string {
  return `#${pointer.replace(/[^A-Za-z0-9\-._~!$&'()*+,;=:@/]/gu, (char) => encodeURIComponent(char))}`;
}
