/**
 * `lance-nd serve` read by xarray and zarr-python 2 over HTTP (fsspec,
 * aiohttp): `xr.open_zarr(<base><id>, consolidated=True)` is identical to
 * xarray's view of the netCDF file the dataset was imported from (values,
 * dims, attributes) for example_1.nc, a chunked CF file and a tagged older
 * version of it; a dask-backed mean over time with 4 threads equals
 * numpy's on the file. Under CI=true a missing Python module fails.
 */
import { join } from "node:path";
import { pythonSkipReason, runPython } from "@lance-nd/test-helpers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cli, ensureBuilt, tempDir } from "../commands/harness.js";
import { startServe } from "./served.js";
import type { Served } from "./served.js";

const EXAMPLE_1 = "/usr/lib/python3/dist-packages/xarray/tests/data/example_1.nc";
const CLIENT = join(import.meta.dirname, "xarray_client.py");
const skip = pythonSkipReason(
  "lance-nd serve's xarray client tests",
  ["xarray", "zarr", "fsspec", "aiohttp", "dask", "netCDF4"],
  "apt-get install python3-xarray python3-zarr python3-fsspec python3-aiohttp python3-dask python3-netcdf4",
);

/** Runs one command of xarray_client.py; its JSON line. */
function client(...args: string[]): Record<string, unknown> {
  return JSON.parse(runPython([CLIENT, ...args])) as Record<string, unknown>;
}

function imported(...args: string[]): void {
  const run = cli(["import", ...args, "--cf", "raw"]);
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
}

describe.skipIf(skip !== undefined)("lance-nd serve read by xarray (zarr-python 2 over HTTP)", () => {
  let dir: string;
  let example: Served;
  let served: Served;

  beforeAll(async () => {
    ensureBuilt();
    dir = tempDir();
    client("make-cf", join(dir, "cf-1.nc"), "1");
    client("make-cf", join(dir, "cf-2.nc"), "2");
    imported(EXAMPLE_1, join(dir, "example.lance"), "--id", "example_1");
    // The CF file's rows, tagged, then replaced by the second file's: the tag keeps the first.
    const table = join(dir, "cf.lance");
    imported(join(dir, "cf-1.nc"), table, "--id", "cf", "--chunk", "time=2");
    expect(cli(["tag", table, "first"]).code).toBe(0);
    imported(join(dir, "cf-2.nc"), table, "--id", "cf", "--chunk", "time=2", "--mode", "replace");
    [example, served] = await Promise.all([
      startServe(join(dir, "example.lance"), ["--codec", "zlib"]),
      startServe(table),
    ]);
  });

  afterAll(async () => {
    await Promise.all([example?.stop(), served?.stop()]);
  });

  it("example_1.nc, served with --codec zlib: xr.open_zarr of the group is identical to xr.open_dataset of the file", () => {
    expect(client("identical", `${example.url}example_1`, EXAMPLE_1)).toMatchObject({ identical: true });
  });

  it("a chunked, compressed CF netCDF-4 file (fill value, CF times) served in chunks of its rows: identical", () => {
    expect(client("identical", `${served.url}cf`, join(dir, "cf-2.nc"))).toEqual({
      identical: true,
      variables: ["flag", "lat", "lon", "temp", "time"],
    });
  });

  it("a tagged older version (@tag/<name>/) is identical to the file it was then", () => {
    expect(client("identical", `${served.url}@tag/first/cf`, join(dir, "cf-1.nc"))).toMatchObject({ identical: true });
  });

  it("a dask mean over time with 4 threads equals numpy's on the file", () => {
    const mean = client("mean", `${served.url}cf`, join(dir, "cf-2.nc"), "temp");
    expect(mean).toMatchObject({ equal: true });
    expect((mean.chunks as number[])[0]).toBeGreaterThanOrEqual(2);
    expect(served.exitCode()).toBeNull();
  });
});
