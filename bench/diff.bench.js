// Diff benchmark: `agentwire diff` of two releases of a large real schema, GitHub's webhook
// payloads (@octokit/webhooks-schemas 7.5.1 → 7.6.1, 342 and 344 definitions, 630 KB each;
// test/fixtures/spec-history/octokit-webhooks). The whole CLI process, then in one process
// each version to its IR and the comparison alone. The goal: under 1 s. Run with `npm run bench`.
import { spawnSync } from "node:child_process";
import path from "node:path";

const REPO = path.resolve(import.meta.dirname, "..");
const FIXTURES = path.join(REPO, "test/fixtures/spec-history/octokit-webhooks");
const RUNS = Number(process.env.BENCH_RUNS ?? 9);
const { fileIr } = await import(path.join(REPO, "build/generator/api/versions.js"));
const { diffProtocol } = await import(path.join(REPO, "build/generator/diff/index.js"));

const median = (samples) => [...samples].sort((a, b) => a - b)[Math.floor(samples.length / 2)];
const since = (started) => Number(process.hrtime.bigint() - started) / 1e6;

async function sample(run) {
  await run(); // warm up
  const times = [];
  for (let i = 0; i < RUNS; i++) {
    const started = process.hrtime.bigint();
    await run();
    times.push(since(started));
  }
  return median(times);
}

const cli = await sample(() => {
  const result = spawnSync(
    process.execPath,
    [path.join(REPO, "bin/agentwire.js"), "diff", "7.5.1.json", "7.6.1.json", "--fail-on", "none"],
    {
      cwd: FIXTURES,
      encoding: "utf8",
    },
  );
  if (result.status !== 0) throw new Error(result.stderr);
});
const irs = async () => [fileIr(FIXTURES, "7.5.1.json", "webhooks"), fileIr(FIXTURES, "7.6.1.json", "webhooks")];
const load = await sample(irs);
const [before, after] = await irs();
let changes = 0;
const compare = await sample(() => {
  changes = diffProtocol("webhooks", before, after).changes.length;
});

console.log(
  `\ndiff of @octokit/webhooks-schemas 7.5.1 → 7.6.1 (${before.types.length} → ${after.types.length} types, ${changes} changes), median of ${RUNS}:`,
);
console.log(`  agentwire diff, the whole process   ${cli.toFixed(0).padStart(6)} ms   (goal: under 1000 ms)`);
console.log(`  both versions to their IRs          ${load.toFixed(0).padStart(6)} ms`);
console.log(`  the comparison alone                ${compare.toFixed(1).padStart(6)} ms`);
