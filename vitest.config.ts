import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Removes each test file's scratch folders when it ends.
    setupFiles: ["test/helpers/setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // A worker per core, not one fewer as by default: on two cores that halves the time,
    // since many files wait on child processes (tsc, npm, git) as much as they compute.
    maxWorkers: availableParallelism(),
    // Worker threads start and load the generated modules faster than child processes, and
    // a worker's test files share the modules they import rather than each loading its own
    // copy of the generated package: npm test 91 s → 68 s on this machine on a slow day.
    // No test changes what another imports (the one console spy restores itself); the
    // suite passes with its files in any order (--sequence.shuffle.files).
    pool: "threads",
    isolate: false,
  },
});
