// The SchemaStore harness (issue 22): `node bench/schemastore.js [CATALOG] [--json FILE]
// [--only a.json,b.json] [--concurrency N] [--keep]`. For every schema of a catalog in SchemaStore's layout
// (by default the vendored sample, test/fixtures/schemastore/), generates it as a
// one-protocol project, type-checks the output, and asks the root type's guard and ajv
// about the schema's test documents; prints a markdown summary and, with --json, writes
// the whole report (for a before/after comparison). Build the generator first
// (`npm run build:generator`): it runs build/. On the whole shared half it takes minutes.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { openProject } from "../build/generator/load/index.js";
import { decoderName, guardName, validatorName } from "../build/generator/name/rules.js";
import { generate } from "../build/generator/pipeline.js";
import { runHarness, SAMPLE, summary } from "./schemastore-core.js";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { json: { type: "string" }, only: { type: "string" }, keep: { type: "boolean" }, concurrency: { type: "string" } },
});
const catalog = path.resolve(positionals[0] ?? SAMPLE);
const scratch = mkdtempSync(path.join(tmpdir(), "agentwire-schemastore-"));
const started = performance.now();
try {
  const report = await runHarness({
    agentwire: { generate, openProject, guardName, validatorName, decoderName },
    catalog,
    scratch,
    ...(values.only === undefined ? {} : { only: values.only.split(",") }),
    ...(values.concurrency === undefined ? {} : { concurrency: Number(values.concurrency) }),
    log: (line) => process.stderr.write(`${line}\n`),
  });
  report.wallMs = Math.round(performance.now() - started);
  console.log(summary(report));
  console.log(`\nwhole run: ${(report.wallMs / 1000).toFixed(1)} s`);
  if (values.json !== undefined) {
    writeFileSync(values.json, `${JSON.stringify(report, null, 1)}\n`);
    console.log(`report: ${values.json}`);
  }
} finally {
  if (values.keep) process.stderr.write(`scratch kept: ${scratch}\n`);
  else rmSync(scratch, { recursive: true, force: true });
}
// The pattern checks' workers, and imported guards' timers, if any, must not keep the process alive.
process.exit(0);
