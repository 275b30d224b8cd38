/**
 * The netCDF fixtures of the cli tests, made by @lance-nd/netcdf's
 * scripts/make-fixtures.sh with netCDF-C's ncgen.
 * Outside CI, tests that need them skip, with the reason printed, when a
 * tool is missing; under `CI=true` they run and fail.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const HERE = dirname(fileURLToPath(import.meta.url));

/** Where the generated fixtures live (git-ignored). */
export const FIXTURE_DIR = join(HERE, "fixtures", "generated");

const FILES = ["ocean-classic.nc", "ocean-64bit.nc", "ocean-nc4.nc", "waves-nc4.nc", "corrupt.nc"] as const;

/** The name of one generated fixture. */
export type FixtureName = (typeof FILES)[number];

/** True when `command` runs (e.g. `ncgen`, `ncdump`). */
export function hasTool(command: string): boolean {
  return spawnSync(command, ["--version"], { stdio: "ignore" }).error === undefined;
}

/**
 * Why the fixture tests cannot run here (ncgen or ncdump missing), or
 * undefined when they can, and always under `CI=true`, where a missing tool
 * fails the tests. Prints the reason once, so a skipped suite is visible in
 * the test output.
 */
export function fixtureSkipReason(): string | undefined {
  if (process.env.CI === "true" || (hasTool("ncgen") && hasTool("ncdump"))) return undefined;
  const reason = "netCDF fixtures skipped: ncgen or ncdump not found (apt-get install netcdf-bin)";
  console.warn(reason);
  return reason;
}

/** Runs the fixture script when a file is missing (call it from `beforeAll`). */
export function ensureFixtures(): void {
  if (FILES.every((f) => existsSync(join(FIXTURE_DIR, f)))) return;
  const run = spawnSync("bash", [join(HERE, "..", "..", "netcdf", "scripts", "make-fixtures.sh"), FIXTURE_DIR], {
    encoding: "utf8",
  });
  if (run.status !== 0) throw new Error(`make-fixtures.sh failed: ${run.stderr}`);
}

/** The path of one generated fixture. */
export function fixture(name: FixtureName): string {
  return join(FIXTURE_DIR, name);
}
