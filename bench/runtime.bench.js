// Runtime benchmark: the generated guards, validators and decoders of each protocol's root
// type, side by side in one process with ajv (as is, and tuned the way a performance-minded
// user would: discriminator on, the `discriminator` keyword on every tagged oneOf), with
// @exodus/schemasafe tuned (`isJSON`, the same `discriminator` keywords), with
// @ag-ui/core's zod schemas for AG-UI, with a shallow ceiling that checks only the root's
// tag, and with JSON.parse of the same bytes as the floor.
// Corpora: bench/corpora (made by test/bench/corpora.test.ts). Run with `npm run bench`;
// `--only=ag-ui,a2a` runs some protocols; BENCH_ROUNDS and BENCH_ROUND_MS set the rounds.
//
// The machine is shared, and its speed drifts within minutes: every candidate of a
// protocol runs in each round, in turn (interleaved), and a ratio is the median over the
// rounds of the two candidates' ratio in a round.
import { readFileSync } from "node:fs";
import path from "node:path";
import { validator } from "@exodus/schemasafe";
import { Ajv2020 } from "ajv/dist/2020.js";

const REPO = path.resolve(import.meta.dirname, "..");
const ROOTS = { "ag-ui": "Event", a2a: "StreamResponse", "gtm-agent": "AgentStreamEvent", "app-server": "ServerNotification" };
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const ROUND_MS = Number(process.env.BENCH_ROUND_MS ?? 250);
const only = process.argv
  .find((argument) => argument.startsWith("--only="))
  ?.slice("--only=".length)
  .split(",");

const definitionOf = (definitions, member) =>
  typeof member.$ref === "string" ? definitions[decodeURIComponent(member.$ref.slice("#/$defs/".length))] : member;

/** The property that each member of a oneOf requires to be a different string constant, if there is one. */
function tagOf(definitions, definition) {
  const members = definition.oneOf;
  if (!Array.isArray(members)) return undefined;
  const constantOf = (member, name) => {
    const resolved = definitionOf(definitions, member);
    const property = resolved?.properties?.[name];
    return resolved?.required?.includes(name) && property && "const" in property ? property.const : undefined;
  };
  const first = definitionOf(definitions, members[0]);
  const tag = Object.keys(first?.properties ?? {}).find((name) => members.every((member) => typeof constantOf(member, name) === "string"));
  if (tag === undefined) return undefined;
  const values = members.map((member) => constantOf(member, tag));
  return new Set(values).size === members.length ? { tag, values } : undefined;
}

/**
 * The effective schema with `discriminator` on every oneOf whose members each require a
 * different constant in one property. schemasafe wants the object type said beside it.
 */
function withDiscriminators(schema, { typed }) {
  const copy = structuredClone(schema);
  for (const definition of Object.values(copy.$defs)) {
    const tagged = tagOf(copy.$defs, definition);
    if (tagged === undefined) continue;
    definition.discriminator = { propertyName: tagged.tag };
    if (typed) definition.type = "object";
  }
  return copy;
}

function ajv(schema, root, options) {
  const instance = new Ajv2020({ strict: false, validateFormats: false, ...options });
  instance.addSchema(schema, "effective");
  return instance.compile({ $ref: `effective#/$defs/${root}` });
}

/**
 * schemasafe on JSON input, formats not asserted (as ajv's `validateFormats: false`; it
 * refuses a format on an integer, so those go), keywords it does not know (`x-…`) allowed.
 * Where it cannot compile the tuned schema (1.3.0 writes code that does not parse for two
 * of them with allErrors), the schema without `discriminator`, or else none, said in the output.
 */
function schemasafe(schema, plain, root, options) {
  const formats = {};
  const prepared = (each) =>
    JSON.parse(
      JSON.stringify(each, (key, value) => {
        if (typeof value?.format === "string") {
          formats[value.format] = () => true;
          if (value.type !== "string") return Object.fromEntries(Object.entries(value).filter(([name]) => name !== "format"));
        }
        return value;
      }),
    );
  const compile = (each) =>
    validator({ ...prepared(each), $ref: `#/$defs/${root}` }, { mode: "lax", isJSON: true, formatAssertion: false, formats, ...options });
  try {
    return compile(schema);
  } catch (error) {
    console.log(
      `schemasafe ${JSON.stringify(options)} fails on tuned ${root} (${String(error.message).split("\n")[0]}): without discriminators`,
    );
  }
  try {
    return compile(plain);
  } catch (error) {
    console.log(`schemasafe ${JSON.stringify(options)} fails on ${root} (${String(error.message).split("\n")[0]}) too: left out`);
    return undefined;
  }
}

/**
 * What no validator can beat by much: an object whose tag names one of the root's members
 * (for a tagged union), or that has one of its members' keys (for a union keyed by which
 * property is present), and nothing more.
 */
function shallowCeiling(schema, root) {
  const definition = schema.$defs[root];
  const tagged = tagOf(schema.$defs, definition);
  if (tagged !== undefined) {
    const tags = new Set(tagged.values);
    const tag = tagged.tag;
    return (value) => typeof value === "object" && value !== null && !Array.isArray(value) && tags.has(value[tag]);
  }
  const keys = Object.keys(definition.properties ?? {});
  return (value) => {
    if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
    for (const key of keys) if (value[key] != null) return true;
    return false;
  };
}

/**
 * Rates (documents per second) of each candidate on each corpus, by rounds: in each round
 * every candidate runs for ROUND_MS on each corpus, in turn, after a warm-up of two rounds.
 * Each candidate is its own function, so that its call site sees one check.
 */
function interleaved(candidates, corpora) {
  const passes = Object.entries(candidates).flatMap(([label, { check, corpus }]) =>
    Object.keys(corpora).map((kind) => {
      const documents = corpus?.[kind] ?? corpora[kind];
      const pass = new Function(
        "check",
        "documents",
        "let n = 0; for (let i = 0; i < documents.length; i++) if (check(documents[i])) n++; return n;",
      );
      return { label, kind, run: () => pass(check, documents), count: documents.length, rates: [] };
    }),
  );
  const round = (record) => {
    for (const pass of passes) {
      let count = 0;
      const started = performance.now();
      let elapsed = 0;
      while (elapsed < ROUND_MS) {
        pass.run();
        count += pass.count;
        elapsed = performance.now() - started;
      }
      if (record) pass.rates.push((count / elapsed) * 1000);
    }
  };
  round(false);
  round(false);
  for (let i = 0; i < ROUNDS; i++) round(true);
  const table = {};
  for (const pass of passes) (table[pass.label] ??= {})[pass.kind] = pass.rates;
  return table;
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const rate = (value) => (value >= 1e6 ? `${(value / 1e6).toFixed(2)}M/s` : `${(value / 1e3).toFixed(0)}k/s`);
/** The median over the rounds of a's rate over b's in the same round. */
const ratio = (a, b) => (a === undefined || b === undefined ? NaN : median(a.map((value, i) => value / b[i])));

const goalRows = [];
for (const [name, root] of Object.entries(ROOTS)) {
  if (only !== undefined && !only.includes(name)) continue;
  const lines = (kind) =>
    readFileSync(path.join(REPO, "bench/corpora", `${name}.${kind}.jsonl`), "utf8")
      .trim()
      .split("\n");
  const texts = { valid: lines("valid"), invalid: lines("invalid") };
  const corpora = { valid: texts.valid.map((line) => JSON.parse(line)), invalid: texts.invalid.map((line) => JSON.parse(line)) };
  const generated = await import(path.join(REPO, "generated/dist", name, "index.js"));
  const schema = JSON.parse(readFileSync(path.join(REPO, "generated/src", name, "schema.json"), "utf8"));
  const is = generated[`is${root}`];
  const validate = generated[`validate${root}`];
  const decode = generated[`decode${root}`];
  const TOLERANT = { mode: "tolerant" };
  const ALL = { maxErrors: Infinity };
  const candidates = {
    "JSON.parse (the floor)": { check: (text) => JSON.parse(text) !== undefined, corpus: texts },
    "shallow ceiling (the tag only)": { check: shallowCeiling(schema, root) },
    [`is${root}`]: { check: is },
    [`validate${root}`]: { check: (value) => validate(value).ok },
    [`validate${root}, all errors`]: { check: (value) => validate(value, ALL).ok },
    [`decode${root}, strict`]: { check: (value) => decode(value).ok },
    [`decode${root}, tolerant`]: { check: (value) => decode(value, TOLERANT).ok },
    ajv: { check: ajv(schema, root, {}) },
    "ajv tuned": { check: ajv(withDiscriminators(schema, { typed: false }), root, { discriminator: true }) },
    "ajv tuned, allErrors": {
      check: ajv(withDiscriminators(schema, { typed: false }), root, { discriminator: true, allErrors: true }),
    },
    "schemasafe tuned": { check: schemasafe(withDiscriminators(schema, { typed: true }), schema, root, {}) },
    "schemasafe tuned, allErrors": {
      check: schemasafe(withDiscriminators(schema, { typed: true }), schema, root, { includeErrors: true, allErrors: true }),
    },
  };
  if (name === "ag-ui") {
    const { EventSchemas } = await import("@ag-ui/core/schemas");
    const zod = (value) => EventSchemas.safeParse(value).success;
    // zod's schemas predate some of the seed's events: both are compared on the events both accept.
    const accepted = corpora.valid.filter((document) => zod(document));
    candidates["zod (@ag-ui/core)"] = { check: zod, corpus: { valid: accepted, invalid: corpora.invalid } };
    candidates[`is${root}, on the events zod accepts`] = { check: is, corpus: { valid: accepted, invalid: corpora.invalid } };
  }
  for (const [label, { check }] of Object.entries(candidates)) if (check === undefined) delete candidates[label];
  const accepted = {};
  for (const [label, { check, corpus }] of Object.entries(candidates))
    if (!label.startsWith("JSON.parse"))
      accepted[label] = ["valid", "invalid"]
        .map((kind) => `${(corpus?.[kind] ?? corpora[kind]).filter((document) => check(document)).length}`)
        .join(", ");
  const table = interleaved(candidates, corpora);
  const bytes = Math.round(texts.valid.join("").length / texts.valid.length);
  console.log(`\n${name}: ${root}, ${texts.valid.length} valid and ${texts.invalid.length} invalid documents, ${bytes} bytes on average\n`);
  const base = table["ajv tuned"];
  console.log("| | valid | invalid | valid vs ajv tuned | invalid vs ajv tuned | accepted (valid, invalid) |");
  console.log("| --- | --: | --: | --: | --: | --: |");
  for (const [label, row] of Object.entries(table))
    console.log(
      `| ${label} | ${rate(median(row.valid))} | ${rate(median(row.invalid))} | ${ratio(row.valid, base.valid).toFixed(2)}× | ${ratio(row.invalid, base.invalid).toFixed(2)}× | ${accepted[label] ?? "–"} |`,
    );
  const is_ = table[`is${root}`];
  const strict = table[`decode${root}, strict`];
  const tolerant = table[`decode${root}, tolerant`];
  const validates = table[`validate${root}, all errors`];
  // The rows; a goal's bar, where it has one (A2A's decoders are measured against ajv).
  const rows = [
    [`is${root} / ajv tuned`, ratio(is_.valid, base.valid), ratio(is_.invalid, base.invalid), 10],
    [
      `is${root} / schemasafe tuned`,
      ratio(is_.valid, table["schemasafe tuned"].valid),
      ratio(is_.invalid, table["schemasafe tuned"].invalid),
      3,
    ],
    [
      `is${root} / shallow ceiling`,
      ratio(is_.valid, table["shallow ceiling (the tag only)"].valid),
      ratio(is_.invalid, table["shallow ceiling (the tag only)"].invalid),
      [0.5, 0],
    ],
    [
      `validate${root} (all errors) / ajv tuned allErrors`,
      ratio(validates.valid, table["ajv tuned, allErrors"].valid),
      ratio(validates.invalid, table["ajv tuned, allErrors"].invalid),
      [0, 2],
    ],
    [
      `validate${root} (all errors) / schemasafe tuned allErrors`,
      ratio(validates.valid, table["schemasafe tuned, allErrors"]?.valid),
      ratio(validates.invalid, table["schemasafe tuned, allErrors"]?.invalid),
      undefined,
    ],
  ];
  for (const [mode, decoded] of [
    ["strict", strict],
    ["tolerant", tolerant],
  ]) {
    rows.push([
      `decode${root} (${mode}) / ajv tuned`,
      ratio(decoded.valid, base.valid),
      ratio(decoded.invalid, base.invalid),
      name === "a2a" ? 2 : undefined,
    ]);
    rows.push([
      `decode${root} (${mode}) / is${root}`,
      ratio(decoded.valid, is_.valid),
      ratio(decoded.invalid, is_.invalid),
      name === "a2a" ? undefined : [0.5, 0],
    ]);
    rows.push([
      `decode${root} (${mode}) / validate${root}`,
      ratio(decoded.valid, table[`validate${root}`].valid),
      ratio(decoded.invalid, table[`validate${root}`].invalid),
      name === "a2a" ? undefined : [0, 1],
    ]);
  }
  for (const [row, valid, invalid, bar] of rows) {
    if (Number.isNaN(valid)) {
      goalRows.push(`| ${name} | ${row} | – | – |`);
      continue;
    }
    const [validBar, invalidBar] = Array.isArray(bar) ? bar : [bar, bar];
    const verdict = (value, target) => (target === undefined || target === 0 ? "" : value >= target ? " (met)" : " (missed)");
    goalRows.push(
      `| ${name} | ${row} | ${valid.toFixed(2)}×${verdict(valid, validBar)} | ${invalid.toFixed(2)}×${verdict(invalid, invalidBar)} |`,
    );
  }
}

console.log(`\nThe issue's rows: medians over ${ROUNDS} interleaved rounds of the ratio in a round\n`);
console.log("| protocol | ratio | valid | invalid |\n| --- | --- | --: | --: |");
for (const row of goalRows) console.log(row);
