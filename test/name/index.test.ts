import { describe, expect, it } from "vitest";
import { InputError } from "../../generator/errors.js";
import { memberBuilderNames, nameIr } from "../../generator/name/index.js";
import type { Field, Shape } from "../../generator/ir/model.js";
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

  it("are refused when another export would have the same name", () => {
    const resolved = effectiveSchema(
      {
        $defs: {
          Pay: { type: "object", properties: { card: { type: "string" }, bank: { type: "string" } } },
          PayCard: { type: "object", required: ["kind"], properties: { kind: { const: "card" } } },
        },
      },
      [{ at: "/$defs/Pay", exactlyOne: ["card", "bank"], because: "test" }],
    );
    const check = () => nameIr(normalize(resolved), resolved);
    expect(check).toThrow(InputError);
    expect(check).toThrow('"createPayCard" would name both the builder of member "card" of Pay and the builder of PayCard');
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
