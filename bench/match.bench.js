// Dispatch benchmark: the generated match helpers against the switch a person would write
// for the same union, over the valid documents of bench/corpora (their members mixed as a
// real stream mixes them). Handlers and switch cases return the same small number, so
// what is measured is the dispatch. Run with `npm run bench`.
import { readFileSync } from "node:fs";
import path from "node:path";
import { throughput } from "./throughput.js";

const REPO = path.resolve(import.meta.dirname, "..");

/** Unions to dispatch: tagged ones switch on their tag, keyed ones test which member is set. */
const UNIONS = [
  { protocol: "ag-ui", union: "Event", tag: "type" },
  { protocol: "app-server", union: "ServerNotification", tag: "method" },
  { protocol: "a2a", union: "StreamResponse", members: ["task", "message", "statusUpdate", "artifactUpdate"] },
  { protocol: "gtm-agent", union: "AgentStreamEvent", members: ["task", "statusUpdate", "artifactUpdate", "message"] },
];

/**
 * The hand-written dispatch, as source a person would write: `case "X": return 3;`, or
 * `if (value.x !== undefined) return 3;`. Built as text so that it is plain code to V8.
 */
function handWritten(keys, { tag }) {
  const body =
    tag === undefined
      ? keys.map((key, i) => `if (value.${key} !== undefined) return ${i};`).join("\n")
      : `switch (value.${tag}) {\n${keys.map((key, i) => `case ${JSON.stringify(key)}: return ${i};`).join("\n")}\n}`;
  return new Function("value", `${body}\nthrow new Error("unmatched");`);
}

const rate = (value) => `${(value / 1e6).toFixed(1)}M/s`;
const GOAL = 1.5;
console.log(`| union | hand-written switch | match | cost vs switch | matchPartial | cost vs switch | within ${GOAL}× |`);
console.log("| --- | --: | --: | --: | --: | --: | --- |");
for (const { protocol, union, tag, members } of UNIONS) {
  const generated = await import(path.join(REPO, "generated/dist", protocol, "index.js"));
  const documents = readFileSync(path.join(REPO, "bench/corpora", `${protocol}.valid.jsonl`), "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line));
  // A tagged union's handlers: one per tag the corpus has, which is every tag a document can reach.
  const keys = members ?? [...new Set(documents.map((document) => document[tag]))].sort();
  const handlers = Object.fromEntries(keys.map((key, i) => [key, () => i]));
  const otherwise = () => -1;
  const manual = handWritten(keys, { tag });
  const match = generated[`match${union}`];
  const partial = generated[`match${union}Partial`];
  const runs = {
    switch: (list) => {
      let sum = 0;
      for (const value of list) sum += manual(value);
      return sum;
    },
    match: (list) => {
      let sum = 0;
      for (const value of list) sum += match(value, handlers);
      return sum;
    },
    partial: (list) => {
      let sum = 0;
      for (const value of list) sum += partial(value, handlers, otherwise);
      return sum;
    },
  };
  const checksums = Object.values(runs).map((run) => run(documents));
  if (new Set(checksums).size !== 1) throw new Error(`${union}: the dispatches disagree (${checksums.join(", ")})`);
  const rates = Object.fromEntries(Object.entries(runs).map(([name, run]) => [name, throughput(() => run(documents), documents.length)]));
  const cost = (name) => rates.switch / rates[name];
  console.log(
    `| ${protocol} ${union} (${keys.length} ${tag === undefined ? "members" : "tags"}) | ${rate(rates.switch)} | ${rate(rates.match)} | ${cost("match").toFixed(2)}× | ${rate(rates.partial)} | ${cost("partial").toFixed(2)}× | ${Math.max(cost("match"), cost("partial")) <= GOAL ? "met" : "missed"} |`,
  );
}
