// Bundles the built generator (build/generator/, as tsc writes it) into build/bundle/: the
// command's entry and the API's, each with the modules it loads in one file and the
// commands it loads on demand in chunks of their own. Node's ES module loader costs about
// half a millisecond a module, and the generator is 150 of them: a cold `agentwire check`
// loaded in 90 ms what the bundle loads in 20. Run by `npm run build:generator`; given a
// folder, bundles that folder's build/ (a test's private copy of the command) instead.
import path from "node:path";
import { build } from "vite";

const REPO = path.resolve(import.meta.dirname, "..");
const root = path.resolve(process.argv[2] ?? REPO);
const { dependencies } = (await import("../package.json", { with: { type: "json" } })).default;
const external = Object.keys(dependencies);

await build({
  root,
  configFile: false,
  logLevel: "warn",
  build: {
    ssr: true,
    target: "node20",
    outDir: "build/bundle",
    emptyOutDir: true,
    minify: false,
    reportCompressedSize: false,
    rollupOptions: {
      input: { index: "build/generator/index.js", "cli/main": "build/generator/cli/main.js" },
      external: (id) => id.startsWith("node:") || external.some((name) => id === name || id.startsWith(`${name}/`)),
      output: { format: "es", entryFileNames: "[name].js", chunkFileNames: "[name]-[hash].js" },
    },
  },
});
