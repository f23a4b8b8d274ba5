import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Project, ts } from "ts-morph";
import { afterAll, describe, expect, it } from "vitest";
import { corpusDocuments, MISSING_REQUIRED } from "../helpers/corpus.js";
import { REPO } from "../helpers/project.js";
import { tsExamples } from "../helpers/readme.js";

const TSC = path.join(REPO, "node_modules/.bin/tsc");
const tsc = (project: string) => spawnSync(TSC, ["-p", project], { encoding: "utf8" });

const scratch = mkdtempSync(path.join(tmpdir(), "agentwire-types-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("generated types", () => {
  it("narrow, build valid values and refuse misuse (test/generated/*.types.ts, strict tsc)", () => {
    const result = tsc(path.join(import.meta.dirname, "tsconfig.json"));
    expect(result.stdout + result.stderr).toBe("");
    expect(result.status).toBe(0);
  });

  it("accept, as typed literals, every real document the effective schema accepts, and refuse those missing a required field", () => {
    const valid = corpusDocuments().filter((document) => document.valid);
    const files: string[] = [];
    const missing = corpusDocuments().filter((document) => document.file in MISSING_REQUIRED);
    const refused = [
      `import type { ${[...new Set(missing.map((document) => document.definition))].sort().join(", ")} } from ${JSON.stringify(path.join(REPO, "generated/src/a2a/index.js"))};`,
      ...missing.map(
        (document, i) =>
          `// ${document.file}\n// @ts-expect-error leaves out ${MISSING_REQUIRED[document.file]!.join(", ")}\nexport const document${i}: ${document.definition} = ${JSON.stringify(document.document)};`,
      ),
    ].join("\n");
    writeFileSync(path.join(scratch, "a2a-missing-required.ts"), `${refused}\n`);
    files.push(path.join(scratch, "a2a-missing-required.ts"));
    for (const protocol of new Set(valid.map((document) => document.protocol))) {
      const documents = valid.filter((document) => document.protocol === protocol);
      const types = [...new Set(documents.map((document) => document.definition))].sort();
      const source = [
        `import type { ${types.join(", ")} } from ${JSON.stringify(path.join(REPO, "generated/src", protocol, "index.js"))};`,
        ...documents.map((document, i) => `// ${document.file}\nexport const document${i}: ${document.definition} = ${JSON.stringify(document.document)};`),
      ].join("\n");
      const file = path.join(scratch, `${protocol}.ts`);
      writeFileSync(file, `${source}\n`);
      files.push(file);
    }
    writeFileSync(
      path.join(scratch, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: { target: "es2022", module: "nodenext", types: [], strict: true, exactOptionalPropertyTypes: true, noUncheckedIndexedAccess: true, noEmit: true },
        files,
      }),
    );
    expect(valid.length).toBe(371);
    expect(missing.length).toBe(22);
    const result = tsc(path.join(scratch, "tsconfig.json"));
    expect(result.stdout + result.stderr).toBe("");
    expect(result.status).toBe(0);
  });

  it("compile the examples of the README and docs/ against the bindings, as a user's strict project would", () => {
    // The bindings need no Node types: the examples of agentwire's own API, a Node tool's, are compiled apart.
    const examples = tsExamples().filter(({ source }) => !usesTheApi(source));
    // The README's producer and consumer, and the pages' examples (bindings, streams, hardening).
    expect(examples.filter(({ file }) => file === "README.md").length).toBeGreaterThanOrEqual(2);
    expect(examples.length).toBeGreaterThanOrEqual(6);
    // As in a user's src/ beside the output folder src/protocols, an example imports
    // `./protocols/ag-ui/index.js`; or it imports the package form, `@agentwire/protocols/ag-ui`.
    const result = compileExamples("readme", examples, {
      types: [],
      resolveJsonModule: true,
      paths: {
        "@agentwire/protocols/*/schema.json": [path.join(REPO, "generated/src/*/schema.json")],
        "@agentwire/protocols/*/stream": [path.join(REPO, "generated/src/*/stream.ts")],
        "@agentwire/protocols/*": [path.join(REPO, "generated/src/*/index.ts")],
        // The engine docs/hardening.md plugs in with useRegExp, a devDependency here.
        "re2-wasm": [path.join(REPO, "node_modules/re2-wasm/build/src/re2.d.ts")],
      },
    }, (dir) => cpSync(path.join(REPO, "generated/src"), path.join(dir, "protocols"), { recursive: true }));
    expect(result.stdout + result.stderr).toBe("");
    expect(result.status).toBe(0);
  });

  it("compile the examples of agentwire's own API against the declarations of its build, with Node's types", () => {
    const examples = tsExamples().filter(({ source }) => usesTheApi(source));
    expect(examples.map(({ file }) => file)).toContain("docs/commands.md");
    const result = compileExamples("api", examples, {
      types: ["node"],
      typeRoots: [path.join(REPO, "node_modules/@types")],
      // Its declarations checked too: a user's project need not skip them.
      skipLibCheck: false,
      paths: { agentwire: [path.join(REPO, "build/generator/index.d.ts")] },
    });
    expect(result.stdout + result.stderr).toBe("");
    expect(result.status).toBe(0);
  });

  it("type the stream's TransformStreams by the consumer's own web streams: lib dom, Node's types, or neither (the fallback)", () => {
    // Against the package's declarations, checked too, as a user's project imports them.
    const paths = {
      "@agentwire/protocols/*/stream": [path.join(REPO, "generated/dist/*/stream.d.ts")],
      "@agentwire/protocols/*": [path.join(REPO, "generated/dist/*/index.d.ts")],
    };
    const imports = [
      'import { assembleStream, checkStream, decodeStream, verifyStream } from "@agentwire/protocols/ag-ui/stream";',
      'import type { Checked, Snapshot, StreamResult } from "@agentwire/protocols/ag-ui/stream";',
      'import type { Event } from "@agentwire/protocols/ag-ui";',
    ].join("\n");
    // What a consumer with web streams in its types writes: pipeThrough, for await, getReader, pipeTo.
    const piped = (body: string) => `${imports}
export async function piped(body: ${body}): Promise<number> {
  let count = 0;
  for await (const result of body.pipeThrough(decodeStream({ mode: "tolerant" }))) if (result.ok) count += result.value.type.length;
  const reader = body.pipeThrough(decodeStream()).pipeThrough(verifyStream()).getReader();
  const next = await reader.read();
  if (!next.done) {
    const item: Checked<Event> = next.value;
    if ("rule" in item) count += item.index;
    else if (item.ok) count += item.value.type.length;
  }
  const assembly = assembleStream();
  const results: ReadableStream<StreamResult<Event>> = body.pipeThrough(decodeStream());
  await results.pipeThrough(verifyStream()).pipeThrough(assembly).pipeTo(new WritableStream<Checked<Event>>());
  const snapshot: Snapshot = assembly.snapshot();
  const checked: ReadableStream<Checked<Event>> = body.pipeThrough(checkStream({ verify: { maxMemory: 1024 } }), { signal: AbortSignal.timeout(1000) });
  // @ts-expect-error results are not strings
  const strings: ReadableStream<string> = body.pipeThrough(decodeStream());
  // @ts-expect-error bytes do not go into the verifier
  body.pipeThrough(verifyStream());
  void strings;
  void checked;
  return count + snapshot.messages.length;
}
`;
    const dom = compileExamples("streams-dom", [{ file: "lib dom", source: piped("ReadableStream<Uint8Array<ArrayBuffer>>") + "export const fromFetch = (response: Response) => piped(response.body!);\n" }], {
      lib: ["es2022", "dom"],
      types: [],
      skipLibCheck: false,
      paths,
    });
    expect(dom.stdout + dom.stderr).toBe("");
    expect(dom.status).toBe(0);
    const node = compileExamples(
      "streams-node",
      [{ file: "@types/node", source: piped("ReadableStream<Uint8Array>") + 'import { Readable } from "node:stream";\nexport const fromNode = (stream: Readable) => piped(Readable.toWeb(stream) as ReadableStream<Uint8Array>);\n' }],
      { lib: ["es2022"], types: ["node"], typeRoots: [path.join(REPO, "node_modules/@types")], skipLibCheck: false, paths },
    );
    expect(node.stdout + node.stderr).toBe("");
    expect(node.status).toBe(0);
    // Neither: the package's own lib. The sides are the fallback's shapes, still typed by element.
    const bare = compileExamples(
      "streams-bare",
      [
        {
          file: "lib es2022",
          source: `${imports}
export async function bare(chunk: Uint8Array): Promise<string> {
  const { readable, writable } = decodeStream();
  const writing = writable.getWriter().write(chunk);
  const next = await readable.getReader().read();
  await writing;
  const result: StreamResult<Event> | undefined = next.value;
  // @ts-expect-error a result is not a string
  const wrong: string | undefined = next.value;
  void wrong;
  return result?.ok === true ? result.value.type : "";
}
`,
        },
      ],
      { lib: ["es2022"], types: [], skipLibCheck: false, paths },
    );
    expect(bare.stdout + bare.stderr).toBe("");
    expect(bare.status).toBe(0);
    // And by the TypeScript that ts-morph bundles (6.x, the compiler API), as a consumer a major version behind compiles them:
    // the declarations checked whole once, in the fallback; with lib dom and Node's types, their use (checking those libs
    // again costs 5 s, and the pinned tsc above has checked them with the declarations).
    for (const name of ["streams-bare", "streams-dom", "streams-node"]) {
      const project = new Project({ tsConfigFilePath: path.join(scratch, name, "tsconfig.json"), compilerOptions: { skipLibCheck: name !== "streams-bare" } });
      expect(project.formatDiagnosticsWithColorAndContext(project.getPreEmitDiagnostics()), `${name}, TypeScript ${ts.version}`).toBe("");
    }
  });

  /** Compiles examples, a file each, in an ESM project (as the bindings are ESM only) of strict options and these. */
  function compileExamples(
    name: string,
    examples: readonly { readonly file: string; readonly source: string }[],
    options: Record<string, unknown>,
    prepare: (dir: string) => void = () => {},
  ) {
    const dir = path.join(scratch, name);
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, "package.json"), '{ "type": "module" }\n');
    prepare(dir);
    const files = examples.map(({ file, source }, i) => {
      const example = path.join(dir, `example${i + 1}.ts`);
      writeFileSync(example, `// ${file}\n${source}`);
      return example;
    });
    const compilerOptions = {
      target: "es2022",
      module: "nodenext",
      strict: true,
      exactOptionalPropertyTypes: true,
      noUncheckedIndexedAccess: true,
      noEmit: true,
      ...options,
    };
    writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions, files }));
    return tsc(path.join(dir, "tsconfig.json"));
  }
});

/** Whether an example imports agentwire itself rather than the bindings. */
const usesTheApi = (source: string) => /from "agentwire"/.test(source);
