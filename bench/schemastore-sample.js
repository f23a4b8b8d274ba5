// Makes the vendored sample test/fixtures/schemastore/ from a SchemaStore catalog:
// `node bench/schemastore-sample.js CATALOG [TARGET]`. The rule, fixed so that the sample
// is remade the same from the same catalog (test/fixtures/schemastore/README.md states it):
// among the schemas the harness runs (index.json's tested, less skiptest), a schema's size
// is its bytes, its test documents' and those of the files it refs, transitively, ties
// broken by name, and one over 100 kB is never chosen; then, each time from
// those not yet chosen, with at least one test document and of a family (the first word
// of the file's name: `enonic` of enonic-xp-webapp-8.0.0.json) none chosen is of,
//   1. per dialect ($schema: draft-04, draft-07, 2019-09, 2020-12, none), the 5 smallest
//      with both positive and negative documents, then, if fewer, with any (draft-06 has
//      no schema in the half);
//   2. the 5 smallest with a YAML document;
//   3. the 5 smallest that ref another file of the catalog, by a URL of SchemaStore's or a
//      relative path;
//   4. the 2 smallest with a TOML document;
//   5. given --report, a harness report on the same catalog (bench/schemastore.js --json):
//      the smallest refused in each category it found, the 2 smallest with a document the
//      guard answers wrong, and the smallest whose output has type errors, so that npm
//      test pins what fails as well as what passes.
// The files the chosen ones ref, transitively, and those their CI options name as
// externalSchema come along as refOnly. index.json,
// schema-validation.jsonc (its lists cut to the chosen) and the test documents are
// copied; LICENSE and README.md are not touched.
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { parse as parseJsonc } from "jsonc-parser";
import { readCatalog, SAMPLE, SCHEMASTORE_BASES } from "./schemastore-core.js";

const { values, positionals } = parseArgs({ allowPositionals: true, options: { report: { type: "string" } } });
const [catalogFolder, target = SAMPLE] = positionals;
if (catalogFolder === undefined) throw new Error("usage: node bench/schemastore-sample.js CATALOG [TARGET] [--report FILE]");
/** A harness report on the same catalog (bench/schemastore.js --json), for the steps that pick what fails. */
const report = values.report === undefined ? undefined : JSON.parse(readFileSync(values.report, "utf8"));
const reported = new Map((report?.schemas ?? []).map((schema) => [schema.file, schema]));
const catalog = readCatalog(path.resolve(catalogFolder));
const schemasFolder = path.join(catalog.folder, "schemas");
const read = (file) => JSON.parse(readFileSync(path.join(schemasFolder, file), "utf8"));
const bytes = (file) => statSync(path.join(catalog.folder, file)).size;

/** The catalog files a schema refs: by a SchemaStore URL, or relative to it. */
function refsOf(file) {
  const found = new Set();
  const visit = (value) => {
    if (Array.isArray(value)) value.forEach(visit);
    else if (value !== null && typeof value === "object")
      for (const [key, inner] of Object.entries(value)) {
        if (key === "$ref" && typeof inner === "string") {
          const address = inner.split("#")[0];
          const base = SCHEMASTORE_BASES.find((url) => address.startsWith(url));
          const name = base !== undefined ? address.slice(base.length) : /^[^:]+$/.test(address) ? path.basename(address) : "";
          if (name !== "" && name !== file && existsSync(path.join(schemasFolder, name))) found.add(name);
        } else visit(inner);
      }
  };
  visit(read(file));
  return [...found];
}

const DIALECTS = {
  "draft-04": "http://json-schema.org/draft-04/schema#",
  "draft-07": "http://json-schema.org/draft-07/schema#",
  "2019-09": "https://json-schema.org/draft/2019-09/schema",
  "2020-12": "https://json-schema.org/draft/2020-12/schema",
  none: undefined,
};
/** The files a schema refs, and those they ref. */
function refsClosure(file) {
  const found = new Set();
  const pending = [file];
  while (pending.length > 0)
    for (const ref of refsOf(pending.pop()))
      if (ref !== file && !found.has(ref)) {
        found.add(ref);
        pending.push(ref);
      }
  return [...found];
}

const LIMIT = 100_000;
const candidates = catalog.schemas
  .map((entry) => ({
    ...entry,
    size: [
      `schemas/${entry.file}`,
      ...entry.positive,
      ...entry.negative,
      ...refsClosure(entry.file).map((file) => `schemas/${file}`),
    ].reduce((sum, file) => sum + bytes(file), 0),
    $schema: read(entry.file).$schema,
    documents: [...entry.positive, ...entry.negative],
  }))
  .filter((entry) => entry.documents.length > 0 && entry.size <= LIMIT)
  .sort((a, b) => a.size - b.size || (a.file < b.file ? -1 : 1));

/** A schema's family, the first word of its name (`enonic-xp-webapp-8.0.0.json`: enonic): one of each is chosen, for variety. */
const family = (file) => file.split(/[-_.]/)[0].toLowerCase();
const chosen = new Map();
const choose = (why, count, test) => {
  for (const entry of candidates) {
    if (count === 0) return;
    if (chosen.has(entry.file) || [...chosen.keys()].some((file) => family(file) === family(entry.file)) || !test(entry)) continue;
    chosen.set(entry.file, why);
    count--;
  }
};
const chosenOf = (why) => [...chosen.values()].filter((reason) => reason === why).length;
for (const [dialect, url] of Object.entries(DIALECTS)) {
  const why = `dialect ${dialect}`;
  choose(why, 5, (entry) => entry.$schema === url && entry.positive.length > 0 && entry.negative.length > 0);
  choose(why, 5 - chosenOf(why), (entry) => entry.$schema === url);
}
choose("YAML documents", 5, (entry) => entry.documents.some((file) => /\.ya?ml$/.test(file)));
choose("refs another file", 5, (entry) => refsOf(entry.file).length > 0);
choose("TOML documents", 2, (entry) => entry.documents.some((file) => file.endsWith(".toml")));
if (report !== undefined) {
  const categories = [
    ...new Set([...reported.values()].map((schema) => schema.category).filter((category) => category !== undefined)),
  ].sort();
  for (const category of categories) choose(`refused: ${category}`, 1, (entry) => reported.get(entry.file)?.category === category);
  choose("a guard's wrong answer", 2, (entry) =>
    (reported.get(entry.file)?.documents ?? []).some((document) => document.guard !== undefined && document.guard !== document.expected),
  );
  choose("type errors", 1, (entry) => Object.keys(reported.get(entry.file)?.tsErrors ?? {}).length > 0);
}

const validation = parseJsonc(readFileSync(path.join(catalog.folder, "schema-validation.jsonc"), "utf8"));
/** What a schema's ajv needs beside it: the files it refs, and its CI options' externalSchema, where the catalog has them. */
const needs = (file) => [
  ...refsClosure(file),
  ...(validation.options[file]?.externalSchema ?? []).filter((external) => existsSync(path.join(schemasFolder, external))),
];
const refOnly = new Set([...chosen.keys()].flatMap(needs).filter((file) => !chosen.has(file)));

for (const folder of ["schemas", "test", "negative_test"]) rmSync(path.join(target, folder), { recursive: true, force: true });
const copy = (file) => {
  mkdirSync(path.dirname(path.join(target, file)), { recursive: true });
  copyFileSync(path.join(catalog.folder, file), path.join(target, file));
};
for (const file of [...chosen.keys(), ...refOnly]) copy(`schemas/${file}`);
for (const entry of candidates.filter((entry) => chosen.has(entry.file))) entry.documents.forEach(copy);

const tested = [...chosen.keys()].sort();
const index = JSON.parse(readFileSync(path.join(catalog.folder, "index.json"), "utf8"));
writeFileSync(
  path.join(target, "index.json"),
  `${JSON.stringify({ commit: index.commit, tested, refOnly: [...refOnly].sort(), why: Object.fromEntries([...chosen].sort()) }, null, 1)}\n`,
);
const kept = new Set([...tested, ...refOnly]);
writeFileSync(
  path.join(target, "schema-validation.jsonc"),
  `${JSON.stringify(
    {
      ajvNotStrictMode: validation.ajvNotStrictMode.filter((file) => kept.has(file)),
      skiptest: validation.skiptest.filter((file) => kept.has(file)),
      options: Object.fromEntries(Object.entries(validation.options).filter(([file]) => kept.has(file))),
    },
    null,
    1,
  )}\n`,
);
const size = (folder) =>
  readdirSync(folder, { withFileTypes: true }).reduce(
    (sum, entry) => sum + (entry.isDirectory() ? size(path.join(folder, entry.name)) : statSync(path.join(folder, entry.name)).size),
    0,
  );
console.log(`${tested.length} schemas, ${refOnly.size} refOnly, ${size(target)} bytes in ${target}`);
for (const [file, why] of [...chosen].sort()) console.log(`${file}: ${why}`);
