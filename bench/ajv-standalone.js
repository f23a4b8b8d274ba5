// The yardstick of the generation benchmarks: ajv's standalone code generation, as one
// process, one validator per definition, as agentwire writes one guard and one validator
// per type, written to files (under ajv-standalone/). By default on the four effective
// schemas agentwire ships (generated/src/*/schema.json), as bench/generate.bench.js runs
// it in its scratch copy of the project; given schema files, on those, as
// bench/definitions.bench.js runs it on its schemas of n definitions:
//
//   node bench/ajv-standalone.js [schema.json ...]
//
// ajv compiles a ref's target as it meets the ref, recursively: a chain of a few thousand
// definitions needs more stack than the main thread has, so given files it compiles in a
// worker thread of a large stack.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { isMainThread, Worker } from "node:worker_threads";
import { Ajv2020 } from "ajv/dist/2020.js";
import standaloneCode from "ajv/dist/standalone/index.js";

if (isMainThread && process.argv.length > 2) {
  const worker = new Worker(new URL(import.meta.url), { argv: process.argv.slice(2), resourceLimits: { stackSizeMb: 1024 } });
  worker.on("error", (error) => {
    throw error;
  });
  await new Promise((resolve) => worker.on("exit", resolve));
  process.exit();
}
const source = path.resolve("generated/src");
const out = path.resolve("ajv-standalone");
mkdirSync(out, { recursive: true });
const schemas =
  process.argv.length > 2
    ? process.argv.slice(2).map((file) => ({ name: path.basename(file, ".json"), file: path.resolve(file) }))
    : // The protocols are the folders with a schema; beside them are the shared modules (runtime, stream …).
      readdirSync(source, { withFileTypes: true })
        .filter((entry) => entry.isDirectory() && existsSync(path.join(source, entry.name, "schema.json")))
        .map((entry) => entry.name)
        .sort()
        .map((name) => ({ name, file: path.join(source, name, "schema.json") }));
for (const { name, file } of schemas) {
  const schema = JSON.parse(readFileSync(file, "utf8"));
  const ajv = new Ajv2020({ strict: false, validateFormats: false, code: { source: true, esm: true } });
  ajv.addSchema(schema, "effective");
  const refs = Object.fromEntries(
    Object.keys(schema.$defs).map((key, i) => [`validate${i}`, `effective#/$defs/${encodeURIComponent(key)}`]),
  );
  writeFileSync(path.join(out, `${name}.js`), standaloneCode.default(ajv, refs));
}
