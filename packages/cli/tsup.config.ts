import { defineConfig } from "tsup";

/**
 * The `lance-nd` command as two ESM files: dist/cli.js, the executable,
 * which sets LANCEDB_LOG and then imports dist/main.js, the whole program
 * (lancedb reads its log level when it loads, so it must load after).
 *
 * - Workspace packages (lance-nd, @lance-nd/*) are bundled from their
 *   `src/index.ts` (the "@lance-nd/source" export condition), so the CLI needs no
 *   build of the libraries first.
 * - Everything in this package's `dependencies` stays external (tsup's
 *   default): it is installed next to the CLI. Third-party code that only a
 *   workspace package imports (e.g. zod) is bundled.
 * - @lancedb/lancedb loads a native binary and h5wasm a .wasm file next to
 *   its JS: both must stay external and load from node_modules.
 * - apache-arrow stays external too, so the CLI, the workspace code and
 *   lancedb share the installed copy instead of carrying a second one.
 */
export default defineConfig({
  entry: { cli: "src/cli.ts", main: "src/main.ts" },
  outDir: "dist",
  format: ["esm"],
  platform: "node",
  target: "node20",
  bundle: true,
  splitting: false,
  sourcemap: true,
  clean: true,
  dts: false,
  banner: { js: "#!/usr/bin/env node" },
  noExternal: [/^@lance-nd\//, /^lance-nd$/],
  external: ["@lancedb/lancedb", "h5wasm", "apache-arrow", "./main.js"],
  esbuildOptions(options) {
    options.conditions = ["@lance-nd/source"];
  },
});
