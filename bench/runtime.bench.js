// Runtime benchmark: the generated guards and validators of each protocol's root type,
// side by side in one process with ajv (as is, and tuned the way a performance-minded
// user would: discriminator on, the `discriminator` keyword on every tagged oneOf), with
// @ag-ui/core's zod schemas for AG-UI, and with JSON.parse of the same bytes as the floor.
// Corpora: bench/corpora (made by test/bench/corpora.test.ts). Run with `npm run bench`.
import { readFileSync } from "node:fs";
import path from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { throughput } from "./throughput.js";

const REPO = path.resolve(import.meta.dirname, "..");
const ROOTS = { "ag-ui": "Event", a2a: "StreamResponse", "gtm-agent": "AgentStreamEvent", "app-server": "ServerNotification" };

/** Documents per second of `check` over the documents. */
function measure(check, documents) {
  return throughput(() => {
    for (const document of documents) check(document);
  }, documents.length);
}

/** The effective schema with `discriminator` on every oneOf whose members each require a different constant in one property. */
function withDiscriminators(schema) {
  const copy = structuredClone(schema);
  const definitions = copy.$defs;
  const target = (member) =>
    typeof member.$ref === "string" ? definitions[decodeURIComponent(member.$ref.slice("#/$defs/".length))] : member;
  const constantOf = (member, name) => {
    const resolved = target(member);
    const property = resolved?.properties?.[name];
    return resolved?.required?.includes(name) && property && "const" in property ? property.const : undefined;
  };
  for (const definition of Object.values(definitions)) {
    const members = definition.oneOf;
    if (!Array.isArray(members)) continue;
    const first = target(members[0]);
    const tag = Object.keys(first?.properties ?? {}).find((name) =>
      members.every((member) => typeof constantOf(member, name) === "string"),
    );
    if (tag !== undefined && new Set(members.map((member) => constantOf(member, tag))).size === members.length)
      definition.discriminator = { propertyName: tag };
  }
  return copy;
}

function ajv(schema, root, options) {
  const instance = new Ajv2020({ strict: false, validateFormats: false, ...options });
  instance.addSchema(schema, "effective");
  return instance.compile({ $ref: `effective#/$defs/${root}` });
}

const rate = (value) => (value >= 1e6 ? `${(value / 1e6).toFixed(2)}M/s` : `${(value / 1e3).toFixed(0)}k/s`);
const ratio = (value, base) => `${(value / base).toFixed(2)}×`;

const results = {};
for (const [name, root] of Object.entries(ROOTS)) {
  const lines = (kind) =>
    readFileSync(path.join(REPO, "bench/corpora", `${name}.${kind}.jsonl`), "utf8")
      .trim()
      .split("\n");
  const texts = { valid: lines("valid"), invalid: lines("invalid") };
  const corpora = { valid: texts.valid.map((line) => JSON.parse(line)), invalid: texts.invalid.map((line) => JSON.parse(line)) };
  const generated = await import(path.join(REPO, "generated/dist", name, "index.js"));
  const schema = JSON.parse(readFileSync(path.join(REPO, "generated/src", name, "schema.json"), "utf8"));
  const tuned = withDiscriminators(schema);
  const is = generated[`is${root}`];
  const validate = generated[`validate${root}`];
  const candidates = {
    "JSON.parse (the floor)": null,
    [`is${root}`]: is,
    [`validate${root}`]: (value) => validate(value).ok,
    ajv: ajv(schema, root, {}),
    "ajv, allErrors": ajv(schema, root, { allErrors: true }),
    "ajv tuned": ajv(tuned, root, { discriminator: true }),
    "ajv tuned, allErrors": ajv(tuned, root, { discriminator: true, allErrors: true }),
  };
  let zodSubset;
  if (name === "ag-ui") {
    const { EventSchemas } = await import("@ag-ui/core/schemas");
    const zod = (value) => EventSchemas.safeParse(value).success;
    candidates["zod (@ag-ui/core)"] = zod;
    // zod's schemas predate some of the seed's events: both are compared on the events both accept.
    zodSubset = corpora.valid.filter((document) => zod(document));
    candidates[`is${root}, on the events zod accepts`] = is;
  }
  const table = {};
  for (const [label, check] of Object.entries(candidates)) {
    const row = {};
    for (const kind of ["valid", "invalid"]) {
      let documents = corpora[kind];
      if ((label.startsWith("zod") || label.endsWith("zod accepts")) && kind === "valid") documents = zodSubset;
      if (check === null) {
        row[kind] = measure((text) => JSON.parse(text), texts[kind]);
        continue;
      }
      const verdicts = documents.filter((document) => check(document)).length;
      row[`${kind} accepted`] = `${verdicts}/${documents.length}`;
      row[kind] = measure(check, documents);
    }
    table[label] = row;
  }
  results[name] = table;
  const bytes = Math.round(texts.valid.join("").length / texts.valid.length);
  console.log(`\n${name}: ${root}, ${texts.valid.length} valid and ${texts.invalid.length} invalid documents, ${bytes} bytes on average\n`);
  const base = table["ajv tuned"];
  console.log("| | valid | invalid | valid vs tuned ajv | invalid vs tuned ajv | accepted (valid, invalid) |");
  console.log("| --- | --: | --: | --: | --: | --: |");
  for (const [label, row] of Object.entries(table))
    console.log(
      `| ${label} | ${rate(row.valid)} | ${rate(row.invalid)} | ${ratio(row.valid, base.valid)} | ${ratio(row.invalid, base.invalid)} | ${row["valid accepted"] ?? "–"}, ${row["invalid accepted"] ?? "–"} |`,
    );
}

const agUi = results["ag-ui"];
const goals = [
  ["isEvent ≥ 2× tuned ajv, valid", agUi.isEvent.valid / agUi["ajv tuned"].valid, 2],
  ["isEvent ≥ 2× tuned ajv, invalid", agUi.isEvent.invalid / agUi["ajv tuned"].invalid, 2],
  ["validateEvent ≥ tuned ajv with allErrors, invalid", agUi.validateEvent.invalid / agUi["ajv tuned, allErrors"].invalid, 1],
  [
    "isEvent ≥ 20× zod, valid, on the events both accept",
    agUi["isEvent, on the events zod accepts"].valid / agUi["zod (@ag-ui/core)"].valid,
    20,
  ],
  ["isEvent ≥ 4× JSON.parse (≤ 25% of its cost), valid", agUi.isEvent.valid / agUi["JSON.parse (the floor)"].valid, 4],
];
console.log("\nAG-UI goals\n\n| goal | measured | |\n| --- | --: | --- |");
for (const [goal, measured, target] of goals)
  console.log(`| ${goal} | ${measured.toFixed(2)}× | ${measured >= target ? "met" : "missed"} |`);
