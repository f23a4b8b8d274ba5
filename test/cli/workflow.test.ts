import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { load as parseYaml } from "js-yaml";
import { describe, expect, it } from "vitest";
import { demoProject, eventsSchema, REPO } from "../helpers/project.js";

/**
 * The example workflow, `.github/workflows/bindings.yml`, as CI would run it: its steps'
 * scripts are run by bash in a project with a git history, with `npx agentwire` standing
 * for this repository's bin, and GitHub's variables set as the runner sets them.
 */

interface Step {
  readonly name?: string;
  readonly run?: string;
  readonly env?: Readonly<Record<string, string>>;
}
interface Workflow {
  readonly on: { readonly pull_request: { readonly types: readonly string[] } };
  readonly jobs: Readonly<Record<string, { readonly steps: readonly Step[] }>>;
}

const workflow = parseYaml(readFileSync(path.join(REPO, ".github/workflows/bindings.yml"), "utf8")) as Workflow;
const steps = Object.values(workflow.jobs).flatMap((job) => job.steps);
const step = (name: string): Step => {
  const found = steps.find((candidate) => candidate.name === name);
  if (found?.run === undefined) throw new Error(`no step "${name}" with a script in the workflow`);
  return found;
};

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.email=test@example.com", "-c", "user.name=Test", "-c", "init.defaultBranch=main", ...args], {
    cwd,
    stdio: "pipe",
  });

/**
 * A pull request's checkout: main has the base version of the schema (as origin/main), the
 * branch another; by default the branch gains an event.
 */
function pullRequest(base = eventsSchema(["Started", "Finished"]), branch = eventsSchema(["Started", "Finished", "Paused"])): string {
  const root = demoProject(base);
  execFileSync(process.execPath, [path.join(REPO, "bin/agentwire.js"), "generate"], { cwd: root, stdio: "pipe" });
  git(root, "init", "-q");
  git(root, "add", "-A");
  git(root, "commit", "-qm", "v1");
  git(root, "update-ref", "refs/remotes/origin/main", "HEAD");
  writeFileSync(path.join(root, "schemas/demo.schema.json"), JSON.stringify(branch));
  return root;
}

/** Runs a step's script as the runner does (bash -e), `npx agentwire` being this repository's bin. */
function runStep(
  root: string,
  script: string,
  env: Readonly<Record<string, string>>,
): { status: number | null; summary: string; output: string } {
  const summary = path.join(root, "summary.md");
  writeFileSync(summary, "");
  const bin = path.join(REPO, "bin/agentwire.js");
  const result = spawnSync("bash", ["-e", "-c", script.replaceAll("npx agentwire", `node ${JSON.stringify(bin)}`)], {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, ...env, GITHUB_STEP_SUMMARY: summary },
  });
  return { status: result.status, summary: readFileSync(summary, "utf8"), output: result.stdout + result.stderr };
}

describe("the example workflow", () => {
  const diff = step("the schema changes break no consumer");

  it("fails a pull request whose schema change breaks consumers, with the table in the job summary", () => {
    const { status, summary, output } = runStep(pullRequest(), diff.run!, { BASE_REF: "main", FAIL_ON: "wire,source" });
    expect(status, output).toBe(1);
    expect(summary).toMatch(/^\*\*agentwire diff\*\*: 2 changes, 1 breaking, in demo\.\n\n\| protocol \| change \|/);
    expect(summary).toContain(
      '| demo | Event: gains the member Paused (type "PAUSED") | `member-added` | `/$defs/Event` | breaks **receivers** | breaks **receivers** | compatible |',
    );
  });

  it("passes a change of behaviour alone, and writes it in the table for a reviewer", () => {
    const withDefault = (id: string) => {
      const schema = eventsSchema(["Started", "Finished"]) as { $defs: { Started: { properties: Record<string, object> } } };
      schema.$defs.Started.properties["id"] = { type: "string", default: id };
      return schema;
    };
    const root = pullRequest(withDefault("run-0"), withDefault("run-1"));
    const { status, summary, output } = runStep(root, diff.run!, { BASE_REF: "main", FAIL_ON: "wire,source" });
    expect(status, output).toBe(0);
    expect(summary).toContain(
      "| `default-changed` | `/$defs/Started/properties/id` | compatible | compatible | breaks **receivers** and **producers** |",
    );
  });

  it("passes one labelled breaking-change, and still writes the table", () => {
    expect(diff.env?.["FAIL_ON"]).toBe(
      "${{ contains(github.event.pull_request.labels.*.name, 'breaking-change') && 'none' || 'wire,source' }}",
    );
    expect(workflow.on.pull_request.types).toEqual(expect.arrayContaining(["labeled", "unlabeled"]));
    const { status, summary, output } = runStep(pullRequest(), diff.run!, { BASE_REF: "main", FAIL_ON: "none" });
    expect(status, output).toBe(0);
    expect(summary).toContain("| `member-added` |");
  });

  it("checks generated/ and the pins with agentwire check", () => {
    const root = pullRequest();
    const { status, output } = runStep(root, step("the bindings match the schemas").run!, {});
    expect(status).toBe(1);
    expect(output).toContain("demo: schemas/demo.schema.json changed since it was pinned");
  });
});
