import { describe, expect, it } from "vitest";
import type { Keyword } from "../../bench/unevaluated.js";
import { unevaluatedSchema } from "../../bench/unevaluated.js";
import { emitProtocol } from "../../generator/emit/index.js";
import { format } from "../../generator/format/index.js";
import { namedIrOf } from "../helpers/in-memory.js";

/**
 * The unevaluated benchmark's schema (bench/unevaluated.js), an allOf of k anyOfs of 3
 * branches closed by unevaluatedProperties, unevaluatedItems or both: its IR and its
 * generated checks grow linearly with k (issue 24). Expanding the choices, or meeting the
 * anyOfs into one union of their product, grows them 3× or more per choice: past the bound
 * by k = 4.
 */
const KEYWORDS: readonly Keyword[] = ["properties", "items", "both"];

function sizes(k: number, keyword: Keyword): { ir: number; code: number } {
  const ir = namedIrOf(unevaluatedSchema(k, keyword));
  const code = format(emitProtocol(ir))
    .filter((file) => /\/(guards|validate|decode)\.ts$/.test(file.path))
    .reduce((sum, file) => sum + file.content.length, 0);
  return { ir: JSON.stringify(ir).length, code };
}

describe("bench: unevaluated keywords over an allOf of anyOfs", () => {
  it.each(KEYWORDS)("%s: the IR and the code at k = 8 are under 2·8 times those at k = 1", (keyword) => {
    const one = sizes(1, keyword);
    const eight = sizes(8, keyword);
    expect(eight.ir).toBeLessThan(2 * 8 * one.ir);
    expect(eight.code).toBeLessThan(2 * 8 * one.code);
    // Each choice adds about as much as the one before it.
    const seven = sizes(7, keyword);
    expect(eight.code - seven.code).toBeLessThan(2 * (seven.code - sizes(6, keyword).code) + 1);
  });
});
