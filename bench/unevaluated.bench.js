// Unevaluated benchmark (issue 24 §2): one type that is an allOf of k anyOfs of 3 branches,
// closed by unevaluatedProperties, by unevaluatedItems, or by both, for k = 1 … 10. Per k
// and keyword: the IR's size (its JSON), the generated code's size (guards, validators and
// decoders of the protocol), the time `generate` takes in process (the median of three),
// and ajv's compile of the same schema beside it (the median of five). Each generation runs
// in a process of its own, with a time limit, so that a design that grows exponentially
// shows where it gives up instead of hanging. The sizes are the measure: the times are of
// tens of milliseconds, and vary with the machine's load.
//
//   node bench/unevaluated.bench.js              k = 1 … 10
//   node bench/unevaluated.bench.js --max=6 --timeout=60
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { Ajv2020 } from "ajv/dist/2020.js";
import { unevaluatedSchema } from "./unevaluated.js";

const REPO = path.resolve(import.meta.dirname, "..");
const { values } = parseArgs({ options: { max: { type: "string", default: "10" }, timeout: { type: "string", default: "60" } } });
const MAX = Number(values.max);
const TIMEOUT_MS = Number(values.timeout) * 1000;
const KEYWORDS = ["properties", "items", "both"];

/** Generates a project in a process of its own: the IR's size, the code's and the time, as JSON on stdout. */
const CHILD = `
  const build = ${JSON.stringify(path.join(REPO, "build/generator"))};
  const { load, openProject } = await import(build + "/load/index.js");
  const { generate, intermediate } = await import(build + "/pipeline.js");
  const config = process.argv[1];
  const project = load(openProject(config));
  const ir = intermediate(project, project.protocols[0]);
  const irBytes = JSON.stringify(ir).length;
  const runs = [];
  let generation;
  for (let round = 0; round < 3; round++) {
    const started = performance.now();
    generation = await generate(openProject(config));
    runs.push(performance.now() - started);
  }
  const ms = runs.sort((a, b) => a - b)[1];
  const code = generation.files.filter((file) => /\\/(guards|validate|decode)\\.ts$/.test(file.path));
  const codeBytes = code.reduce((sum, file) => sum + Buffer.byteLength(file.content), 0);
  console.log(JSON.stringify({ irBytes, codeBytes, ms }));
`;

function measure(root, schema) {
  writeFileSync(path.join(root, "schemas/u.schema.json"), JSON.stringify(schema));
  const result = spawnSync(process.execPath, ["--input-type=module", "-e", CHILD, path.join(root, "agentwire.config.json")], {
    encoding: "utf8",
    timeout: TIMEOUT_MS,
    maxBuffer: 1 << 26,
  });
  if (result.error !== undefined) return { failed: `over ${TIMEOUT_MS / 1000} s` };
  if (result.status !== 0) return { failed: (result.stderr.match(/^\w*Error.*$/m) ?? ["crashed"])[0].slice(0, 60) };
  return JSON.parse(result.stdout.trim().split("\n").at(-1));
}

/** The median of five compiles, each by an ajv of its own (which caches what it compiled). */
function ajvCompileMs(schema) {
  const runs = [];
  for (let round = 0; round < 5; round++) {
    const started = performance.now();
    new Ajv2020({ strict: false }).compile(schema);
    runs.push(performance.now() - started);
  }
  return runs.sort((a, b) => a - b)[2];
}

const root = mkdtempSync(path.join(tmpdir(), "agentwire-unevaluated-"));
mkdirSync(path.join(root, "schemas"));
writeFileSync(
  path.join(root, "agentwire.config.json"),
  JSON.stringify({ protocols: [{ name: "u", schema: "schemas/u.schema.json" }], output: { folder: "generated" } }),
);
const kb = (bytes) =>
  bytes < 1024 ? `${bytes} B` : bytes < 1 << 20 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / (1 << 20)).toFixed(1)} MB`;
console.log("| keyword | k | IR | code | generate | ajv compile |");
console.log("| --- | --: | --: | --: | --: | --: |");
try {
  for (const keyword of KEYWORDS) {
    let gaveUp = false;
    for (let k = 1; k <= MAX; k++) {
      const schema = unevaluatedSchema(k, keyword);
      const ajv = `${ajvCompileMs(schema).toFixed(1)} ms`;
      if (gaveUp) {
        console.log(`| ${keyword} | ${k} | – | – | not run | ${ajv} |`);
        continue;
      }
      const row = measure(root, schema);
      if (row.failed !== undefined) {
        gaveUp = true;
        console.log(`| ${keyword} | ${k} | – | – | ${row.failed} | ${ajv} |`);
      } else console.log(`| ${keyword} | ${k} | ${kb(row.irBytes)} | ${kb(row.codeBytes)} | ${row.ms.toFixed(0)} ms | ${ajv} |`);
    }
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}
