import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

// One vitest run over every package. Workspace packages resolve to their
// `src/*.ts` through the "@lance-nd/source" export condition, so tests need no
// build step. The condition is private to this repository: no bundler turns
// it on for users (as Vite and webpack do with "development"). Under CI a
// JSON report is also written for the summary line.

/**
 * The longest wait a timer can be given (2^31 - 1 ms, 24.8 days): the limit
 * of a wait that has to have one, such as `expect.poll`'s (its 0 means "at
 * once", not "never").
 */
export const NO_TIME_LIMIT = 2 ** 31 - 1;

/**
 * The files that take longest (the most time of one worker in vitest's
 * JSON report of a CI run), slowest first. They start before the others: a
 * fresh clone has no record of durations, and vitest then starts the
 * biggest files first, which could leave one of these running alone at the
 * end of the run while the other worker has nothing left to do.
 */
const SLOWEST = [
  "packages/cli/test/rows/variable-groups.test.ts",
  "packages/cli/test/rows/rows-property.test.ts",
  "packages/cli/test/commands/help-examples.test.ts",
  "packages/cli/test/commands/import-remote.test.ts",
  "packages/cli/test/commands/object-store.test.ts",
  "packages/cli/test/commands/import-remote-concat.test.ts",
  "packages/lance-nd/test/import-claims/import-claim.test.ts",
  "packages/cli/test/rows/wide-import-memory.test.ts",
  "packages/cli/test/netcdf/round-trip.test.ts",
  "packages/cli/test/commands/rechunk-kill.test.ts",
  "packages/lance-nd/test/zarr-store/zarr-store.test.ts",
  "packages/lance-nd/test/read/detached.test.ts",
];

/** Vitest's order, with the {@link SLOWEST} files moved to the front (the sort is stable). */
class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => {
      const at = SLOWEST.findIndex((path) => file.moduleId.endsWith(path));
      return at < 0 ? SLOWEST.length : at;
    };
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  resolve: { conditions: ["@lance-nd/source"] },
  ssr: { resolve: { conditions: ["@lance-nd/source"] } },
  test: {
    include: ["packages/*/test/**/*.test.ts", "test/**/*.test.ts", "reliability/fast/**/*.test.ts"],
    // No time limit on a test or hook: a loaded machine decides how long
    // a test takes, never whether it passes (test/test-time-limits.test.ts).
    testTimeout: 0,
    hookTimeout: 0,
    expect: { poll: { timeout: NO_TIME_LIMIT } },
    globalSetup: ["test/setup/private-temp-folder.ts"],
    setupFiles: ["test/setup/temp-folder-per-file.ts"],
    // lancedb prints a Rust panic's backtrace on stderr when a call that a
    // test expects to fail panics inside the SDK (the error still reaches
    // the test); the message alone is enough.
    env: { RUST_BACKTRACE: "0" },
    pool: "forks",
    // Two test files at a time: most of a file's time is spent waiting on
    // Python oracles, the command line's child processes and the disk, so a
    // second worker keeps a 2-core machine busy. Nothing is shared between
    // files: each has its own temporary folder (setupFiles), servers listen
    // on free ports, the CLI's build and the netCDF fixtures are made under
    // a lock or renamed into place.
    maxWorkers: 2,
    sequence: { sequencer: SlowestFirst },
    reporters: process.env.CI ? ["default", ["json", { outputFile: ".tmp/vitest-report.json" }]] : ["default"],
  },
});
