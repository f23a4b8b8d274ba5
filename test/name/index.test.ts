import { describe, expect, it } from "vitest";
import { memberBuilderNames, nameIr } from "../../generator/name/index.js";
import type { Field, Shape } from "../../generator/ir/model.js";
import { RUNTIME_NAMES } from "../../generator/resolve/naming.js";
import { normalize } from "../../generator/normalize/index.js";
import { generatedIndex } from "../helpers/generated.js";
import { effectiveSchema, namedIrOf } from "../helpers/in-memory.js";

const member = (name: string, shape: Shape = { kind: "string" }): Field => ({ name, shape, required: false, doc: {}, pointer: "" });
const ref = (name: string): Shape => ({ kind: "ref", name });

describe("the names of keyed union members' builders", () => {
  it("are create, the union and the member's property name in PascalCase", () => {
    expect(
      memberBuilderNames("StreamResponse", [member("task", ref("Task")), member("statusUpdate", ref("TaskStatusUpdateEvent"))]),
    ).toEqual(["createStreamResponseTask", "createStreamResponseStatusUpdate"]);
    expect(memberBuilderNames("Part", [member("text"), member("raw"), member("url"), member("data", ref("Value"))])).toEqual([
      "createPartText",
      "createPartRaw",
      "createPartUrl",
      "createPartData",
    ]);
  });

  it("spell the member as its type does where the two differ only in case, and drop the union's name at its end", () => {
    expect(
      memberBuilderNames("SecurityScheme", [
        member("apiKeySecurityScheme", ref("APIKeySecurityScheme")),
        member("oauth2SecurityScheme", ref("OAuth2SecurityScheme")),
        member("mtlsSecurityScheme", ref("MutualTlsSecurityScheme")),
      ]),
    ).toEqual(["createSecuritySchemeAPIKey", "createSecuritySchemeOAuth2", "createSecuritySchemeMtls"]);
  });

  it("keep the union's name where dropping it would leave nothing or give two members one name", () => {
    expect(memberBuilderNames("Scheme", [member("scheme", ref("Scheme")), member("other")])).toEqual([
      "createSchemeScheme",
      "createSchemeOther",
    ]);
    expect(memberBuilderNames("Scheme", [member("key"), member("keyScheme"), member("oauth2Scheme")])).toEqual([
      "createSchemeKey",
      "createSchemeKeyScheme",
      "createSchemeOauth2",
    ]);
  });

  it("are what the A2A package exports, one per member", async () => {
    const a2a = await generatedIndex("a2a");
    const builders = Object.keys(a2a).filter((name) =>
      /^create(SecurityScheme|OAuthFlows|Part|StreamResponse|SendMessageResponse)[A-Z]/.test(name),
    );
    expect(builders.sort()).toEqual([
      "createOAuthFlowsAuthorizationCode",
      "createOAuthFlowsClientCredentials",
      "createOAuthFlowsDeviceCode",
      "createOAuthFlowsImplicit",
      "createOAuthFlowsPassword",
      "createPartData",
      "createPartRaw",
      "createPartText",
      "createPartUrl",
      "createSecuritySchemeAPIKey",
      "createSecuritySchemeHTTPAuth",
      "createSecuritySchemeMtls",
      "createSecuritySchemeOAuth2",
      "createSecuritySchemeOpenIdConnect",
      "createSendMessageResponseMessage",
      "createSendMessageResponseTask",
      "createStreamResponseArtifactUpdate",
      "createStreamResponseMessage",
      "createStreamResponseStatusUpdate",
      "createStreamResponseTask",
    ]);
  });

  it("are qualified where another export, claimed first, has the same name", () => {
    const resolved = effectiveSchema(
      {
        $defs: {
          Pay: { type: "object", properties: { card: { type: "string" }, bank: { type: "string" } } },
          PayCard: { type: "object", required: ["kind"], properties: { kind: { const: "card" } } },
        },
      },
      [{ at: "/$defs/Pay", exactlyOne: ["card", "bank"], because: "test" }],
    );
    const ir = nameIr(normalize(resolved), resolved);
    expect(ir.names.get("Pay")!.memberBuilders).toEqual(["createPayCard", "createPayBank"]);
    expect(ir.names.get("PayCard")!.builder).toBe("createPayCard1");
  });
});

describe("the names of what is exported for a type", () => {
  it("give way to a definition that has them, with the first numeric suffix nothing has", () => {
    const ir = namedIrOf({
      $defs: {
        Mode: { enum: ["a", "b"] },
        ModeValues: { type: "string" },
        Task: { type: "object" },
        isTask: { type: "boolean" },
        validateTask: { type: "boolean" },
        isTask1: { type: "boolean" },
      },
    });
    const of = (name: string) => ir.names.get(name)!;
    expect(of("Mode").values).toBe("ModeValues1");
    expect([of("Task").guard, of("Task").validator, of("Task").decoder]).toEqual(["isTask2", "validateTask1", "decodeTask"]);
    expect([of("isTask").guard, of("isTask1").guard]).toEqual(["isIsTask", "isIsTask1"]);
  });

  it("give the Standard Schema TSchema, qualified as the others where a definition has that name", () => {
    const ir = namedIrOf({
      $defs: { Event: { type: "object" }, EventSchema: { type: "string" }, Role: { enum: ["a"] } },
    });
    const of = (name: string) => ir.names.get(name)!;
    expect([of("Event").standard, of("EventSchema").standard, of("Role").standard]).toEqual([
      "EventSchema1",
      "EventSchemaSchema",
      "RoleSchema",
    ]);
  });

  it("are each one name in the module: no two exports, nor a runtime's, share one", () => {
    const ir = namedIrOf({
      $defs: {
        deployment: { type: "object", required: ["kind"], properties: { kind: { const: "a" } } },
        Deployment: { type: "object", required: ["kind"], properties: { kind: { const: "b" } } },
        Fields: { enum: ["x"] },
        BuildOptions: { oneOf: [{ type: "string" }, { type: "number" }] },
      },
    });
    const exported = [...ir.names.values()].flatMap((declared) => [
      declared.type,
      declared.guard,
      declared.validator,
      declared.decoder,
      declared.standard,
      ...(declared.values === undefined ? [] : [declared.values]),
      ...(declared.builder === undefined ? [] : [declared.builder]),
      ...(declared.match === undefined ? [] : [declared.match.exhaustive, declared.match.partial, declared.match.handlers]),
    ]);
    expect(new Set(exported).size).toBe(exported.length);
    for (const name of RUNTIME_NAMES) expect(exported).not.toContain(name);
    expect([...ir.names.keys()]).toEqual(["deployment", "Deployment2", "Fields2", "BuildOptions2"]);
  });

  it("refuse a rename onto an export of the runtime, which only an overlay can ask for", () => {
    const resolved = effectiveSchema({ $defs: { Options: { type: "object" } } }, [
      { at: "/$defs/Options", rename: "BuildOptions", because: "test" },
    ]);
    expect(() => nameIr(normalize(resolved), resolved)).toThrow(
      '"BuildOptions" would name both the definition BuildOptions and a type the runtime exports',
    );
  });
});

describe("the names of the functions a module keeps to itself", () => {
  it("are qualified where an export has them, and stay apart from each other", () => {
    const tagged = (tag: string) => ({ type: "object", properties: { kind: { const: tag } }, required: ["kind"] });
    const ir = namedIrOf({
      $defs: {
        Foo: { oneOf: [tagged("a"), tagged("b")] },
        readFoo: { type: "string" },
        checkFoo: { type: "string" },
        unmatchedFoo: { type: "string" },
        Foo1: { type: "number" },
      },
    });
    const of = (name: string) => ir.names.get(name)!;
    // Foo1's functions keep the names they prefer, so Foo's take the next suffix.
    expect([of("Foo").check, of("Foo").reader, of("Foo").match?.unmatched]).toEqual(["checkFoo2", "readFoo2", "unmatchedFoo1"]);
    expect([of("Foo1").check, of("Foo1").reader]).toEqual(["checkFoo1", "readFoo1"]);
    expect([of("readFoo").reader, of("checkFoo").check]).toEqual(["readReadFoo", "checkCheckFoo"]);
  });
});
