// Kept only while overlay/index.ts, changed on another branch, imports the case converter from here; then deleted.
export { pascalCase } from "../identifiers.js";
