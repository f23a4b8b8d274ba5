import { describe, expect, it } from "vitest";
import type { JsonObject } from "../../generator/json.js";
import { load } from "../../generator/load/index.js";
import { normalize } from "../../generator/normalize/index.js";
import { applyOverlays } from "../../generator/overlay/index.js";
import { resolve } from "../../generator/resolve/index.js";
import { inputError } from "../helpers/failure.js";
import { demoProject } from "../helpers/project.js";

const META = "https://json-schema.org/draft/2020-12";
const metaschema = (vocabulary: Record<string, boolean>) => ({ $schema: `${META}/schema`, $vocabulary: vocabulary });
const schema = { $schema: "meta.json", $defs: { Small: { type: "number", maximum: 1, not: { const: 0 } } } };

async function effective(root: string): Promise<JsonObject> {
  const project = load(root);
  return resolve(project, project.protocols[0]!).schema;
}

describe("resolve: a custom metaschema", () => {
  it("is read for the draft it extends and the vocabularies it uses; those it leaves out assert nothing", async () => {
    const root = demoProject(schema, {
      "schemas/meta.json": metaschema({
        [`${META}/vocab/core`]: true,
        [`${META}/vocab/applicator`]: true,
        [`${META}/vocab/meta-data`]: true,
      }),
    });
    const resolved = await effective(root);
    expect(resolved["$schema"]).toBe(`${META}/schema`);
    expect(resolved["x-agentwire-vocabularies"]).toEqual(["core", "applicator"]);
    const project = load(root);
    const ir = normalize(applyOverlays(resolve(project, project.protocols[0]!)));
    // type, maximum and const are of the validation vocabulary, left out; not, of the
    // applicator, stays: of {} now, which every value matches.
    expect(ir.types[0]!.shape).toEqual({
      kind: "constrained",
      shape: { kind: "unknown" },
      constraints: [{ kind: "not", shape: { kind: "unknown" } }],
    });
  });

  it("leaves out a vocabulary it may do without, and refuses one it requires that agentwire does not know", async () => {
    const optional = demoProject(schema, {
      "schemas/meta.json": metaschema({ [`${META}/vocab/validation`]: true, "https://example.com/vocab/custom": false }),
    });
    expect((await effective(optional))["x-agentwire-vocabularies"]).toEqual(["validation"]);
    const required = demoProject(schema, {
      "schemas/meta.json": metaschema({ [`${META}/vocab/validation`]: true, "https://example.com/vocab/custom": true }),
    });
    expect(await inputError(() => effective(required))).toMatch(
      /^schemas\/demo\.schema\.json#\/\$schema: the metaschema meta\.json requires the vocabulary https:\/\/example\.com\/vocab\/custom, which agentwire does not know/,
    );
  });
});
