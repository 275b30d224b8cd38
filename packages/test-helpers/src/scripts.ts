/**
 * The scripts of this package (its scripts/ folder), which tests of several
 * packages run: the fixture makers, the xarray dump and the groups walk.
 */
import { fileURLToPath } from "node:url";

/** One script in scripts/. */
export type HelperScript =
  | "make-netcdf-fixtures.sh"
  | "make-xarray-fixtures.py"
  | "netcdf-groups.py"
  | "xarray-dump.py";

/**
 * The path of a script in scripts/: `xarray-dump.py` (files as xarray sees
 * them, decode_cf=False; `--mask` for netCDF4-python's mask-and-scale),
 * `make-xarray-fixtures.py` (the xarray-made netCDF fixtures into a folder),
 * `make-netcdf-fixtures.sh` (the ncgen-made ones; see ensureNetcdfFixtures),
 * `netcdf-groups.py` (a file's groups as netCDF4-python walks them, one path a line).
 */
export function helperScript(name: HelperScript): string {
  return fileURLToPath(new URL(`../scripts/${name}`, import.meta.url));
}
