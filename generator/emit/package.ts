import type { JsonObject } from "../json.js";
import type { Templates } from "../load/index.js";
import type { EmittedFile } from "./index.js";
import { concat, hardline } from "./printer/code.js";
import { jsonCode } from "./printer/json.js";

/** What the package's manifest and README say of each protocol. */
export interface ProtocolEntry {
  readonly name: string;
  readonly schemaFile: string;
  readonly types: number;
}

/**
 * The package's own files, from `templates/`: its manifest with a subpath export per
 * protocol (ESM with types, and the effective schema), its build config and its README.
 */
export function emitPackage(protocols: readonly ProtocolEntry[], templates: Templates): EmittedFile[] {
  const exports: Record<string, JsonObject | string> = {};
  for (const { name } of protocols) {
    exports[`./${name}`] = { types: `./dist/${name}/index.d.ts`, default: `./dist/${name}/index.js` };
    exports[`./${name}/schema.json`] = `./src/${name}/schema.json`;
  }
  exports["./package.json"] = "./package.json";
  const manifest = { ...templates.manifest, exports };
  const list = protocols
    .map(({ name, schemaFile, types }) => `- \`@agentwire/protocols/${name}\`: ${types} types, from \`${schemaFile}\``)
    .join("\n");
  return [
    { path: "package.json", code: concat(jsonCode(manifest), hardline) },
    { path: "tsconfig.json", code: concat(jsonCode(templates.tsconfig), hardline) },
    { path: "README.md", text: templates.readme.replace("{{protocols}}", list) },
    { path: "src/runtime.ts", text: templates.runtime },
  ];
}
