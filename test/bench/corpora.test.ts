import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import type { Shape } from "../../generator/ir/model.js";
import type { JsonValue } from "../../generator/json.js";
import { REPO } from "../helpers/project.js";
import { PROTOCOLS, protocol } from "../helpers/protocols.js";
import { Random, SampleMaker } from "../helpers/samples.js";

/**
 * The benchmark's corpora, `bench/corpora/<protocol>.{valid,invalid}.jsonl` (one JSON document a line): documents of
 * each protocol's root type (A2A, which has none, uses StreamResponse), made with a fixed
 * seed. Valid ones are what a stream mostly carries; invalid ones are valid ones broken
 * somewhere inside (the root stays an object), often deep in messages and patches. The
 * reference decides which is which.
 * This test checks they are what the seed makes. `UPDATE_FIXTURES=1 npx vitest run
 * test/bench` remakes those that are not, and then fails naming them, since that run
 * compared them with nothing: review the change, then run again without it.
 */
const SIZE = 1000;
/** The types a stream mostly carries, drawn more often: AG-UI's small deltas. */
const WEIGHTS: Readonly<Record<string, number>> = {
  TextMessageContentEvent: 30,
  ToolCallArgsEvent: 15,
  ReasoningMessageContentEvent: 10,
  TextMessageStartEvent: 5,
  TextMessageEndEvent: 5,
  ToolCallStartEvent: 3,
  ToolCallEndEvent: 3,
};

describe.each(PROTOCOLS)("benchmark corpora of %s", (name) => {
  it("are the reference-checked documents the seed makes", async () => {
    const { ir, schema } = await protocol(name);
    const root = ir.root ?? "StreamResponse";
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    ajv.addSchema(schema, "effective");
    const reference = ajv.compile({ $ref: `effective#/$defs/${root}` });
    const random = new Random(0xbe9c4);
    const maker = new SampleMaker(ir, random);
    const rootShape = ir.types.find((type) => type.name === root)!.shape;
    const members: { shape: Shape; weight: number }[] =
      rootShape.kind === "tagged-union"
        ? rootShape.members.map((member) => ({
            shape: member.shape,
            weight: member.shape.kind === "ref" ? (WEIGHTS[member.shape.name] ?? 1) : 1,
          }))
        : [{ shape: rootShape, weight: 1 }];
    const total = members.reduce((sum, member) => sum + member.weight, 0);
    const draw = () => {
      let at = random.next() * total;
      for (const member of members) if ((at -= member.weight) < 0) return member.shape;
      return members[0]!.shape;
    };
    const valid: JsonValue[] = [];
    const invalid: JsonValue[] = [];
    for (let attempt = 0; attempt < 20 * SIZE && (valid.length < SIZE || invalid.length < SIZE); attempt++) {
      const made = maker.valid(draw());
      if (made === undefined) continue;
      const document = JSON.parse(JSON.stringify(made)) as JsonValue;
      if (!reference(document)) continue;
      if (valid.length < SIZE) valid.push(document);
      const broken = JSON.parse(JSON.stringify(maker.mutate(document, rootShape))) as JsonValue;
      // Broken inside, where a validator has to look: a root that is not even an object says little.
      const inside = typeof broken === "object" && broken !== null && !Array.isArray(broken);
      if (invalid.length < SIZE && inside && !reference(broken)) invalid.push(broken);
    }
    expect([valid.length, invalid.length]).toEqual([SIZE, SIZE]);
    const rewritten: string[] = [];
    for (const [kind, documents] of [
      ["valid", valid],
      ["invalid", invalid],
    ] as const) {
      const file = path.join(REPO, "bench/corpora", `${name}.${kind}.jsonl`);
      const text = `${documents.map((document) => JSON.stringify(document)).join("\n")}\n`;
      const same = existsSync(file) && readFileSync(file, "utf8") === text;
      if (!same && process.env["UPDATE_FIXTURES"] === "1") {
        writeFileSync(file, text);
        rewritten.push(path.relative(REPO, file));
      } else expect(same, `${file} is not what the seed makes`).toBe(true);
    }
    expect(rewritten, "remade with UPDATE_FIXTURES=1: review the change, then run again without it").toEqual([]);
  }, 60_000);
});
