import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { JsonObject } from "../../generator/json.js";
import { irOf } from "../helpers/in-memory.js";

/**
 * Normalization end to end, one fixture per kind of shape: a schema (and overlay facts) in,
 * the IR out (each rule alone is pinned by rules.test.ts).
 * `UPDATE_FIXTURES=1 npx vitest run test/normalize` rewrites the expected IR, to review:
 * a fixture it rewrites fails, since that run compared it with nothing; the others are
 * compared as without it.
 */
const dir = path.join(import.meta.dirname, "fixtures");
const fixtures = readdirSync(dir)
  .filter((file) => file.endsWith(".json"))
  .map((file) => ({ file: path.join(dir, file), ...(JSON.parse(readFileSync(path.join(dir, file), "utf8")) as Fixture) }));

interface Fixture {
  rule: string;
  about: string;
  schema: JsonObject;
  overlay?: JsonObject[];
  ir: unknown;
}

describe("normalize: schema shapes to IR", () => {
  it.each(fixtures)("$rule", (fixture) => {
    const ir = irOf(fixture.schema, fixture.overlay);
    if (process.env["UPDATE_FIXTURES"] === "1") {
      const text = `${JSON.stringify({ ...fixture, file: undefined, ir }, null, 2)}\n`;
      if (readFileSync(fixture.file, "utf8") !== text) {
        writeFileSync(fixture.file, text);
        throw new Error(
          `rewrote ${path.basename(fixture.file)} with the IR it gives: review the change, then run again without UPDATE_FIXTURES`,
        );
      }
    }
    expect(ir).toEqual(fixture.ir);
  });
});
