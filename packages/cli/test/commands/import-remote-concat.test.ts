/**
 * `lance-nd import --concat time <url> <url> <table>`: yearly Zarr stores
 * and netCDF files (classic, read by byte ranges, and netCDF-4, through a
 * temporary copy) written by xarray and served by a local server
 * (`startFileServer`), given out of order, as one dataset along time; with
 * `--project`, `--isel` and `--sel`, along time a region of the files as
 * one dataset (a file it takes nothing of left out). The exported table
 * equals xarray's concatenation of the local copies, selected the same
 * way (`xr.concat(...).isel(...).sel(...)[vars]`, `open_mfdataset`).
 * netCDF files take the same selections.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { pythonSkipReason, runPython } from "@lance-nd/test-helpers";
import { describe, expect, it } from "vitest";
import { cli, cliAsync } from "./harness.js";
import { httpSources } from "./http-sources.js";

const skip =
  pythonSkipReason(
    "import --concat over HTTP oracle",
    ["numpy", "pandas", "xarray", "zarr", "netCDF4", "dask"],
    "apt-get install python3-xarray python3-zarr python3-netcdf4 python3-dask",
  ) !== undefined;

// A year of months each: tas and pr(time=12, lat=4, lon=5) float32, 6 months a Zarr chunk; CF time in days since 2000-01-01.
const WRITE = `
import sys, numpy as np, pandas as pd, xarray as xr
out = sys.argv[1]
for year in (2001, 2002):
    tas = (np.arange(12 * 4 * 5, dtype="float32") * 0.5 + year).reshape(12, 4, 5)
    ds = xr.Dataset({"tas": (("time", "lat", "lon"), tas, {"units": "K"}), "pr": (("time", "lat", "lon"), -tas, {"units": "mm"})},
                    coords={"time": pd.date_range(f"{year}-01-01", periods=12, freq="MS"),
                            "lat": np.linspace(50, 53, 4), "lon": np.linspace(0, 4, 5)},
                    attrs={"title": "monthly"})
    time = {"units": "days since 2000-01-01", "dtype": "int32"}
    ds.to_zarr(f"{out}/tas_{year}.zarr", encoding={"time": time, "tas": {"chunks": (6, 4, 5)}, "pr": {"chunks": (6, 4, 5)}})
    ds.to_netcdf(f"{out}/tas_{year}.nc", format="NETCDF3_64BIT", encoding={"time": time})
    ds.to_netcdf(f"{out}/tas4_{year}.nc", format="NETCDF4", encoding={"time": time})
`;

// The exported file against xarray's concatenation of the local copies, then the selection (a JSON of project, isel, sel).
const COMPARE = `
import sys, json, xarray as xr
got = xr.open_dataset(sys.argv[1])
how = json.loads(sys.argv[2])
paths = sys.argv[3:]
if paths[0].endswith(".zarr"):
    want = xr.concat([xr.open_zarr(p) for p in paths], dim="time", data_vars="minimal", coords="minimal").sortby("time")
else:
    want = xr.open_mfdataset(paths, combine="by_coords")
if "project" in how: want = want[how["project"]]
want = want.isel({k: slice(*v) for k, v in how.get("isel", {}).items()})
want = want.sel({k: slice(*v) for k, v in how.get("sel", {}).items()})
xr.testing.assert_equal(got, want.compute())
print("same", got.sizes["time"])
`;

const sources = httpSources(skip, WRITE);

/** What the oracle selects of the concatenation: variables, index ranges `[a, b)`, coordinate slices. */
interface Selection {
  project?: string[];
  isel?: Record<string, [number, number]>;
  sel?: Record<string, [string | number, string | number]>;
}

/** Imports the `names` at the server's URLs with --concat time and `flags`, exports the table and compares it with xarray's. */
async function importAndCompare(label: string, names: readonly string[], flags: readonly string[], how: Selection) {
  const table = join(sources.dir, `${label}.lance`);
  const urls = names.map((name) => `${sources.server.url}/${name}`);
  const run = await cliAsync(["import", "--concat", "time", "--id", "tas", ...urls, table, ...flags]);
  expect(run.code, run.stderr).toBe(0);
  const nc = join(sources.dir, `${label}.nc`);
  const exported = cli(["export", table, nc]);
  expect(exported.code, exported.stderr).toBe(0);
  const local = [...names].sort().map((name) => join(sources.dir, name));
  const same = runPython(["-c", COMPARE, nc, JSON.stringify(how), ...local]);
  return { run, same: same.trim() };
}

describe.skipIf(skip)("lance-nd import --concat of sources at URLs", () => {
  it("two Zarr stores given out of order: one dataset in time order, as xr.concat of the local stores", async () => {
    const { run, same } = await importAndCompare("zarr", ["tas_2002.zarr", "tas_2001.zarr"], [], {});
    expect(run.stderr).toBe("");
    expect(same).toBe("same 24");
  });

  it("--project tas --sel time across the two years --isel lat=1:3: the selection of the concatenation", async () => {
    const flags = ["--project", "tas", "--sel", "time=2001-10:2002-03", "--isel", "lat=1:3"];
    const how: Selection = { project: ["tas"], sel: { time: ["2001-10", "2002-03"] }, isel: { lat: [1, 3] } };
    const { run, same } = await importAndCompare("zarr-sel", ["tas_2002.zarr", "tas_2001.zarr"], flags, how);
    expect(run.stderr).toBe("");
    expect(same).toBe("same 6");
  });

  it("--isel time counts the cells of the files in time order, not of each file", async () => {
    const how: Selection = { isel: { time: [9, 15] } };
    const { run, same } = await importAndCompare(
      "zarr-isel",
      ["tas_2002.zarr", "tas_2001.zarr"],
      ["--isel", "time=9:15"],
      how,
    );
    expect(run.stderr).toBe("");
    expect(same).toBe("same 6");
  });

  it("--sel time within one year: the other store is left out, with one line naming it", async () => {
    const how: Selection = { sel: { time: ["2002-02", "2002-04"] } };
    const flags = ["--sel", "time=2002-02:2002-04"];
    const { run, same } = await importAndCompare("zarr-one", ["tas_2002.zarr", "tas_2001.zarr"], flags, how);
    expect(run.stderr).toBe(
      `lance-nd: ${sources.server.url}/tas_2001.zarr left out: the selection along "time" takes none of it\n`,
    );
    expect(run.stdout).toMatch(/^imported 1 file /);
    expect(same).toBe("same 3");
  });

  it("--sel time outside every file: one line, no table left behind", async () => {
    const table = join(sources.dir, "none.lance");
    const urls = ["tas_2001.zarr", "tas_2002.zarr"].map((name) => `${sources.server.url}/${name}`);
    const run = await cliAsync([
      "import",
      "--concat",
      "time",
      "--id",
      "tas",
      ...urls,
      table,
      "--sel",
      "time=2005:2006",
    ]);
    expect(run.code).not.toBe(0);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.stderr).toContain('the selection along "time" takes nothing of any of the files');
    expect(existsSync(table)).toBe(false);
  });

  for (const [kind, names] of [
    ["classic netCDF", ["tas_2002.nc", "tas_2001.nc"]],
    ["netCDF-4", ["tas4_2002.nc", "tas4_2001.nc"]],
  ] as const) {
    it(`two ${kind} files given out of order: one dataset, as open_mfdataset of the local files`, async () => {
      const { run, same } = await importAndCompare(kind.replace(/\W/g, "-"), names, [], {});
      expect(run.stderr).toBe("");
      expect(same).toBe("same 24");
    });
  }

  for (const [kind, names] of [
    ["classic netCDF", ["tas_2002.nc", "tas_2001.nc"]],
    ["netCDF-4", ["tas4_2002.nc", "tas4_2001.nc"]],
  ] as const) {
    it(`two ${kind} files with --project pr --isel time=9:15 --sel lat=51:52: the selection of the concatenation`, async () => {
      const flags = ["--project", "pr", "--isel", "time=9:15", "--sel", "lat=51:52"];
      const how: Selection = { project: ["pr"], isel: { time: [9, 15] }, sel: { lat: [51, 52] } };
      const { run, same } = await importAndCompare(`${kind.replace(/\W/g, "-")}-sel`, names, flags, how);
      expect(run.stderr).toBe("");
      expect(same).toBe("same 6");
    });
  }

  it("a second URL with no store (404): one line naming it, no table left behind", async () => {
    const table = join(sources.dir, "missing.lance");
    const urls = [`${sources.server.url}/tas_2001.zarr`, `${sources.server.url}/tas_2003.zarr`];
    const run = await cliAsync(["import", "--concat", "time", "--id", "tas", ...urls, table]);
    expect(run.code).not.toBe(0);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.stderr).toContain(`${sources.server.url}/tas_2003.zarr`);
    expect(existsSync(table)).toBe(false);
  });
});
