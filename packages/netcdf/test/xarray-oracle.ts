/**
 * xarray as the oracle of this package's tests: the fixtures of
 * @lance-nd/test-helpers' scripts/make-xarray-fixtures.py and files as xarray sees them
 * (scripts/xarray-dump.py, decode_cf=False). Outside CI the tests skip with
 * the reason when /usr/bin/python3 lacks xarray; under `CI=true` they fail.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { helperScript, pythonSkipReason, runPython as python } from "@lance-nd/test-helpers";

/** Why xarray cannot be the oracle here (undefined when it can, and always under CI). */
export function xarraySkipReason(): string | undefined {
  return pythonSkipReason("xarray oracle", ["xarray", "netCDF4"], "apt-get install python3-xarray python3-netcdf4");
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
    JSON.parse(python([helperScript("xarray-dump.py"), ...paths])) as { variables: Record<string, DumpVariable> }[]
  ).map((d) => d.variables);
}

/** Makes the xarray fixtures in a new temporary folder and returns it. */
export function makeXarrayFixtures(): string {
  const dir = mkdtempSync(join(tmpdir(), "lance-nd-netcdf-xarray-"));
  python([helperScript("make-xarray-fixtures.py"), dir]);
  return dir;
}
