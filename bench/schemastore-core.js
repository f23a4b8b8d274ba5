// The SchemaStore harness's core (issue 22: every SchemaStore schema generates, and its
// guards agree with its tests), shared by the script bench/schemastore.js, which runs it on
// a whole catalog, and test/schemastore.test.ts, which runs it on the vendored sample
// test/fixtures/schemastore/. It is plain JavaScript over build/generator/, as the other benchmarks
// are, so that the script runs under node without a build step of its own; its types are
// in schemastore-core.d.ts beside it. It takes agentwire's functions as an argument: the
// script passes build/'s, the test generator/'s own sources, which build/ may lag behind.
//
// For each schema of a catalog (SchemaStore's layout: schemas/, test/<name>/,
// negative_test/<name>/, index.json, schema-validation.jsonc), it writes a one-protocol
// config into one scratch project, generates it in process, type-checks and compiles every
// output with the repository's tsc in a few batches, imports the compiled guards, and asks
// the root type's guard and ajv (configured as SchemaStore's CI configures it) about every
// test document.
import { spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { availableParallelism } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parse as parseJsonc } from "jsonc-parser";
import { CORE_SCHEMA, load as loadYaml } from "js-yaml";

export const REPO = path.resolve(import.meta.dirname, "..");
/** The vendored sample that npm test runs (its README says which schemas, and why). */
export const SAMPLE = path.join(REPO, "test/fixtures/schemastore");
const TSC = path.join(REPO, "node_modules/.bin/tsc");
const require = createRequire(import.meta.url);

/** Where SchemaStore publishes its schemas: both hosts are mapped to the catalog's schemas folder. */
export const SCHEMASTORE_BASES = ["https://json.schemastore.org/", "https://www.schemastore.org/"];
/** json-schema.org's metaschemas, which some schemas ref, vendored with the JSON-Schema-Test-Suite. */
const METASCHEMAS = path.join(REPO, "test/fixtures/json-schema-test-suite/metaschemas");
const METASCHEMA_BASES = ["http://json-schema.org/", "https://json-schema.org/"];

/** The dialect each `$schema` names, as SchemaStore's CI reads it. */
const DIALECTS = {
  "https://json-schema.org/draft/2020-12/schema": "2020-12",
  "https://json-schema.org/draft/2019-09/schema": "2019-09",
  "http://json-schema.org/draft-07/schema#": "draft-07",
  "http://json-schema.org/draft-06/schema#": "draft-06",
  "http://json-schema.org/draft-04/schema#": "draft-04",
};

/** The keywords SchemaStore's CI adds to every ajv instance, beside a schema's own unknownKeywords. */
const CI_KEYWORDS = [
  "allowTrailingCommas",
  "defaultSnippets",
  "markdownDescription",
  "enumDescriptions",
  "markdownEnumDescriptions",
  "x-taplo",
  "x-taplo-info",
  "x-tombi-toml-version",
  "x-tombi-array-values-order",
  "x-tombi-array-values-order-by",
  "x-tombi-table-keys-order",
  "x-tombi-string-formats",
  "x-tombi-additional-key-label",
  "x-intellij-language-injection",
  "x-intellij-html-description",
  "x-intellij-enum-metadata",
];

/** The refusal categories, in the order the summary prints them; the first whose pattern matches an error's first line wins. */
export const CATEGORIES = [
  ["points to nothing", /points to nothing|points to a file that does not exist/],
  ["points to the network", /points to the network/],
  ["collides", /would name both|would both be named/],
  ["leads back to itself", /leads back to itself/],
  ["composed of itself", /is composed of itself/],
  ["malformed keyword", /must be a schema|must be an? |is not a valid|invalid pattern/],
];

/** The category of a refusal, by its first line. */
export function categorize(firstLine) {
  for (const [category, pattern] of CATEGORIES) if (pattern.test(firstLine)) return category;
  return "other";
}

const has = (name) => {
  try {
    require.resolve(name);
    return true;
  } catch {
    return false;
  }
};

/** The optional packages SchemaStore's CI uses and this repository may not have: what the run could use. */
export function optionalPackages() {
  return {
    "ajv-draft-04": has("ajv-draft-04"),
    "ajv-formats": has("ajv-formats"),
    "ajv-keywords": has("ajv-keywords"),
    "smol-toml": has("smol-toml"),
  };
}

/** The catalog: its schemas to run (index.json's tested, but SchemaStore's skiptest), with their test documents, and its CI lists. */
export function readCatalog(folder) {
  const index = JSON.parse(readFileSync(path.join(folder, "index.json"), "utf8"));
  const validation = parseJsonc(readFileSync(path.join(folder, "schema-validation.jsonc"), "utf8"));
  const skip = new Set(validation.skiptest ?? []);
  const refOnly = new Set(index.refOnly ?? []);
  const documents = (kind, base) => {
    const dir = path.join(folder, kind, base);
    return existsSync(dir)
      ? readdirSync(dir)
          .sort()
          .map((file) => `${kind}/${base}/${file}`)
      : [];
  };
  const schemas = index.tested
    .filter((file) => !skip.has(file) && !refOnly.has(file))
    .sort()
    .map((file) => {
      const base = file.replace(/\.json$/, "");
      return { file, positive: documents("test", base), negative: documents("negative_test", base) };
    });
  return {
    folder,
    commit: index.commit,
    schemas,
    skipped: index.tested.filter((file) => skip.has(file)).sort(),
    validation: {
      ajvNotStrictMode: new Set(validation.ajvNotStrictMode ?? []),
      options: validation.options ?? {},
    },
  };
}

/** A protocol name (`^[a-z][a-z0-9]*(-[a-z0-9]+)*$`) for a schema file, unique among those given so far. */
function protocolNamer() {
  const taken = new Set();
  return (file) => {
    let name = file
      .replace(/\.json$/, "")
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "");
    if (!/^[a-z]/.test(name)) name = `s-${name}`;
    let unique = name;
    for (let i = 2; taken.has(unique); i++) unique = `${name}-${i}`;
    taken.add(unique);
    return unique;
  };
}

/**
 * The scratch project every schema is generated in: the catalog's schemas copied to
 * `catalog/` (the protocol's schema and the remotes' folder), json-schema.org's
 * metaschemas to `metaschemas/`, and a package.json that makes the compiled output ESM.
 */
export function prepareProject(catalog, scratch) {
  cpSync(path.join(catalog.folder, "schemas"), path.join(scratch, "catalog"), { recursive: true });
  cpSync(METASCHEMAS, path.join(scratch, "metaschemas"), { recursive: true });
  writeFileSync(path.join(scratch, "package.json"), `${JSON.stringify({ type: "module", private: true })}\n`);
}

/**
 * The config of one schema's project, as a user would write it: the schema, read as ajv 8
 * with ajv-formats reads it (SchemaStore's verdicts are its CI's: keywords beside $ref and
 * draft 7's in older drafts applied, formats asserted), the schemas SchemaStore's CI adds
 * to ajv for it (`externalSchema`), the remotes, plain sources out.
 */
export function configOf(file, name, externals = []) {
  const externalSchemas = externals.map((external) => `catalog/${external}`);
  return {
    protocols: [
      {
        name,
        schema: `catalog/${file}`,
        ...(externalSchemas.length === 0 ? {} : { externalSchemas }),
        compatibleWith: "ajv",
        formats: "assert",
      },
    ],
    remotes: {
      ...Object.fromEntries(SCHEMASTORE_BASES.map((base) => [base, "catalog/"])),
      ...Object.fromEntries(METASCHEMA_BASES.map((base) => [base, "metaschemas/"])),
    },
    output: { folder: `out/${name}` },
  };
}

const firstLine = (error) => String(error?.message ?? error).split("\n")[0];

/**
 * Generates one schema in process: what it came to, its files written under out/<name>/.
 * With the external schemas the catalog has: a schema refused where one it lacks might
 * have answered is not run, as ajv is not.
 */
async function generateOne(agentwire, scratch, catalog, file, name) {
  const { generate, openProject } = agentwire;
  const externals = catalog.validation.options[file]?.externalSchema ?? [];
  const present = (external) => existsSync(path.join(catalog.folder, "schemas", external));
  const absent = externals.filter((external) => !present(external));
  const configPath = path.join(scratch, `${name}.config.json`);
  writeFileSync(configPath, `${JSON.stringify(configOf(file, name, externals.filter(present)), null, 2)}\n`);
  const started = performance.now();
  let generation;
  try {
    generation = await generate(openProject(configPath));
  } catch (error) {
    const ms = performance.now() - started;
    const line = firstLine(error);
    const refused = error?.name === "InputError" || error?.name === "InputErrorList" || typeof error?.location === "object";
    if (refused && absent.length > 0)
      return {
        status: "not run",
        ms,
        error: `an externalSchema is not in the catalog: ${absent.join(", ")}; ${line}`,
        category: "not run",
      };
    return { status: refused ? "refused" : "crashed", ms, error: line, category: refused ? categorize(line) : "crash" };
  }
  const ms = performance.now() - started;
  const out = path.join(scratch, "out", name);
  let generated = 0;
  let validate = 0;
  let runtime = 0;
  for (const output of generation.files) {
    const target = path.join(out, output.path);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, output.content);
    const bytes = Buffer.byteLength(output.content);
    if (output.path.startsWith(`${name}/`)) generated += bytes;
    else runtime += bytes;
    if (output.path === `${name}/validate.ts`) validate = bytes;
  }
  const input = generation.inputs.reduce((sum, input) => sum + statSync(input).size, 0);
  const effective = JSON.parse(readFileSync(path.join(out, name, "schema.json"), "utf8"));
  const ref = typeof effective.$ref === "string" ? /^#\/\$defs\/([^/]+)$/.exec(effective.$ref) : null;
  const root = ref ? ref[1].replaceAll("~1", "/").replaceAll("~0", "~") : undefined;
  return {
    status: "generated",
    ms,
    root,
    bytes: { input, generated, runtime, validate },
    inputs: generation.inputs.map((input) => path.relative(scratch, input)),
  };
}

function run(command, args, cwd) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("close", (code) => resolve({ code, output }));
  });
}

/** The consumer's options: those of the package agentwire generates (generated/tsconfig.json), strict. */
const COMPILER_OPTIONS = {
  target: "es2022",
  module: "nodenext",
  moduleResolution: "nodenext",
  lib: ["es2022"],
  types: [],
  strict: true,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  verbatimModuleSyntax: true,
  skipLibCheck: true,
  noEmitOnError: false,
  rootDir: ".",
  outDir: "js",
};

/**
 * Type-checks and compiles the outputs of the given protocols with the repository's tsc,
 * in batches run side by side: each protocol's errors counted by code (a file's path says
 * whose it is). The JavaScript is written even where there are errors, to js/out/<name>/.
 */
export async function compileOutputs(scratch, names, { batches = availableParallelism() } = {}) {
  const errors = new Map(names.map((name) => [name, {}]));
  const size = Math.max(1, Math.ceil(names.length / batches));
  const jobs = [];
  for (let i = 0; i < names.length; i += size) {
    const batch = names.slice(i, i + size);
    const tsconfig = `tsconfig.${jobs.length}.json`;
    writeFileSync(
      path.join(scratch, tsconfig),
      `${JSON.stringify({ compilerOptions: COMPILER_OPTIONS, include: batch.map((name) => `out/${name}/**/*.ts`) }, null, 2)}\n`,
    );
    jobs.push(run(TSC, ["-p", tsconfig, "--pretty", "false"], scratch));
  }
  const unattributed = [];
  for (const { output } of await Promise.all(jobs)) {
    for (const line of output.split("\n")) {
      const match = /^out\/([^/]+)\/.*?: error (TS\d+):/.exec(line) ?? /^(?:.*?): error (TS\d+):/.exec(line);
      if (match === null) continue;
      const counts = match.length === 3 ? errors.get(match[1]) : undefined;
      if (counts === undefined) {
        unattributed.push(line);
        continue;
      }
      counts[match[2]] = (counts[match[2]] ?? 0) + 1;
    }
  }
  return { errors, unattributed };
}

/** Reads a test document: JSON, YAML (the YAML 1.2 core schema, as SchemaStore's `yaml` reads it) or TOML (smol-toml, when installed). */
async function readDocument(file) {
  // A byte order mark at a line's start is none of the text, as SchemaStore's `yaml` reads it (js-yaml keeps one after a comment).
  const text = readFileSync(file, "utf8").replace(/^\uFEFF/gm, "");
  if (file.endsWith(".json")) return { value: JSON.parse(text) };
  // An empty document (or one of comments only) is null, as SchemaStore's `yaml` reads it; js-yaml refuses it.
  if (file.endsWith(".yaml") || file.endsWith(".yml"))
    return { value: text.split("\n").every((line) => /^\s*(#.*)?$/.test(line)) ? null : loadYaml(text, { schema: CORE_SCHEMA }) };
  if (file.endsWith(".toml")) {
    if (!has("smol-toml")) return { skipped: "TOML (no TOML parser installed)" };
    const toml = await import("smol-toml");
    return { value: toml.parse(text) };
  }
  return { skipped: `unknown extension ${path.extname(file)}` };
}

/** An ajv instance for a dialect, as SchemaStore's CI's ajvFactory makes it, but for the packages this repository lacks (see `optionalPackages`). */
async function ajvFor(dialect, { strict, unknownFormats, unknownKeywords }, packages) {
  const formats = packages["ajv-formats"];
  const options = {
    ...(strict ? { strict: true } : { strictTypes: false, strictTuples: false, allowMatchingProperties: true }),
    // Without ajv-formats, formats are not asserted: strict mode would refuse every one otherwise.
    ...(formats ? {} : { validateFormats: false }),
  };
  let ajv;
  if (dialect === "draft-04") {
    if (!packages["ajv-draft-04"]) return { unavailable: "draft-04 needs ajv-draft-04, not installed" };
    ajv = new (await import("ajv-draft-04")).default(options);
  } else if (dialect === "2019-09") ajv = new (await import("ajv/dist/2019.js")).default(options);
  else if (dialect === "2020-12") ajv = new (await import("ajv/dist/2020.js")).default(options);
  else {
    ajv = new (await import("ajv")).default(options);
    if (dialect === "draft-06") ajv.addMetaSchema(require("ajv/dist/refs/json-schema-draft-06.json"));
  }
  if (formats) (await import("ajv-formats")).default(ajv);
  if (packages["ajv-keywords"]) (await import("ajv-keywords")).default(ajv, "uniqueItemProperties");
  else ajv.addKeyword("uniqueItemProperties");
  for (const format of unknownFormats) ajv.addFormat(format, true);
  for (const keyword of [...unknownKeywords, ...CI_KEYWORDS]) ajv.addKeyword(keyword);
  return { ajv };
}

/** ajv's compilation of a schema, as SchemaStore's CI does it: its validate function, or why there is none, and the time. */
async function compileWithAjv(catalog, file, schema, packages) {
  const dialect = DIALECTS[schema?.$schema] ?? "draft-07";
  const options = catalog.validation.options[file] ?? {};
  const made = await ajvFor(
    dialect,
    {
      strict: !catalog.validation.ajvNotStrictMode.has(file),
      unknownFormats: options.unknownFormat ?? [],
      unknownKeywords: options.unknownKeywords ?? [],
    },
    packages,
  );
  if (made.unavailable) return { dialect, unavailable: made.unavailable };
  const absent = (options.externalSchema ?? []).filter((external) => !existsSync(path.join(catalog.folder, "schemas", external)));
  if (absent.length > 0) return { dialect, unavailable: "an externalSchema is not in the catalog" };
  const started = performance.now();
  try {
    for (const external of options.externalSchema ?? [])
      made.ajv.addSchema(JSON.parse(readFileSync(path.join(catalog.folder, "schemas", external), "utf8")));
    const validate = made.ajv.compile(schema);
    return { dialect, ms: performance.now() - started, validate };
  } catch (error) {
    return { dialect, ms: performance.now() - started, error: firstLine(error) };
  }
}

const verdict = (fn, value) => {
  try {
    return fn(value) ? "valid" : "invalid";
  } catch (error) {
    return `threw: ${firstLine(error)}`;
  }
};

/**
 * Runs the harness on a catalog in a scratch folder (empty, its own): every schema
 * generated, type-checked and compiled, and its test documents asked of its guard, its
 * validator and its strict decoder, and of ajv. `agentwire` is { generate (pipeline.js),
 * openProject (load/index.js), guardName, validatorName and decoderName (name/rules.js) }.
 * `only` restricts it to the given schema files; `log` hears of progress. Given
 * `importTypeScript` (vitest's `import`, which transforms TypeScript), the functions are
 * imported from the generated sources instead, and nothing is type-checked: `tsErrors` is
 * null.
 */
export async function runHarness({ agentwire, catalog: folder, scratch, only, log = () => {}, importTypeScript, concurrency = 1 }) {
  const { guardName, validatorName, decoderName } = agentwire;
  const catalog = readCatalog(folder);
  const packages = optionalPackages();
  const schemas = only === undefined ? catalog.schemas : catalog.schemas.filter((entry) => only.includes(entry.file));
  prepareProject(catalog, scratch);
  const nameOf = protocolNamer();
  const started = performance.now();
  const names = schemas.map((entry) => nameOf(entry.file));
  const results = new Array(schemas.length);
  let done = 0;
  let next = 0;
  // `concurrency` schemas at a time (1 unless given, so that each one's time is its own):
  // a generation waits on its pattern checks' worker, which another's can fill.
  const worker = async () => {
    while (next < schemas.length) {
      const i = next++;
      const entry = schemas[i];
      const schemaText = readFileSync(path.join(catalog.folder, "schemas", entry.file), "utf8");
      const generated = await generateOne(agentwire, scratch, catalog, entry.file, names[i]);
      const ajv = await compileWithAjv(catalog, entry.file, JSON.parse(schemaText), packages);
      results[i] = { ...entry, name: names[i], schemaBytes: Buffer.byteLength(schemaText), generated, ajv };
      if (++done % 25 === 0 || done === schemas.length)
        log(`generated ${done}/${schemas.length} (${((performance.now() - started) / 1000).toFixed(1)} s)`);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const generatedNames = results.filter((result) => result.generated.status === "generated").map((result) => result.name);
  const compileStarted = performance.now();
  const compiled = importTypeScript === undefined ? await compileOutputs(scratch, generatedNames) : undefined;
  if (compiled !== undefined)
    log(`compiled ${generatedNames.length} outputs (${((performance.now() - compileStarted) / 1000).toFixed(1)} s)`);

  const schemaReports = [];
  for (const result of results) {
    const { generated, ajv } = result;
    const tsErrors = compiled === undefined ? null : (compiled.errors.get(result.name) ?? {});
    let guard;
    let validator;
    let decoder;
    let loadError;
    if (generated.status === "generated" && generated.root !== undefined) {
      try {
        const index =
          importTypeScript === undefined
            ? await import(pathToFileURL(path.join(scratch, "js/out", result.name, result.name, "index.js")).href)
            : // The guards and the validators' module, not the index: transformed, the builders and the rest cost time.
              {
                ...(await importTypeScript(path.join(scratch, "out", result.name, result.name, "guards.ts"))),
                ...(await importTypeScript(path.join(scratch, "out", result.name, result.name, "validate.ts"))),
              };
        const names = [guardName, validatorName, decoderName].map((name) => name(generated.root));
        [guard, validator, decoder] = names.map((name) => index[name]);
        const missing = names.filter((name) => typeof index[name] !== "function");
        if (missing.length > 0) loadError = `no ${missing.join(", ")} in index.js`;
      } catch (error) {
        loadError = `import failed: ${firstLine(error)}`;
      }
    }
    const documents = [];
    for (const [expected, files] of [
      ["valid", result.positive],
      ["invalid", result.negative],
    ]) {
      for (const file of files) {
        let read;
        try {
          read = await readDocument(path.join(catalog.folder, file));
        } catch (error) {
          documents.push({ file, expected, skipped: `unreadable: ${firstLine(error)}` });
          continue;
        }
        if (read.skipped !== undefined) {
          documents.push({ file, expected, skipped: read.skipped });
          continue;
        }
        documents.push({
          file,
          expected,
          ...(guard === undefined
            ? {}
            : {
                guard: verdict(guard, read.value),
                validator: verdict((value) => validator(value).ok, read.value),
                decoder: verdict((value) => decoder(value).ok, read.value),
              }),
          ...(ajv.validate === undefined ? {} : { ajv: verdict(ajv.validate, read.value) }),
        });
      }
    }
    schemaReports.push({
      file: result.file,
      name: result.name,
      dialect: ajv.dialect,
      schemaBytes: result.schemaBytes,
      status: generated.status,
      ms: round(generated.ms),
      ...(generated.status === "generated"
        ? {
            root: generated.root ?? null,
            bytes: generated.bytes,
            inputs: generated.inputs,
            tsErrors,
            ...(loadError === undefined ? {} : { loadError }),
          }
        : { error: generated.error, category: generated.category }),
      ajv: {
        ...(ajv.unavailable === undefined ? {} : { unavailable: ajv.unavailable }),
        ...(ajv.error === undefined ? {} : { error: ajv.error }),
        ...(ajv.ms === undefined ? {} : { ms: round(ajv.ms) }),
      },
      documents,
    });
  }
  return {
    catalog: folder,
    commit: catalog.commit,
    skiptest: catalog.skipped,
    packages,
    schemas: schemaReports,
    totals: totalsOf(schemaReports),
  };
}

const round = (ms) => Math.round(ms * 100) / 100;

/** The figures of a run, per category: what the summary prints and a before/after comparison reads. */
export function totalsOf(schemas) {
  const count = (list, key) => list.reduce((counts, item) => ({ ...counts, [key(item)]: (counts[key(item)] ?? 0) + 1 }), {});
  const generated = schemas.filter((schema) => schema.status === "generated");
  const documents = schemas.flatMap((schema) => schema.documents.map((document) => ({ schema: schema.file, ...document })));
  const asked = (document, by) => document[by] !== undefined;
  const tsCodes = {};
  for (const schema of generated) for (const [code, n] of Object.entries(schema.tsErrors ?? {})) tsCodes[code] = (tsCodes[code] ?? 0) + n;
  const input = generated.reduce((sum, schema) => sum + schema.bytes.input, 0);
  const output = generated.reduce((sum, schema) => sum + schema.bytes.generated, 0);
  const largest = generated.reduce(
    (best, schema) => (best === undefined || schema.bytes.validate > best.bytes.validate ? schema : best),
    undefined,
  );
  const both = schemas.filter((schema) => schema.status === "generated" && schema.ajv.ms !== undefined && schema.ajv.error === undefined);
  const sum = (list, ms) => round(list.reduce((total, schema) => total + ms(schema), 0));
  return {
    schemas: schemas.length,
    status: count(schemas, (schema) => schema.status),
    refused: count(
      schemas.filter((schema) => schema.status !== "generated"),
      (schema) => schema.category,
    ),
    noRoot: generated.filter((schema) => schema.root === null).map((schema) => schema.file),
    loadErrors: generated.filter((schema) => schema.loadError !== undefined).map((schema) => schema.file),
    typeCheck: {
      checked: generated.filter((schema) => schema.tsErrors !== null).length,
      failing: generated.filter((schema) => Object.keys(schema.tsErrors ?? {}).length > 0).length,
      errors: Object.values(tsCodes).reduce((a, b) => a + b, 0),
      byCode: Object.fromEntries(Object.entries(tsCodes).sort(([, a], [, b]) => b - a)),
    },
    documents: {
      total: documents.length,
      skipped: count(
        documents.filter((document) => document.skipped !== undefined),
        (document) => document.skipped,
      ),
      guardAsked: documents.filter((document) => asked(document, "guard")).length,
      guardWrong: documents.filter((document) => asked(document, "guard") && document.guard !== document.expected).length,
      ajvAsked: documents.filter((document) => asked(document, "ajv")).length,
      ajvWrong: documents.filter((document) => asked(document, "ajv") && document.ajv !== document.expected).length,
      validatorVsGuard: documents.filter((document) => asked(document, "guard") && document.validator !== document.guard).length,
      decoderVsGuard: documents.filter((document) => asked(document, "guard") && document.decoder !== document.guard).length,
      guardVsAjv: documents.filter((document) => asked(document, "guard") && asked(document, "ajv") && document.guard !== document.ajv)
        .length,
    },
    ajv: {
      compiled: schemas.filter((schema) => schema.ajv.ms !== undefined && schema.ajv.error === undefined).length,
      failed: schemas.filter((schema) => schema.ajv.error !== undefined).length,
      unavailable: count(
        schemas.filter((schema) => schema.ajv.unavailable !== undefined),
        (schema) => schema.ajv.unavailable,
      ),
    },
    size: {
      input,
      generated: output,
      ratio: input === 0 ? null : Math.round((output / input) * 100) / 100,
      largestValidate: largest === undefined ? null : { file: largest.file, bytes: largest.bytes.validate },
    },
    time: {
      agentwireAllMs: sum(schemas, (schema) => schema.ms),
      ajvAllMs: sum(
        schemas.filter((schema) => schema.ajv.ms !== undefined),
        (schema) => schema.ajv.ms,
      ),
      both: both.length,
      agentwireBothMs: sum(both, (schema) => schema.ms),
      ajvBothMs: sum(both, (schema) => schema.ajv.ms),
    },
  };
}

/** The documents where the guard, ajv and the expected verdict do not all agree. */
export function disagreements(report) {
  return report.schemas.flatMap((schema) =>
    schema.documents
      .filter((document) => document.skipped === undefined)
      .filter(
        (document) =>
          (document.guard !== undefined && document.guard !== document.expected) ||
          (document.ajv !== undefined && document.ajv !== document.expected),
      )
      .map((document) => ({ schema: schema.file, ...document })),
  );
}

/** The summary, in markdown: per-category counts and the figures issue 22 asks for. */
export function summary(report) {
  const { totals } = report;
  const lines = [];
  const table = (title, rows) => {
    lines.push("", `| ${title} | count |`, "| --- | ---: |");
    for (const [key, value] of rows) lines.push(`| ${key} | ${value} |`);
  };
  lines.push(`**SchemaStore harness** on ${report.catalog} (SchemaStore ${String(report.commit).slice(0, 7)})`);
  table("schemas", [
    ["run (tested, less refOnly and skiptest)", totals.schemas],
    ["skiptest", report.skiptest.length],
    ...Object.entries(totals.status).map(([status, n]) => [status, n]),
    ["generated without a root type", totals.noRoot.length],
    ["generated but the guards did not load", totals.loadErrors.length],
  ]);
  table(
    "refused, by category",
    CATEGORIES.map(([category]) => category)
      .concat(["other", "crash"])
      .map((category) => [category, totals.refused[category] ?? 0]),
  );
  const d = totals.documents;
  table("test documents", [
    ["total", d.total],
    ...Object.entries(d.skipped).map(([why, n]) => [`skipped: ${why}`, n]),
    ["asked of the guard", d.guardAsked],
    ["guard ≠ expected", d.guardWrong],
    ["asked of ajv", d.ajvAsked],
    ["ajv ≠ expected", d.ajvWrong],
    ["validator ≠ guard", d.validatorVsGuard],
    ["strict decoder ≠ guard", d.decoderVsGuard],
    ["guard ≠ ajv", d.guardVsAjv],
  ]);
  table("type-check (tsc, strict)", [
    ["packages with errors", `${totals.typeCheck.failing} of ${totals.typeCheck.checked}`],
    ["errors", totals.typeCheck.errors],
    ...Object.entries(totals.typeCheck.byCode).map(([code, n]) => [code, n]),
  ]);
  table("ajv (as SchemaStore's CI)", [
    ["compiled", totals.ajv.compiled],
    ["failed to compile", totals.ajv.failed],
    ...Object.entries(totals.ajv.unavailable).map(([why, n]) => [`not run: ${why}`, n]),
  ]);
  const largest = totals.size.largestValidate;
  table("size", [
    ["input bytes (schemas and what they ref)", totals.size.input],
    ["generated bytes (protocol folders)", totals.size.generated],
    ["ratio", totals.size.ratio],
    ["largest validate.ts", largest === null ? "-" : `${largest.file}: ${largest.bytes} bytes`],
  ]);
  const t = totals.time;
  table("time (ms)", [
    ["agentwire generate, every schema", t.agentwireAllMs],
    ["ajv compile, every schema it compiled", t.ajvAllMs],
    [`agentwire generate, the ${t.both} both compiled`, t.agentwireBothMs],
    [`ajv compile, the ${t.both} both compiled`, t.ajvBothMs],
  ]);
  const consequences = {
    "ajv-draft-04": "draft-04 schemas are not asked of ajv",
    "ajv-formats": "ajv asserts no format",
    "ajv-keywords": "uniqueItemProperties is an annotation",
    "smol-toml": "TOML documents are skipped",
  };
  const missing = Object.keys(consequences).filter((name) => !report.packages[name]);
  if (missing.length > 0)
    lines.push("", `Not installed, unlike in SchemaStore's CI: ${missing.map((name) => `${name} (so ${consequences[name]})`).join(", ")}.`);
  return lines.join("\n");
}
