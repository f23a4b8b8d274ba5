import * as prettier from "prettier";
import { describe, expect, it } from "vitest";
import { GeneratedFile } from "../../generator/emit/file.js";
import { generateTypes } from "../../generator/emit/types.js";
import { format } from "../../generator/format/index.js";
import type { JsonObject } from "../../generator/json.js";
import { namedIrOf } from "../helpers/in-memory.js";

/** The declarations `types.ts` gets for a schema, without the header. */
async function typesOf(schema: JsonObject, facts: JsonObject[] = []): Promise<string> {
  const file = new GeneratedFile("types.ts", ["header"]);
  generateTypes(file, namedIrOf(schema, facts));
  const text = format([{ path: file.path, module: file.toModule() }])[0]!.content;
  expect(await prettier.format(text, { parser: "typescript" })).toBe(text);
  return text.replace(/^\/\/ header\n\n/, "");
}

describe("emit: types", () => {
  it("gives pattern properties whose pattern is a plain prefix a template literal key, any other pattern any key", async () => {
    expect(
      await typesOf({
        $defs: {
          Extensible: {
            type: "object",
            properties: { id: { type: "string" } },
            patternProperties: { "^x-": { type: "integer" }, "^y_": { type: ["string", "null"] } },
            additionalProperties: false,
          },
          Matched: { type: "object", patternProperties: { "[0-9]$": { type: "string" } }, additionalProperties: false },
          Shadowed: { type: "object", properties: { "x-id": { type: "string" } }, patternProperties: { "^x-": { type: "integer" } } },
        },
      }),
    ).toBe(`export interface Extensible {
  id?: string;
  [key: \`x-\${string}\`]: number;
  [key: \`y_\${string}\`]: string | null;
}

export interface Matched {
  [key: string]: unknown;
}

export interface Shadowed {
  "x-id"?: string;
  [key: string]: unknown;
}
`);
  });

  it("prints an object as a flat interface, optional fields with ?, open ones with an index signature", async () => {
    expect(
      await typesOf({
        $defs: {
          Base: { type: "object", properties: { id: { type: "string", description: "Identifies it." } }, required: ["id"] },
          Event: {
            type: "object",
            description: "Something happened.",
            allOf: [{ $ref: "#/$defs/Base" }],
            properties: { type: { const: "STARTED" }, at: { type: "integer", minimum: 0 } },
            required: ["type"],
            unevaluatedProperties: false,
          },
        },
      }),
    ).toBe(`export interface Base {
  /** Identifies it. */
  id: string;
  [key: string]: unknown;
}

/** Something happened. */
export interface Event {
  type: "STARTED";
  /** @minimum 0 */
  at?: number;
  /** Identifies it. */
  id: string;
}
`);
  });

  it("prints an enum as a union of literals and the array of its values", async () => {
    expect(await typesOf({ $defs: { Role: { enum: ["user", "tool"], "x-enumDescriptions": { user: "A person." } } } }))
      .toBe(`/** - \`user\`: A person. */
export type Role = "user" | "tool";

/** Every value of {@link Role}, in the schema's order. */
export const RoleValues = ["user", "tool"] as const;
`);
  });

  it("breaks a long union one member per line", async () => {
    const values = ["developer", "system", "assistant", "user", "tool", "activity", "reasoning"];
    expect(await typesOf({ $defs: { Holder: { type: "object", properties: { role: { enum: values } } } } })).toBe(`export interface Holder {
  role?:
    | "developer"
    | "system"
    | "assistant"
    | "user"
    | "tool"
    | "activity"
    | "reasoning";
  [key: string]: unknown;
}
`);
  });

  it("prints a keyed union so that checking one member narrows", async () => {
    expect(
      await typesOf(
        {
          $defs: {
            Response: {
              type: "object",
              additionalProperties: false,
              properties: { task: { type: "string" }, message: { type: "number" }, tenant: { type: "string", description: "Who." } },
            },
          },
        },
        [{ at: "/$defs/Response", exactlyOne: ["task", "message"], because: "test" }],
      ),
    ).toBe(`export type Response =
  | {
      task: string;
      message?: never;
      /** Who. */
      tenant?: string;
    }
  | {
      message: number;
      task?: never;
      /** Who. */
      tenant?: string;
    };
`);
  });

  it("prints maps, nullable values, arrays of unions and unknown", async () => {
    expect(
      await typesOf({
        $defs: {
          Thing: {
            type: "object",
            properties: {
              scopes: { type: "object", additionalProperties: { type: "string" } },
              title: { type: ["string", "null"] },
              parts: { type: "array", items: { anyOf: [{ type: "string" }, { type: "number" }] } },
              data: true,
              never: false,
            },
          },
          Empty: { type: "object", additionalProperties: false },
        },
      }),
    ).toBe(`export interface Thing {
  scopes?: { [key: string]: string };
  title?: string | null;
  parts?: (string | number)[];
  data?: unknown;
  never?: never;
  [key: string]: unknown;
}

export interface Empty {}
`);
  });

  it("quotes keys that are not identifiers and escapes what descriptions hold", async () => {
    expect(
      await typesOf({
        $defs: {
          Odd: {
            type: "object",
            description: "Ends */ early? No.",
            properties: { "task-id": { type: "string" }, "": { const: 'it\'s "quoted"' }, class: { type: "boolean" } },
          },
        },
      }),
    ).toBe(`/** Ends *\\/ early? No. */
export interface Odd {
  "task-id"?: string;
  ""?: 'it\\'s "quoted"';
  class?: boolean;
  [key: string]: unknown;
}
`);
  });

  it("prints a tuple by position, optional where minItems allows fewer, then the rest unless closed", async () => {
    expect(
      await typesOf({
        $defs: {
          Pair: { type: "array", prefixItems: [{ type: "string" }, { type: "integer" }], items: false, minItems: 1 },
          Row: { type: "array", prefixItems: [{ type: "string" }, { type: ["string", "null"] }], items: { type: "number" }, minItems: 2 },
          Loose: { type: "array", prefixItems: [{ type: ["string", "number"] }], contains: { const: 1 } },
          Empty: { type: "array", items: false },
        },
      }),
    ).toBe(`/** @minItems 1 */
export type Pair = [string, number?];

/** @minItems 2 */
export type Row = [string, string | null, ...number[]];

export type Loose = [(string | number)?, ...unknown[]];

export type Empty = never[];
`);
  });
});
