/**
 * The netCDF conformance cases of @lance-nd/netcdf (its test/cdl: CDL files
 * and round-trip.json, the files that round-trip exactly in which ncgen
 * kinds), made with netCDF-C's ncgen, and ncdump as the oracle. Tests skip or fail
 * on a missing tool as `fixtureSkipReason` says.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { runTool as run } from "@lance-nd/test-helpers";

const CDL_DIR = fileURLToPath(new URL("../../../netcdf/test/cdl/", import.meta.url));

/** ncgen's `-k` kinds the cases use: classic (CDF-1) and netCDF-4. */
export type CdlKind = "nc3" | "nc4";

/** The CDL files (without `.cdl`) that round-trip exactly, and the kinds each is tested in. */
export const ROUND_TRIP_CASES: readonly (readonly [name: string, kinds: readonly CdlKind[]])[] = Object.entries(
  JSON.parse(readFileSync(join(CDL_DIR, "round-trip.json"), "utf8")) as Record<string, CdlKind[]>,
);

/** `<name>.cdl` made into `<dir>/<name>-<kind>.nc` by ncgen; returns the path. */
export function ncgen(name: string, kind: CdlKind, dir: string): string {
  const out = join(dir, `${name}-${kind}.nc`);
  run("ncgen", ["-k", kind, "-o", out, join(CDL_DIR, `${name}.cdl`)]);
  return out;
}

/** `ncdump` of a file (header and data) without its first line, which names the file. */
export function ncdumpBody(path: string): string {
  return run("ncdump", [path]).split("\n").slice(1).join("\n");
}

/** The format as `ncdump -k` names it (`classic`, `netCDF-4`). */
export function ncdumpKind(path: string): string {
  return run("ncdump", ["-k", path]).trim();
}
