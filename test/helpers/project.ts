import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll } from "vitest";

export const REPO = path.resolve(import.meta.dirname, "../..");

const made: string[] = [];
afterAll(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/**
 * A throwaway project: the repository's templates plus the given files (paths relative
 * to the project root; objects are written as JSON). Removed after the test file.
 */
export function makeProject(files: Readonly<Record<string, string | object>>, options: { withRepoSchemas?: boolean } = {}): string {
  const root = mkdtempSync(path.join(tmpdir(), "agentwire-test-"));
  made.push(root);
  cpSync(path.join(REPO, "templates"), path.join(root, "templates"), { recursive: true });
  if (options.withRepoSchemas) cpSync(path.join(REPO, "schemas"), path.join(root, "schemas"), { recursive: true });
  for (const [file, content] of Object.entries(files)) {
    const target = path.join(root, file);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, typeof content === "string" ? content : `${JSON.stringify(content, null, 2)}\n`);
  }
  return root;
}

/** A project with one protocol "demo" whose schema is the given document. */
export function demoProject(schema: string | object, extra: Readonly<Record<string, string | object>> = {}): string {
  return makeProject({
    "schemas/protocols.json": { protocols: [{ name: "demo", schema: "demo.schema.json" }] },
    "schemas/demo.schema.json": schema,
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
