import { defineConfig } from "vitest/config";
import { COUNTERS_FILE } from "./reliability/summary.js";
import { NO_TIME_LIMIT } from "./vitest.config.js";

// The reliability run (`pnpm test:reliability`): the slow attacks of
// reliability/ (crash loops, multi-process concurrency, an S3-compatible
// server) plus the fast ones of reliability/fast with more fuzz runs. It
// prints a summary of what was tried and verified at the end.
export default defineConfig({
  resolve: { conditions: ["@lance-nd/source"] },
  ssr: { resolve: { conditions: ["@lance-nd/source"] } },
  test: {
    include: ["reliability/**/*.test.ts"],
    globalSetup: ["test/setup/private-temp-folder.ts", "reliability/summary.ts"],
    setupFiles: ["test/setup/temp-folder-per-file.ts", "reliability/helpers/count-cases.ts"],
    env: { RELIABILITY_COUNTERS: COUNTERS_FILE, RELIABILITY_FUZZ_RUNS: "60", RUST_BACKTRACE: "0" },
    testTimeout: 0,
    hookTimeout: 0,
    expect: { poll: { timeout: NO_TIME_LIMIT } },
    pool: "forks",
    maxWorkers: 2,
  },
});
