// The child of test/files/kill.test.ts: writes the changes it is given (JSON: a place and the
// changes, with their pins) in turn, through the built writer, until it is killed. It says
// "ready" once its modules are loaded, so that the kill falls among the writes.
import { readFileSync } from "node:fs";
import { writeOutput } from "../../build/generator/files/output.js";

const { place, changes } = JSON.parse(readFileSync(process.argv[2], "utf8"));
process.stdout.write("ready\n");
for (let i = 0; ; i++) writeOutput(place, changes[i % changes.length]);
