/**
 * The Python oracles of the netCDF tests: xarray (decode_cf=False) and
 * netCDF4-python's mask-and-scale through @lance-nd/test-helpers'
 * scripts/xarray-dump.py, and the xarray-made fixtures of
 * scripts/make-xarray-fixtures.py. Outside CI the tests skip with the reason
 * when /usr/bin/python3 lacks xarray or netCDF4; under `CI=true` they run and fail.
 */
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { helperScript, pythonSkipReason as skipReason, runPython as python } from "@lance-nd/test-helpers";

/** Why the oracle tests cannot run here (undefined when they can, and always under CI). */
export function pythonSkipReason(): string | undefined {
  return skipReason("xarray/netCDF4 oracle", ["xarray", "netCDF4"], "apt-get install python3-xarray python3-netcdf4");
}

/** An attribute as xarray reports it. */
interface DumpAttr {
  dtype: string;
  value: unknown;
}

/** A file as xarray sees it with decode_cf=False. */
export interface XarrayDump {
  dims: Record<string, number>;
  /** The file's order of its dims (xarray's netCDF4 store; `dims` follows the variables). */
  dimOrder: string[];
  unlimited: string[];
  attrs: Record<string, DumpAttr>;
  variables: Record<
    string,
    {
      dims: string[];
      dtype: string;
      shape: number[];
      values: unknown[];
      attrs: Record<string, DumpAttr>;
      chunksizes: number[] | null;
      complevel: number | null;
    }
  >;
}

/** xarray's view of files (one Python start for all). */
export function xarrayDump(...paths: string[]): XarrayDump[] {
  return JSON.parse(python([helperScript("xarray-dump.py"), ...paths])) as XarrayDump[];
}

/** One file as netCDF4-python's automatic mask-and-scale reads it: each numeric variable (null = masked), num2date of CF times. */
export type MaskedDump = Record<
  string,
  { dtype: string; values: (number | string | null)[]; epochMicroseconds?: (number | null)[] }
>;

/** netCDF4-python's automatic mask-and-scale of files (one Python start for all). */
export function netcdf4Masked(...paths: string[]): MaskedDump[] {
  return JSON.parse(python([helperScript("xarray-dump.py"), "--mask", ...paths])) as MaskedDump[];
}

let made: string | undefined;

/** The folder of the xarray-made fixtures (packed.nc, unpacked.nc, ranged.nc, big.nc), made once per test process. */
export function xarrayFixtures(): string {
  if (made !== undefined && existsSync(join(made, "big.nc"))) return made;
  made = mkdtempSync(join(tmpdir(), "lance-nd-xarray-fixtures-"));
  python([helperScript("make-xarray-fixtures.py"), made]);
  return made;
}
