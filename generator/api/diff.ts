import path from "node:path";
import type { ProtocolDiff } from "../diff/index.js";
import { diffProtocol } from "../diff/index.js";
import { InputError } from "../errors.js";
import { CONFIG_FILE } from "../files/project.js";
import type { LoadedProtocol, OpenProject, Schemas } from "../load/index.js";
import { loadSchemas } from "../load/index.js";
import { fileIr, irsAtRevision, projectIrs } from "./versions.js";

/**
 * Two schema files as versions of one protocol: the one `protocol` names in the project,
 * or the one whose vendored schema is one of the files (its overlays then apply), or a
 * protocol of their own named after the newer file. Paths are relative to `cwd`.
 */
export function diffFiles(
  cwd: string,
  [before, after]: readonly [string, string],
  project: OpenProject | undefined,
  protocol?: string,
): ProtocolDiff {
  const schemas = project === undefined ? undefined : loadSchemas(project);
  const like = schemas === undefined ? undefined : vendoredAs(schemas, cwd, protocol, [after, before]);
  if (protocol !== undefined && like === undefined)
    throw new InputError(
      { file: project?.config.file ?? CONFIG_FILE },
      schemas === undefined ? `--protocol needs a project: no ${CONFIG_FILE} here or above` : `no protocol "${protocol}"`,
    );
  const name = like?.config.name ?? path.basename(after).replace(/(\.schema)?\.json$/, "");
  const remotes = schemas?.remotes ?? [];
  // One name for both sides: a root without a title is named after the protocol, and so pairs with itself.
  return diffProtocol(name, fileIr(cwd, before, name, like, remotes), fileIr(cwd, after, name, like, remotes));
}

/** The protocol the files stand for: the one named, or the one whose vendored schema is one of the files. */
function vendoredAs(schemas: Schemas, cwd: string, name: string | undefined, files: readonly string[]): LoadedProtocol | undefined {
  if (name !== undefined) return schemas.protocols.find((protocol) => protocol.config.name === name);
  for (const file of files) {
    const absolute = path.resolve(cwd, file);
    const protocol = schemas.protocols.find((candidate) => candidate.schema.absolutePath === absolute);
    if (protocol !== undefined) return protocol;
  }
  return undefined;
}

/** Every protocol of the project against itself at a git revision, by name: one added or removed there is all added or removed. */
export function diffSince(project: OpenProject, revision: string): ProtocolDiff[] {
  const before = irsAtRevision(project, revision);
  const after = projectIrs(loadSchemas(project));
  const names = [...new Set([...before.keys(), ...after.keys()])].sort();
  return names.map((name) => diffProtocol(name, before.get(name), after.get(name)));
}
