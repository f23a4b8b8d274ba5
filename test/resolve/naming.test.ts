import { describe, expect, it } from "vitest";
import type { Named } from "../../generator/resolve/naming.js";
import { isNameLike, TypeNames, typeNameFor } from "../../generator/resolve/naming.js";
import { sourceFile } from "../helpers/in-memory.js";

const main = sourceFile("main.schema.json", {});
const other = sourceFile("bitrise-step.json", {});

/** Names schemas in turn, as canonicalize asks: each a wanted name at a place of a file. */
function namesOf(...wanted: readonly [name: string, location: string, file?: typeof main, body?: unknown, sharable?: boolean][]): string[] {
  const names = new TypeNames([main, other]);
  return wanted.map(([name, location, file = main, body = { type: "string" }, sharable = false]) =>
    names.add({ name, source: file, pointer: location, body } as Named, sharable),
  );
}

/** The project's type-naming rule (generator/resolve/naming.ts), apart from the walk that finds what to name. */
describe("TypeNames", () => {
  it("keeps a free name, and qualifies a taken one by the named schemas around it, nearest first", () => {
    expect(
      namesOf(["numberList", "/$defs/numberList"], ["itemType", "/$defs/itemType"], ["itemType", "/$defs/numberList/$defs/itemType"]),
    ).toEqual(["numberList", "itemType", "numberListItemType"]);
  });

  it("then by its place, leaving out the definitions' keywords", () => {
    expect(namesOf(["thingy", "/$defs/thingy"], ["thingy", "/then/$defs/thingy"])).toEqual(["thingy", "ThenThingy"]);
  });

  it("then, in another file than the schema that has the name, by that file's name", () => {
    expect(namesOf(["Model", "/$defs/Model"], ["Model", "", other])).toEqual(["Model", "BitriseStepModel"]);
  });

  it("and last by its rank among the schemas that want the name", () => {
    expect(namesOf(["Item", "/$defs/Item"], ["Item", "/$defs/Item"], ["Item", "/$defs/Item"])).toEqual(["Item", "Item2", "Item3"]);
  });

  it("takes a name as had where the names made from it would be another's, or where the runtime exports it", () => {
    expect(namesOf(["Deployment", "/$defs/Deployment"], ["deployment", "/a/deployment"])).toEqual(["Deployment", "ADeployment"]);
    // Both would have the guard isSnakeCase.
    expect(namesOf(["snakeCase", "/$defs/snakeCase"], ["snake_case", "/b/snake_case"])).toEqual(["snakeCase", "BSnakeCase"]);
    // A definition's place is its key alone, which gives the name again: its rank decides.
    expect(namesOf(["UnmatchedError", "/$defs/UnmatchedError"])).toEqual(["UnmatchedError2"]);
  });

  it("shares one entry between identical titled schemas of a file, and no other", () => {
    const names = new TypeNames([main, other]);
    const add = (location: string, body: unknown, file = main) =>
      names.add({ name: "Address", source: file, pointer: location, body } as Named, true);
    expect([
      add("/properties/home", { type: "object" }),
      add("/properties/work", { type: "object" }),
      add("/properties/x", { type: "string" }),
    ]).toEqual(["Address", "Address", "PropertiesAddress"]);
    expect(names.named.map(({ name }) => name)).toEqual(["Address", "PropertiesAddress"]);
    expect([...names.relocated.get(main)!]).toEqual([
      ["/properties/home", "/$defs/Address"],
      ["/properties/work", "/$defs/Address"],
      ["/properties/x", "/$defs/PropertiesAddress"],
    ]);
  });
});

describe("typeNameFor", () => {
  it("keeps a key or title that is an identifier once its whitespace is removed, capitals as they are", () => {
    expect(typeNameFor("Shipping Address")).toBe("ShippingAddress");
    expect(typeNameFor("TaskStatus")).toBe("TaskStatus");
    expect(typeNameFor("camelCase")).toBe("camelCase");
    expect(typeNameFor("snake_case")).toBe("snake_case");
    expect(typeNameFor("$Dollar")).toBe("$Dollar");
    expect(typeNameFor(" tab\tand\nnewline ")).toBe("tabandnewline");
  });

  it("joins the words in PascalCase when the text is still no identifier", () => {
    expect(typeNameFor("Core schema meta-schema")).toBe("CoreSchemaMetaSchema");
    expect(typeNameFor("item/agentMessage/delta")).toBe("ItemAgentMessageDelta");
    expect(typeNameFor("a.b.c")).toBe("ABC");
  });

  it("reads [] as the word Array", () => {
    expect(typeNameFor("Def<number[]>")).toBe("DefNumberArray");
    expect(typeNameFor("string[][]")).toBe("StringArrayArray");
  });

  it("puts an underscore before a name that would start with a digit", () => {
    expect(typeNameFor("2fa")).toBe("_2fa");
    expect(typeNameFor("3 d points")).toBe("_3DPoints");
    expect(typeNameFor("4-way")).toBe("_4Way");
  });

  it("is empty when the text has no letter or digit, so that the caller picks another name", () => {
    expect(typeNameFor("")).toBe("");
    expect(typeNameFor("  ")).toBe("");
    expect(typeNameFor("--/")).toBe("");
  });

  it("always gives an ASCII identifier or nothing", () => {
    for (const text of ["Größe", "日本語", "a b-c", "x[]", "1", "é😀 unicode", "__proto__", "a\u00a0b"]) {
      const name = typeNameFor(text);
      expect(name, text).toMatch(/^(|[A-Za-z_$][A-Za-z0-9_$]*)$/);
    }
  });
});

describe("isNameLike", () => {
  it("is a title of at most five words with no sentence in it", () => {
    const names = ["Time Series", "ABCSupplyPlan JSON Schema", "Non-Negative Integer Time Dependent Values", "Version 1.0", "Task"];
    expect(names.filter(isNameLike)).toEqual(names);
    const descriptions = [
      "Location in the inventory management system",
      "JSON schema for the TSLint configuration files",
      "Plan date. Local time.",
      "true: Sort alphabetically",
      "Name, or id",
      "Why not?",
    ];
    expect(descriptions.filter(isNameLike)).toEqual([]);
  });
});
