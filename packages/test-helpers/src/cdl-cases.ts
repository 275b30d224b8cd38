/**
 * The netCDF conformance cases of the netcdf and cli tests: the CDL files in
 * ../cdl, each made into netCDF files by netCDF-C's ncgen (Debian's
 * netcdf-bin) in the kinds it is tested in, with ncdump as the oracle. Tests
 * skip or fail on a missing tool as `netcdfToolsSkipReason` says.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { runTool } from "./netcdf-tools.js";

const CDL_DIR = fileURLToPath(new URL("../cdl/", import.meta.url));

/** ncgen's `-k` kinds the cases use: classic (CDF-1) and netCDF-4. */
export type CdlKind = "nc3" | "nc4";

/**
 * The CDL files (without `.cdl`) that round-trip exactly, and the kinds each
 * is tested in (`cdl/round-trip.json`).
 */
export const CDL_ROUND_TRIP_CASES: readonly (readonly [name: string, kinds: readonly CdlKind[]])[] = Object.entries(
  JSON.parse(readFileSync(join(CDL_DIR, "round-trip.json"), "utf8")) as Record<string, CdlKind[]>,
);

/** `cdl/<name>.cdl` made into `<dir>/<name>-<kind>.nc` by ncgen; returns the path. */
export function ncgenCdl(name: string, kind: CdlKind, dir: string): string {
  const out = join(dir, `${name}-${kind}.nc`);
  runTool("ncgen", ["-k", kind, "-o", out, join(CDL_DIR, `${name}.cdl`)]);
  return out;
}
