/**
 * netCDF-C's command line tools as oracles and fixture makers: `ncgen` and
 * `ncdump` (Debian package netcdf-bin), and the netCDF fixtures that
 * scripts/make-netcdf-fixtures.sh makes with ncgen.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { skipReason } from "./missing-oracle.js";
import { helperScript } from "./scripts.js";

/** The files scripts/make-netcdf-fixtures.sh makes. */
export const NETCDF_FIXTURES = [
  "ocean-classic.nc",
  "ocean-64bit.nc",
  "ocean-nc4.nc",
  "waves-nc4.nc",
  "corrupt.nc",
] as const;

/** The name of one file of {@link NETCDF_FIXTURES}. */
export type NetcdfFixtureName = (typeof NETCDF_FIXTURES)[number];

/** True when `command` runs (e.g. `ncgen`, `ncdump`). */
export function hasTool(command: string): boolean {
  return spawnSync(command, ["--version"], { stdio: "ignore" }).error === undefined;
}

/**
 * Why the tests that need ncgen and ncdump skip here, or undefined when they
 * run: the {@link skipReason} rule, so under `CI=true` a missing tool fails
 * the tests.
 */
export function netcdfToolsSkipReason(): string | undefined {
  const missing = hasTool("ncgen") && hasTool("ncdump") ? undefined : "ncgen or ncdump not found";
  return skipReason(
    missing === undefined ? undefined : `netCDF fixtures skipped: ${missing} (apt-get install netcdf-bin)`,
  );
}

/** Runs a tool (`ncgen`, `ncdump`) and returns its stdout; throws with its stderr when it fails. */
export function runTool(command: string, args: readonly string[]): string {
  const run = spawnSync(command, args, { encoding: "utf8" });
  if (run.error !== undefined || run.status !== 0)
    throw new Error(`${command} ${args.join(" ")} failed: ${run.error?.message ?? run.stderr}`);
  return run.stdout;
}

/** `ncdump` of a file (header and data) without its first line, which names the file. */
export function ncdumpBody(path: string): string {
  return runTool("ncdump", [path]).split("\n").slice(1).join("\n");
}

/** The format of a file as `ncdump -k` names it (`classic`, `64-bit offset`, `netCDF-4`). */
export function ncdumpKind(path: string): string {
  return runTool("ncdump", ["-k", path]).trim();
}

/**
 * Makes {@link NETCDF_FIXTURES} into `dir` with ncgen unless they are all
 * there (call it from `beforeAll`). Files appear whole: test processes
 * running it at once never see half a file.
 */
export function ensureNetcdfFixtures(dir: string): void {
  if (NETCDF_FIXTURES.every((f) => existsSync(join(dir, f)))) return;
  const run = spawnSync("bash", [helperScript("make-netcdf-fixtures.sh"), dir], { encoding: "utf8" });
  if (run.status !== 0) throw new Error(`make-netcdf-fixtures.sh failed: ${run.error?.message ?? run.stderr}`);
}
