// Generation benchmark: whole `agentwire generate` and `agentwire check` processes, run
// several times on a scratch copy of the project, median reported, beside ajv's standalone
// code generation of the same schemas as a whole process; then where the time
// of one cold generation goes, stage by stage. Run with `npm run bench`.
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const REPO = path.resolve(import.meta.dirname, "..");
const RUNS = Number(process.env.BENCH_RUNS ?? 9);

const scratch = mkdtempSync(path.join(tmpdir(), "agentwire-bench-"));
for (const dir of ["schemas", "templates", "build", "bin", "generated/src"])
  cpSync(path.join(REPO, dir), path.join(scratch, dir), { recursive: true });
for (const file of ["agentwire.config.json", "generated/package.json", "generated/README.md", "generated/tsconfig.json"])
  cpSync(path.join(REPO, file), path.join(scratch, file));
symlinkSync(path.join(REPO, "node_modules"), path.join(scratch, "node_modules"));

function time(args) {
  const started = process.hrtime.bigint();
  const result = spawnSync(process.execPath, args, { cwd: scratch, encoding: "utf8" });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== 0) throw new Error(`${args.join(" ")} failed:\n${result.stderr}`);
  return ms;
}

function measure(label, args) {
  time(args); // warm the file cache
  const samples = Array.from({ length: RUNS }, () => time(args)).sort((a, b) => a - b);
  const median = samples[Math.floor(samples.length / 2)];
  return { label, median, min: samples[0], max: samples.at(-1) };
}

const bin = path.join(scratch, "bin/agentwire.js");
const rows = [
  measure("node -e 0 (process start, the floor)", ["-e", "0"]),
  measure("agentwire generate (4 protocols)", [bin, "generate"]),
  // The yardstick: ajv's standalone code generation of one validator per definition.
  measure("ajv standalone code (4 protocols, a validator per definition)", [path.join(REPO, "bench/ajv-standalone.js")]),
  measure("agentwire check", [bin, "check"]),
];

// One cold generation in a fresh process, timed stage by stage.
const stages = spawnSync(
  process.execPath,
  [
    "--input-type=module",
    "-e",
    `
    const t = () => performance.now();
    const marks = {};
    let at = t();
    const lap = (name) => { const now = t(); marks[name] = (marks[name] ?? 0) + now - at; at = now; };
    const { load } = await import("./build/generator/load/index.js");
    const { resolve } = await import("./build/generator/resolve/index.js");
    const { applyOverlays } = await import("./build/generator/overlay/index.js");
    const { normalize } = await import("./build/generator/normalize/index.js");
    const { nameIr } = await import("./build/generator/name/index.js");
    const { emitProtocol } = await import("./build/generator/emit/index.js");
    const { format } = await import("./build/generator/format/index.js");
    lap("import the generator (incl. prettier/doc)");
    const project = load(process.cwd());
    lap("load");
    for (const protocol of project.protocols) {
      const resolved = resolve(project, protocol); lap("resolve");
      const effective = applyOverlays(resolved); lap("overlay");
      const ir = normalize(effective); lap("normalize");
      const named = nameIr(ir, effective); lap("name");
      const files = emitProtocol(named); lap("emit");
      format(files); lap("format");
    }
    console.log(JSON.stringify(marks));
    `,
  ],
  { cwd: scratch, encoding: "utf8" },
);
rmSync(scratch, { recursive: true, force: true });
if (stages.status !== 0) throw new Error(stages.stderr);

const ms = (value) => `${value.toFixed(0)} ms`;
console.log(`agentwire generation, ${RUNS} runs each, on ${process.version}\n`);
console.log("| command | median | min | max |\n| --- | --: | --: | --: |");
for (const row of rows) console.log(`| ${row.label} | ${ms(row.median)} | ${ms(row.min)} | ${ms(row.max)} |`);
const [, generateRow, ajvRow, checkRow] = rows;
console.log("\nOne cold generation, in process, by stage:\n\n| stage | time |\n| --- | --: |");
for (const [stage, value] of Object.entries(JSON.parse(stages.stdout))) console.log(`| ${stage} | ${ms(value)} |`);
const generate = generateRow.median;
const ratio = generate / ajvRow.median;
console.log(
  `\ngoal: generate ≤ 1000 ms → ${generate <= 1000 ? "met" : "missed"} (${ms(generate)}); check no slower than generate → ${checkRow.median <= generate * 1.1 ? "met" : "missed"} (${ms(checkRow.median)}); generate no slower than ajv's standalone code generation → ${ratio <= 1 ? "met" : "missed"} (${ratio.toFixed(2)}×)`,
);
