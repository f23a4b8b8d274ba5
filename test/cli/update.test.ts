import { createHash } from "node:crypto";
import { lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import type { AddressInfo } from "node:net";
import { createServer } from "node:http";
import type { Server } from "node:http";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { run, snapshot } from "../helpers/cli.js";
import { CONFIG_FILE, configFor, eventsSchema, makeProject } from "../helpers/project.js";

const schema = (names: readonly string[]) => `${JSON.stringify(eventsSchema(names), null, 2)}\n`;
const V1 = schema(["Started", "Finished"]);
const V2 = schema(["Started", "Finished", "Paused"]);
const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/** What the upstream server on 127.0.0.1 answers, by path. */
const ROUTES: Readonly<Record<string, (port: number) => { status: number; headers?: Record<string, string>; body?: string | Buffer }>> = {
  "/v1.json": () => ({ status: 200, body: V1 }),
  "/v2.json": () => ({ status: 200, headers: { "content-type": "application/schema+json" }, body: V2 }),
  "/moved": () => ({ status: 302, headers: { location: "/v2.json" } }),
  "/elsewhere": (port) => ({ status: 302, headers: { location: `http://localhost:${port}/v2.json` } }),
  "/text-first": () => ({ status: 200, body: `Demo event schema, version 2\n${V2}` }),
  "/html": () => ({ status: 200, body: "<!doctype html>\n<title>Not here</title>\n" }),
  "/missing": () => ({ status: 404 }),
  "/huge": () => ({ status: 200, headers: { "content-length": String(11 * 1024 * 1024) }, body: Buffer.alloc(11 * 1024 * 1024, 0x20) }),
  // No length given: the body is cut off as it arrives.
  "/endless": () => ({ status: 200, headers: { "transfer-encoding": "chunked" }, body: Buffer.alloc(11 * 1024 * 1024, 0x20) }),
};

let server: Server;
let port = 0;
/** A port on 127.0.0.1 that nothing listens on. */
let closedPort = 0;
beforeAll(async () => {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  closedPort = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  server = createServer((request, response) => {
    const route = ROUTES[request.url ?? ""];
    if (route === undefined) return void response.writeHead(404).end();
    const { status, headers = {}, body } = route(port);
    response.writeHead(status, headers).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** A project vendoring V1 of "demo" from `upstream` (a path on the test server, or a URL). */
function project(upstream: string): string {
  const url = urlOf(upstream);
  return makeProject({
    [CONFIG_FILE]: `${JSON.stringify(configFor([{ name: "demo", schema: "schemas/demo.schema.json", upstream: url, sha256: sha256(V1) }]), null, 2)}\n`,
    "schemas/demo.schema.json": V1,
    "v2.schema.json": V2,
  });
}

/** A path on the test server, "closed" for a port nothing listens on, or a URL as it is. */
function urlOf(upstream: string): string {
  if (upstream === "closed") return `http://127.0.0.1:${closedPort}/schema.json`;
  return upstream.startsWith("/") ? `http://127.0.0.1:${port}${upstream}` : upstream;
}

describe("agentwire update", () => {
  it("re-vendors a changed upstream: prints the diff, records the sha256, regenerates", async () => {
    const root = project("/v2.json");
    await run(root, "generate");
    const { code, out } = await run(root, "update", "demo");
    expect(code).toBe(0);
    expect(out).toContain('demo: 2 changes (1 breaking, 1 compatible)\n\n  breaking\n    Event: gains the member Paused (type "PAUSED")');
    expect(out).toContain(`demo: updated schemas/demo.schema.json to sha256 ${sha256(V2)}\nregenerated 16 files\n`);
    expect(readFileSync(path.join(root, "schemas/demo.schema.json"), "utf8")).toBe(V2);
    expect(readFileSync(path.join(root, CONFIG_FILE), "utf8")).toContain(`"sha256": "${sha256(V2)}"`);
    expect(readFileSync(path.join(root, "generated/src/demo/types.ts"), "utf8")).toContain("export interface Paused {");
    expect(await run(root, "check")).toMatchObject({ code: 0 });
    expect(await run(root, "update")).toMatchObject({ code: 0, out: `demo: up to date with http://127.0.0.1:${port}/v2.json\n` });
  });

  it("with --check changes nothing, and exits 1 when upstream differs, 0 when it does not", async () => {
    const root = project("/v2.json");
    await run(root, "generate");
    const before = snapshot(root);
    const { code, out, err } = await run(root, "update", "--check");
    expect(code).toBe(1);
    expect(out).toContain('Event: gains the member Paused (type "PAUSED")');
    expect(err).toBe("1 vendored schema differs from upstream. Run `agentwire update` to take it.\n");
    expect(snapshot(root)).toEqual(before);
    expect(await run(project("/v1.json"), "update", "--check")).toMatchObject({ code: 0 });
  });

  it("follows a redirect on the same host, and reads file: URLs relative to the config", async () => {
    expect(await run(project("/moved"), "update")).toMatchObject({ code: 0 });
    const local = project("file:v2.schema.json");
    expect(await run(local, "update")).toMatchObject({ code: 0 });
    expect(readFileSync(path.join(local, "schemas/demo.schema.json"), "utf8")).toBe(V2);
  });

  it("removes a line of text before the JSON, and says so", async () => {
    const root = project("/text-first");
    const { code, out } = await run(root, "update");
    expect(code).toBe(0);
    expect(out).toMatch(/^demo: removed 1 line of text before the JSON\n/);
    expect(readFileSync(path.join(root, "schemas/demo.schema.json"), "utf8")).toBe(V2);
  });

  it.each([
    ["/missing", (url: string) => `${url}: HTTP 404 Not Found`],
    ["/elsewhere", (url: string) => `${url}: redirected to http://localhost:${port}, another host`],
    ["/html", (url: string) => `${url}:1:1: invalid JSON`],
    ["/huge", (url: string) => `${url}: the body is ${11 * 1024 * 1024} bytes, more than the 10485760 a schema may have`],
    ["/endless", (url: string) => `${url}: the body is more than the 10485760 bytes a schema may have`],
    ["closed", (url: string) => `${url}: cannot fetch: ECONNREFUSED`],
    ["http://example.com/schema.json", (url: string) => `${url}: http: is not allowed`],
  ])("refuses %s with exit 2 and leaves everything as it was", async (upstream, message) => {
    const root = project(upstream);
    await run(root, "generate");
    const before = snapshot(root);
    const { code, err } = await run(root, "update");
    expect(code).toBe(2);
    expect(err).toContain(message(urlOf(upstream)));
    expect(snapshot(root)).toEqual(before);
  });

  it("fetches every upstream before writing: each failure is reported, and nothing changes unless all succeed", async () => {
    const entry = (name: string, upstream: string) => ({
      name,
      schema: `schemas/${name}.schema.json`,
      upstream: urlOf(upstream),
      sha256: sha256(V1),
    });
    const root = makeProject({
      [CONFIG_FILE]: `${JSON.stringify(configFor([entry("alpha", "/missing"), entry("beta", "/v2.json"), entry("gamma", "closed")]), null, 2)}\n`,
      "schemas/alpha.schema.json": V1,
      "schemas/beta.schema.json": V1,
      "schemas/gamma.schema.json": V1,
    });
    await run(root, "generate");
    const before = snapshot(root);
    const { code, err } = await run(root, "update");
    expect(code).toBe(2);
    expect(err).toBe(
      [
        `agentwire update: agentwire.config.json#/protocols/0/upstream: ${urlOf("/missing")}: HTTP 404 Not Found`,
        `agentwire update: agentwire.config.json#/protocols/2/upstream: ${urlOf("closed")}: cannot fetch: ECONNREFUSED`,
        "2 of 3 upstreams failed; nothing was changed.",
        "",
      ].join("\n"),
    );
    expect(snapshot(root)).toEqual(before);
    // One protocol, by name, when its own upstream answers.
    const { code: one, out } = await run(root, "update", "beta");
    expect(one).toBe(0);
    expect(out).toContain(`beta: updated schemas/beta.schema.json to sha256 ${sha256(V2)}`);
    expect(readFileSync(path.join(root, "schemas/alpha.schema.json"), "utf8")).toBe(V1);
    expect(readFileSync(path.join(root, "schemas/beta.schema.json"), "utf8")).toBe(V2);
  });

  it("refuses an upstream whose schema the generator cannot take, and writes nothing", async () => {
    const root = makeProject({
      [CONFIG_FILE]: configFor([{ name: "demo", schema: "schemas/demo.schema.json", upstream: "file:bad.json" }]),
      "schemas/demo.schema.json": V1,
      "bad.json": { $defs: { A: { type: "string", pattern: "([a-z]" } } },
    });
    await run(root, "generate");
    const before = snapshot(root);
    const { code, err } = await run(root, "update");
    expect(code).toBe(2);
    expect(err).toContain("schemas/demo.schema.json#/$defs/A/pattern: invalid pattern");
    expect(snapshot(root)).toEqual(before);
  });

  it("refuses a protocol it does not know or that has no upstream", async () => {
    expect((await run(project("/v2.json"), "update", "nope")).err).toContain(
      'agentwire update: no protocol "nope" in agentwire.config.json',
    );
    const root = makeProject({
      [CONFIG_FILE]: configFor([{ name: "demo", schema: "schemas/demo.schema.json" }]),
      "schemas/demo.schema.json": V1,
    });
    expect(await run(root, "update", "demo")).toMatchObject({ code: 2 });
    expect(await run(root, "update")).toMatchObject({ code: 0, out: "no protocol in agentwire.config.json has an upstream URL\n" });
  });

  describe("the files it reads and writes stay in the project", () => {
    const elsewhere = mkdtempSync(path.join(tmpdir(), "agentwire-elsewhere-"));
    afterAll(() => rmSync(elsewhere, { recursive: true, force: true }));
    writeFileSync(path.join(elsewhere, "exists.json"), V2);

    it("refuses a file: upstream outside the project in the same words whether the file exists or not", async () => {
      const answers: string[] = [];
      for (const upstream of [
        `file://${elsewhere}/exists.json`,
        `file://${elsewhere}/missing.json`,
        `file:${path.relative(path.join(tmpdir(), "x"), elsewhere)}/exists.json`,
        "file:../exists.json",
        "file:///etc/hostname",
        "file:///nonexistent/file.json",
        "file://example.com/schema.json",
      ]) {
        const root = project(upstream);
        const before = snapshot(root);
        const { code, err } = await run(root, "update");
        expect(code, upstream).toBe(2);
        expect(snapshot(root)).toEqual(before);
        answers.push(err.replace(upstream, "<upstream>"));
      }
      // And through a link of the project that leads out of it, to a file that exists and to one that does not.
      for (const target of ["exists.json", "missing.json"]) {
        const root = project("file:link.json");
        symlinkSync(path.join(elsewhere, target), path.join(root, "link.json"));
        answers.push((await run(root, "update")).err.replace("file:link.json", "<upstream>"));
      }
      expect(new Set(answers)).toEqual(
        new Set([
          "agentwire update: agentwire.config.json#/protocols/0/upstream: <upstream>: is outside the project\n  a file: upstream names a file of the project, relative to the config; anything else is fetched by https:\n1 of 1 upstream failed; nothing was changed.\n",
        ]),
      );
    });

    it("reads a file: upstream inside the project, and says when there is none", async () => {
      expect(await run(project("file:v2.schema.json"), "update")).toMatchObject({ code: 0 });
      expect((await run(project("file:none.json"), "update")).err).toContain("file:none.json: cannot read: no such file\n");
    });

    it("writes nothing through a vendored schema that is a link out of the project", async () => {
      const root = project("/v2.json");
      const outside = path.join(elsewhere, "vendored.json");
      writeFileSync(outside, V1);
      unlinkSync(path.join(root, "schemas/demo.schema.json"));
      symlinkSync(outside, path.join(root, "schemas/demo.schema.json"));
      const { code, err } = await run(root, "update");
      expect(code).toBe(2);
      expect(err).toContain(
        `"schemas/demo.schema.json" leads outside the project: schemas/demo.schema.json is a symbolic link to ${outside}`,
      );
      expect(readFileSync(outside, "utf8")).toBe(V1);
    });

    it("updates the file a link inside the project leads to, keeps the link, and changes nothing when generation fails", async () => {
      const linked = () => {
        const root = project("/v2.json");
        // Out of schemas/, to another folder of the project.
        mkdirSync(path.join(root, "vendor/versions"), { recursive: true });
        writeFileSync(path.join(root, "vendor/versions/current.json"), V1);
        unlinkSync(path.join(root, "schemas/demo.schema.json"));
        symlinkSync("../vendor/versions/current.json", path.join(root, "schemas/demo.schema.json"));
        return root;
      };
      const root = linked();
      expect(await run(root, "update")).toMatchObject({ code: 0 });
      expect(lstatSync(path.join(root, "schemas/demo.schema.json")).isSymbolicLink()).toBe(true);
      expect(readFileSync(path.join(root, "vendor/versions/current.json"), "utf8")).toBe(V2);
      expect(await run(root, "check")).toMatchObject({ code: 0 });

      const failing = linked();
      writeFileSync(path.join(failing, "bad.json"), JSON.stringify({ $defs: { A: { type: "string", pattern: "([a-z]" } } }));
      const config = path.join(failing, CONFIG_FILE);
      writeFileSync(config, readFileSync(config, "utf8").replace(/"upstream": "[^"]*"/, '"upstream": "file:bad.json"'));
      const before = snapshot(failing);
      expect(await run(failing, "update")).toMatchObject({ code: 2 });
      expect(snapshot(failing)).toEqual(before);
    });
  });
});
