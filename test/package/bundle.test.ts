import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { build } from "vite";
import type { Rollup } from "vite";
import { describe, expect, it } from "vitest";
import { REPO } from "../helpers/project.js";

/**
 * What an app's bundle of the package holds, as a bundler (vite, with tree shaking) makes
 * it: importing types, guards, decoders, builders or match helpers pulls in no reader and
 * no patch library; importing the stream subpath does.
 */
async function bundle(source: string): Promise<string> {
  const dir = mkdtempSync(path.join(tmpdir(), "agentwire-bundle-"));
  const entry = path.join(dir, "entry.ts");
  writeFileSync(entry, source.replaceAll("@agentwire/protocols", path.join(REPO, "generated/src")));
  const output = (await build({
    root: dir,
    logLevel: "silent",
    configFile: false,
    build: { write: false, minify: false, lib: { entry, formats: ["es"], fileName: "app" }, rollupOptions: { external: [] } },
  })) as Rollup.RollupOutput[];
  return output.flatMap(({ output: chunks }) => chunks.map((chunk) => ("code" in chunk ? chunk.code : ""))).join("\n");
}

describe("an app's bundle", () => {
  it("of the guards, decoders, builders and match helpers holds no reader and no patch library", async () => {
    const code = await bundle(`
      export { isEvent, decodeEvent, createTextMessageContentEvent, matchEvent } from "@agentwire/protocols/ag-ui/index.ts";
      export { decodeStreamResponse } from "@agentwire/protocols/a2a/index.ts";
    `);
    expect(code).toContain("function isEvent(");
    expect(code).toContain("function matchEvent(");
    for (const absent of ["applyPatch", "rfc6902", "Framer", "readEvents", "function verifier", "function assembler"])
      expect(code, absent).not.toContain(absent);
    // Nor the Standard Schemas, their definitions or their shared module.
    for (const absent of ["~standard", "jsonSchemaOf", "standardResult", "draft-07"]) expect(code, absent).not.toContain(absent);
  }, 20_000);

  it("of a Standard Schema holds its validator and the definitions it reaches, not those of types it does not reach", async () => {
    const code = await bundle(`export { RunStartedEventSchema } from "@agentwire/protocols/ag-ui/index.ts";`);
    for (const present of [
      "~standard",
      "function validateRunStartedEvent(",
      "function jsonSchemaOf(",
      "definitionRunStartedEvent",
      "definitionBaseEvent",
    ])
      expect(code, present).toContain(present);
    for (const absent of ["function isTextMessageContentEvent(", "definitionTextMessageContentEvent", "definitionEvent "])
      expect(code, absent).not.toContain(absent);
  }, 20_000);

  it("of the stream subpath holds the reader, the verifier, the assembler and its patch library", async () => {
    const code = await bundle(`export { readStream, createVerifier, createAssembler } from "@agentwire/protocols/ag-ui/stream.ts";`);
    for (const present of [
      "Framer",
      "function readEvents",
      "EventReader",
      "function verifier",
      "function assembler",
      "function applyPatch",
    ])
      expect(code, present).toContain(present);
  }, 20_000);
});
