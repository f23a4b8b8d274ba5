import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { FORMATS_FOLDER, generateFormats } from "../../generator/api/formats.js";
import { PROTOCOL_NAME } from "../../generator/load/config.js";
import { REPO } from "../helpers/project.js";

/** Every file under a folder, relative to the repository. */
const filesUnder = (folder: string): string[] =>
  readdirSync(path.join(REPO, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(REPO, path.join(entry.parentPath, entry.name)).split(path.sep).join("/"))
    .sort();

describe("generator/formats", () => {
  it("holds what agentwire generates from the config's and the overlay's schemas, byte for byte", async () => {
    const { files } = await generateFormats();
    const committed = filesUnder(FORMATS_FOLDER);
    const stale = [
      ...files.filter((file) => !committed.includes(file.path)).map((file) => `${file.path} is missing`),
      ...files
        .filter((file) => committed.includes(file.path) && readFileSync(path.join(REPO, file.path), "utf8") !== file.content)
        .map((file) => `${file.path} is out of date`),
      ...committed.filter((file) => !files.some((each) => each.path === file)).map((file) => `${file} is not generated`),
    ];
    expect(stale, "run `npm run generate:formats` and commit the result").toEqual([]);
  });

  it("generates the same bytes twice", async () => {
    expect(await generateFormats()).toEqual(await generateFormats());
  });

  it("imports nothing outside itself: load/, overlay/ and stream/ stand on it", () => {
    for (const file of filesUnder(FORMATS_FOLDER).filter((file) => file.endsWith(".ts")))
      for (const [, specifier] of readFileSync(path.join(REPO, file), "utf8").matchAll(/from "([^"]+)"/g))
        expect(path.relative(FORMATS_FOLDER, path.join(path.dirname(file), specifier!)), `${file} imports ${specifier}`).not.toMatch(
          /^\.\./,
        );
  });

  it("agree with the readers' own patterns", () => {
    const schema = JSON.parse(readFileSync(path.join(REPO, "schemas/config.schema.json"), "utf8"));
    expect(schema.properties.protocols.items.properties.name.pattern).toBe(PROTOCOL_NAME.source);
  });
});
