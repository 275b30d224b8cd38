import { defineConfig } from "vitest/config";

// One vitest run over every package. Workspace packages resolve to their
// `src/*.ts` through the "development" export condition, so tests need no
// build step. Under CI a JSON report is also written for the summary line.
export default defineConfig({
  resolve: { conditions: ["development"] },
  ssr: { resolve: { conditions: ["development"] } },
  test: {
    include: ["packages/*/test/**/*.test.ts", "test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    reporters: process.env.CI ? ["default", ["json", { outputFile: ".tmp/vitest-report.json" }]] : ["default"],
  },
});
