// The yardstick of the generation benchmark: ajv's standalone code generation, as one
// process, on the four effective schemas agentwire ships (generated/src/*/schema.json):
// one validator per definition, as agentwire writes one guard and one validator per type,
// written to files. Run by bench/generate.bench.js in its scratch copy of the project.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import standaloneCode from "ajv/dist/standalone/index.js";

const source = path.resolve("generated/src");
const out = path.resolve("ajv-standalone");
mkdirSync(out, { recursive: true });
// The protocols are the folders; beside them are the shared modules (runtime, stream, assemble).
for (const protocol of readdirSync(source, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort()) {
  const schema = JSON.parse(readFileSync(path.join(source, protocol, "schema.json"), "utf8"));
  const ajv = new Ajv2020({ strict: false, validateFormats: false, code: { source: true, esm: true } });
  ajv.addSchema(schema, "effective");
  const refs = Object.fromEntries(
    Object.keys(schema.$defs).map((name, i) => [`validate${i}`, `effective#/$defs/${encodeURIComponent(name)}`]),
  );
  writeFileSync(path.join(out, `${protocol}.js`), standaloneCode.default(ajv, refs));
}
