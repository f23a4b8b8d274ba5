import { cpSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { writeGeneration } from "../../generator/api/write.js";
import { emitProtocol } from "../../generator/emit/index.js";
import type { EmittedFile } from "../../generator/emit/index.js";
import type { ProtocolEntry } from "../../generator/emit/package.js";
import { emitPackage } from "../../generator/emit/package.js";
import { InputError } from "../../generator/errors.js";
import { format } from "../../generator/format/index.js";
import type { JsonObject, JsonValue } from "../../generator/json.js";
import { isJsonObject } from "../../generator/json.js";
import { load } from "../../generator/load/index.js";
import { intermediate } from "../../generator/pipeline.js";
import { hasAssertions } from "../../generator/schema/vocabulary.js";
import type { TypeFunctions } from "../helpers/generated.js";
import { modulesOf } from "../helpers/generated.js";
import { CONFIG_FILE, configFor, makeProject } from "../helpers/project.js";

/** The vendored JSON-Schema-Test-Suite (see its README.md): read from here and nowhere else. */
export const SUITE = path.resolve(import.meta.dirname, "../fixtures/json-schema-test-suite");

export const DRAFTS = {
  "draft2020-12": { $schema: "https://json-schema.org/draft/2020-12/schema", container: "$defs" },
  draft7: { $schema: "http://json-schema.org/draft-07/schema#", container: "definitions" },
  draft4: { $schema: "http://json-schema.org/draft-04/schema#", container: "definitions" },
} as const;
export type Draft = keyof typeof DRAFTS;

/** A group of the suite: one schema and the documents it must accept or reject. */
export interface Group {
  /** "ref.json #3: relative pointer ref to object". */
  readonly id: string;
  readonly file: string;
  readonly description: string;
  readonly schema: JsonValue;
  readonly tests: readonly { readonly description: string; readonly data: JsonValue; readonly valid: boolean }[];
}

/** One answer of the generated code that is not the suite's. */
export interface WrongAnswer {
  /** "file: group description / test description". */
  readonly test: string;
  /** Which functions answered wrong, and how: "is: true, validate: true, decode: true (expected false)". */
  readonly answers: string;
}

export interface GroupResult {
  readonly group: Group;
  /** How the group's schema was handed to the generator (see `schemaFor`). */
  readonly wrapped: boolean;
  /** The generator refused it with an InputError: its message. */
  readonly refused?: string;
  /** Anything else that went wrong: a generator bug, a module that does not load, no root type. */
  readonly crashed?: string;
  readonly passed: number;
  readonly wrong: readonly WrongAnswer[];
}

export interface DraftResult {
  readonly draft: Draft;
  /** The vendored test files this run read, relative to SUITE. */
  readonly files: readonly string[];
  readonly groups: readonly GroupResult[];
}

/** The required test files of a draft: those directly in its folder, sorted. */
export function suiteFiles(draft: Draft): string[] {
  return readdirSync(path.join(SUITE, "tests", draft))
    .filter((file) => file.endsWith(".json"))
    .sort()
    .map((file) => `tests/${draft}/${file}`);
}

/** The optional format test files of a draft for the given formats, in their order. */
export function formatFiles(draft: Draft, formats: readonly string[]): string[] {
  return formats.map((format) => `tests/${draft}/optional/format/${format}.json`);
}

export function readGroups(draft: Draft, files: readonly string[] = suiteFiles(draft)): { files: string[]; groups: Group[] } {
  const groups = files.flatMap((file) => {
    const name = path.basename(file);
    const read = JSON.parse(readFileSync(path.join(SUITE, file), "utf8")) as Omit<Group, "id" | "file">[];
    return read.map((group, i): Group => ({ ...group, id: `${name} #${i}: ${group.description}`, file: name }));
  });
  return { files: [...files], groups };
}

/**
 * The schema file of a group. A schema is given as it is, so that `#`-relative refs keep
 * their meaning: the generator makes a root that constrains values a named type of its own
 * (resolve/canonical.ts, named by its title or the protocol's name), and a root that is only
 * a `$ref` another name for its target; either way the IR's `root` names it. Draft 7 groups
 * get draft 7's `$schema` when they have none. Only a root that the generator does not make
 * a type, a boolean schema or an object without assertions, is wrapped, as a `$ref` to a
 * definition holding it; its own definitions, if any, move up beside it, where their refs
 * (`#/$defs/…`) still find them.
 */
export function schemaFor(draft: Draft, schema: JsonValue): { schema: JsonValue; wrapped: boolean } {
  const { $schema, container } = DRAFTS[draft];
  if (isJsonObject(schema) && hasAssertions(schema)) return { schema: { $schema, ...schema }, wrapped: false };
  const definitions: JsonObject = {};
  let root: JsonValue = schema;
  if (isJsonObject(schema)) {
    const rest: Record<string, JsonValue> = {};
    for (const [key, value] of Object.entries(schema)) {
      if ((key === "$defs" || key === "definitions") && isJsonObject(value)) Object.assign(definitions, value);
      else if (key !== "$schema") rest[key] = value;
    }
    root = rest;
  }
  return { schema: { $schema, $ref: `#/${container}/SuiteRoot`, [container]: { ...definitions, SuiteRoot: root } }, wrapped: true };
}

const protocolName = (i: number) => `g${String(i).padStart(4, "0")}`;

/** Where the suite serves its remotes, and where the temporary project vendors them (relative to its config). */
export const REMOTES = { base: "http://localhost:1234/", folder: "schemas/remotes/" } as const;

/** Where json-schema.org publishes the drafts' metaschemas, which some groups ref (over http up to draft 7, https since), and where the project vendors them. */
export const METASCHEMAS = { bases: ["http://json-schema.org/", "https://json-schema.org/"], folder: "schemas/metaschemas/" } as const;

/**
 * Runs every group of a draft through agentwire in one batch: one temporary project with
 * a protocol per group, each generated on its own (a refusal of one does not stop the
 * others), the accepted ones written as one package and imported, and every test of an
 * accepted group asked of `is`, `validate` and strict `decode` of the group's root type.
 * The suite's remotes are vendored into the project, mapped from the URL the suite serves
 * them at, and so are the metaschemas of drafts 4 and 7 from json-schema.org's, so that
 * remote refs read them as any project's vendored remotes are read.
 */
export async function runDraft(draft: Draft, options: { files?: readonly string[]; formats?: "assert" } = {}): Promise<DraftResult> {
  const { files, groups } = readGroups(draft, options.files);
  const prepared = groups.map((group) => schemaFor(draft, group.schema));
  const root = makeProject({
    [CONFIG_FILE]: configFor(
      groups.map((_, i) => ({
        name: protocolName(i),
        schema: `schemas/${protocolName(i)}.schema.json`,
        ...(options.formats === undefined ? {} : { formats: options.formats }),
      })),
      { remotes: { [REMOTES.base]: REMOTES.folder, ...Object.fromEntries(METASCHEMAS.bases.map((base) => [base, METASCHEMAS.folder])) } },
    ),
    ...Object.fromEntries(prepared.map(({ schema }, i) => [`schemas/${protocolName(i)}.schema.json`, schema as object])),
  });
  cpSync(path.join(SUITE, "remotes"), path.join(root, REMOTES.folder), { recursive: true });
  cpSync(path.join(SUITE, "metaschemas"), path.join(root, METASCHEMAS.folder), { recursive: true });
  const project = load(root);

  const emitted: EmittedFile[] = [];
  const entries: ProtocolEntry[] = [];
  const outcome = new Map<string, { refused?: string; crashed?: string; type?: string }>();
  for (const protocol of project.protocols) {
    const name = protocol.config.name;
    try {
      const ir = intermediate(project, protocol);
      const files = emitProtocol(ir);
      if (ir.root === undefined) {
        outcome.set(name, { crashed: "the generator made no root type" });
        continue;
      }
      emitted.push(...files);
      entries.push({
        name,
        sources: [protocol.schema, ...protocol.overlays],
        types: ir.types.length,
        stream: false,
        formats: options.formats === "assert",
      });
      outcome.set(name, { type: ir.root });
    } catch (error) {
      if (error instanceof InputError) outcome.set(name, { refused: error.message });
      else outcome.set(name, { crashed: `${(error as Error).name}: ${(error as Error).message}` });
    }
  }
  writeGeneration(path.join(root, "generated"), format([...emitted, ...emitPackage(entries, project.templates, project.output)]));
  // Every accepted group's modules are asked for at once, not a group at a time: vitest
  // transforms one module while the worker runs another (a third off the hook's time).
  const loaded = new Map<string, Promise<Loaded>>();
  for (const [name, { type }] of outcome) if (type !== undefined) loaded.set(name, loadFunctions(root, name, type));

  const results: GroupResult[] = [];
  for (const [i, group] of groups.entries()) {
    const name = protocolName(i);
    const { refused, crashed } = outcome.get(name)!;
    const base = { group, wrapped: prepared[i]!.wrapped };
    if (refused !== undefined || crashed !== undefined) {
      results.push({
        ...base,
        ...(refused === undefined ? {} : { refused }),
        ...(crashed === undefined ? {} : { crashed }),
        passed: 0,
        wrong: [],
      });
      continue;
    }
    const functions = await loaded.get(name)!;
    if ("crashed" in functions) {
      results.push({ ...base, crashed: functions.crashed, passed: 0, wrong: [] });
      continue;
    }
    let passed = 0;
    const wrong: WrongAnswer[] = [];
    for (const test of group.tests) {
      const answers = {
        is: ask(() => functions.is(test.data)),
        validate: ask(() => functions.validate(test.data).ok),
        decode: ask(() => functions.decode(test.data, { mode: "strict" }).ok),
      };
      if (Object.values(answers).every((answer) => answer === test.valid)) passed++;
      else
        wrong.push({
          test: `${group.file}: ${group.description} / ${test.description}`,
          answers: `${Object.entries(answers)
            .map(([fn, answer]) => `${fn}: ${String(answer)}`)
            .join(", ")} (expected ${String(test.valid)})`,
        });
    }
    results.push({ ...base, passed, wrong });
  }
  return { draft, files, groups: results };
}

type Loaded = TypeFunctions | { readonly crashed: string };

/**
 * The functions of a group's root type, or why they cannot be loaded: never a rejected
 * promise, which would go unhandled while the groups before it are answered.
 */
async function loadFunctions(root: string, name: string, type: string): Promise<Loaded> {
  try {
    // The guards and the validators alone: what the suite asks, without the modules it does not.
    const [guards, validators] = (await Promise.all(
      ["guards.ts", "validate.ts"].map((module) => import(path.join(root, "generated/src", name, module))),
    )) as Record<string, unknown>[];
    return modulesOf({ ...guards, ...validators }, name).functions(type);
  } catch (error) {
    return { crashed: `cannot load the generated code: ${(error as Error).message}` };
  }
}

/** A function's answer, or what it threw. */
function ask(answer: () => boolean): boolean | string {
  try {
    return answer();
  } catch (error) {
    return `threw ${(error as Error).message}`;
  }
}

/** A draft's figures. */
export function figures({ groups }: DraftResult): {
  groups: number;
  refused: number;
  crashed: number;
  tests: number;
  passed: number;
  wrong: number;
} {
  const run = groups.filter((result) => result.refused === undefined && result.crashed === undefined);
  return {
    groups: groups.length,
    refused: groups.filter((result) => result.refused !== undefined).length,
    crashed: groups.filter((result) => result.crashed !== undefined).length,
    tests: run.reduce((sum, result) => sum + result.group.tests.length, 0),
    passed: run.reduce((sum, result) => sum + result.passed, 0),
    wrong: run.reduce((sum, result) => sum + result.wrong.length, 0),
  };
}

/** The figures of each draft as a Markdown table, for the README. */
export function summaryTable(results: readonly DraftResult[]): string {
  const rows = results.map((result) => {
    const f = figures(result);
    const all = result.groups.reduce((sum, group) => sum + group.group.tests.length, 0);
    return `| ${result.draft} | ${f.groups} | ${f.refused} | ${f.tests} of ${all} | ${f.passed} | ${f.wrong} |`;
  });
  return [
    "| draft | groups | refused | tests run | passed | wrong |",
    "| ----- | ------ | ------- | --------- | ------ | ----- |",
    ...rows,
  ].join("\n");
}

/**
 * The refusals of a draft by kind, most frequent first: the problem of each InputError
 * without its location (a group's schema or a remote it reads), quoted names and files
 * blanked except an unsupported keyword's own.
 */
export function refusalKinds({ groups }: DraftResult): [kind: string, count: number][] {
  const counts = new Map<string, number>();
  for (const { refused } of groups) {
    if (refused === undefined) continue;
    const problem = refused.split("\n")[0]!.replace(/^schemas\/\S+?\.json(#\S*)?: /, "");
    const kind = /^unsupported keyword "[^"]*"$/.test(problem)
      ? problem
      : problem.replace(/"[^"]*"/g, '"…"').replace(/schemas\/\S+?\.json\S*/g, "…");
    counts.set(kind, (counts.get(kind) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
}
