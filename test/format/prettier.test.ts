import path from "node:path";
import * as prettier from "prettier";
import { beforeAll, describe, expect, it } from "vitest";
import type { OutputFile } from "../../generator/format/index.js";
import { PRINT_OPTIONS } from "../../generator/format/index.js";
import { generate } from "../../generator/pipeline.js";
import { fixtureProject, REPO } from "../helpers/project.js";

const PARSERS: Readonly<Record<string, string>> = { ts: "typescript", json: "json", md: "markdown" };

describe("format", () => {
  let files: readonly OutputFile[] = [];
  beforeAll(async () => {
    files = (await generate(REPO)).files;
  });

  it("prints every generated file exactly as prettier formats it", async () => {
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const parser = PARSERS[file.path.split(".").at(-1)!]!;
      expect(await prettier.format(file.content, { ...PRINT_OPTIONS, parser }), file.path).toBe(file.content);
    }
  });

  it("prints the hostile fixture's files, escapes of invisible characters and all, as prettier formats them", async () => {
    const root = fixtureProject(path.join(REPO, "test/fixtures/hostile"));
    const hostile = (await generate(root)).files.filter((file) => file.path.startsWith("src/hostile/"));
    expect(hostile.length).toBeGreaterThan(4);
    for (const file of hostile) {
      const parser = PARSERS[file.path.split(".").at(-1)!]!;
      expect(await prettier.format(file.content, { ...PRINT_OPTIONS, parser }), file.path).toBe(file.content);
    }
  });

  it("ends every file with one newline and never with trailing spaces", () => {
    for (const file of files) {
      expect(file.content.endsWith("\n") && !file.content.endsWith("\n\n"), file.path).toBe(true);
      expect(file.content, file.path).not.toMatch(/[ \t]+$/m);
    }
  });
});
