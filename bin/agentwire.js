#!/usr/bin/env node
// The agentwire command. The generator is TypeScript, compiled to build/ by
// `npm run build:generator` (run by `npm ci` through the prepare script).
import { main } from "../build/cli/main.js";

const code = await main(process.argv.slice(2), {
  cwd: process.cwd(),
  stdin: process.stdin,
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
});
process.exitCode = code;
