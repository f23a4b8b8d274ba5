import path from "node:path";
import { fileURLToPath } from "node:url";

/** Where a `$ref` leads: a file on disk and a fragment (a JSON Pointer or an anchor name). */
export interface RefTarget {
  readonly path: string;
  readonly fragment: string;
}

/** Why a `$ref` will not be followed. */
export interface RefusedRef {
  readonly refused: string;
  readonly hint: string;
}

/**
 * Reads a `$ref` found in the file at `fromPath`. Relative addresses resolve against the
 * file, as they do for a vendored copy; an absolute address that names the document's own
 * `$id` stays inside the document. Anything that would leave the schemas folder, by URL
 * or by path, is refused: generation never reaches the network or the rest of the disk.
 */
export function parseRef(ref: string, fromPath: string, schemasDir: string, documentId?: string): RefTarget | RefusedRef {
  const hash = ref.indexOf("#");
  const address = hash === -1 ? ref : ref.slice(0, hash);
  let fragment: string;
  try {
    fragment = decodeURIComponent(hash === -1 ? "" : ref.slice(hash + 1));
  } catch {
    return {
      refused: `$ref "${ref}" has a malformed percent-encoding`,
      hint: "encode a JSON Pointer's special characters as in RFC 6901 section 6",
    };
  }
  if (address === "" || (documentId !== undefined && sameDocument(address, documentId))) return { path: fromPath, fragment };
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(address)?.[1]?.toLowerCase();
  if (scheme !== undefined && scheme !== "file")
    return {
      refused: `$ref "${ref}" points to the network`,
      hint: "agentwire never fetches schemas while generating: vendor the file into schemas/ and ref it by a relative path",
    };
  const target = scheme === "file" ? fileURLToPath(address) : path.resolve(path.dirname(fromPath), decodeURIComponent(address));
  if (!target.startsWith(schemasDir + path.sep))
    return {
      refused: `$ref "${ref}" points outside the schemas folder`,
      hint: "vendor the file into schemas/ and ref it by a relative path",
    };
  return { path: target, fragment };
}

export function isRefused(target: RefTarget | RefusedRef): target is RefusedRef {
  return "refused" in target;
}

function sameDocument(address: string, documentId: string): boolean {
  try {
    return new URL(address, documentId).href === new URL("", documentId).href.replace(/#.*$/, "");
  } catch {
    return false;
  }
}

/** A JSON Pointer as a URI fragment: characters a fragment may not hold are percent-encoded. */
export function pointerToFragment(pointer: string): string {
  return `#${pointer.replace(/[^A-Za-z0-9\-._~!$&'()*+,;=:@/]/gu, (char) => encodeURIComponent(char))}`;
}
