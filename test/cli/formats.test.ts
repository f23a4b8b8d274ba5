import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { run } from "../helpers/cli.js";
import { CONFIG_FILE, configFor, makeProject } from "../helpers/project.js";

/**
 * `"formats": "assert"` end to end: a config with it, `agentwire generate`, and the
 * generated guard, validator and strict decoder refusing a string not of its format.
 */

const schema = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  title: "Booking",
  type: "object",
  properties: {
    day: { type: "string", format: "date" },
    at: { format: "date-time" },
    code: { type: "string", format: "x-booking-code" },
  },
  required: ["day"],
  // A type of its own named Date, whose guard isDate is the formats module's name too.
  $defs: { Date: { type: "string" } },
};

async function generated(
  formats?: "assert" | "annotate",
): Promise<{ root: string; index: Record<string, (...args: unknown[]) => unknown> }> {
  const root = makeProject({
    [CONFIG_FILE]: configFor([{ name: "booking", schema: "schemas/booking.schema.json", ...(formats === undefined ? {} : { formats }) }]),
    "schemas/booking.schema.json": schema,
  });
  const { code, err } = await run(root, "generate");
  expect(err).toBe("");
  expect(code).toBe(0);
  return {
    root,
    index: (await import(path.join(root, "generated/src/booking/index.ts"))) as Record<string, (...args: unknown[]) => unknown>,
  };
}

describe('"formats": "assert"', () => {
  it("has the generated guard, validator and strict decoder refuse a string not of its format", async () => {
    const { root, index } = await generated("assert");
    const { isBooking, validateBooking, decodeBooking, isDate } = index as Record<string, (...args: unknown[]) => any>;
    expect(isBooking!({ day: "2026-02-28" })).toBe(true);
    expect(isBooking!({ day: "2026-02-30" })).toBe(false);
    expect(isBooking!({ day: "2024-02-29", at: "2024-02-29T23:59:60Z" })).toBe(true);
    expect(isBooking!({ day: "2024-02-29", at: "2024-02-29 12:00" })).toBe(false);
    // An unknown format stays an annotation; a format on a value that is no string checks nothing.
    expect(isBooking!({ day: "2024-02-29", code: "anything", at: 12 })).toBe(true);
    expect(validateBooking!({ day: "2026-02-30" })).toEqual({
      ok: false,
      errors: [{ path: "/day", keyword: "format", message: "must be a date" }],
    });
    expect(decodeBooking!({ day: "2026-02-30" }, { mode: "strict" }).ok).toBe(false);
    // The type named Date keeps its guard; the format test is imported under another name.
    expect(isDate!("2026-02-30")).toBe(true);
    expect(existsSync(path.join(root, "generated/src/formats.ts"))).toBe(true);
    expect(readFileSync(path.join(root, "generated/src/formats.ts"), "utf8")).toBe(
      readFileSync(path.join(import.meta.dirname, "../../templates/formats.ts"), "utf8"),
    );
  });

  it('is off by default and with "annotate": format is an annotation, and no formats module is written', async () => {
    for (const formats of [undefined, "annotate"] as const) {
      const { root, index } = await generated(formats);
      expect(index["isBooking"]!({ day: "2026-02-30", at: "noon" })).toBe(true);
      expect(existsSync(path.join(root, "generated/src/formats.ts"))).toBe(false);
    }
  });
});
