import { describe, expect, it } from "vitest";
import { readStream } from "../../generated/src/ag-ui/stream.js";
import type { StreamResult } from "../../generated/src/stream/result.js";

/**
 * The limit of errors reaches the stream reader: `readStream(source, { maxErrors })`
 * decodes each event with it, and an event that fails everywhere is reported with the
 * first errors and `truncated`, as `decodeT` reports it (test/emit/limits.test.ts).
 */

/** One server-sent event of a text message event with `n` properties its closed type does not have. */
function wideEvent(n: number): string {
  const event: Record<string, unknown> = { type: "TEXT_MESSAGE_CONTENT", messageId: "m", delta: "hi" };
  for (let i = 0; i < n; i++) event[`unknown${i}`] = i;
  return `data: ${JSON.stringify(event)}\n\n`;
}

async function readAll(text: string, options?: { maxErrors?: number }): Promise<StreamResult<unknown>[]> {
  const results: StreamResult<unknown>[] = [];
  async function* source(): AsyncGenerator<string> {
    yield text;
  }
  for await (const result of readStream(source(), options)) results.push(result);
  return results;
}

describe("readStream: the limit of errors", () => {
  it("reports the first 100 errors of an event unless told, and says it stopped", async () => {
    const [result] = await readAll(wideEvent(1_000));
    expect(result).toMatchObject({ ok: false, unrecognized: false, truncated: true, index: 0 });
    expect(result!.ok === false && "errors" in result! ? result.errors.length : 0).toBe(100);
  });

  it("takes the limit as an option", async () => {
    const [few] = await readAll(wideEvent(1_000), { maxErrors: 3 });
    expect(few!.ok === false && "errors" in few! ? few.errors.length : 0).toBe(3);
    const [all] = await readAll(wideEvent(1_000), { maxErrors: Infinity });
    expect(all!.ok === false && "errors" in all! ? all.errors.length : 0).toBe(1_000);
    expect(all).not.toHaveProperty("truncated");
  });
});
