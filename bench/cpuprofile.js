// Sums a V8 CPU profile's self time by folder, by file and by function, for finding where
// generation spends its time (over build/generator/, the modules as tsc writes them, which
// bench/stages.js runs one generation of; the command runs them bundled):
//
//   for i in 1 2 3 4 5; do node --cpu-prof --cpu-prof-dir=/tmp/prof bench/stages.js; done
//   node bench/cpuprofile.js /tmp/prof/*.0.*.cpuprofile [--top=30] [--under=build/generator/]
//
// Several profiles are averaged: on a loaded machine one profile's attribution is noisy.
// (A profile's name holds its thread: `.0.` is the main thread, others are workers.)
import { readFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { top: { type: "string", default: "30" }, under: { type: "string", default: "build/generator/" } },
});
const top = Number(values.top);

const byFunction = new Map();
const byFile = new Map();
const byFolder = new Map();
let total = 0;
const add = (map, key, ms) => map.set(key, (map.get(key) ?? 0) + ms / positionals.length);
for (const file of positionals) {
  const profile = JSON.parse(readFileSync(file, "utf8"));
  // Each sample's time is the gap to the next one; the sample is charged to its node.
  const self = new Map();
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i];
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i + 1] ?? 0) / 1000);
  }
  for (const node of profile.nodes) {
    const ms = self.get(node.id) ?? 0;
    if (ms === 0) continue;
    total += ms / positionals.length;
    const { url, functionName, lineNumber } = node.callFrame;
    const at = url.indexOf(values.under);
    const where = at >= 0 ? url.slice(at + values.under.length) : url === "" ? `(${functionName})` : path.basename(url);
    const folder = at >= 0 ? (where.includes("/") ? where.slice(0, where.indexOf("/")) : where) : "(other)";
    add(byFolder, folder, ms);
    add(byFile, where, ms);
    add(byFunction, `${where} ${functionName || "(anonymous)"}:${lineNumber + 1}`, ms);
  }
}
const print = (title, map, limit) => {
  console.log(`\n${title}`);
  for (const [key, ms] of [...map].sort((a, b) => b[1] - a[1]).slice(0, limit))
    console.log(`${ms.toFixed(0).padStart(7)} ms ${((100 * ms) / total).toFixed(1).padStart(5)}%  ${key}`);
};
console.log(`${positionals.length} profiles, ${total.toFixed(0)} ms sampled on average`);
print("by folder", byFolder, Infinity);
print("by file", byFile, top);
print("by function", byFunction, top);
