import { existsSync } from "node:fs";
import type { SourceFile } from "../load/index.js";
import { readSource } from "../load/index.js";
import { InputError } from "../errors.js";
import { isJsonObject } from "../json.js";
import { walkSchemas } from "../schema/walk.js";
import { isRefused, parseRef } from "./refs.js";

/**
 * The protocol's schema and every file it refs, directly or through other files, root
 * first. json-schema-ref-parser does the crawl, with its network resolver switched off and
 * its file resolver replaced by one that reads only inside the schemas folder. A schema
 * that refs no other file never loads it.
 */
export async function readReferencedFiles(root: SourceFile, projectRoot: string, schemasDir: string): Promise<SourceFile[]> {
  if (!refsOtherFiles(root, schemasDir)) return [root];
  const { $RefParser } = await import("@apidevtools/json-schema-ref-parser");
  const files = new Map<string, SourceFile>([[root.absolutePath, root]]);
  let refusal: InputError | undefined;
  const read = (absolutePath: string): object => {
    try {
      const file = files.get(absolutePath) ?? readSource(projectRoot, absolutePath);
      refsOtherFiles(file, schemasDir);
      files.set(absolutePath, file);
      return file.document as object;
    } catch (error) {
      refusal ??= error instanceof InputError ? error : undefined;
      throw error;
    }
  };
  try {
    await new $RefParser().resolve(root.absolutePath, structuredClone(root.document) as object, {
      resolve: {
        http: false,
        file: {
          order: 1,
          // A missing file may be a bundled definition named by file; resolve/canonical decides.
          canRead: (file: { url: string }) => existsSync(file.url),
          read: (file: { url: string }) => read(file.url),
        },
        missing: { order: 2, canRead: true, read: () => ({}) },
      },
    });
  } catch (error) {
    throw refusal ?? new InputError({ file: root.file }, `cannot resolve the files this schema refs: ${(error as Error).message}`);
  }
  // ref-parser moves on to the next resolver when one throws, so a refusal may not surface.
  if (refusal !== undefined) throw refusal;
  return [...files.values()];
}

/**
 * Whether the file refs an existing file other than itself; throws for a ref that would
 * leave the schemas folder.
 */
function refsOtherFiles(file: SourceFile, schemasDir: string): boolean {
  let found = false;
  const id = isJsonObject(file.document) && typeof file.document["$id"] === "string" ? file.document["$id"] : undefined;
  walkSchemas(file.document, "", (schema, pointer) => {
    if (!isJsonObject(schema) || typeof schema["$ref"] !== "string") return;
    const target = parseRef(schema["$ref"], file.absolutePath, schemasDir, id);
    if (isRefused(target)) throw new InputError({ file: file.file, pointer: `${pointer}/$ref` }, target.refused, target.hint);
    if (target.path !== file.absolutePath && existsSync(target.path)) found = true;
  });
  return found;
}
