/**
 * The conformance cases: CDL files in test/cdl, each made into netCDF files
 * by netCDF-C's ncgen (Debian's netcdf-bin) in the formats it is tested in,
 * and ncdump as the oracle. Tests skip or fail on a missing tool
 * as `fixtureSkipReason` says.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const CDL_DIR = fileURLToPath(new URL("./cdl/", import.meta.url));

/** ncgen's `-k` kinds the cases use: classic (CDF-1) and netCDF-4. */
export type CdlKind = "nc3" | "nc4";

/**
 * The CDL files (without `.cdl`) that round-trip exactly, and the kinds each
 * is tested in (`cdl/round-trip.json`, which the CLI's test reads too).
 */
export const ROUND_TRIP_CASES: readonly (readonly [name: string, kinds: readonly CdlKind[]])[] = Object.entries(
  JSON.parse(readFileSync(join(CDL_DIR, "round-trip.json"), "utf8")) as Record<string, CdlKind[]>,
);

/** `test/cdl/<name>.cdl` made into `<dir>/<name>-<kind>.nc` by ncgen; returns the path. */
export function ncgen(name: string, kind: CdlKind, dir: string): string {
  const out = join(dir, `${name}-${kind}.nc`);
  const run = spawnSync("ncgen", ["-k", kind, "-o", out, join(CDL_DIR, `${name}.cdl`)], { encoding: "utf8" });
  if (run.status !== 0) throw new Error(`ncgen ${name}.cdl failed: ${run.error?.message ?? run.stderr}`);
  return out;
}

/** `ncdump` of a file (header and data) without its first line, which names the file. */
export function ncdumpBody(path: string): string {
  const run = spawnSync("ncdump", [path], { encoding: "utf8" });
  if (run.status !== 0) throw new Error(`ncdump ${path} failed: ${run.error?.message ?? run.stderr}`);
  return run.stdout.split("\n").slice(1).join("\n");
}

/** The format as `ncdump -k` names it (`classic`, `netCDF-4`). */
export function ncdumpKind(path: string): string {
  return spawnSync("ncdump", ["-k", path], { encoding: "utf8" }).stdout.trim();
}
