import { readFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import * as fastJsonPatch from "fast-json-patch";
import { applyPatch as rfc6902ApplyPatch } from "rfc6902";
import type { Operation as Rfc6902Operation } from "rfc6902";
import { describe, expect, it } from "vitest";
import { COPY_ALLOWANCE, copyValue } from "../../generated/src/stream/copy.js";
import { applyPatch } from "../../generated/src/stream/patch.js";
import type { Measures } from "../../generated/src/stream/copy.js";
import type { PatchRefusal } from "../../generated/src/stream/patch.js";
import { REPO } from "../helpers/project.js";

/**
 * The generated package's JSON Patch applier (templates/stream/patch.ts): the official test suite,
 * the pointer rules that keep a patch on the JSON value, the bound on what copies add, and
 * agreement with fast-json-patch and rfc6902 on documents and patches where they are right.
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** A document patched as the assembler patches one: the value at `holder.value`, brought in as an event brings it. */
function patch(doc: unknown, operations: unknown, measures: Measures = { brought: 0, copied: 0 }) {
  const holder: { [key: string]: unknown } = {};
  if (doc !== undefined) holder["value"] = copyValue(doc, measures);
  const refused = applyPatch(holder, "value", operations, measures);
  return { refused, value: holder["value"], holder };
}

// ---------------------------------------------------------------------------------------
// The suite

interface Record {
  comment?: string;
  doc?: unknown;
  patch?: unknown;
  expected?: unknown;
  error?: string;
  disabled?: boolean;
}

const FIXTURES = path.join(REPO, "test/fixtures/json-patch-tests");
const suite = (file: string): Record[] => JSON.parse(readFileSync(path.join(FIXTURES, file), "utf8")) as Record[];

describe.each(["tests.json", "spec_tests.json"])("json-patch-tests %s", (file) => {
  // A record of a comment only is a heading; "patch has two 'op' members" cannot be said in parsed JSON.
  const records = suite(file).filter((record) => "patch" in record && record.error !== "patch has two 'op' members");

  it("has the records the README says", () => {
    expect(records.length).toBe(file === "tests.json" ? 94 : 17);
  });

  it.each(records.map((record, i) => [`${i}: ${record.comment ?? record.error ?? JSON.stringify(record.patch)}`, record] as const))(
    "%s",
    (_, record) => {
      const before = JSON.stringify(record.doc);
      const { refused, value } = patch(record.doc, record.patch);
      if (record.error !== undefined) {
        expect(refused, record.error).toBeDefined();
        // Refused, it changed nothing.
        expect(JSON.stringify(value)).toBe(before);
      } else {
        expect(refused).toBeUndefined();
        if ("expected" in record) expect(value).toStrictEqual(record.expected);
      }
    },
  );
});

// ---------------------------------------------------------------------------------------
// Pointers name own members and indexes only

describe("a pointer names what the JSON value has: an own member of an object, an index of a list", () => {
  const refusedWith = (doc: unknown, operations: unknown[], reason: string | RegExp) => {
    const before = JSON.stringify(doc);
    const { refused, value } = patch(doc, operations);
    expect(refused?.reason).toMatch(reason);
    expect(JSON.stringify(value)).toBe(before);
    return refused;
  };

  it("a member named __proto__ is added as a member, defined as JSON.parse defines one: no prototype changes", () => {
    const { refused, value } = patch({}, [{ op: "add", path: "/__proto__", value: { isAdmin: true } }]);
    expect(refused).toBeUndefined();
    const state = value as { isAdmin?: unknown };
    expect(Object.getPrototypeOf(state)).toBe(Object.prototype);
    expect(state.isAdmin).toBeUndefined();
    expect(Object.getOwnPropertyDescriptor(state, "__proto__")?.value).toEqual({ isAdmin: true });
    expect(JSON.stringify(state)).toBe('{"__proto__":{"isAdmin":true}}');
    // ...which later pointers reach as a member, as JSON.parse's object would have it.
    const again = patch(JSON.parse(JSON.stringify(state)), [{ op: "replace", path: "/__proto__/isAdmin", value: false }]);
    expect(again.refused).toBeUndefined();
    expect(JSON.stringify(again.value)).toBe('{"__proto__":{"isAdmin":false}}');
    expect(({} as { isAdmin?: unknown }).isAdmin).toBeUndefined();
  });

  it.each([
    ["__proto__ not a member", {}, [{ op: "add", path: "/__proto__/x", value: 1 }], "there is no /__proto__"],
    ["constructor/prototype", {}, [{ op: "add", path: "/constructor/prototype/x", value: 1 }], "there is no /constructor"],
    ["a move from __proto__", {}, [{ op: "move", from: "/__proto__", path: "/loop" }], "there is no /__proto__"],
    ["a copy from constructor", {}, [{ op: "copy", from: "/constructor", path: "/c" }], "there is no /constructor"],
    ["a replace of toString", {}, [{ op: "replace", path: "/toString", value: 1 }], "there is no /toString"],
    ["a remove of toString", {}, [{ op: "remove", path: "/toString" }], "there is no /toString"],
    ["a test of __proto__", {}, [{ op: "test", path: "/__proto__", value: {} }], "there is no /__proto__"],
    ["a test of toString", {}, [{ op: "test", path: "/toString", value: null }], "there is no /toString"],
    ["a remove of a list's length", { items: [1, 2] }, [{ op: "remove", path: "/items/length" }], '"length" is not an index'],
    ["a replace of a list's length", { items: [1, 2] }, [{ op: "replace", path: "/items/length", value: 0 }], '"length" is not an index'],
    ["an index with a leading zero", { items: [1, 2] }, [{ op: "replace", path: "/items/01", value: 9 }], '"01" is not an index'],
    ["an add at an index with a leading zero", { items: [1, 2] }, [{ op: "add", path: "/items/01", value: 9 }], '"01" is not an index'],
    ["an index in exponent form", { items: [1, 2] }, [{ op: "add", path: "/items/1e0", value: 9 }], '"1e0" is not an index'],
    ["an index past the end", { items: [1, 2] }, [{ op: "add", path: "/items/3", value: 9 }], "past its end"],
    ["a replace of - (the end)", { items: [1, 2] }, [{ op: "replace", path: "/items/-", value: 9 }], '"-" names no element'],
    ["a remove of -", { items: [1, 2] }, [{ op: "remove", path: "/items/-" }], '"-" names no element'],
    ["- before the last token", { items: [{}] }, [{ op: "add", path: "/items/-/x", value: 9 }], '"-" names no element'],
    ["a move from -", { items: [1, 2] }, [{ op: "move", from: "/items/-", path: "/x" }], '"-" names no element'],
    ["a member of a string", { s: "ab" }, [{ op: "add", path: "/s/0", value: "x" }], "has no members or elements"],
    ["a ~ that escapes neither 0 nor 1", {}, [{ op: "add", path: "/a~2b", value: 1 }], '"~" escapes only'],
    ["a ~ at the end", {}, [{ op: "add", path: "/a~", value: 1 }], '"~" escapes only'],
    ["a move into itself", { a: { x: 1 } }, [{ op: "move", from: "/a", path: "/a/b" }], "inside itself"],
    ["a move of the whole value into itself", { a: 1 }, [{ op: "move", from: "", path: "/a" }], "inside itself"],
    ["a remove of the whole value", { a: 1 }, [{ op: "remove", path: "" }], "whole value"],
    ["a test of a list against an object of its indexes", { a: [1] }, [{ op: "test", path: "/a", value: { 0: 1 } }], "not the one"],
    ["a test of an object against one with a member more", { o: { a: 1 } }, [{ op: "test", path: "/o", value: { a: 1, b: 1 } }], "not the one"],
    ["a test of a number against its text", { a: 1 }, [{ op: "test", path: "/a", value: "1" }], "not the one"],
  ] as const)("%s is refused and changes nothing", (_, doc, operations, reason) => {
    refusedWith(doc, [...operations], reason);
  });

  it("an object's member may be named like an index, or be empty; a list's index is 0 or digits without a leading zero", () => {
    const { refused, value } = patch({ obj: {}, items: ["a"] }, [
      { op: "add", path: "/obj/0", value: "zero" },
      { op: "add", path: "/obj/01", value: "leading" },
      { op: "add", path: "/obj/-", value: "dash" },
      { op: "add", path: "/", value: "empty" },
      { op: "add", path: "/obj/~0~1", value: "escaped" },
      { op: "add", path: "/items/0", value: "first" },
      { op: "add", path: "/items/-", value: "last" },
      { op: "add", path: "/items/3", value: "at the end" },
    ]);
    expect(refused).toBeUndefined();
    expect(value).toStrictEqual({
      obj: { 0: "zero", "01": "leading", "-": "dash", "~/": "escaped" },
      items: ["first", "a", "last", "at the end"],
      "": "empty",
    });
  });

  it("a refused patch undoes what its earlier operations did, members back in their order", () => {
    const doc = { first: 1, list: [1, 2, 3], middle: { deep: [true] }, last: "z" };
    const { refused, value } = patch(doc, [
      { op: "remove", path: "/first" },
      { op: "remove", path: "/list/1" },
      { op: "add", path: "/list/0", value: 0 },
      { op: "move", from: "/middle", path: "/moved" },
      { op: "add", path: "/first", value: "again" },
      { op: "replace", path: "/last", value: "a" },
      { op: "copy", from: "/moved", path: "/list/-" },
      { op: "remove", path: "/first" },
      { op: "test", path: "/last", value: "b" },
    ]);
    expect(refused).toEqual({ operation: 8, reason: expect.stringContaining("not the one it tests for") });
    expect(JSON.stringify(value)).toBe(JSON.stringify(doc));
  });

  it("a member removed and added again in one patch keeps its place; one removed goes", () => {
    const { value } = patch({ a: 1, b: 2, c: 3 }, [
      { op: "remove", path: "/a" },
      { op: "add", path: "/a", value: 9 },
      { op: "remove", path: "/b" },
      { op: "test", path: "", value: { a: 9, c: 3 } },
    ]);
    expect(JSON.stringify(value)).toBe('{"a":9,"c":3}');
  });

  it("the operations' own members are read, never what an object inherits", () => {
    const inherited = Object.create({ op: "add", path: "/x", value: 1 }) as object;
    expect(patch({}, [inherited]).refused?.reason).toMatch("is not a JSON Pointer");
    expect(patch({}, [{ op: "add", path: "/x", value: undefined }]).refused?.reason).toMatch("has a value");
    expect(patch({}, [{ op: "add", path: "/x" }]).refused?.reason).toMatch("has a value");
    expect(patch({}, [{ op: "move", path: "/x" }]).refused?.reason).toMatch("its from is not a JSON Pointer");
    expect(patch({}, "not a list").refused).toEqual({ operation: -1, reason: "the patch is not a list of operations" });
  });

  it("a value is copied in: the patch's values and the document share nothing", () => {
    const value = { list: [1] };
    const { value: doc } = patch({}, [
      { op: "add", path: "/a", value },
      { op: "copy", from: "/a", path: "/b" },
    ]);
    const { a, b } = doc as { a: typeof value; b: typeof value };
    expect(a).not.toBe(value);
    expect(a.list).not.toBe(b.list);
  });
});

// ---------------------------------------------------------------------------------------
// Bounds

describe("what a patch may add is bounded by what was brought in", () => {
  it("copies over a stream add no more than the events brought and a megabyte: doubling the value is refused once that is spent", () => {
    const measures: Measures = { brought: 0, copied: 0 };
    const doc = { list: Array.from({ length: 10_000 }, (_, i) => i) };
    // Thirty doublings would make ten trillion values.
    const doubling = Array.from({ length: 30 }, (_, i) => ({ op: "copy", from: "", path: `/copy${i}` }));
    const { refused, value } = patch(doc, doubling, measures);
    const size = measures.brought;
    // Copy k copies the value as the k before it made it: size × 2^k in all, refused once past what was brought and the allowance.
    const first = Array.from({ length: 30 }, (_, k) => k).find((k) => size * (2 ** (k + 1) - 1) > size + COPY_ALLOWANCE);
    expect(refused).toEqual({ operation: first, reason: expect.stringContaining("its copies would add more than the stream's events brought in") });
    expect(value).toStrictEqual(doc);
    expect(measures.copied).toBe(0);
    // A few copies of a small value are no trouble.
    expect(patch({ a: { b: [1, 2, 3] } }, Array.from({ length: 100 }, (_, i) => ({ op: "copy", from: "/a", path: `/c${i}` }))).refused).toBeUndefined();
  });

  it("a move to a deeper place that would nest past 500 levels is refused", () => {
    // As if the events had brought in plenty: here the depth is the bound.
    const measures: Measures = { brought: Number.MAX_SAFE_INTEGER, copied: 0 };
    const holder: { [key: string]: unknown } = { value: copyValue({ a: {} }, measures) };
    let refused: PatchRefusal | undefined;
    let steps = 0;
    // Each step nests the value one level deeper for a constant-size patch.
    while (refused === undefined && steps < 600) {
      refused = applyPatch(
        holder,
        "value",
        [
          { op: "add", path: "/b", value: {} },
          { op: "move", from: "/a", path: "/b/a" },
          { op: "move", from: "/b", path: "/a" },
        ],
        measures,
      );
      steps++;
    }
    expect(refused?.reason).toMatch("deeper than 500 levels");
    expect(steps).toBeLessThan(500);
    expect(() => JSON.stringify(holder)).not.toThrow();
  });
});

// ---------------------------------------------------------------------------------------
// Beside fast-json-patch and rfc6902

/** fast-json-patch 3.1.1, validating, its prototype ban on: the document, or undefined where it refuses. */
function byFastJsonPatch(doc: Json, operations: readonly unknown[]): unknown {
  try {
    return fastJsonPatch.applyPatch(structuredClone(doc), structuredClone(operations) as fastJsonPatch.Operation[], true, true, true)
      .newDocument;
  } catch {
    return undefined;
  }
}

/** rfc6902 5.4.0, its document in a box as ours is: the document where every operation applied; undefined otherwise. */
function byRfc6902(doc: Json, operations: readonly unknown[]): unknown {
  const box = { doc: structuredClone(doc) };
  const rebased = operations.map((operation) => {
    const { path: at, from, ...rest } = operation as { path: string; from?: string };
    return { ...rest, path: `/doc${at}`, ...(from === undefined ? {} : { from: `/doc${from}` }) };
  });
  try {
    const results = rfc6902ApplyPatch(box, rebased as Rfc6902Operation[]);
    return results.every((result) => result === null) ? box.doc : undefined;
  } catch {
    // It throws a TypeError for an add into a number, a boolean or a string.
    return undefined;
  }
}

/** The pointers to every value of a document, to a new member of each object (and past it), and to the end of each list. */
function pointersOf(doc: Json, at = ""): string[] {
  const pointers = [at];
  if (Array.isArray(doc)) {
    pointers.push(`${at}/-`, `${at}/${doc.length}`);
    doc.forEach((item, i) => pointers.push(...pointersOf(item, `${at}/${i}`)));
  } else if (typeof doc === "object" && doc !== null) {
    pointers.push(`${at}/new`, `${at}/new/deeper`);
    for (const [key, value] of Object.entries(doc)) pointers.push(...pointersOf(value, `${at}/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`));
  }
  return pointers;
}

/** Documents with plain member names (no name an object inherits), and patches of pointers into them. */
const benign = fc
  .jsonValue({ maxDepth: 3 })
  .map((value) => JSON.parse(JSON.stringify(value)) as Json)
  .filter((doc) => pointersOf(doc).every((pointer) => pointer.split("/").every((token) => !(token in Object.prototype))))
  .chain((doc) => {
    const pointers = pointersOf(doc);
    const pointer = fc.constantFrom(...pointers);
    // Not of the whole value, which ours keeps (the state stays one) and fast-json-patch makes null;
    // nor of a member of a document that is a number, a string, a boolean or null, which
    // fast-json-patch takes for done (see the faults below).
    const removes = pointers.length > 1 ? [fc.record({ op: fc.constant("remove"), path: fc.constantFrom(...pointers.slice(1)) })] : [];
    const operation = fc.oneof(
      fc.record({ op: fc.constantFrom("add", "replace", "test"), path: pointer, value: fc.jsonValue({ maxDepth: 2 }) }),
      ...removes,
      fc.record({ op: fc.constant("copy"), from: pointer, path: pointer }),
      // Not into itself, which fast-json-patch does (see the faults below).
      fc
        .record({ op: fc.constant("move"), from: pointer, path: pointer })
        .filter(({ from, path: to }) => !to.startsWith(`${from}/`) && !(from === "" && to !== "")),
      // A test of the value that is there, which passes.
      pointer.map((at) => ({ op: "test", path: at, value: valueAt(doc, at) ?? null })),
    );
    return fc.tuple(fc.constant(doc), fc.array(operation, { maxLength: 5 }).map((ops) => JSON.parse(JSON.stringify(ops)) as unknown[]));
  });

function valueAt(doc: Json, pointer: string): Json | undefined {
  let at: Json | undefined = doc;
  for (const token of pointer.split("/").slice(1)) {
    const key = token.replaceAll("~1", "/").replaceAll("~0", "~");
    at = typeof at === "object" && at !== null && Object.hasOwn(at, key) ? (at as { [key: string]: Json })[key] : undefined;
  }
  return at;
}

describe("beside fast-json-patch and rfc6902, on documents with plain member names", () => {
  it.each([
    ["fast-json-patch", byFastJsonPatch],
    ["rfc6902", byRfc6902],
  ] as const)("applies what %s applies, to the same document, and refuses what it refuses", (_, theirs) => {
    let applied = 0;
    fc.assert(
      fc.property(benign, ([doc, operations]) => {
        const { refused, value } = patch(doc, operations);
        const expected = theirs(doc, operations);
        expect(refused === undefined, JSON.stringify(refused)).toBe(expected !== undefined);
        if (refused === undefined) {
          expect(value).toStrictEqual(expected);
          if (operations.length > 0) applied++;
        }
      }),
      { seed: 0x6902, numRuns: 400 },
    );
    // Patches that apply, not only patches refused by both.
    expect(applied).toBeGreaterThan(100);
  });
});

// ---------------------------------------------------------------------------------------
// The libraries' faults, pinned: each test passes while the fault is there (reported
// upstream from this project's notes); one that starts failing means it was fixed.

describe("faults of rfc6902 5.4.0 (which the assembler used before) on the pointers above", () => {
  const run = (doc: unknown, operations: unknown[]) => {
    const results = rfc6902ApplyPatch(doc, operations as Rfc6902Operation[]);
    return { doc: doc as { [key: string]: unknown }, applied: results.every((result) => result === null) };
  };

  it.each([
    ["add /__proto__ sets the document's prototype", () => {
      const { doc, applied } = run({}, [{ op: "add", path: "/__proto__", value: { isAdmin: true } }]);
      return applied && doc["isAdmin"] === true && !Object.hasOwn(doc, "__proto__");
    }],
    ["/__proto__/x and /constructor/prototype/x write /x", () => {
      const { doc, applied } = run({}, [{ op: "add", path: "/__proto__/x", value: 1 }, { op: "add", path: "/constructor/prototype/y", value: 2 }]);
      return applied && doc["x"] === 1 && doc["y"] === 2;
    }],
    ["a move from /__proto__ makes the document hold itself", () => {
      const { doc, applied } = run({}, [{ op: "move", from: "/__proto__", path: "/loop" }]);
      return applied && doc["loop"] === doc;
    }],
    ["remove /items/length removes the first item", () => {
      const { doc, applied } = run({ items: [1, 2] }, [{ op: "remove", path: "/items/length" }]);
      return applied && JSON.stringify(doc) === '{"items":[2]}';
    }],
    ["replace /items/01 and /items/- set properties beside the items", () => {
      const { doc, applied } = run({ items: [1, 2] }, [{ op: "replace", path: "/items/01", value: 9 }, { op: "replace", path: "/items/-", value: 9 }]);
      return applied && Object.keys(doc["items"] as object).join() === "0,1,01,-";
    }],
    ["remove and replace of an inherited name apply, to nothing there", () =>
      run({}, [{ op: "remove", path: "/toString" }]).applied && run({}, [{ op: "replace", path: "/toString", value: 1 }]).applied],
    ["a test of /__proto__ against {} passes", () => run({}, [{ op: "test", path: "/__proto__", value: {} }]).applied],
    ["a copy drops a member named __proto__", () => {
      const { doc } = run(JSON.parse('{"v":{"__proto__":{"x":1},"k":2}}'), [{ op: "copy", from: "/v", path: "/w" }]);
      return JSON.stringify(doc["w"]) === '{"k":2}';
    }],
    ["pointers read into strings: /s/0 is a character, /s/length a number", () =>
      run({ s: "ab" }, [{ op: "copy", from: "/s/0", path: "/c" }, { op: "test", path: "/s/length", value: 2 }]).applied],
    ["an add into a number throws a TypeError out of applyPatch", () => {
      try {
        run({ n: 5 }, [{ op: "add", path: "/n/x", value: 1 }]);
        return false;
      } catch (error) {
        return error instanceof TypeError;
      }
    }],
  ] as const)("%s", (_, fault) => {
    expect(fault()).toBe(true);
  });
});

describe("faults of fast-json-patch 3.1.1 (validating, its prototype ban on) on the pointers above", () => {
  const run = (doc: unknown, operations: unknown[]) => {
    try {
      return fastJsonPatch.applyPatch(doc, operations as fastJsonPatch.Operation[], true, true, true).newDocument as { [key: string]: unknown };
    } catch {
      return undefined;
    }
  };

  it.each([
    ["a copy from an inherited name puts a function in the document", () =>
      run({}, [{ op: "copy", from: "/toString", path: "/t" }])?.["t"] === Object.prototype.toString],
    ["remove and replace of an inherited name apply, to nothing there", () =>
      run({}, [{ op: "remove", path: "/toString" }]) !== undefined && run({}, [{ op: "replace", path: "/constructor", value: 1 }]) !== undefined],
    ["an index with a leading zero is taken for the number", () =>
      JSON.stringify(run({ items: [1, 2] }, [{ op: "add", path: "/items/01", value: 9 }])) === '{"items":[1,9,2]}'],
    ["a move of the whole document into its member makes it hold itself", () => {
      const doc = run({ a: 1 }, [{ op: "move", from: "", path: "/m" }]);
      return doc !== undefined && doc["m"] === doc;
    }],
    ["a move into its own member throws a TypeError and leaves the document changed", () => {
      const doc = { a: { x: 1 } };
      try {
        fastJsonPatch.applyPatch(doc, [{ op: "move", from: "/a", path: "/a/b" }], true, true, true);
        return false;
      } catch (error) {
        return error instanceof TypeError && JSON.stringify(doc) === "{}";
      }
    }],
    ["a remove of a member of a document that is false applies", () => run(false, [{ op: "remove", path: "/x" }]) !== undefined],
  ] as const)("%s", (_, fault) => {
    expect(fault()).toBe(true);
  });
});
