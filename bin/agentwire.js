#!/usr/bin/env node
// The agentwire command. The generator is TypeScript, compiled to build/generator/ and bundled into build/bundle/ by
// `npm run build:generator`, which `npm run generate`, `npm test` and `npm pack` run.
import { main } from "../build/bundle/cli/main.js";

const code = await main(process.argv.slice(2), {
  cwd: process.cwd(),
  stdin: process.stdin,
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
});
process.exitCode = code;
