import { createRequire } from "node:module";
import { defineConfig, type Options } from "tsup";

type EsbuildPlugin = NonNullable<Options["esbuildPlugins"]>[number];

/**
 * `import ... from "apache-arrow"` in the command's files as the copy that
 * lancedb loads: Node gives an ESM import the package's ESM build and
 * lancedb's `require` its CommonJS build, two copies of the module (about
 * 0.2 s of CPU each to load, and classes that fail each other's
 * `instanceof`). The import becomes a `require` of the installed package,
 * whose names are listed here when the CLI is built.
 */
function arrowAsLancedbLoadsIt(): EsbuildPlugin {
  const names = Object.keys(createRequire(import.meta.url)("apache-arrow")).filter((name) => name !== "__esModule");
  return {
    name: "apache-arrow-as-lancedb-loads-it",
    setup(build) {
      build.onResolve({ filter: /^apache-arrow$/ }, () => ({ path: "apache-arrow", namespace: "commonjs-arrow" }));
      build.onLoad({ filter: /.*/, namespace: "commonjs-arrow" }, () => ({
        contents: [
          'import { createRequire } from "node:module";',
          'const arrow = createRequire(import.meta.url)("apache-arrow");',
          `export const { ${names.join(", ")} } = arrow;`,
        ].join("\n"),
        loader: "js",
      }));
    },
  };
}

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
 *    - dist/blosc-worker.js is @lance-nd/zarr's blosc worker, which its pool
 *      starts from beside the bundled code (packages/zarr/src/blosc-pool.ts).
 *    - Everything in this package's `dependencies` stays external (tsup's
 *      default): it is installed next to the CLI. Third-party code that only
 *      a workspace package imports (e.g. zod) is bundled.
 *    - @lancedb/lancedb loads a native binary and h5wasm a .wasm file next to
 *      its JS: both must stay external and load from node_modules.
 *    - apache-arrow is loaded as lancedb loads it, with `require`, so the
 *      CLI, the workspace code and lancedb share one installed copy
 *      ({@link arrowAsLancedbLoadsIt}).
 * 2. The page of `lance-nd view`: one browser script, dist/view/page.js,
 *    with everything bundled (apache-arrow and nd-arrow included: the codec
 *    runs in the browser, without Node). Each build cleans only its own files.
 */
export default defineConfig([
  {
    entry: { cli: "src/cli.ts", main: "src/main.ts", run: "src/run.ts", "blosc-worker": "../zarr/src/blosc-worker.ts" },
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
    noExternal: [/^@lance-nd\//, /^lance-nd$/, /^apache-arrow$/],
    external: ["@lancedb/lancedb", "h5wasm", "./main.js"],
    esbuildPlugins: [arrowAsLancedbLoadsIt()],
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
