/**
 * `--sel` on the record (unlimited) coordinate of a classic netCDF file at
 * a URL: the coordinate read to resolve the labels costs its own slots of
 * each record, not the records (the other record variables' bytes between
 * them), so the import fetches a small share of the file, as `--isel` of
 * the same steps does; the `--json` `bytesFetched` is what the local file
 * server sent, and the export is xarray's selection.
 */
import { statSync } from "node:fs";
import { join } from "node:path";
import { pythonSkipReason, runPython } from "@lance-nd/test-helpers";
import { describe, expect, it } from "vitest";
import { cli, cliAsync } from "./harness.js";
import { httpSources } from "./http-sources.js";

const skip =
  pythonSkipReason(
    "classic record coordinate oracle",
    ["numpy", "pandas", "xarray", "netCDF4"],
    "apt-get install python3-xarray python3-netcdf4",
  ) !== undefined;

// t and u(time=120 hours, lat=60, lon=60) float32 as record variables: 28,800 bytes of them a record, 8 of time.
const WRITE = `
import sys, numpy as np, pandas as pd, xarray as xr
t = (np.arange(120 * 60 * 60, dtype="float32") * 0.5).reshape(120, 60, 60)
ds = xr.Dataset({"t": (("time", "lat", "lon"), t, {"units": "K"}), "u": (("time", "lat", "lon"), -t)},
                coords={"time": pd.date_range("2020-01-01", periods=120, freq="h"),
                        "lat": np.linspace(60, 30.5, 60), "lon": np.linspace(0, 29.5, 60)})
ds.to_netcdf(sys.argv[1], format="NETCDF3_64BIT", unlimited_dims=["time"],
             encoding={"time": {"units": "hours since 2020-01-01", "dtype": "float64"}})
`;

// The exported file against xarray's selection of the file (xr.testing.assert_equal).
const COMPARE = `
import sys, xarray as xr
got = xr.open_dataset(sys.argv[1])
want = xr.open_dataset(sys.argv[2]).sel(time=slice("2020-01-03", "2020-01-03"))[["t"]]
xr.testing.assert_equal(got[["t"]], want)
print("same")
`;

const sources = httpSources(skip, WRITE, "hourly.nc");

describe.skipIf(skip)("--sel on a classic file's record coordinate at a URL", () => {
  /** The import's `bytesFetched`, checked against what the server sent. */
  async function fetched(table: string, flags: readonly string[]): Promise<number> {
    sources.server.reset();
    const run = await cliAsync([
      "import",
      `${sources.server.url}/hourly.nc`,
      join(sources.dir, table),
      ...flags,
      "--json",
    ]);
    expect(run.code, run.stderr).toBe(0);
    const { bytesFetched } = JSON.parse(run.stdout) as { bytesFetched: number };
    expect(bytesFetched).toBe(sources.server.requests.reduce((n, r) => n + r.bytes, 0));
    return bytesFetched;
  }

  it("--project t --sel time=<one day>: a small share of the file, about what --isel of the day fetches", async () => {
    const size = statSync(join(sources.dir, "hourly.nc")).size;
    const bySel = await fetched("sel.lance", ["--project", "t", "--sel", "time=2020-01-03:2020-01-03"]);
    const byIsel = await fetched("isel.lance", ["--project", "t", "--isel", "time=48:72"]);
    // The header (a first read of 64 KiB) and 24 of 120 records of t: about a fifth; the time coordinate adds 960 bytes.
    expect(bySel).toBeLessThan(size / 4);
    expect(bySel).toBeLessThanOrEqual(byIsel + 120 * 8);
    const nc = join(sources.dir, "sel.nc");
    expect(cli(["export", join(sources.dir, "sel.lance"), nc]).code).toBe(0);
    const same = runPython(["-c", COMPARE, nc, join(sources.dir, "hourly.nc")]);
    expect(same.trim()).toBe("same");
  });
});
