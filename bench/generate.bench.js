// Generation benchmark: whole `agentwire generate` and `agentwire check` processes, run
// several times on a scratch copy of the project, rounds interleaved, median and peak
// memory reported, beside ajv's standalone code generation of the same schemas as a whole
// process; then where the time of one cold generation goes, stage by stage
// (bench/stages.js). Run with `npm run bench`.
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";

const REPO = path.resolve(import.meta.dirname, "..");
const RUNS = Number(process.env.BENCH_RUNS ?? 9);

const scratch = mkdtempSync(path.join(tmpdir(), "agentwire-bench-"));
for (const dir of ["schemas", "templates", "build", "bin", "generated/src"])
  cpSync(path.join(REPO, dir), path.join(scratch, dir), { recursive: true });
for (const file of ["agentwire.config.json", "generated/package.json", "generated/README.md", "generated/tsconfig.json"])
  cpSync(path.join(REPO, file), path.join(scratch, file));
symlinkSync(path.join(REPO, "node_modules"), path.join(scratch, "node_modules"));

const PEAK = pathToFileURL(path.join(REPO, "bench/peak-rss.js")).href;

/** One whole process: its wall time and peak resident memory (MiB). */
function time(args) {
  const started = process.hrtime.bigint();
  const result = spawnSync(process.execPath, ["--import", PEAK, ...args], { cwd: scratch, encoding: "utf8" });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== 0) throw new Error(`${args.join(" ")} failed:\n${result.stderr}`);
  return { ms, peakMiB: Number(/peak-rss-kib (\d+)/.exec(result.stderr)[1]) / 1024 };
}

const bin = path.join(scratch, "bin/agentwire.js");
const commands = [
  ["node -e 0 (process start, the floor)", ["-e", "0"]],
  ["agentwire generate (4 protocols)", [bin, "generate"]],
  // The yardstick: ajv's standalone code generation of one validator per definition.
  ["ajv standalone code (4 protocols, a validator per definition)", [path.join(REPO, "bench/ajv-standalone.js")]],
  ["agentwire check", [bin, "check"]],
];
for (const [, args] of commands) time(args); // warm the file cache
// Rounds interleaved, so that a drift of the machine's speed falls on every command alike.
const samples = commands.map(() => []);
for (let round = 0; round < RUNS; round++) commands.forEach(([, args], i) => samples[i].push(time(args)));
const medianOf = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
const rows = commands.map(([label], i) => {
  const ms = samples[i].map((each) => each.ms).sort((a, b) => a - b);
  return { label, median: medianOf(ms), min: ms[0], max: ms.at(-1), peakMiB: medianOf(samples[i].map((each) => each.peakMiB)) };
});

// One cold generation in a fresh process, timed stage by stage.
const stages = spawnSync(process.execPath, [path.join(REPO, "bench/stages.js")], { cwd: scratch, encoding: "utf8" });
rmSync(scratch, { recursive: true, force: true });
if (stages.status !== 0) throw new Error(stages.stderr);

const ms = (value) => `${value.toFixed(0)} ms`;
console.log(`agentwire generation, ${RUNS} runs each, interleaved, on ${process.version}\n`);
console.log("| command | median | min | max | peak memory |\n| --- | --: | --: | --: | --: |");
for (const row of rows)
  console.log(`| ${row.label} | ${ms(row.median)} | ${ms(row.min)} | ${ms(row.max)} | ${row.peakMiB.toFixed(0)} MiB |`);
const [, generateRow, ajvRow, checkRow] = rows;
const marks = JSON.parse(stages.stdout);
const names = ["import", "load", "resolve", "overlay", "normalize", "name", "emit", "format"];
const total = names.reduce((sum, name) => sum + marks[name], 0);
console.log(
  "\nOne cold generation, in process, by stage (format prints the code and the JSON):\n\n| stage | time | share |\n| --- | --: | --: |",
);
for (const name of names) console.log(`| ${name} | ${ms(marks[name])} | ${((100 * marks[name]) / total).toFixed(0)}% |`);
console.log(`| total | ${ms(total)} | |`);
const generate = generateRow.median;
const ratio = generate / ajvRow.median;
const share = marks.format / total;
console.log(
  `\ngoals (issue 27): generate ≤ 0.7× ajv's standalone code generation → ${ratio <= 0.7 ? "met" : "missed"} (${ratio.toFixed(2)}×); peak memory within 2× ajv's → ${generateRow.peakMiB <= 2 * ajvRow.peakMiB ? "met" : "missed"} (${(generateRow.peakMiB / ajvRow.peakMiB).toFixed(2)}×); format under a fifth of the stages → ${share < 0.2 ? "met" : "missed"} (${(100 * share).toFixed(0)}%); check no slower than generate → ${checkRow.median <= generate * 1.1 ? "met" : "missed"} (${ms(checkRow.median)})`,
);
