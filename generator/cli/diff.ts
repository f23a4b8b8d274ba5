import { diffFiles, diffSince } from "../api/diff.js";
import type { FailOn, ProtocolDiff } from "../diff/index.js";
import { DEFAULT_FAIL_ON, diffJson, diffMarkdown, fails, formatDiff, readFailOn } from "../diff/index.js";
import type { Io } from "./io.js";
import { UsageError } from "./io.js";
import type { ProjectLookup } from "../api/project.js";
import type { Arguments } from "./io.js";

/** How the changes are printed: for a terminal, for a pull request, or for machines. */
export type DiffFormat = "text" | "markdown" | "json";

interface DiffArguments {
  readonly files: readonly string[];
  readonly since?: string;
  readonly protocol?: string;
  readonly format: DiffFormat;
  readonly failOn: FailOn;
}

function readArguments({ values, positionals: files }: Arguments): DiffArguments {
  const since = values["since"] as string | undefined;
  const protocol = values["protocol"] as string | undefined;
  const failOn = readFailOn((values["fail-on"] ?? DEFAULT_FAIL_ON) as string);
  if (typeof failOn === "object" && "error" in failOn) throw new UsageError(failOn.error);
  const format = (values["format"] ?? (values["json"] === true ? "json" : "text")) as string;
  if (format !== "text" && format !== "markdown" && format !== "json")
    throw new UsageError(`--format is text, markdown or json, not "${format}"`);
  if (values["json"] === true && format !== "json") throw new UsageError(`--json is --format json, not ${format}`);
  if (since !== undefined && files.length > 0) throw new UsageError("give either OLD NEW or --since, not both");
  if (since === undefined && files.length !== 2) throw new UsageError("give two schema files, OLD and NEW, or --since REVISION");
  if (since !== undefined && protocol !== undefined) throw new UsageError("--protocol applies to OLD NEW only");
  return { files, ...(since === undefined ? {} : { since }), ...(protocol === undefined ? {} : { protocol }), format, failOn };
}

const PRINTERS: Readonly<Record<DiffFormat, (diffs: readonly ProtocolDiff[]) => string>> = {
  text: formatDiff,
  markdown: diffMarkdown,
  json: (diffs) => JSON.stringify(diffJson(diffs), null, 2),
};

/** `agentwire diff`: prints the changes and returns the exit code `--fail-on` asks for. */
export async function runDiff(args: Arguments, io: Io, project: ProjectLookup): Promise<number> {
  const options = readArguments(args);
  const diffs =
    options.since === undefined
      ? [diffFiles(io.cwd, options.files as [string, string], project.config === undefined ? undefined : project.open(), options.protocol)]
      : diffSince(project.open(), options.since);
  io.out(PRINTERS[options.format](diffs));
  return fails(diffs, options.failOn) ? 1 : 0;
}
