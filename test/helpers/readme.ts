import { readFileSync } from "node:fs";
import path from "node:path";
import { REPO } from "./project.js";

/** The repository's README, whose tables tests hold to what the code computes. */
export const readme = (): string => readFileSync(path.join(REPO, "README.md"), "utf8");

/** The audiences a change breaks in one category, as the README's tables write them. */
export const audiencesCell = (audiences: readonly string[]): string => (audiences.length === 2 ? "both" : (audiences[0] ?? "—"));
