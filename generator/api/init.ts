import { createHash } from "node:crypto";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { findNodeAtLocation, parseTree } from "jsonc-parser";
import { layoutOf } from "./pins.js";
import { InputError } from "../errors.js";
import { nameOf } from "../files/folder.js";
import { errnoCode, nodeFileSystem } from "../files/fs.js";
import { describeFileError } from "../files/problem.js";
import { CONFIG_FILE, projectOf } from "../files/project.js";
import { format } from "../format/index.js";
import type { JsonValue } from "../json.js";
import { insideProject, openProject } from "../load/index.js";
import type { Preset } from "../load/presets.js";
import { presets, toolProject } from "../load/presets.js";

export interface InitOptions {
  /** The config to write or add to: `agentwire.config.json` in the working folder unless given. */
  readonly config: string;
  /** Built-in protocols to vendor, by the names agentwire's own config gives them. */
  readonly protocols?: readonly string[];
  /** Where a new config sends the bindings: plain sources in this folder (`src/protocols` unless given). */
  readonly output?: string;
  /** Overwrite vendored files that differ from agentwire's copy (a user's edit). */
  readonly force?: boolean;
}

/** What `init` did to each file, relative to the project. */
export interface InitResult {
  readonly config: string;
  readonly written: readonly string[];
  readonly unchanged: readonly string[];
  /** The protocols added to the config, each with its pinned sha256. */
  readonly added: readonly { readonly name: string; readonly sha256: string; readonly files: readonly string[] }[];
}

/** Where the config's `$schema` points: agentwire's config schema, as installed beside the project. */
const CONFIG_SCHEMA = "./node_modules/agentwire/schemas/config.schema.json";

/**
 * `agentwire init`: writes a starter config where there is none, and vendors each named
 * built-in protocol's schema and overlays into the project, at the paths they have in
 * agentwire (`schemas/…`), pinned in the config. Run twice, it changes nothing; a
 * vendored file that differs from agentwire's copy is the user's, kept unless `force`.
 * Everything is checked before anything is written.
 */
export function init(options: InitOptions): InitResult {
  const project = projectOf(options.config);
  const configName = nameOf(project.root, path.resolve(options.config));
  const configPath = insideProject(project, configName, { file: configName });
  const existing = readIfThere(configPath, configName);
  const chosen = choosePresets(options.protocols ?? []);
  let text = existing ?? "";
  const entries: ReturnType<typeof entryOf>[] = [];
  const config = existing === undefined ? undefined : openProject(configPath).config.value;
  const writes = new Map<string, Uint8Array | string>();
  const unchanged: string[] = [];
  const added: { name: string; sha256: string; files: string[] }[] = [];
  const tool = toolProject().folder.root;
  for (const preset of chosen) {
    for (const source of preset.files) {
      const relative = nameOf(tool, source);
      const target = insideProject(project, relative, { file: relative });
      const bytes = nodeFileSystem.read(source);
      const current = readIfThere(target, relative, "buffer");
      if (current !== undefined && Buffer.compare(current, bytes) === 0) unchanged.push(relative);
      else if (current !== undefined && options.force !== true)
        throw new InputError(
          { file: relative },
          `differs from agentwire's copy of ${preset.config.name}: it was edited, or vendored from elsewhere`,
          "keep it, or overwrite it with agentwire init --force",
        );
      else writes.set(target, bytes);
    }
    if (config?.protocols.some((protocol) => protocol.name === preset.config.name)) continue;
    const entry = entryOf(preset, tool);
    // Into the user's config in its own layout; a new one is laid out as prettier would.
    if (existing !== undefined) text = appendProtocol(text, entry);
    entries.push(entry);
    added.push({ name: entry.name, sha256: entry.sha256, files: [entry.schema, ...entry.overlays] });
  }
  if (existing === undefined) text = starterConfig(entries, options.output ?? "src/protocols");
  if (text !== existing) writes.set(configPath, text);
  else unchanged.push(configName);
  for (const [file, content] of writes) writeAtomically(file, content, nameOf(project.root, file));
  return { config: configName, written: [...writes.keys()].map((file) => nameOf(project.root, file)), unchanged, added };
}

function choosePresets(names: readonly string[]): Preset[] {
  const known = presets();
  return [...new Set(names)].map((name) => {
    const preset = known.get(name);
    if (preset === undefined)
      throw new InputError({ file: "--protocol" }, `no built-in protocol "${name}"`, `built in: ${[...known.keys()].sort().join(", ")}`);
    return preset;
  });
}

/** A config entry for a preset vendored at the paths it has in agentwire, pinned to its schema's sha256. */
function entryOf(preset: Preset, tool: string) {
  const [schema, ...overlays] = preset.files.map((file) => nameOf(tool, file));
  return {
    name: preset.config.name,
    schema: schema!,
    sha256: createHash("sha256").update(nodeFileSystem.read(preset.files[0]!)).digest("hex"),
    overlays,
    ...(preset.config.upstream === undefined ? {} : { upstream: preset.config.upstream }),
  };
}

/**
 * The config's text with an entry after the last of its protocols, laid out as a new config
 * lays one out and indented as the last one is. jsonc-parser's own insertion formats the
 * lines the edit touches, and so rewrites the user's last entry when it sits on one line.
 */
function appendProtocol(text: string, entry: JsonValue): string {
  const protocols = findNodeAtLocation(parseTree(text)!, ["protocols"])!;
  const { indent: unit, eol } = layoutOf(text);
  const lineStart = (offset: number) => text.lastIndexOf("\n", offset - 1) + 1;
  const indentAt = (offset: number) => /^[ \t]*/.exec(text.slice(lineStart(offset)))![0];
  const last = protocols.children?.at(-1);
  const arrayIndent = indentAt(protocols.offset);
  const indent = last === undefined ? `${arrayIndent}${unit}` : indentAt(last.offset);
  const [laidOut] = format([{ path: CONFIG_FILE, json: entry }]);
  const lines = laidOut!.content.trimEnd().split("\n");
  const entryText = lines
    .map((line, i) => (i === 0 ? line : `${indent}${line.replace(/^( {2})+/, (run) => unit.repeat(run.length / 2))}`))
    .join(eol);
  if (last === undefined) {
    const inside = protocols.offset + 1;
    const close = protocols.offset + protocols.length - 1;
    return `${text.slice(0, inside)}${eol}${indent}${entryText}${eol}${arrayIndent}${text.slice(close)}`;
  }
  const after = last.offset + last.length;
  return `${text.slice(0, after)},${eol}${indent}${entryText}${text.slice(after)}`;
}

function starterConfig(protocols: readonly JsonValue[], output: string): string {
  const [file] = format([{ path: CONFIG_FILE, json: { $schema: CONFIG_SCHEMA, protocols: [...protocols], output: { folder: output } } }]);
  return file!.content;
}

function readIfThere(file: string, name: string): string | undefined;
function readIfThere(file: string, name: string, as: "buffer"): Buffer | undefined;
function readIfThere(file: string, name: string, as?: "buffer"): string | Buffer | undefined {
  try {
    const bytes = nodeFileSystem.read(file);
    return as === "buffer" ? bytes : bytes.toString("utf8");
  } catch (error) {
    if (errnoCode(error) === "ENOENT") return undefined;
    throw new InputError({ file: name }, `cannot read it: ${describeFileError(error)}`);
  }
}

/** Writes beside the file and renames over it: a kill leaves the old file or the new one. */
function writeAtomically(file: string, content: Uint8Array | string, name: string): void {
  const temp = `${file}.agentwire-${process.pid}`;
  try {
    mkdirSync(path.dirname(file), { recursive: true });
    nodeFileSystem.remove(temp);
    nodeFileSystem.create(temp, content);
    nodeFileSystem.rename(temp, file);
  } catch (error) {
    throw new InputError({ file: name }, `cannot write it: ${describeFileError(error)}`);
  }
}
