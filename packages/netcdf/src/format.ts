/** Which netCDF format a file is, from its first bytes. */
import { NetcdfError } from "./netcdf-error.js";

/** The on-disk format of a netCDF file. */
export type NetcdfFormat = "classic" | "64bit-offset" | "netcdf4";

const HDF5_MAGIC = [0x89, 0x48, 0x44, 0x46, 0x0d, 0x0a, 0x1a, 0x0a];

/**
 * The format of a file from its first 8 bytes: `InvalidFile` when it is not
 * netCDF (saying what it starts with), or is CDF-5 (with a conversion hint).
 *
 * @example
 * detectFormat(Uint8Array.of(0x43, 0x44, 0x46, 1), "a.nc"); // "classic"
 */
export function detectFormat(head: Uint8Array, path: string): NetcdfFormat {
  if (head[0] === 0x43 && head[1] === 0x44 && head[2] === 0x46) {
    if (head[3] === 1) return "classic";
    if (head[3] === 2) return "64bit-offset";
    if (head[3] === 5) {
      throw new NetcdfError(
        "InvalidFile",
        `${path}: CDF-5 (64-bit data) netCDF files are not supported; convert it first, e.g. nccopy -k nc4 in.nc out.nc`,
        { path },
      );
    }
  }
  if (HDF5_MAGIC.every((b, i) => head[i] === b)) return "netcdf4";
  const shown = Array.from(head.subarray(0, 4), (b) =>
    b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : `\\x${b.toString(16).padStart(2, "0")}`,
  ).join("");
  throw new NetcdfError(
    "InvalidFile",
    `${path}: not a netCDF file (a netCDF-3 file starts with "CDF\\x01" or "CDF\\x02", a netCDF-4 file with "\\x89HDF"; this one starts with "${shown}")`,
    { path },
  );
}
