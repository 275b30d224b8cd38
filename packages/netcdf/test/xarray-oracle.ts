/**
 * xarray as the oracle of this package's tests: the fixtures of
 * scripts/make-xarray-fixtures.py and files as xarray sees them
 * (scripts/xarray-dump.py, decode_cf=False). Outside CI the tests skip with
 * the reason when /usr/bin/python3 lacks xarray; under `CI=true` they fail.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const PYTHON = "/usr/bin/python3";
const SCRIPTS = fileURLToPath(new URL("../scripts/", import.meta.url));

/** Why xarray cannot be the oracle here (undefined when it can, and always under CI). */
export function xarraySkipReason(): string | undefined {
  if (process.env.CI === "true") return undefined;
  if (spawnSync(PYTHON, ["-c", "import xarray, netCDF4"], { stdio: "ignore" }).status === 0) return undefined;
  const reason = "xarray oracle skipped: /usr/bin/python3 with xarray and netCDF4 not found";
  console.warn(reason);
  return reason;
}

function python(args: string[]): string {
  const run = spawnSync(PYTHON, args, { encoding: "utf8", maxBuffer: 256 * 2 ** 20 });
  if (run.status !== 0) throw new Error(`${args[0]} failed: ${run.error?.message ?? run.stderr}`);
  return run.stdout;
}

/** One variable as xarray sees it. */
export interface DumpVariable {
  dims: string[];
  dtype: string;
  shape: number[];
  values: unknown[];
}

/** Files as xarray sees them (decode_cf=False). */
export function xarrayVariables(...paths: string[]): Record<string, DumpVariable>[] {
  return (
    JSON.parse(python([join(SCRIPTS, "xarray-dump.py"), ...paths])) as { variables: Record<string, DumpVariable> }[]
  ).map((d) => d.variables);
}

/** Makes the xarray fixtures in a new temporary folder and returns it. */
export function makeXarrayFixtures(): string {
  const dir = mkdtempSync(join(tmpdir(), "lance-nd-netcdf-xarray-"));
  python([join(SCRIPTS, "make-xarray-fixtures.py"), dir]);
  return dir;
}
