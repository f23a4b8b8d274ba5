import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Node, Project } from "ts-morph";
import { afterAll, describe, expect, it } from "vitest";
import type { Template } from "../../generator/emit/templates.js";
import { DECODE, FORMATS, RUNTIME, STANDARD, STREAM, UNIONS } from "../../generator/emit/templates.js";
import { SHARED_EXPORTS } from "../../generator/resolve/naming.js";
import { REPO } from "../helpers/project.js";

const TEMPLATES: readonly Template<string, string>[] = [RUNTIME, DECODE, UNIONS, STANDARD, FORMATS, ...Object.values(STREAM)];

/** The template a protocol's module imports from `template.path`: `../stream/read.js` is `templates/stream/read.ts`. */
const sourceOf = (template: Template<string, string>) =>
  path.join(REPO, "templates", template.path.replace(/^\.\.\//, "").replace(/\.js$/, ".ts"));

const scratch = mkdtempSync(path.join(tmpdir(), "agentwire-templates-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("the templates as the generated code imports them", () => {
  it("name only types each template exports, and no value: those its own exports type", () => {
    const project = new Project({ compilerOptions: { noEmit: true }, skipAddingFilesFromTsConfig: true });
    const misnamed = (template: Template<string, string>) => {
      const exported = project.addSourceFileAtPath(sourceOf(template)).getExportedDeclarations();
      const isType = (node: Node) => Node.isInterfaceDeclaration(node) || Node.isTypeAliasDeclaration(node);
      return template.types.filter((name) => !(exported.get(name) ?? []).some(isType)).map((name) => `${template.path} ${name}`);
    };
    expect(TEMPLATES.flatMap(misnamed)).toEqual([]);
    // The types every protocol's index re-exports from the shared modules.
    expect(Object.entries(SHARED_EXPORTS).flatMap(([module, { types }]) => misnamed({ path: `../${module}.js`, types }))).toEqual([]);
    expect(misnamed({ path: RUNTIME.path, types: ["ValidationResult", "validated", "ValidationResults"] })).toEqual([
      "../runtime.js validated",
      "../runtime.js ValidationResults",
    ]);
  });

  it("do not compile with a name the template does not export, nor a type imported as a value", () => {
    const lines = [
      `import { GeneratedFile } from ${JSON.stringify(path.join(REPO, "generator/emit/file.js"))};`,
      `import { RUNTIME, STREAM } from ${JSON.stringify(path.join(REPO, "generator/emit/templates.js"))};`,
      `const f = new GeneratedFile("types.ts", []);`,
      `f.import("validated", RUNTIME);`,
      `f.import("ValidationResult", RUNTIME, { typeOnly: true });`,
      `f.import("Errors", RUNTIME, { typeOnly: true });`,
      `f.import("Task", "./types.js", { typeOnly: true });`,
      `f.import("validatd", RUNTIME);`,
      `f.import("ValidatoinResult", RUNTIME, { typeOnly: true });`,
      `f.import("ValidationResult", RUNTIME);`,
      `f.import("readEvent", STREAM.read);`,
    ];
    writeFileSync(path.join(scratch, "imports.mts"), lines.join("\n") + "\n");
    writeFileSync(
      path.join(scratch, "tsconfig.json"),
      JSON.stringify({
        extends: path.join(REPO, "tsconfig.json"),
        compilerOptions: { typeRoots: [path.join(REPO, "node_modules/@types")] },
        include: [],
        files: ["imports.mts"],
      }),
    );
    const result = spawnSync(path.join(REPO, "node_modules/.bin/tsc"), ["-p", path.join(scratch, "tsconfig.json")], { encoding: "utf8" });
    const failing = [...result.stdout.matchAll(/imports\.mts\((\d+),\d+\): error TS2769/g)].map((match) => Number(match[1]));
    expect(result.stdout.replaceAll(/^.*imports\.mts\(\d+,\d+\): error TS2769.*$\n?( .*\n?)*/gm, "")).toBe("");
    expect(failing).toEqual([8, 9, 10, 11]);
  });
});
