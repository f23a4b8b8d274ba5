import { describe, expect, it } from "vitest";
import type { KeyedUnionShape, ObjectShape } from "../../generator/ir/model.js";
import type { JsonObject } from "../../generator/json.js";
import { inputError } from "../helpers/failure.js";
import { effectiveSchema, irOf } from "../helpers/in-memory.js";

const because = "the prose says so";

const defs = (schema: JsonObject) => schema["$defs"] as Record<string, JsonObject>;

describe("overlay: facts", () => {
  const frame = {
    type: "object",
    additionalProperties: false,
    properties: { task: { type: "string" }, statusUpdate: { type: "string" } },
    patternProperties: { "^(status_update)$": { type: "string" } },
  };

  it("exactlyOne writes a oneOf of required properties, counting wire aliases", async () => {
    const schema = effectiveSchema({ $defs: { Frame: frame } }, [
      { at: "/$defs/Frame", exactlyOne: ["task", "statusUpdate"], because },
    ]).schema;
    expect(defs(schema)["Frame"]!["oneOf"]).toEqual([
      { required: ["task"] },
      { anyOf: [{ required: ["statusUpdate"] }, { required: ["status_update"] }] },
    ]);
  });

  it("says of every wire alias that it excludes its field, without a fact too, in the draft's keyword; normalize absorbs it", async () => {
    const exclusions = { status_update: { not: { required: ["statusUpdate"] } } };
    for (const facts of [[], [{ at: "/$defs/Frame", exactlyOne: ["task", "statusUpdate"], because }]]) {
      const effective = effectiveSchema({ $defs: { Frame: frame } }, facts);
      expect(defs(effective.schema)["Frame"]!["dependentSchemas"]).toEqual(exclusions);
      // Located at the alias's pattern property, where the schema named it.
      expect(effective.provenance.locate("/$defs/Frame/dependentSchemas/status_update")).toMatchObject({
        file: "schemas/test.schema.json",
        pointer: "/$defs/Frame/patternProperties/^(status_update)$",
      });
    }
    const draft7 = effectiveSchema({ $schema: "http://json-schema.org/draft-07/schema#", definitions: { Frame: frame } }).schema;
    expect(defs(draft7)["Frame"]!["dependencies"]).toEqual(exclusions);
    // One the schema states stays, the exclusion beside it.
    const stated = { ...frame, dependentSchemas: { status_update: { required: ["task"] } } };
    expect(defs(effectiveSchema({ $defs: { Frame: stated } }).schema)["Frame"]!["dependentSchemas"]).toEqual({
      status_update: { allOf: [{ required: ["task"] }, exclusions.status_update] },
    });
    // The keyed union stays one: the exclusion is what the alias is, no constraint beside it.
    const keyed = irOf({ $defs: { Frame: frame } }, [{ at: "/$defs/Frame", exactlyOne: ["task", "statusUpdate"], because }]);
    expect(keyed.types[0]!.shape.kind).toBe("keyed-union");
    expect(irOf({ $defs: { Frame: frame } }).types[0]!.shape).toMatchObject({ kind: "object", additional: { kind: "never" } });
  });

  it("leaves a schema without aliases or facts as it is", () => {
    const plain = { $defs: { A: { type: "object", properties: { a: { type: "string" } } } } };
    expect(JSON.stringify(effectiveSchema(plain).schema)).not.toContain("dependentSchemas");
  });

  it("exactlyOne refuses a member the schema does not declare, or a schema that already has a oneOf", async () => {
    expect(
      await inputError(() => effectiveSchema({ $defs: { Frame: frame } }, [{ at: "/$defs/Frame", exactlyOne: ["task", "nope"], because }])),
    ).toBe('schemas/overlays/test.json#/facts/0: "nope" is not a property of that schema (at "/$defs/Frame")');
    expect(
      await inputError(() => effectiveSchema({ $defs: { U: { oneOf: [{}, {}] } } }, [{ at: "/$defs/U", exactlyOne: ["a", "b"], because }])),
    ).toContain("the schema already has a oneOf");
  });

  it("required writes required, or for a property with wire aliases an allOf member: present under any of its names", async () => {
    const facts = [
      { at: "/$defs/Frame", required: "statusUpdate", because },
      { at: "/$defs/Frame", required: "task", because },
    ];
    const frameSchema = defs(effectiveSchema({ $defs: { Frame: frame } }, facts).schema)["Frame"]!;
    expect(frameSchema["required"]).toEqual(["task"]);
    expect(frameSchema["allOf"]).toEqual([{ anyOf: [{ required: ["statusUpdate"] }, { required: ["status_update"] }] }]);
    const fields = (irOf({ $defs: { Frame: frame } }, facts).types[0]!.shape as ObjectShape).fields;
    expect(fields.map(({ name, required }) => [name, required])).toEqual([
      ["task", true],
      ["statusUpdate", true],
    ]);
  });

  it("required refuses a property not declared, one already required, and a member of an exactlyOne", async () => {
    const required = (property: string) => ({ at: "/$defs/Frame", required: property, because });
    const exactlyOne = { at: "/$defs/Frame", exactlyOne: ["task", "statusUpdate"], because };
    const error = (schema: JsonObject, facts: JsonObject[]) => inputError(() => effectiveSchema({ $defs: { Frame: schema } }, facts));
    expect(await error(frame, [required("nope")])).toBe(
      'schemas/overlays/test.json#/facts/0: "nope" is not a property of that schema (at "/$defs/Frame")',
    );
    expect(await error(frame, [required("status_update")])).toBe(
      'schemas/overlays/test.json#/facts/0: "status_update" is not a property of that schema (at "/$defs/Frame")\n' +
        '  "status_update" is a wire alias of "statusUpdate": name the property, its aliases count too',
    );
    expect(await error({ ...frame, required: ["task"] }, [required("task")])).toBe(
      'schemas/overlays/test.json#/facts/0: "task" is already required (at "/$defs/Frame")\n  remove this fact',
    );
    expect(await error(frame, [required("statusUpdate"), required("statusUpdate")])).toBe(
      'schemas/overlays/test.json#/facts/1: "statusUpdate" is already required (at "/$defs/Frame")\n  remove this fact',
    );
    expect(await error(frame, [exactlyOne, required("statusUpdate")])).toBe(
      'schemas/overlays/test.json#/facts/1: "statusUpdate" is one of several of which exactly one is present, so it cannot be required alone (at "/$defs/Frame")',
    );
    expect(await error(frame, [required("task"), exactlyOne])).toBe(
      'schemas/overlays/test.json#/facts/1: "task" is required, so it cannot be one of several of which exactly one is present (at "/$defs/Frame")',
    );
    expect(await error(frame, [{ at: "/$defs/Frame", required: ["task", "statusUpdate"], because }])).toBe(
      'schemas/overlays/test.json#/facts/0/required: "required" is the name of one property',
    );
  });

  it("fallback and enumNumbers become annotations the IR reads", async () => {
    const ir = irOf(
      {
        $defs: {
          State: { anyOf: [{ type: "string", pattern: "^S_UNSPECIFIED$" }, { type: "string", enum: ["S_ON"] }, { type: "integer" }] },
        },
      },
      [
        { at: "/$defs/State", fallback: "S_UNSPECIFIED", because },
        { at: "/$defs/State", enumNumbers: { S_UNSPECIFIED: 0, S_ON: 1 }, because },
      ],
    );
    expect(ir.types[0]!.shape).toEqual({
      kind: "enum",
      values: ["S_UNSPECIFIED", "S_ON"],
      fallback: "S_UNSPECIFIED",
      wire: { numbers: { S_UNSPECIFIED: 0, S_ON: 1 } },
    });
  });

  it("refuses a fallback outside the enum and numbers that do not name every value once", async () => {
    const state = { $defs: { State: { anyOf: [{ type: "string", enum: ["A", "B"] }, { type: "integer" }] } } };
    expect(await inputError(() => irOf(state, [{ at: "/$defs/State", fallback: "C", because }]))).toContain(
      'the fallback "C" is not one of the enum\'s values',
    );
    expect(await inputError(() => irOf(state, [{ at: "/$defs/State", enumNumbers: { A: 0 }, because }]))).toContain(
      "enum numbers must name each value exactly once: A, B",
    );
    expect(await inputError(() => irOf(state, [{ at: "/$defs/State", enumNumbers: { A: 0, B: 0 }, because }]))).toContain(
      "two values have the same number",
    );
    expect(await inputError(() => irOf({ $defs: { N: { type: "string" } } }, [{ at: "/$defs/N", fallback: "x", because }]))).toContain(
      "apply to an enum, and this is a string",
    );
  });

  it("nameMembers moves inline members into $defs, named from their tag", async () => {
    const member = (method: string) => ({ type: "object", properties: { method: { const: method } }, required: ["method"] });
    const schema = effectiveSchema({ title: "Note", oneOf: [member("turn/started"), member("error/warning")] }, [
      { at: "/$defs/Note", nameMembers: { tag: "method", suffix: "Notification" }, because },
    ]).schema;
    expect(defs(schema)["Note"]).toEqual({
      title: "Note",
      oneOf: [{ $ref: "#/$defs/TurnStartedNotification" }, { $ref: "#/$defs/ErrorWarningNotification" }],
    });
    expect(defs(schema)["TurnStartedNotification"]).toEqual({ title: "TurnStartedNotification", ...member("turn/started") });
  });

  it("nameMembers refuses a member without a constant tag, and a name already taken", async () => {
    expect(
      await inputError(() =>
        effectiveSchema({ title: "Note", oneOf: [{ type: "object" }] }, [{ at: "/$defs/Note", nameMembers: { tag: "method" }, because }]),
      ),
    ).toContain('a member has no constant "method" to name it by');
    const taken = { title: "Note", oneOf: [{ properties: { kind: { const: "a" } } }], $defs: { A: {} } };
    expect(await inputError(() => effectiveSchema(taken, [{ at: "/$defs/Note", nameMembers: { tag: "kind" }, because }]))).toContain(
      'the name "A" for the member tagged "a" is taken',
    );
  });

  it("rename renames a named type in its place, and every ref to it or into it follows", async () => {
    const schema = {
      $ref: "#/$defs/Url",
      $defs: {
        Url: { type: "object", properties: { href: { type: "string" } } },
        Link: { type: "object", properties: { to: { $ref: "#/$defs/Url" }, href: { $ref: "#/$defs/Url/properties/href" } } },
      },
    };
    const renamed = effectiveSchema(schema, [{ at: "/$defs/Url", rename: "ProviderUrl", because }]).schema;
    expect(Object.keys(defs(renamed))).toEqual(["ProviderUrl", "Link"]);
    expect(renamed["$ref"]).toBe("#/$defs/ProviderUrl");
    expect(defs(renamed)["Link"]!["properties"]).toEqual({
      to: { $ref: "#/$defs/ProviderUrl" },
      href: { $ref: "#/$defs/ProviderUrl/properties/href" },
    });
    expect(irOf(schema, [{ at: "/$defs/Url", rename: "ProviderUrl", because }]).root).toBe("ProviderUrl");
  });

  it("rename moves an inline schema into $defs under the name, after the type that holds it", async () => {
    const schema = {
      $defs: {
        Card: { type: "object", properties: { provider: { type: "object", properties: { url: { type: "string" } } } } },
        Other: { type: "string" },
      },
    };
    const renamed = effectiveSchema(schema, [{ at: "/$defs/Card/properties/provider", rename: "Provider", because }]).schema;
    expect(Object.keys(defs(renamed))).toEqual(["Card", "Provider", "Other"]);
    expect(defs(renamed)["Card"]!["properties"]).toEqual({ provider: { $ref: "#/$defs/Provider" } });
    expect(defs(renamed)["Provider"]).toEqual({ type: "object", properties: { url: { type: "string" } } });
  });

  it("rename refuses a name taken, a name that is no type name, and a schema outside $defs", async () => {
    const schema = { type: "object", properties: { a: { type: "string" } }, $defs: { A: { type: "string" }, B: { type: "string" } } };
    expect(await inputError(() => effectiveSchema(schema, [{ at: "/$defs/A", rename: "B", because }]))).toBe(
      'schemas/overlays/test.json#/facts/0: the name "B" is taken by /$defs/B (at "/$defs/A")',
    );
    expect(await inputError(() => effectiveSchema(schema, [{ at: "/$defs/A", rename: "lower-case", because }]))).toBe(
      'schemas/overlays/test.json#/facts/0/rename: "rename" is the new name: a letter in upper case, then letters and digits (AgentProviderUrl)',
    );
    expect(await inputError(() => effectiveSchema(schema, [{ at: "", rename: "A2", because }]))).toBe(
      'schemas/overlays/test.json#/facts/0: only a schema in /$defs, or inside one, can be renamed (at "")',
    );
  });

  it("stamp marks a number field that builders may fill with the current time, through composition", async () => {
    const base = { type: "object", properties: { type: { type: "string" }, at: { type: "integer" } }, required: ["type"] };
    const event = { allOf: [{ $ref: "#/$defs/Base" }], properties: { type: { const: "PING" } }, unevaluatedProperties: false };
    const facts = [{ at: "/$defs/Base/properties/at", stamp: "unix-milliseconds", because }];
    expect(defs(effectiveSchema({ $defs: { Base: base } }, facts).schema)["Base"]!["properties"]).toEqual({
      type: { type: "string" },
      at: { type: "integer", "x-agentwire-stamp": "unix-milliseconds" },
    });
    const ir = irOf({ $defs: { Base: base, Ping: event } }, facts);
    const fields = (name: string) => (ir.types.find((type) => type.name === name)!.shape as ObjectShape).fields;
    expect(fields("Ping").map(({ name, stamp }) => [name, stamp])).toEqual([
      ["type", undefined],
      ["at", "unix-milliseconds"],
    ]);
  });

  it("stamp refuses a unit it does not know, and a field that cannot hold the time", async () => {
    const schema = { $defs: { E: { type: "object", properties: { at: { type: "string" } } } } };
    expect(await inputError(() => effectiveSchema(schema, [{ at: "/$defs/E/properties/at", stamp: "fortnights", because }]))).toBe(
      'schemas/overlays/test.json#/facts/0/stamp: "stamp" is the time\'s unit: unix-milliseconds',
    );
    expect(await inputError(() => irOf(schema, [{ at: "/$defs/E/properties/at", stamp: "unix-milliseconds", because }]))).toBe(
      "schemas/overlays/test.json#/facts/0/stamp: a field stamped with the time in milliseconds must be a number",
    );
  });

  it("nullIsAbsent makes each optional property that refuses null take it for absent, aliases alike; required ones and null values stay", () => {
    const frame = {
      type: "object",
      additionalProperties: false,
      properties: {
        id: { type: "string" },
        task: { description: "The task.", $ref: "#/$defs/Task" },
        statusUpdate: { type: "string" },
        data: { $ref: "#/$defs/Value" },
        note: { type: ["string", "null"] },
      },
      patternProperties: { "^(status_update)$": { type: "string" } },
      required: ["id"],
    };
    const facts = [
      { at: "", nullIsAbsent: true, because },
      { at: "/$defs/Frame", exactlyOne: ["task", "statusUpdate", "data"], because },
    ];
    const source = { $defs: { Frame: frame, Task: { type: "object" }, Value: { title: "Value" } } };
    const effective = effectiveSchema(source, facts);
    const written = defs(effective.schema)["Frame"]!;
    const absent = (schema: JsonObject) => ({ anyOf: [{ type: "null" }, schema], "x-agentwire-null-is-absent": true });
    expect(written["properties"]).toEqual({
      id: { type: "string" },
      task: { description: "The task.", ...absent({ $ref: "#/$defs/Task" }) },
      statusUpdate: absent({ type: "string" }),
      data: { $ref: "#/$defs/Value" },
      note: { type: ["string", "null"] },
    });
    expect(written["patternProperties"]).toEqual({ "^(status_update)$": absent({ type: "string" }) });
    // Present is present and not null, for the members whose null is absent; the alias still excludes its field.
    const notNull = (name: string) => ({ required: [name], properties: { [name]: { not: { type: "null" } } } });
    expect(written["oneOf"]).toEqual([
      notNull("task"),
      { anyOf: [notNull("statusUpdate"), notNull("status_update")] },
      { required: ["data"] },
    ]);
    expect(written["dependentSchemas"]).toEqual({ status_update: { not: { required: ["statusUpdate"] } } });
    // What the property held is located where the schema wrote it.
    expect(effective.provenance.locate("/$defs/Frame/properties/task/anyOf/1/$ref")).toMatchObject({
      file: "schemas/test.schema.json",
      pointer: "/$defs/Frame/properties/task/$ref",
    });
    const shape = irOf(source, facts).types[0]!.shape as KeyedUnionShape;
    expect(shape.kind).toBe("keyed-union");
    const flags = [...shape.members, ...shape.fields].map(({ name, shape, nullIsAbsent }) => [name, shape.kind, nullIsAbsent]);
    expect(flags).toEqual([
      ["task", "ref", true],
      ["statusUpdate", "string", true],
      ["data", "ref", undefined],
      ["id", "string", undefined],
      ["note", "nullable", undefined],
    ]);
  });

  it("nullIsAbsent leaves a property whose null the schema counts otherwise than its absence", () => {
    const facts = [{ at: "", nullIsAbsent: true, because }];
    const str = { type: "string" };
    const objects = {
      Counted: { type: "object", properties: { a: str }, maxProperties: 1 },
      Patterned: { type: "object", properties: { a: str, b: str }, patternProperties: { "^a": str } },
      Dependent: { type: "object", properties: { a: str, b: str }, dependentRequired: { a: ["b"] } },
    };
    const written = defs(effectiveSchema({ $defs: objects }, facts).schema);
    expect(written["Counted"]!["properties"]).toEqual({ a: str });
    expect(Object.keys((written["Patterned"]!["properties"] as JsonObject)["b"] as JsonObject)).toContain("anyOf");
    expect((written["Patterned"]!["properties"] as JsonObject)["a"]).toEqual(str);
    expect((written["Dependent"]!["properties"] as JsonObject)["a"]).toEqual(str);
    expect(Object.keys((written["Dependent"]!["properties"] as JsonObject)["b"] as JsonObject)).toContain("anyOf");
  });

  it("nullIsAbsent is a fact of the whole schema", async () => {
    expect(
      await inputError(() => effectiveSchema({ $defs: { A: { type: "object" } } }, [{ at: "/$defs/A", nullIsAbsent: true, because }])),
    ).toBe('schemas/overlays/test.json#/facts/0/at: "nullIsAbsent" is a fact of the whole schema: its "at" is ""');
  });

  it("annotate adds annotations and refuses assertions", async () => {
    const schema = effectiveSchema({ $defs: { Old: { type: "object" } } }, [
      { at: "/$defs/Old", annotate: { deprecated: true }, because },
    ]).schema;
    expect(defs(schema)["Old"]).toEqual({ type: "object", deprecated: true });
    expect(
      await inputError(() => effectiveSchema({ $defs: { Old: {} } }, [{ at: "/$defs/Old", annotate: { required: ["x"] }, because }])),
    ).toContain('schemas/overlays/test.json#/facts/0/annotate/required: "required" constrains values; an overlay only annotates');
  });
});

describe("overlay: the file", () => {
  const schema = { $defs: { A: { type: "object" } } };
  it.each([
    [
      { at: "/$defs/A", because },
      "a fact has exactly one of exactlyOne, required, fallback, enumNumbers, nameMembers, rename, stamp, annotate, nullIsAbsent; this one has 0",
    ],
    [{ at: "/$defs/A", because, fallback: "x", annotate: {} }, "this one has 2"],
    [{ at: "/$defs/A", fallback: "x" }, '#/facts/0/because: "because" must say where the prose states this fact'],
    [{ at: "$defs/A", fallback: "x", because }, '#/facts/0/at: "at" must be a JSON Pointer'],
    [{ at: "/$defs/B", fallback: "x", because }, '#/facts/0: nothing is there (at "/$defs/B")'],
    [{ at: "/$defs/A", fallback: "x", because, why: "" }, '#/facts/0/why: unknown key "why"'],
    [
      { at: "/$defs/A", nameMembers: { tag: "type", sufix: "Event" }, because },
      '#/facts/0/nameMembers/sufix: unknown key "sufix"\n  known keys: tag, prefix, suffix',
    ],
  ])("refuses %j", async (fact, message) => {
    expect(await inputError(() => effectiveSchema(schema, [fact]))).toContain(message);
  });
});
