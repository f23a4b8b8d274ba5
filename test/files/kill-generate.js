// Kills `agentwire generate` at random moments while it writes (from the staging folder it
// makes in generated/ to its exit) and checks what each kill left, after the
// next run (`agentwire check`) has recovered it: the whole of the old generation with its
// pins, or the whole of the new one, and nothing else. Slower than test/files/kill.test.ts
// (a whole generate per kill), so a script:
//
//   node test/files/kill-generate.js [RUNS=50] [AGENTWIRE=bin/agentwire.js]
//
// AGENTWIRE may be another agentwire's bin (an older version, to compare): one without an
// agentwire.config.json of its own gets a project of the old layout, schemas/protocols.json
// and a copy of its templates/. Exit 1 if any kill left a project that is neither
// generation whole.
import { spawn, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const REPO = path.resolve(import.meta.dirname, "../..");
const runs = Number(process.argv[2] ?? 50);
const agentwire = path.resolve(process.argv[3] ?? path.join(REPO, "bin/agentwire.js"));
/** Protocols of a tiny schema each: a write of many files after a short generation. */
const PROTOCOLS = 20;
/** The agentwire's own folder, two up from its bin, and whether it predates agentwire.config.json. */
const TOOL = path.dirname(path.dirname(agentwire));
const LEGACY = !existsSync(path.join(TOOL, "agentwire.config.json"));
/** The config the pins are in. */
const CONFIG = LEGACY ? "schemas/protocols.json" : "agentwire.config.json";

const scratch = mkdtempSync(path.join(tmpdir(), "agentwire-kill-generate-"));
process.on("exit", () => rmSync(scratch, { recursive: true, force: true }));

const schemaOf = (field) => `${JSON.stringify({ type: "object", properties: { [field]: { type: "string" } }, required: [field] })}\n`;
const names = Array.from({ length: PROTOCOLS }, (_, i) => `p${String(i).padStart(2, "0")}`);

/** A project whose schemas are at `version` ("a" or "b"); generated (with its pins) where asked. */
function projectAt(version, generated) {
  const root = mkdtempSync(path.join(scratch, `${version}-`));
  mkdirSync(path.join(root, "schemas"));
  const config = LEGACY
    ? { protocols: names.map((name) => ({ name, schema: `${name}.schema.json` })) }
    : {
        protocols: names.map((name) => ({ name, schema: `schemas/${name}.schema.json` })),
        output: { folder: "generated", package: { name: "@agentwire/protocols", version: "0.1.0" } },
      };
  if (LEGACY) cpSync(path.join(TOOL, "templates"), path.join(root, "templates"), { recursive: true });
  writeFileSync(path.join(root, CONFIG), `${JSON.stringify(config, null, 2)}\n`);
  for (const name of names) writeFileSync(path.join(root, `schemas/${name}.schema.json`), schemaOf(version));
  if (generated) agentwireSync(root, "generate");
  return root;
}

function agentwireSync(cwd, ...args) {
  const result = spawnSync(process.execPath, [agentwire, ...args], { cwd, encoding: "utf8" });
  return { code: result.status, err: result.stderr };
}

/** Every file of the project but an old layout's templates/ (a link by its text). */
function stateOf(root) {
  const files = {};
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((x, y) => (x.name < y.name ? -1 : 1))) {
      const full = path.join(dir, entry.name);
      const relative = path.relative(root, full);
      if (relative === "templates") continue;
      if (entry.isDirectory()) walk(full);
      else files[relative] = entry.isFile() ? readFileSync(full, "utf8") : "<not a file>";
    }
  };
  walk(root);
  return JSON.stringify(files);
}

/** What a broken project shows, beside the new generation it should have become or the old one it should have kept. */
function whatIsWrong(files, wanted, check) {
  const names = Object.keys(files);
  const leftovers = names.filter((file) => /\/\.staging-|\/\.agentwire/.test(file)).length;
  const faults = [];
  if (leftovers > 0) faults.push(`${leftovers} staging files left in generated/`);
  if (!names.some((file) => file.startsWith("generated/src/"))) faults.push("generated/src missing");
  const generatedNew = files["generated/sources.json"] === wanted["generated/sources.json"];
  const pinnedNew = files[CONFIG] === wanted[CONFIG];
  if (generatedNew !== pinnedNew) faults.push(generatedNew ? "new sources.json with the old pins" : "old sources.json with the new pins");
  return `${faults.join(", ") || "a mix of old and new files"}; check exited ${check.code}`;
}

/** What a project at `version` holds once generated, and once its schemas are edited to `next` before generating. */
const whole = { a: stateOf(projectAt("a", true)), b: stateOf(projectAt("b", true)) };

/**
 * Resolves when the child starts to write generated/, or exits: when its staging folder
 * appears, `.agentwire/new/` (or an older agentwire's `.staging-*`).
 */
async function writing(root, exited) {
  const output = path.join(root, "generated");
  const staging = () =>
    readdirSync(output).some((name) => name.startsWith(".staging-")) || existsSync(path.join(output, ".agentwire", "new"));
  let done = false;
  exited.then(() => (done = true));
  while (!done && !staging()) await new Promise((resolve) => setTimeout(resolve, 1));
}

// How long a generate writes, from its staging folder to its exit: the kills fall uniformly within it.
const timing = projectAt("a", true);
for (const name of names) writeFileSync(path.join(timing, `schemas/${name}.schema.json`), schemaOf("b"));
const timed = spawn(process.execPath, [agentwire, "generate"], { cwd: timing, stdio: "ignore" });
const timedExit = new Promise((resolve) => timed.once("exit", resolve));
await writing(timing, timedExit);
const started = performance.now();
await timedExit;
const duration = performance.now() - started;

const outcomes = { "the old generation, whole": 0, "the new generation, whole": 0, broken: 0 };
const broken = [];
let root = projectAt("a", true);
let version = "a";
for (let run = 0; run < runs; run++) {
  const next = version === "a" ? "b" : "a";
  for (const name of names) writeFileSync(path.join(root, `schemas/${name}.schema.json`), schemaOf(next));
  const child = spawn(process.execPath, [agentwire, "generate"], { cwd: root, stdio: "ignore" });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  await writing(root, exited);
  await new Promise((resolve) => setTimeout(resolve, Math.random() * duration));
  child.kill("SIGKILL");
  await exited;
  const check = agentwireSync(root, "check");
  // The schemas are the new ones either way: what generate writes is compared with their generation.
  const edited = (state) => {
    const files = JSON.parse(state);
    for (const name of names) files[`schemas/${name}.schema.json`] = schemaOf(next);
    return JSON.stringify(files);
  };
  const state = stateOf(root);
  if (state === whole[next]) {
    outcomes["the new generation, whole"]++;
    version = next;
  } else if (state === edited(whole[version])) outcomes["the old generation, whole"]++;
  else {
    outcomes.broken++;
    broken.push(`run ${run}: ${whatIsWrong(JSON.parse(state), JSON.parse(whole[next]), check)}`);
    // The next run starts from a whole generation again, in a project of its own.
    root = projectAt(next, true);
    version = next;
  }
}
console.log(`agentwire generate killed ${runs} times while it wrote (for ${Math.round(duration)} ms here), with ${agentwire}:`);
for (const [outcome, count] of Object.entries(outcomes)) console.log(`  ${String(count).padStart(3)}  ${outcome}`);
for (const line of broken.slice(0, 10)) console.log(`  ${line}`);
process.exitCode = outcomes.broken > 0 ? 1 : 0;
