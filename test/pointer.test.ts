import { describe, expect, it } from "vitest";
import { appendPointer, escapeToken, getAtPointer, isWithin, parsePointer, unescapeToken } from "../generator/pointer.js";

describe("JSON Pointer tokens (RFC 6901)", () => {
  it("escape ~ as ~0 and / as ~1, ~ first so that a / never turns into ~01", () => {
    expect(escapeToken("a/b")).toBe("a~1b");
    expect(escapeToken("m~n")).toBe("m~0n");
    expect(escapeToken("~1")).toBe("~01");
    expect(escapeToken("/~")).toBe("~1~0");
    expect(escapeToken("plain")).toBe("plain");
  });

  it("unescape ~1 before ~0, so that ~01 is the two characters ~1 and not a slash", () => {
    expect(unescapeToken("a~1b")).toBe("a/b");
    expect(unescapeToken("m~0n")).toBe("m~n");
    expect(unescapeToken("~01")).toBe("~1");
    expect(unescapeToken("~1~0")).toBe("/~");
  });

  it("come back as they were from escape then unescape", () => {
    for (const token of ["", "~", "/", "~0", "~1", "~01", "a/b~c", "//~~", "__proto__", "é😀"])
      expect(unescapeToken(escapeToken(token)), token).toBe(token);
  });
});

describe("appendPointer", () => {
  it("adds one escaped token per argument, numbers as their decimal text", () => {
    expect(appendPointer("", "$defs", "Event")).toBe("/$defs/Event");
    expect(appendPointer("/allOf", 0, "properties", "a/b")).toBe("/allOf/0/properties/a~1b");
    expect(appendPointer("/x", "~")).toBe("/x/~0");
  });

  it("adds an empty token as a trailing slash, and nothing for no tokens", () => {
    expect(appendPointer("", "")).toBe("/");
    expect(appendPointer("/a")).toBe("/a");
  });
});

describe("parsePointer", () => {
  it("reads the whole document as no tokens and unescapes each token", () => {
    expect(parsePointer("")).toEqual([]);
    expect(parsePointer("/")).toEqual([""]);
    expect(parsePointer("/$defs/a~1b/~0")).toEqual(["$defs", "a/b", "~"]);
    expect(parsePointer("/a//b")).toEqual(["a", "", "b"]);
  });

  it("refuses text that does not start with a slash, quoting it", () => {
    expect(() => parsePointer("a/b")).toThrow('not a JSON Pointer: "a/b"');
    expect(() => parsePointer("#/a")).toThrow('not a JSON Pointer: "#/a"');
  });

  it("undoes appendPointer", () => {
    const tokens = ["properties", "a/b", "~", "", "0"];
    expect(parsePointer(appendPointer("", ...tokens))).toEqual(tokens);
  });
});

describe("getAtPointer", () => {
  const document = JSON.parse(
    '{"a": {"b/c": [10, {"d~e": "deep"}]}, "": "empty key", "0": "zero key", "__proto__": "own", "list": ["x", "y"]}',
  ) as unknown;

  it("is the document itself for the empty pointer", () => {
    expect(getAtPointer(document, "")).toBe(document);
  });

  it("follows object keys and array indices, unescaping", () => {
    expect(getAtPointer(document, "/a/b~1c/0")).toBe(10);
    expect(getAtPointer(document, "/a/b~1c/1/d~0e")).toBe("deep");
    expect(getAtPointer(document, "/")).toBe("empty key");
    expect(getAtPointer(document, "/0")).toBe("zero key");
    expect(getAtPointer(document, "/list/1")).toBe("y");
  });

  it("reads a key named __proto__ as the document's own property", () => {
    expect(getAtPointer(document, "/__proto__")).toBe("own");
  });

  it("is undefined where the pointer leads nowhere, and never reads inherited properties", () => {
    expect(getAtPointer(document, "/missing")).toBeUndefined();
    expect(getAtPointer(document, "/a/missing/deeper")).toBeUndefined();
    expect(getAtPointer(document, "/toString")).toBeUndefined();
    expect(getAtPointer(document, "/a/constructor")).toBeUndefined();
    expect(getAtPointer(document, "/list/length")).toBeUndefined();
    expect(getAtPointer(document, "/a/b~1c/0/anything")).toBeUndefined();
  });

  it("takes array indices only in their canonical form", () => {
    expect(getAtPointer(document, "/list/01")).toBeUndefined();
    expect(getAtPointer(document, "/list/-")).toBeUndefined();
    expect(getAtPointer(document, "/list/2")).toBeUndefined();
    expect(getAtPointer(document, "/list/1.0")).toBeUndefined();
    expect(getAtPointer(["only"], "/0")).toBe("only");
  });

  it("throws on a pointer without a leading slash", () => {
    expect(() => getAtPointer(document, "a")).toThrow('not a JSON Pointer: "a"');
  });
});

describe("isWithin", () => {
  it("holds for the pointer itself and what lies beneath it", () => {
    expect(isWithin("/$defs/A", "/$defs/A")).toBe(true);
    expect(isWithin("/$defs/A/properties/x", "/$defs/A")).toBe(true);
    expect(isWithin("/anything", "")).toBe(true);
  });

  it("does not hold for a sibling whose name starts the same, nor for an escaped slash", () => {
    expect(isWithin("/$defs/AB", "/$defs/A")).toBe(false);
    expect(isWithin("/$defs/A~1b", "/$defs/A")).toBe(false);
    expect(isWithin("/$defs", "/$defs/A")).toBe(false);
    expect(isWithin("", "/a")).toBe(false);
  });
});
