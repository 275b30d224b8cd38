import { defineConfig } from "tsup";

/**
 * Two builds.
 *
 * 1. The `lance-nd` command as ESM files: dist/cli.js, the executable,
 *    which sets LANCEDB_LOG and then imports dist/main.js, the program
 *    (lancedb reads its log level when it loads, so it must load after).
 *    dist/run.js exports the program as a function, `run(argv, io)`: the
 *    tests keep it loaded in one process per test file (test/commands/
 *    harness.ts) instead of starting node for every command.
 *    Split into chunks: each command's module (commands/catalog.ts imports
 *    it when the command runs) is a chunk with its own imports, so
 *    `--version` and `--help` load none of lancedb, apache-arrow or h5wasm.
 *    - Workspace packages (lance-nd, @lance-nd/*) are bundled from their
 *      `src/index.ts` (the "@lance-nd/source" export condition), so the CLI needs
 *      no build of the libraries first.
 *    - Everything in this package's `dependencies` stays external (tsup's
 *      default): it is installed next to the CLI. Third-party code that only
 *      a workspace package imports (e.g. zod) is bundled.
 *    - @lancedb/lancedb loads a native binary and h5wasm a .wasm file next to
 *      its JS: both must stay external and load from node_modules.
 *    - apache-arrow stays external too, so the CLI, the workspace code and
 *      lancedb share the installed copy instead of carrying a second one.
 * 2. The page of `lance-nd view`: one browser script, dist/view/page.js,
 *    with everything bundled (apache-arrow and nd-arrow included: the codec
 *    runs in the browser, without Node). Each build cleans only its own files.
 */
export default defineConfig([
  {
    entry: { cli: "src/cli.ts", main: "src/main.ts", run: "src/run.ts" },
    outDir: "dist",
    format: ["esm"],
    platform: "node",
    target: "node20",
    bundle: true,
    splitting: true,
    sourcemap: true,
    clean: ["*.js", "*.js.map"],
    dts: false,
    banner: { js: "#!/usr/bin/env node" },
    noExternal: [/^@lance-nd\//, /^lance-nd$/],
    external: ["@lancedb/lancedb", "h5wasm", "apache-arrow", "./main.js"],
    esbuildOptions(options) {
      options.conditions = ["@lance-nd/source"];
    },
  },
  {
    entry: { page: "src/view/page/main.ts" },
    outDir: "dist/view",
    format: ["iife"],
    platform: "browser",
    target: "es2022",
    bundle: true,
    noExternal: [/.*/],
    minify: true,
    sourcemap: false,
    clean: true,
    dts: false,
    outExtension: () => ({ js: ".js" }),
    esbuildOptions(options) {
      options.conditions = ["@lance-nd/source"];
    },
  },
]);
