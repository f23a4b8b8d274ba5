import path from "node:path";
import type { GenerateReport } from "../api/generate.js";
import { generateProject } from "../api/generate.js";
import { describeRepin } from "../api/pins.js";
import { lockOptions } from "../api/write.js";
import { describeWarning, InputError } from "../errors.js";
import { nameOf } from "../files/folder.js";
import { nodeFileSystem } from "../files/fs.js";
import { watchFiles } from "../files/watch.js";
import { count } from "../ir/describe.js";
import type { OpenProject } from "../load/index.js";
import { openProject } from "../load/index.js";
import type { Io } from "./io.js";
import type { Arguments } from "./io.js";

/** `agentwire generate [--watch]`: writes the output and the pins, and prints a line per protocol, per pin and per warning. */
export async function runGenerate(args: Arguments, io: Io, project: OpenProject): Promise<number> {
  if (args.values["watch"] === true) return watchAndGenerate(io, project);
  const started = performance.now();
  const report = await generateProject(project, lockOptions(io.err));
  printReport(io, report);
  io.out(`generated ${count(report.generation.files.length, "file")} in ${Math.round(performance.now() - started)} ms`);
  return 0;
}

function printReport(io: Io, { generation, repinned }: GenerateReport): void {
  const width = Math.max(...generation.protocols.map((protocol) => protocol.name.length));
  for (const { name, types, unions, files } of generation.protocols)
    io.out(`${name.padEnd(width)}  ${count(types, "type")}, ${count(unions, "union")}, ${count(files, "file")}`);
  for (const pin of repinned) io.out(describeRepin(pin));
  for (const warning of generation.warnings) io.err(describeWarning(warning));
}

/**
 * Generates, then again each time the config or a file the generation read changes,
 * printing which inputs changed and which output files that rewrote. A bad edit prints
 * its error, writes nothing, and the watch goes on. Ends when `io.signal` aborts.
 */
async function watchAndGenerate(io: Io, opened: OpenProject): Promise<number> {
  const root = opened.folder.root;
  const configPath = opened.config.path;
  let written: ReadonlyMap<string, string> | undefined;
  let inputs: readonly string[] = [];
  // The config as the last run left it: the pins it records are no edit of the user's.
  let config: string | undefined;
  let queue = Promise.resolve();
  const run = async (changed: readonly string[]) => {
    if (changed.length === 1 && changed[0] === configPath && readText(configPath) === config) return;
    if (changed.length > 0) io.out(`${changed.map((file) => nameOf(root, file)).join(", ")} changed`);
    const started = performance.now();
    try {
      const project = openProject(configPath);
      const report = await generateProject(project, lockOptions(io.err));
      const files = new Map(report.generation.files.map((file) => [file.path, file.content]));
      const output = `${nameOf(root, project.output.path)}/`;
      if (written === undefined) printReport(io, report);
      else {
        for (const pin of report.repinned) io.out(describeRepin(pin));
        for (const warning of report.generation.warnings) io.err(describeWarning(warning));
        const rewritten = [...files].filter(([file, content]) => written!.get(file) !== content).map(([file]) => `${output}${file}`);
        const removed = [...written.keys()].filter((file) => !files.has(file)).map((file) => `${output}${file}`);
        io.out(
          rewritten.length === 0 && removed.length === 0
            ? "no output file changed"
            : [...rewritten, ...removed.map((file) => `${file} (removed)`)].join("\n"),
        );
      }
      io.out(`generated ${count(files.size, "file")} in ${Math.round(performance.now() - started)} ms`);
      written = files;
      inputs = report.generation.inputs;
      config = readText(configPath);
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      io.err(`agentwire generate: ${error.message}`);
      io.err("nothing was written; watching for the next change");
    }
    watcher.watch([configPath, ...inputs, ...listedInputs(configPath)]);
  };
  const watcher = watchFiles((changed) => {
    queue = queue.then(() => run(changed));
  });
  try {
    await run([]);
    io.out("watching for changes (Ctrl-C to stop)");
    await new Promise<void>((resolve) => {
      if (io.signal === undefined) return;
      if (io.signal.aborted) resolve();
      io.signal.addEventListener("abort", () => resolve(), { once: true });
    });
    await queue;
    return 0;
  } finally {
    watcher.close();
  }
}

function readText(file: string): string | undefined {
  try {
    return nodeFileSystem.read(file).toString("utf8");
  } catch {
    return undefined;
  }
}

/** The schemas and overlays the config lists now, by path: watched even where they cannot be read yet. */
function listedInputs(configPath: string): string[] {
  try {
    const project = openProject(configPath);
    return project.config.value.protocols.flatMap((protocol) =>
      [protocol.schema, ...protocol.overlays].map((file) => path.resolve(project.folder.root, file)),
    );
  } catch {
    return [];
  }
}
