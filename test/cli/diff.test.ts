import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { run } from "../helpers/cli.js";
import { CONFIG_FILE, configFor, demoProject, eventsSchema, makeProject } from "../helpers/project.js";

/** A project whose "demo" schema is version 1, and a version 2 beside it that gains an event. */
function project(): string {
  return demoProject(eventsSchema(["Started", "Finished"]), { "v2.json": eventsSchema(["Started", "Finished", "Paused"]) });
}

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.email=test@example.com", "-c", "user.name=Test", "-c", "init.defaultBranch=main", ...args], {
    cwd,
    stdio: "pipe",
  });

describe("agentwire diff", () => {
  it("lists the changes between two files by severity, and exits 1 on a breaking one", async () => {
    const root = project();
    const { code, out } = await run(root, "diff", "schemas/demo.schema.json", "v2.json");
    expect(out).toBe(
      [
        "demo: 2 changes (1 breaking, 1 compatible)",
        "",
        "  breaking",
        '    Event: gains the member Paused (type "PAUSED")',
        "      member-added at /$defs/Event",
        "      wire: breaks receivers: older receivers do not accept the member; tolerant decoders report it as unrecognized",
        "      source: breaks receivers: an exhaustive match stops compiling until it handles the member",
        "",
        "  compatible",
        "    Paused: added",
        "      type-added at /$defs/Paused",
        "",
      ].join("\n"),
    );
    expect(code).toBe(1);
  });

  it("exits as --fail-on says, and prints JSON with --json", async () => {
    const root = project();
    expect((await run(root, "diff", "schemas/demo.schema.json", "v2.json", "--fail-on", "none")).code).toBe(0);
    expect((await run(root, "diff", "schemas/demo.schema.json", "schemas/demo.schema.json", "--fail-on", "any")).code).toBe(0);
    expect((await run(root, "diff", "v2.json", "schemas/demo.schema.json", "--fail-on", "any")).code).toBe(1);
    const { code, out } = await run(root, "diff", "--json", "schemas/demo.schema.json", "v2.json");
    expect(code).toBe(1);
    expect(JSON.parse(out)).toEqual({
      protocols: [
        {
          protocol: "demo",
          changes: [
            {
              kind: "member-added",
              pointer: "/$defs/Event",
              message: 'Event: gains the member Paused (type "PAUSED")',
              breaks: { wire: ["receivers"], source: ["receivers"], behaviour: [] },
              why: {
                wire: "older receivers do not accept the member; tolerant decoders report it as unrecognized",
                source: "an exhaustive match stops compiling until it handles the member",
              },
              severity: "breaking",
            },
            {
              kind: "type-added",
              pointer: "/$defs/Paused",
              message: "Paused: added",
              breaks: { wire: [], source: [], behaviour: [] },
              why: {},
              severity: "compatible",
            },
          ],
        },
      ],
    });
  });

  it("says a field added to a closed object breaks strict receivers, and fails on it unless --fail-on names tolerant ones", async () => {
    const v2 = eventsSchema(["Started"]) as { $defs: { Started: { properties: Record<string, object> } } };
    v2.$defs.Started.properties["note"] = { type: "string" };
    const root = demoProject(eventsSchema(["Started"]), { "v2.json": v2 });
    const { code, out } = await run(root, "diff", "schemas/demo.schema.json", "v2.json");
    expect(out).toBe(
      [
        "demo: 1 change (1 breaking)",
        "",
        "  breaking",
        '    Started: optional field "note" added',
        "      field-added-optional-to-closed-object at /$defs/Started/properties/note",
        "      wire: breaks strict receivers: older strict receivers refuse a property their closed object does not declare; tolerant ones drop it",
        "",
      ].join("\n"),
    );
    expect(code).toBe(1);
    const exit = async (failOn: string) => (await run(root, "diff", "schemas/demo.schema.json", "v2.json", `--fail-on=${failOn}`)).code;
    expect([await exit("wire:strict-receivers"), await exit("wire:receivers"), await exit("wire:tolerant-receivers")]).toEqual([1, 1, 0]);
    const markdown = await run(root, "diff", "--format=markdown", "schemas/demo.schema.json", "v2.json");
    expect(markdown.out).toContain(
      "| `field-added-optional-to-closed-object` | `/$defs/Started/properties/note` | breaks **strict receivers** | compatible | compatible |",
    );
  });

  it("fails on a category and audience as --fail-on says, on wire and source breaks by default", async () => {
    // v2 gives the id a maximum length (a wire break for producers) and a changed default (a break of behaviour).
    const version = (maxLength: number | undefined, level: string) => {
      const schema = eventsSchema(["Started"]) as { $defs: { Started: { properties: Record<string, object> } } };
      schema.$defs.Started.properties["id"] = { type: "string", ...(maxLength === undefined ? {} : { maxLength }) };
      schema.$defs.Started.properties["level"] = { type: "string", default: level };
      return schema;
    };
    const root = demoProject(version(undefined, "info"), {
      "wire.json": version(8, "info"),
      "behaviour.json": version(undefined, "debug"),
    });
    const exit = async (file: string, ...failOn: string[]) => (await run(root, "diff", "schemas/demo.schema.json", file, ...failOn)).code;
    expect([await exit("wire.json"), await exit("behaviour.json")]).toEqual([1, 0]);
    expect([await exit("wire.json", "--fail-on=source"), await exit("wire.json", "--fail-on=wire:receivers")]).toEqual([0, 0]);
    expect([await exit("wire.json", "--fail-on=wire:producers"), await exit("wire.json", "--fail-on=breaking")]).toEqual([1, 1]);
    expect([
      await exit("behaviour.json", "--fail-on=behaviour"),
      await exit("behaviour.json", "--fail-on=source,behaviour:producers"),
    ]).toEqual([1, 1]);
    const { out } = await run(root, "diff", "--format=markdown", "schemas/demo.schema.json", "behaviour.json");
    expect(out).toBe(
      [
        "**agentwire diff**: 1 change, 0 breaking, 1 of behaviour, in demo.",
        "",
        "| protocol | change | kind | pointer | wire | source | behaviour |",
        "| --- | --- | --- | --- | --- | --- | --- |",
        '| demo | Started.level: defaults to "debug", was "info" | `default-changed` | `/$defs/Started/properties/level` | compatible | compatible | breaks **receivers** and **producers** |',
        "",
      ].join("\n"),
    );
  });

  it("prints a summary line and a table for a pull request with --format markdown", async () => {
    const root = project();
    const { code, out } = await run(root, "diff", "--format=markdown", "schemas/demo.schema.json", "v2.json");
    expect(code).toBe(1);
    expect(out).toBe(
      [
        "**agentwire diff**: 2 changes, 1 breaking, in demo.",
        "",
        "| protocol | change | kind | pointer | wire | source | behaviour |",
        "| --- | --- | --- | --- | --- | --- | --- |",
        '| demo | Event: gains the member Paused (type "PAUSED") | `member-added` | `/$defs/Event` | breaks **receivers** | breaks **receivers** | compatible |',
        "| demo | Paused: added | `type-added` | `/$defs/Paused` | compatible | compatible | compatible |",
        "",
      ].join("\n"),
    );
    const same = await run(root, "diff", "--format", "markdown", "schemas/demo.schema.json", "schemas/demo.schema.json");
    expect(same).toMatchObject({ code: 0, out: "**agentwire diff**: no changes to demo.\n" });
  });

  it("names the untitled roots of two files alike, so they pair with each other", async () => {
    const root = (required: string[]) => ({ type: "object", properties: { id: { type: "string" } }, required });
    const dir = makeProject({ "release-1.json": root([]), "release-2.json": root(["id"]) });
    const { out } = await run(dir, "diff", "release-1.json", "release-2.json", "--format=json");
    expect(
      (JSON.parse(out) as { protocols: { changes: { message: string }[] }[] }).protocols[0]!.changes.map(({ message }) => message),
    ).toEqual(["Release2.id: now required"]);
  });

  it("reads options as --opt value and as --opt=value alike", async () => {
    const root = project();
    const spaced = await run(root, "diff", "--fail-on", "none", "--format", "json", "schemas/demo.schema.json", "v2.json");
    const joined = await run(root, "diff", "--fail-on=none", "--format=json", "schemas/demo.schema.json", "v2.json");
    expect(joined).toEqual(spaced);
    expect(joined.code).toBe(0);
    expect(JSON.parse(joined.out)).toMatchObject({ protocols: [{ protocol: "demo" }] });
  });

  it("reads both files with the overlays of the protocol whose vendored schema one of them is, or the one named", async () => {
    const frame = { type: "object", properties: { task: { type: "string" }, message: { type: "string" } } };
    const { message: _dropped, ...withoutMessage } = frame.properties;
    const root = makeProject({
      [CONFIG_FILE]: configFor([{ name: "frames", schema: "schemas/frames.schema.json", overlays: ["schemas/overlays/frames.json"] }]),
      "schemas/frames.schema.json": { $defs: { Frame: frame } },
      "schemas/overlays/frames.json": { facts: [{ at: "/$defs/Frame", exactlyOne: ["task", "message"], because: "test" }] },
      "old.json": { $defs: { Frame: frame } },
      "next.json": { $defs: { Frame: { ...frame, properties: withoutMessage } } },
    });
    // The overlay's exactlyOne names "message", which the next version no longer has.
    const overlaid = 'schemas/overlays/frames.json#/facts/0: "message" is not a property of that schema (at "/$defs/Frame")';
    expect(await run(root, "diff", "schemas/frames.schema.json", "next.json")).toMatchObject({
      code: 2,
      err: `agentwire diff: ${overlaid}\n`,
    });
    expect(await run(root, "diff", "--protocol", "frames", "old.json", "next.json")).toMatchObject({
      code: 2,
      err: `agentwire diff: ${overlaid}\n`,
    });
    // Files of no protocol are read as they are: the message field is simply gone.
    const plain = await run(root, "diff", "old.json", "next.json");
    expect(plain.out).toContain('Frame: field "message" removed');
    expect(await run(root, "diff", "--protocol", "nope", "old.json", "next.json")).toMatchObject({ code: 2 });
  });

  it("reads the URL refs of two files through the project's remotes", async () => {
    const root = makeProject({
      [CONFIG_FILE]: configFor([], { remotes: { "https://example.com/": "schemas/vendored/" } }),
      "schemas/vendored/id.json": { type: "string", minLength: 1 },
      "old.json": { $defs: { Thing: { type: "object", properties: { id: { $ref: "https://example.com/id.json" } } } } },
      "next.json": { $defs: { Thing: { type: "object", properties: { id: { type: "string" } } } } },
    });
    const { code, out } = await run(root, "diff", "old.json", "next.json");
    expect(out).toContain("Id: removed");
    expect(code).toBe(1);
  });

  it("compares every protocol at a git revision with the working tree", async () => {
    const root = project();
    git(root, "init", "-q");
    git(root, "add", "-A");
    git(root, "commit", "-qm", "v1");
    writeFileSync(path.join(root, "schemas/demo.schema.json"), readFileSync(path.join(root, "v2.json")));
    const { code, out } = await run(root, "diff", "--since=HEAD", "--fail-on", "none");
    expect(code).toBe(0);
    expect(out).toContain('demo: 2 changes (1 breaking, 1 compatible)\n\n  breaking\n    Event: gains the member Paused (type "PAUSED")');
    // A protocol added since is one change, compatible.
    const config = configFor([
      { name: "demo", schema: "schemas/demo.schema.json" },
      { name: "more", schema: "schemas/more.schema.json" },
    ]);
    writeFileSync(path.join(root, CONFIG_FILE), JSON.stringify(config));
    writeFileSync(path.join(root, "schemas/more.schema.json"), JSON.stringify({ type: "string" }));
    const { out: added } = await run(root, "diff", "--since", "HEAD");
    expect(added).toContain("more: 1 change (1 compatible)\n\n  compatible\n    more: added\n      protocol-added at the root");
  });

  it("reads the config at the revision and the folders of the files it names, wherever the project is in the repository", async () => {
    const repository = makeProject({
      [`tools/bindings/${CONFIG_FILE}`]: configFor([{ name: "demo", schema: "specs/v1/demo.json", overlays: ["facts/demo.json"] }]),
      "tools/bindings/specs/v1/demo.json": { ...eventsSchema(["Started", "Finished"]), $ref: "parts/root.json" },
      "tools/bindings/specs/v1/parts/root.json": { type: "object" },
      "tools/bindings/facts/demo.json": { facts: [] },
      "tools/bindings/specs/v2/demo.json": eventsSchema(["Started", "Finished", "Paused"]),
    });
    const root = path.join(repository, "tools/bindings");
    git(repository, "init", "-q");
    git(repository, "add", "-A");
    git(repository, "commit", "-qm", "v1");
    // The protocol moves to the next version's folder: the revision's config still names the first.
    const config = configFor([{ name: "demo", schema: "specs/v2/demo.json", overlays: ["facts/demo.json"] }]);
    writeFileSync(path.join(root, CONFIG_FILE), JSON.stringify(config));
    const { code, out, err } = await run(path.join(root, "specs"), "diff", "--since", "HEAD", "--fail-on", "none");
    expect(err).toBe("");
    expect(code).toBe(0);
    // The revision's schema refs a file below its folder, read from git too; the next version has no Root.
    expect(out).toContain("demo: 3 changes (2 breaking, 1 compatible)\n\n  breaking\n    Root: removed\n");
    expect(out).toContain('    Event: gains the member Paused (type "PAUSED")\n');
  });

  it("names the revision in problems with that version, and refuses a revision git does not know", async () => {
    const root = project();
    git(root, "init", "-q");
    writeFileSync(path.join(root, "schemas/demo.schema.json"), '{ "type": "string",, }');
    git(root, "add", "-A");
    git(root, "commit", "-qm", "broken");
    writeFileSync(path.join(root, "schemas/demo.schema.json"), JSON.stringify({ type: "string" }));
    const broken = await run(root, "diff", "--since", "HEAD");
    expect(broken.code).toBe(2);
    expect(broken.err).toContain("agentwire diff: HEAD:schemas/demo.schema.json:1:20: invalid JSON");
    const unknown = await run(root, "diff", "--since", "no-such-branch");
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain("agentwire diff: no-such-branch: cannot read this revision");
  });

  it.each([
    [["only-one.json"], "give two schema files, OLD and NEW, or --since REVISION"],
    [["a.json", "b.json", "--since", "HEAD"], "give either OLD NEW or --since, not both"],
    [
      ["a.json", "b.json", "--fail-on", "sometimes"],
      '--fail-on is any, none, or a list of wire, source, behaviour or breaking, each alone or with :receivers, :strict-receivers, :tolerant-receivers, :producers; not "sometimes"',
    ],
    [["a.json", "b.json", "--frobnicate"], 'unknown option "--frobnicate"'],
    [["--since"], "--since needs a value"],
    [["--json=yes", "a.json", "b.json"], "--json takes no value"],
    [["--format", "html", "a.json", "b.json"], '--format is text, markdown or json, not "html"'],
    [["--json", "--format", "markdown", "a.json", "b.json"], "--json is --format json, not markdown"],
  ])("refuses %j with exit 2 and the usage", async (args, problem) => {
    const { code, err } = await run(project(), "diff", ...args);
    expect(code).toBe(2);
    expect(err).toContain(`agentwire diff: ${problem}\n\nUsage: agentwire diff OLD NEW`);
  });

  it("reports a file that cannot be read or parsed with exit 2", async () => {
    const root = project();
    const missing = await run(root, "diff", "schemas/demo.schema.json", "nope.json");
    expect(missing.code).toBe(2);
    expect(missing.err).toBe(
      "agentwire diff: nope.json: cannot read nope.json: no such file\n  vendor the file there, or correct the path\n",
    );
  });
});
