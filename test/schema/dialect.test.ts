import { describe, expect, it } from "vitest";
import { dialectOf, refReplacesSiblings } from "../../generator/schema/dialect.js";

describe("dialectOf", () => {
  it("knows each draft's metaschema, over http or https, with or without the empty fragment", () => {
    expect(dialectOf("http://json-schema.org/draft-04/schema#")).toBe("draft4");
    expect(dialectOf("http://json-schema.org/draft-06/schema#")).toBe("draft6");
    expect(dialectOf("http://json-schema.org/draft-07/schema")).toBe("draft7");
    expect(dialectOf("https://json-schema.org/draft/2019-09/schema")).toBe("draft2019-09");
    expect(dialectOf("https://json-schema.org/draft/2020-12/schema#")).toBe("draft2020-12");
  });

  it("reads a schema without $schema as 2020-12, and knows no other metaschema", () => {
    expect(dialectOf(undefined)).toBe("draft2020-12");
    expect(dialectOf("http://localhost:1234/draft2020-12/metaschema-no-validation.json")).toBeUndefined();
    expect(dialectOf("https://json-schema.org/draft/2020-12/schema/extra")).toBeUndefined();
    expect(dialectOf(7)).toBeUndefined();
  });

  it("lets $ref replace its siblings up to draft 7 only", () => {
    expect(["draft4", "draft6", "draft7", "draft2019-09", "draft2020-12"].map((d) => refReplacesSiblings(d as never))).toEqual([
      true,
      true,
      true,
      false,
      false,
    ]);
  });
});
