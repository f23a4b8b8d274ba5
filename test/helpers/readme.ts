import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { REPO } from "./project.js";

/**
 * A page of the documentation, README.md or a file of docs/ (`docs/diff.md`), whose tables and
 * examples tests hold to what the code computes.
 */
export const doc = (file: string): string => readFileSync(path.join(REPO, file), "utf8");

/** The repository's README. */
export const readme = (): string => doc("README.md");

/** Every page of the documentation: README.md, then the pages of docs/ by name. */
export const docPages = (): string[] => [
  "README.md",
  ...readdirSync(path.join(REPO, "docs"))
    .filter((file) => file.endsWith(".md"))
    .sort()
    .map((file) => `docs/${file}`),
];

/** The TypeScript examples (```ts blocks) of every page, in order, each with its page. */
export const tsExamples = (): { file: string; source: string }[] =>
  docPages().flatMap((file) => [...doc(file).matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((match) => ({ file, source: match[1]! })));

/**
 * The audiences a change breaks in one category, as the documentation's tables write them:
 * `both` for receivers and producers, `strict receivers` for the strict ones alone, `—` for
 * no one. Of several changes, one that breaks every receiver covers one that breaks the strict ones.
 */
export function audiencesCell(audiences: readonly string[]): string {
  const whom = audiences.includes("receivers") ? audiences.filter((audience) => audience !== "strict-receivers") : audiences;
  if (whom.length === 0) return "—";
  if (whom.length === 2 && whom[0] === "receivers") return "both";
  return whom.map((audience) => audience.replace("-", " ")).join(" and ");
}
