import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { generate } from "../../generator/pipeline.js";
import { guardName, handlersName, matchName, partialMatchName } from "../../generator/name/rules.js";
import type { KeyedUnionShape, NamedType, TaggedUnionShape } from "../../generator/ir/model.js";
import type { JsonObject } from "../../generator/json.js";
import { CONFIG_FILE, configFor, demoProject } from "../helpers/project.js";
import { generatedIndex } from "../helpers/generated.js";
import { PROTOCOLS, protocol } from "../helpers/protocols.js";
import { Random, SampleMaker } from "../helpers/samples.js";

type Match = (
  value: unknown,
  handlers: Record<string, (...args: unknown[]) => unknown>,
  otherwise?: (value: unknown) => unknown,
) => unknown;

interface UnmatchedError extends Error {
  readonly union: string;
  readonly tag: unknown;
}

/** Handlers that say which of them was called, and with what. */
function recordingHandlers(keys: readonly string[]): Record<string, (...args: unknown[]) => unknown> {
  return Object.fromEntries(keys.map((key) => [key, (...args: unknown[]) => ({ handler: key, args })]));
}

/**
 * Every match helper calls the handler of the value's member, with the member (and for a
 * keyed union, the member's value first); the partial form sends the rest to its fallback;
 * a value of a member this version does not know throws UnmatchedError naming its tag.
 */
describe.each(PROTOCOLS)("the match helpers of %s", (name) => {
  it("dispatch every member to its handler, and the rest to the fallback", async () => {
    const { ir } = await protocol(name);
    const index = await generatedIndex(name);
    const unions = ir.types.filter(
      (type): type is NamedType & { shape: TaggedUnionShape | KeyedUnionShape } =>
        type.shape.kind === "tagged-union" || type.shape.kind === "keyed-union",
    );
    expect(unions.length).toBeGreaterThan(0);
    const samples = new SampleMaker(ir, new Random(0x3a7c));
    for (const type of unions) {
      const match = index[matchName(type.name)] as Match;
      const partial = index[partialMatchName(type.name)] as Match;
      const shape = type.shape;
      const keys =
        shape.kind === "tagged-union" ? shape.members.map((member) => String(member.value)) : shape.members.map((member) => member.name);
      const handlers = recordingHandlers(keys);
      const some = recordingHandlers(keys.filter((_, i) => i % 2 === 0));
      const otherwise = (value: unknown) => ({ handler: "otherwise", args: [value] });
      keys.forEach((key, i) => {
        const value = shape.kind === "tagged-union" ? samples.valid(shape.members[i]!.shape) : samples.variant(shape, shape.members[i]!);
        expect(value, `${type.name} ${key}`).toBeDefined();
        expect((index[guardName(type.name)] as (value: unknown) => boolean)(value)).toBe(true);
        const args = shape.kind === "tagged-union" ? [value] : [(value as JsonObject)[key], value];
        expect(match(value, handlers)).toEqual({ handler: key, args });
        expect(partial(value, handlers, otherwise)).toEqual({ handler: key, args });
        expect(partial(value, some, otherwise)).toEqual(i % 2 === 0 ? { handler: key, args } : { handler: "otherwise", args: [value] });
        expect(partial(value, {}, otherwise)).toEqual({ handler: "otherwise", args: [value] });
        // Untyped code that leaves a handler out gets the typed error, not "undefined is not a function".
        const { [key]: _left, ...incomplete } = handlers;
        expect(() => match(value, incomplete)).toThrow(expect.objectContaining({ name: "UnmatchedError", union: type.name }));
      });

      // A member this version does not know: a tag, or a member key, that the schema does not have.
      const unknown: JsonObject = shape.kind === "tagged-union" ? { [shape.tag]: "SOMETHING_NEWER" } : { somethingNewer: {} };
      expect(partial(unknown, handlers, otherwise)).toEqual({ handler: "otherwise", args: [unknown] });
      let thrown: UnmatchedError | undefined;
      try {
        match(unknown, handlers);
      } catch (error) {
        thrown = error as UnmatchedError;
      }
      expect(thrown).toBeInstanceOf(index["UnmatchedError"] as typeof Error);
      expect(thrown).toMatchObject({ union: type.name, tag: shape.kind === "tagged-union" ? "SOMETHING_NEWER" : ["somethingNewer"] });
      expect(thrown!.message).toBe(
        shape.kind === "tagged-union"
          ? `no ${type.name} handler for ${shape.tag} "SOMETHING_NEWER"`
          : `no ${type.name} handler for a value with properties ["somethingNewer"]`,
      );
    }
    // Each union has its handlers' interface: a type, so nothing at run time.
    for (const type of unions) expect(index[handlersName(type.name)]).toBeUndefined();
  });
});

describe("assertNever", () => {
  it("throws, naming the value, when a value the types ruled out reaches it", async () => {
    const { assertNever } = (await generatedIndex("ag-ui")) as unknown as { assertNever: (value: never, what?: string) => never };
    expect(() => assertNever({ type: "NEW" } as never, "event")).toThrow('unexpected event: {"type":"NEW"}');
    expect(() => assertNever(10n as never)).toThrow("unexpected value: 10");
  });
});

/** A tag value or member name that is not a plain identifier still dispatches, and never to what every object inherits. */
describe("match helpers of unions with unusual tags", () => {
  const member = (name: string, tag: string | number) => ({
    type: "object",
    properties: { kind: { const: tag }, [name]: { type: "string" } },
    required: ["kind"],
    additionalProperties: false,
  });
  const schema = {
    $ref: "#/$defs/Odd",
    $defs: {
      Odd: { oneOf: ["Ctor", "ToString", "Dashed", "Numbered"].map((name) => ({ $ref: `#/$defs/${name}` })) },
      Ctor: member("c", "constructor"),
      ToString: member("t", "toString"),
      Dashed: member("d", "a-b c"),
      Numbered: member("n", 7),
      Inherited: {
        type: "object",
        properties: { constructor: { type: "string" }, hasOwnProperty: { type: "string" }, "odd key": { type: "string" } },
        additionalProperties: false,
      },
    },
  };
  const overlay = {
    facts: [{ at: "/$defs/Inherited", exactlyOne: ["constructor", "hasOwnProperty", "odd key"], because: "a test of names" }],
  };

  it("dispatch on each, and send an object with none of its own to the fallback", async () => {
    const root = demoProject(schema, {
      [CONFIG_FILE]: configFor([{ name: "demo", schema: "schemas/demo.schema.json", overlays: ["schemas/overlays/demo.json"] }]),
      "schemas/overlays/demo.json": overlay,
    });
    const { files } = await generate(root);
    for (const file of files) {
      mkdirSync(path.dirname(path.join(root, "generated", file.path)), { recursive: true });
      writeFileSync(path.join(root, "generated", file.path), file.content);
    }
    const demo = (await import(path.join(root, "generated/src/demo/index.ts"))) as Record<string, Match>;
    const handlers = recordingHandlers(["constructor", "toString", "a-b c", "7"]);
    for (const value of [{ kind: "constructor" }, { kind: "toString" }, { kind: "a-b c", d: "x" }, { kind: 7 }])
      expect(demo["matchOdd"]!(value, handlers)).toEqual({ handler: String(value.kind), args: [value] });
    const otherwise = () => "otherwise";
    expect(demo["matchOddPartial"]!({ kind: "constructor" }, {}, otherwise)).toBe("otherwise");
    expect(demo["matchOddPartial"]!({ kind: "toString" }, {}, otherwise)).toBe("otherwise");

    const inherited = recordingHandlers(["constructor", "hasOwnProperty", "odd key"]);
    expect(demo["matchInherited"]!({ constructor: "c" }, inherited)).toEqual({ handler: "constructor", args: ["c", { constructor: "c" }] });
    expect(demo["matchInherited"]!({ "odd key": "o" }, inherited)).toEqual({ handler: "odd key", args: ["o", { "odd key": "o" }] });
    expect(demo["matchInheritedPartial"]!({ hasOwnProperty: "h" }, {}, otherwise)).toBe("otherwise");
    // A plain object inherits constructor and hasOwnProperty: neither is its member.
    expect(demo["matchInheritedPartial"]!({}, inherited, otherwise)).toBe("otherwise");
    expect(() => demo["matchInherited"]!({}, inherited)).toThrow("no Inherited handler for a value with properties []");
    const built = (demo["createInheritedConstructor"] as unknown as (value: string) => unknown)("c");
    expect(built).toEqual({ constructor: "c" });
  });
});
