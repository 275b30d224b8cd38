/**
 * `lance-nd import --row-size`: the budget of a row when an import cuts a
 * source on its storage chunks (CLI README, "Rows of an import"), for
 * netCDF files and Zarr stores that xarray writes; what the rows hold is
 * checked through `scan --json`, their values against xarray.
 */
import { join } from "node:path";
import { pythonSkipReason, runPython } from "@lance-nd/test-helpers";
import { beforeAll, describe, expect, it } from "vitest";
import { cli, ensureBuilt, tempDir } from "./harness.js";

const skip = pythonSkipReason(
  "xarray oracle",
  ["numpy", "xarray", "netCDF4", "zarr"],
  "apt-get install python3-xarray python3-netcdf4 python3-zarr",
);
if (skip !== undefined) console.warn(skip);

/** tas(time 4, lat 64, lon 128) Float32 (32 KiB a step) with its coordinates, as xarray writes it. */
const MAKE = `
import sys, numpy as np, xarray as xr
path, kind = sys.argv[1], sys.argv[2]
tas = np.arange(4 * 64 * 128, dtype="f4").reshape(4, 64, 128)
ds = xr.Dataset({"tas": (("time", "lat", "lon"), tas)},
                coords={"time": np.arange(4.0), "lat": np.linspace(-90, 90, 64), "lon": np.arange(128.0)})
if kind == "zarr":
    ds.chunk({"time": 1}).to_zarr(path, consolidated=True)
elif kind == "one-chunk":
    ds.to_netcdf(path, encoding={"tas": {"chunksizes": (4, 64, 128)}})
else:
    ds.to_netcdf(path, format=kind)
`;

interface ScannedRow {
  globalAttrs: Record<string, unknown>;
  arrays: Record<string, { dims: { name: string; size: number }[]; values: number[] }>;
}

/** The shape of `tas` in each row of `table`, in `chunk_offset` order. */
function tasShapes(table: string): string[] {
  const run = cli(["scan", table, "--json", "--project", "tas"]);
  expect(run.stderr).toBe("");
  const rows = JSON.parse(run.stdout) as ScannedRow[];
  return rows.map((row) => row.arrays.tas!.dims.map((d) => d.size).join("x"));
}

/** A test of many command lines: minutes on a loaded 2-core machine, never a measure of speed. */
const SLOW = 600_000;

describe.skipIf(skip !== undefined)("import --row-size", () => {
  let dir: string;
  beforeAll(() => {
    ensureBuilt();
    dir = tempDir();
  });

  function source(kind: "NETCDF4" | "NETCDF3_CLASSIC" | "zarr" | "one-chunk"): string {
    const path = join(dir, kind === "zarr" ? "tas.zarr" : `tas-${kind}.nc`);
    runPython(["-c", MAKE, path, kind]);
    return path;
  }

  function imported(path: string, ...args: string[]): string {
    const table = join(dir, `t${Math.random().toString(36).slice(2)}.lance`);
    const run = cli(["import", path, table, ...args]);
    expect(run.stderr).not.toMatch(/error/);
    expect(run.code).toBe(0);
    return table;
  }

  it(
    "a netCDF file under 1 MiB is one row by default; --row-size 32KiB cuts it into one time step a row (netCDF-4 and classic)",
    () => {
      for (const kind of ["NETCDF4", "NETCDF3_CLASSIC"] as const) {
        const path = source(kind);
        expect(tasShapes(imported(path))).toEqual(["4x64x128"]);
        const cut = imported(path, "--row-size", "32KiB");
        expect(tasShapes(cut)).toEqual(["1x64x128", "1x64x128", "1x64x128", "1x64x128"]);
        // A budget under one step cuts a step into slabs along the next dim: 16 KiB is 32 latitudes.
        expect(tasShapes(imported(path, "--row-size", "16KiB"))).toEqual(Array(8).fill("1x32x128"));
      }
    },
    SLOW,
  );

  it(
    "a Zarr store's chunks of one step merge up to the budget: 1 MiB holds all 4, 64KiB two",
    () => {
      const path = source("zarr");
      expect(tasShapes(imported(path))).toEqual(["4x64x128"]);
      expect(tasShapes(imported(path, "--row-size", "64KiB"))).toEqual(["2x64x128", "2x64x128"]);
    },
    SLOW,
  );

  it(
    "the rows of a small budget hold the source's values: scan --isel equals xarray's isel",
    () => {
      const path = source("NETCDF4");
      const table = imported(path, "--row-size", "16KiB");
      const run = cli(["scan", table, "--json", "--isel", "time=2,lat=40:42", "--project", "tas"]);
      expect(run.stderr).toBe("");
      const [row] = JSON.parse(run.stdout) as ScannedRow[];
      const expected = JSON.parse(
        runPython([
          "-c",
          "import sys, json, xarray as xr; print(json.dumps(xr.open_dataset(sys.argv[1]).tas.isel(time=2, lat=slice(40, 42)).values.ravel().tolist()))",
          path,
        ]),
      ) as number[];
      expect(row!.arrays.tas!.values).toEqual(expected);
    },
    SLOW,
  );

  it(
    "how a file is cut is an information line, not a warning, and says 1 row for one",
    () => {
      const path = source("NETCDF4");
      const cut = cli(["import", path, join(dir, "notice.lance"), "--row-size", "32KiB"]);
      expect(cut.code).toBe(0);
      expect(cut.stderr).toBe(
        `lance-nd: ${path}: 130 KiB is more than a row holds (32 KiB, --row-size); importing it as 4 rows of time=1,lat=64,lon=128 on its storage chunks (set --chunk to choose)\n`,
      );
      // 130 KiB: tas and its coordinates. One HDF5 chunk of 128 KiB stays one row under a 64 KiB budget (a block may hold eight budgets).
      const one = source("one-chunk");
      const whole = cli(["import", one, join(dir, "one.lance"), "--row-size", "64KiB"]);
      expect(whole.code).toBe(0);
      expect(whole.stderr).toContain("importing it as 1 row of time=4,lat=64,lon=128 on its storage chunks");
      expect(whole.stderr).not.toContain("warning");
    },
    SLOW,
  );

  it(
    "a size that is not one is a usage error naming the option",
    () => {
      const path = source("NETCDF4");
      for (const bad of ["10", "64KB", "0MiB"]) {
        const run = cli(["import", path, join(dir, "bad.lance"), "--row-size", bad]);
        expect(run.code).toBe(2);
        expect(run.stderr).toContain(`option '--row-size <size>' argument '${bad}' is invalid`);
        expect(run.stderr).toContain("expected a size of at least 1KiB");
      }
    },
    SLOW,
  );
});
