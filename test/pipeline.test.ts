import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { Project, SyntaxKind } from "ts-morph";
import { describe, expect, it } from "vitest";
import { findDrift } from "../generator/api/check.js";
import { FORMATS_FOLDER } from "../generator/api/formats.js";
import { InputErrors } from "../generator/errors.js";
import { openProject } from "../generator/load/index.js";
import { generate } from "../generator/pipeline.js";
import { CONFIG_FILE, makeProject, protocolsProject, REPO } from "./helpers/project.js";

const readJson = (file: string) => JSON.parse(readFileSync(path.join(REPO, file), "utf8")) as Record<string, unknown>;
const keys = (value: unknown) => Object.keys(value as object);
const pascal = (text: string) =>
  text
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join("");

/**
 * The names DESIGN.md gives each protocol's types, read from the vendored schemas here,
 * independently of the generator: definition keys without spaces, a titled root, titled
 * inline schemas, and the app-server's method-named notifications.
 */
function designNames(): Record<string, string[]> {
  const agUi = readJson("schemas/ag-ui.schema.json");
  const gtm = readJson("schemas/gtm-agent.schema.json");
  const a2a = readJson("schemas/a2a.schema.json");
  const app = readJson("schemas/app-server.schema.json");
  const methods = (app["oneOf"] as { properties: { method: { const: string } } }[]).map(
    (member) => `${pascal(member.properties.method.const)}Notification`,
  );
  return {
    "ag-ui": keys(agUi["$defs"]),
    "gtm-agent": [gtm["title"] as string, ...keys(gtm["$defs"])],
    a2a: [...keys(a2a["definitions"]).map((key) => key.replaceAll(" ", "")), "TaskState", "Role"],
    "app-server": [app["title"] as string, ...keys(app["$defs"]), ...methods],
  };
}

/** The types every protocol's module re-exports from the shared runtime. */
const RUNTIME_TYPES = [
  "BuildOptions",
  "DecodeOptions",
  "DecodeResult",
  "Fields",
  "Member",
  "RegExpEngine",
  "RegExpLike",
  "ValidateOptions",
  "ValidationError",
  "ValidationResult",
];

/** The tagged and keyed unions of each protocol, which have match helpers and their handlers' interface. */
const UNIONS: Record<string, string[]> = {
  "ag-ui": [
    "Event",
    "RunFinishedOutcome",
    "SubagentFinishedOutcome",
    "Message",
    "InputContent",
    "InputContentSource",
    "JsonPatchOperation",
  ],
  "gtm-agent": ["AgentStreamEvent", "AgentArtifactPart", "AgentFileContent"],
  a2a: ["OAuthFlows", "Part", "SecurityScheme", "SendMessageResponse", "StreamResponse"],
  "app-server": ["ServerNotification"],
};

describe("pipeline", () => {
  it("exports every definition of the four schemas under its DESIGN.md name, its unions' handlers, and nothing else as a type", () => {
    const expected = designNames();
    expect(Object.fromEntries(Object.entries(expected).map(([name, types]) => [name, types.length]))).toEqual({
      "ag-ui": 82,
      "gtm-agent": 11,
      a2a: 51,
      "app-server": 33,
    });
    const project = new Project({ skipAddingFilesFromTsConfig: true, compilerOptions: { strict: true } });
    for (const [protocol, names] of Object.entries(expected)) {
      const index = project.addSourceFileAtPath(path.join(REPO, "generated/src", protocol, "index.ts"));
      project.resolveSourceFileDependencies();
      const types = [...index.getExportedDeclarations()]
        .filter(([, declarations]) =>
          declarations.some((node) => node.isKind(SyntaxKind.InterfaceDeclaration) || node.isKind(SyntaxKind.TypeAliasDeclaration)),
        )
        .map(([name]) => name)
        .filter((name) => !RUNTIME_TYPES.includes(name));
      const handlers = UNIONS[protocol]!.map((union) => `${union}Handlers`);
      expect(types.sort(), protocol).toEqual([...names, ...handlers].sort());
    }
  });

  it("gives the same bytes on every run, from any copy of the project", async () => {
    const first = await generate(REPO);
    const again = await generate(REPO);
    const copy = await generate(makeProject({}, { withRepoSchemas: true }));
    expect(again.files).toEqual(first.files);
    expect(copy.files).toEqual(first.files);
  });

  it("matches the committed generated/ byte for byte", async () => {
    const drift = findDrift(openProject(path.join(REPO, CONFIG_FILE)), (await generate(REPO)).files);
    expect(drift.patches.join("\n")).toBe("");
  });

  it("generates each protocol on its own: the errors of all that fail, in their order, and none of the others'", async () => {
    const root = protocolsProject({
      first: { $defs: { A: { minLength: -1 } } },
      fine: { type: "string" },
      last: { $ref: "#/$defs/Nope" },
    });
    const thrown = await generate(root).catch((error: unknown) => error);
    expect(thrown).toBeInstanceOf(InputErrors);
    expect((thrown as InputErrors).errors.map((error) => error.location)).toEqual([
      { file: "schemas/first.schema.json", pointer: "/$defs/A/minLength" },
      { file: "schemas/last.schema.json", pointer: "/$ref" },
    ]);
  });

  it("keeps every protocol's name and quirks out of generator/", () => {
    // Not generator/formats/: generated from the overlay's schema and templates/runtime.ts, whose words name protocols as examples.
    const generated = path.join(REPO, FORMATS_FOLDER);
    const sources = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
        entry.isDirectory()
          ? path.join(dir, entry.name) === generated
            ? []
            : sources(path.join(dir, entry.name))
          : entry.name.endsWith(".ts")
            ? [path.join(dir, entry.name)]
            : [],
      );
    const forbidden =
      /ag-?ui|a2a|gtm|app-?server|AgentCard|EventType|BaseEvent|TASK_STATE|ROLE_UNSPECIFIED|ServerNotification|thread\/started|task_id|Notification\b/i;
    const hits = sources(path.join(REPO, "generator")).flatMap((file) =>
      readFileSync(file, "utf8")
        .split("\n")
        .map((line, i) => `${path.relative(REPO, file)}:${i + 1}: ${line.trim()}`)
        .filter((line) => forbidden.test(line.slice(line.indexOf(": ") + 2))),
    );
    expect(hits).toEqual([]);
  });
});
