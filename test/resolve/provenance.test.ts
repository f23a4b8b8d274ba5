import { describe, expect, it } from "vitest";
import { Provenance } from "../../generator/resolve/provenance.js";

describe("Provenance", () => {
  const provenance = new Provenance("schemas/root.json", [
    { effective: "/$defs/A", file: "schemas/a.json", pointer: "" },
    { effective: "/$defs/A/properties/b", file: "schemas/b.json", pointer: "/$defs/B" },
    { effective: "/$defs/A", file: "schemas/later.json", pointer: "" },
    { effective: "/$defs/E/", file: "schemas/empty-key.json", pointer: "/x" },
  ]);

  it("names the file and pointer of the innermost relocation around a place", () => {
    expect(provenance.locate("/$defs/A/properties/b/type")).toEqual({ file: "schemas/b.json", pointer: "/$defs/B/type" });
    expect(provenance.locate("/$defs/A/properties/c")).toEqual({ file: "schemas/a.json", pointer: "/properties/c" });
    expect(provenance.locate("/$defs/A")).toEqual({ file: "schemas/a.json", pointer: "" });
  });

  it("reads a pointer by its tokens, not its text: /$defs/AB is not inside /$defs/A", () => {
    expect(provenance.locate("/$defs/AB")).toEqual({ file: "schemas/root.json", pointer: "/$defs/AB" });
    expect(provenance.locate("/$defs/E//type")).toEqual({ file: "schemas/empty-key.json", pointer: "/x/type" });
  });

  it("takes the first of two relocations of one place, and the root's file where none is around it", () => {
    expect(provenance.locate("/$defs/A/x").file).toBe("schemas/a.json");
    expect(provenance.locate("")).toEqual({ file: "schemas/root.json", pointer: "" });
    expect(new Provenance("f.json", [{ effective: "", file: "g.json", pointer: "/$defs/G" }]).locate("/a")).toEqual({
      file: "g.json",
      pointer: "/$defs/G/a",
    });
  });
});
