import { describe, expect, it } from "vitest";
import type { Named } from "../../generator/resolve/naming.js";
import { TypeNames } from "../../generator/resolve/naming.js";
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

  it("takes a name as had where only its first letter's case differs, or where the runtime exports it", () => {
    expect(namesOf(["Deployment", "/$defs/Deployment"], ["deployment", "/a/deployment"])).toEqual(["Deployment", "ADeployment"]);
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
