import { spawnSync } from "node:child_process";
import { copyFileSync, cpSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { writeGeneration } from "../../generator/api/write.js";
import { CONFIG_FILE } from "../../generator/files/project.js";
import { generate } from "../../generator/pipeline.js";
import { scratchFolder } from "./scratch.js";

export const REPO = path.resolve(import.meta.dirname, "../..");

export { CONFIG_FILE };

/** The output the tests' projects generate into, as this repository's does: the package folder generated/. */
export const PACKAGE_OUTPUT = { folder: "generated", package: { name: "@agentwire/protocols", version: "0.1.0" } } as const;

/**
 * A project's config, `agentwire.config.json`: the given protocols (their paths relative
 * to the project root, where the config is: "schemas/demo.schema.json"), the package
 * output `generated/`, and `extra` keys over those (remotes, another output).
 */
export function configFor(protocols: readonly object[], extra: Readonly<Record<string, unknown>> = {}): object {
  return { protocols, output: PACKAGE_OUTPUT, ...extra };
}

/**
 * A throwaway project: the given files (paths relative to the project root; objects are
 * written as JSON), and with `withRepoSchemas` this repository's config and schemas.
 * agentwire reads its templates from its own folder. Removed after the test file.
 */
export function makeProject(files: Readonly<Record<string, string | object>>, options: { withRepoSchemas?: boolean } = {}): string {
  const root = scratchFolder("agentwire-test-");
  if (options.withRepoSchemas) {
    cpSync(path.join(REPO, "schemas"), path.join(root, "schemas"), { recursive: true });
    copyFileSync(path.join(REPO, CONFIG_FILE), path.join(root, CONFIG_FILE));
  }
  for (const [file, content] of Object.entries(files)) {
    const target = path.join(root, file);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, typeof content === "string" ? content : `${JSON.stringify(content, null, 2)}\n`);
  }
  return root;
}

/** A copy of a fixture's project (test/fixtures/hostile…): its config and its schemas/. */
export function fixtureProject(fixture: string): string {
  const root = makeProject({});
  copyFileSync(path.join(fixture, CONFIG_FILE), path.join(root, CONFIG_FILE));
  cpSync(path.join(fixture, "schemas"), path.join(root, "schemas"), { recursive: true });
  return root;
}

/** A project with one protocol "demo" whose schema is the given document. */
export function demoProject(schema: string | object, extra: Readonly<Record<string, string | object>> = {}): string {
  return protocolsProject({ demo: schema }, extra);
}

/** A project with a protocol per entry, by name, whose schema is the entry's document. */
export function protocolsProject(
  schemas: Readonly<Record<string, string | object>>,
  extra: Readonly<Record<string, string | object>> = {},
): string {
  return makeProject({
    [CONFIG_FILE]: configFor(Object.keys(schemas).map((name) => ({ name, schema: `schemas/${name}.schema.json` }))),
    ...Object.fromEntries(Object.entries(schemas).map(([name, schema]) => [`schemas/${name}.schema.json`, schema])),
    ...extra,
  });
}

/**
 * A schema of closed events told apart by `type`, one per name ("Started" → type
 * "STARTED"): the versions of a spec that the CLI tests diff, update and check.
 */
export function eventsSchema(names: readonly string[]): object {
  const event = (type: string) => ({
    type: "object",
    properties: { type: { const: type }, id: { type: "string" } },
    required: ["type", "id"],
    additionalProperties: false,
  });
  return {
    title: "Event",
    oneOf: names.map((name) => ({ $ref: `#/$defs/${name}` })),
    $defs: Object.fromEntries(names.map((name) => [name, event(name.toUpperCase())])),
  };
}

/**
 * Generates a project into its `generated/`, with the repository's node_modules beside the
 * package so that it compiles and imports as the repository's own does.
 */
export async function generateInto(root: string): Promise<void> {
  writeGeneration(path.join(root, "generated"), (await generate(root)).files);
  symlinkSync(path.join(REPO, "node_modules"), path.join(root, "generated", "node_modules"));
}

/** A generated project of one protocol, `name`, whose schema is given: its root and the protocol's index module. */
export async function generatedProject(name: string, schema: object): Promise<{ root: string; index: Record<string, unknown> }> {
  const root = makeProject({
    [CONFIG_FILE]: configFor([{ name, schema: `schemas/${name}.schema.json` }]),
    [`schemas/${name}.schema.json`]: schema,
  });
  await generateInto(root);
  return { root, index: (await import(path.join(root, `generated/src/${name}/index.ts`))) as Record<string, unknown> };
}

/** What strict tsc says of a project's generated package ("" when it compiles), and its exit status. */
export function strictTsc(root: string): { output: string; status: number | null } {
  const result = spawnSync(path.join(REPO, "node_modules/.bin/tsc"), ["-p", path.join(root, "generated/tsconfig.json"), "--noEmit"], {
    encoding: "utf8",
  });
  return { output: result.stdout + result.stderr, status: result.status };
}
