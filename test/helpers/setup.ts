import { afterAll } from "vitest";
import { removeScratchFolders } from "./scratch.js";

// Run before every test file (vitest's setupFiles), so each file's scratch folders go when
// it ends. A module-level afterAll in a helper would run after a worker's first file only,
// since the files of a worker share their modules (isolate: false).
afterAll(removeScratchFolders);
