import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Io } from "../../generator/cli/main.js";
import { main } from "../../generator/cli/main.js";
import { eventsSchema } from "../helpers/project.js";
import { scratchFolder } from "../helpers/scratch.js";

/** A project of plain sources with two protocols, each a schema of its own. */
function project(): string {
  const root = scratchFolder("agentwire-watch-");
  mkdirSync(path.join(root, "schemas"));
  writeFileSync(path.join(root, "schemas/alpha.schema.json"), JSON.stringify(eventsSchema(["Started", "Finished"])));
  writeFileSync(path.join(root, "schemas/beta.schema.json"), JSON.stringify(eventsSchema(["Opened"])));
  writeFileSync(
    path.join(root, "agentwire.config.json"),
    JSON.stringify({
      protocols: [
        { name: "alpha", schema: "schemas/alpha.schema.json" },
        { name: "beta", schema: "schemas/beta.schema.json" },
      ],
      output: { folder: "src/protocols" },
    }),
  );
  return root;
}

/** `agentwire generate --watch` running in a folder: what it has printed so far, and how to stop it. */
function watching(cwd: string) {
  let printed = "";
  const stop = new AbortController();
  const io: Io = { cwd, signal: stop.signal, out: (text) => void (printed += `${text}\n`), err: (text) => void (printed += `${text}\n`) };
  const code = main(["generate", "--watch"], io);
  return {
    printed: () => printed,
    /** Waits until the output has a line matching `pattern` after the first `skip` characters; returns where it ended. */
    async until(pattern: RegExp, skip = 0): Promise<number> {
      for (;;) {
        const match = pattern.exec(printed.slice(skip));
        if (match !== null) return skip + match.index + match[0].length;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    async stop(): Promise<number> {
      stop.abort();
      return code;
    },
  };
}

describe("agentwire generate --watch", () => {
  it("regenerates on a schema edit, printing what changed; a bad edit prints its error, writes nothing, and the watch goes on", async () => {
    const root = project();
    const watch = watching(root);
    let at = await watch.until(/watching for changes/);
    expect(watch.printed()).toMatch(
      /^alpha {2}3 types, 1 union, 8 files\nbeta {3}2 types, 0 unions, 7 files\nalpha: pinned .*\nbeta: pinned .*\ngenerated 20 files in \d+ ms\n/,
    );
    const types = path.join(root, "src/protocols/alpha/types.ts");
    expect(readFileSync(types, "utf8")).not.toContain("Paused");

    writeFileSync(path.join(root, "schemas/alpha.schema.json"), JSON.stringify(eventsSchema(["Started", "Finished", "Paused"])));
    at = await watch.until(/generated \d+ files in \d+ ms\n/, at);
    expect(watch.printed()).toContain("schemas/alpha.schema.json changed\nalpha: pinned schemas/alpha.schema.json at sha256 ");
    expect(watch.printed()).toContain("src/protocols/alpha/types.ts\n");
    // Only what the edit changed is rewritten: beta's files are not listed.
    expect(watch.printed()).not.toContain("src/protocols/beta/");
    expect(readFileSync(types, "utf8")).toContain("Paused");

    writeFileSync(path.join(root, "schemas/alpha.schema.json"), "{ broken");
    at = await watch.until(/watching for the next change\n/, at);
    expect(watch.printed()).toContain("agentwire generate: schemas/alpha.schema.json:1:3: invalid JSON");
    expect(readFileSync(types, "utf8")).toContain("Paused");

    // A protocol dropped from the config: its folder goes with the next generation.
    writeFileSync(
      path.join(root, "agentwire.config.json"),
      JSON.stringify({ protocols: [{ name: "beta", schema: "schemas/beta.schema.json" }], output: { folder: "src/protocols" } }),
    );
    at = await watch.until(/generated \d+ files in \d+ ms\n/, at);
    expect(watch.printed()).toContain("agentwire.config.json changed\n");
    expect(watch.printed()).toContain("src/protocols/alpha/types.ts (removed)");
    expect(existsSync(path.join(root, "src/protocols/alpha"))).toBe(false);
    expect(await watch.stop()).toBe(0);
  });

  it("watches a schema the config names before it exists, and generates once it does", async () => {
    const root = project();
    rmSync(path.join(root, "schemas/beta.schema.json"));
    const watch = watching(root);
    const at = await watch.until(/watching for the next change\n/);
    expect(watch.printed()).toContain("cannot read schemas/beta.schema.json");
    writeFileSync(path.join(root, "schemas/beta.schema.json"), JSON.stringify(eventsSchema(["Opened"])));
    await watch.until(/generated 20 files in \d+ ms\n/, at);
    expect(existsSync(path.join(root, "src/protocols/beta/index.ts"))).toBe(true);
    expect(await watch.stop()).toBe(0);
  });
});
