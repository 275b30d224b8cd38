/**
 * `lance-nd import` of part of a netCDF file (netCDF-4 and classic, written
 * by xarray): `--isel` (ranges, and an index that drops the dim), `--sel`
 * (numbers, a CF date range, single values, method=nearest) and
 * `--project`, alone and together, with rows cut by `--chunk`. The exported table is identical to xarray's
 * `open_dataset(src).isel(...).sel(...)[vars]`; a variable without the
 * selected dim is whole. A classic file at a URL is read by byte ranges:
 * a selection fetches a small share of its bytes. A selection the file
 * cannot give is one line naming it, and leaves no table behind.
 */
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { pythonSkipReason, runPython } from "@lance-nd/test-helpers";
import { describe, expect, it } from "vitest";
import { quiet } from "./checked-runs.js";
import { cli, cliAsync } from "./harness.js";
import { httpSources } from "./http-sources.js";

const skip =
  pythonSkipReason(
    "import of part of a netCDF file oracle",
    ["numpy", "pandas", "xarray", "netCDF4"],
    "apt-get install python3-xarray python3-netcdf4",
  ) !== undefined;

// t and u(time=365 days, lat=20, lon=30) float32, time unlimited (record variables in the classic file),
// CF time in days since 2020-01-01; land(lat, lon) has no time.
const WRITE = `
import sys, numpy as np, pandas as pd, xarray as xr
out = sys.argv[1]
shape = (365, 20, 30)
t = (np.arange(np.prod(shape), dtype="float32") * 0.5).reshape(shape)
ds = xr.Dataset({"t": (("time", "lat", "lon"), t, {"units": "K"}), "u": (("time", "lat", "lon"), -t, {"units": "m s-1"}),
                 "land": (("lat", "lon"), (np.arange(600) % 3 == 0).astype("int8").reshape(20, 30))},
                coords={"time": pd.date_range("2020-01-01", periods=365, freq="D"),
                        "lat": np.linspace(60, 41, 20), "lon": np.linspace(0, 29, 30)},
                attrs={"title": "daily"})
enc = {"time": {"units": "days since 2020-01-01", "dtype": "int32"}}
ds.to_netcdf(f"{out}/daily4.nc", format="NETCDF4", encoding=enc, unlimited_dims=["time"])
ds.to_netcdf(f"{out}/daily3.nc", format="NETCDF3_64BIT", encoding=enc, unlimited_dims=["time"])
`;

// The exported file against xarray's selection of the source (a JSON of project, isel, sel), attributes included.
const COMPARE = `
import sys, json, xarray as xr
got = xr.open_dataset(sys.argv[1])
how = json.loads(sys.argv[2])
want = xr.open_dataset(sys.argv[3])
want = want.isel({k: v if isinstance(v, int) else slice(*v) for k, v in how.get("isel", {}).items()})
want = want.sel({k: slice(*v) for k, v in how.get("sel", {}).items()})
if "value" in how: want = want.sel(how["value"])
if "nearest" in how: want = want.sel(how["nearest"], method="nearest")
if "project" in how: want = want[how["project"]]
xr.testing.assert_identical(got, want)
print("same", dict(got.sizes))
`;

const sources = httpSources(skip, WRITE);

/** What the oracle selects: variables, indices (an index or `[a, b)`), coordinate slices. */
interface Selection {
  project?: string[];
  isel?: Record<string, number | [number, number]>;
  sel?: Record<string, [string | number, string | number]>;
  /** Single values, each dropping its dim. */
  value?: Record<string, number>;
  /** Single values with `method="nearest"`. */
  nearest?: Record<string, string | number>;
}

/** Exports `table` to netCDF and compares it with xarray's `how` of `source`: the oracle's line. */
function compare(table: string, source: string, how: Selection): string {
  const nc = `${table}.nc`;
  const exported = cli(["export", table, nc]);
  expect(exported.code, exported.stderr).toBe(0);
  return runPython(["-c", COMPARE, nc, JSON.stringify(how), source]).trim();
}

describe.skipIf(skip)("lance-nd import of part of a netCDF file", () => {
  for (const name of ["daily4.nc", "daily3.nc"]) {
    const label = name.replace(".nc", "");
    it(`${name}: --project t --sel time=<a CF date range>,lat=<values>: xarray's sel of t with its coordinates`, () => {
      const table = join(sources.dir, `${label}-sel.lance`);
      quiet(
        cli([
          "import",
          join(sources.dir, name),
          table,
          "--project",
          "t",
          "--sel",
          "time=2020-02-03:2020-02-10,lat=55:50",
        ]),
      );
      const how: Selection = { project: ["t"], sel: { time: ["2020-02-03", "2020-02-10"], lat: [55, 50] } };
      expect(compare(table, join(sources.dir, name), how)).toBe("same {'time': 8, 'lat': 6, 'lon': 30}");
    });

    it(`${name}: --isel time=7,lon=2:6: the index drops time, kept as a scalar coordinate; land is whole`, () => {
      const table = join(sources.dir, `${label}-index.lance`);
      quiet(cli(["import", join(sources.dir, name), table, "--isel", "time=7,lon=2:6"]));
      const how: Selection = { isel: { time: 7, lon: [2, 6] } };
      expect(compare(table, join(sources.dir, name), how)).toBe("same {'lat': 20, 'lon': 4}");
    });

    it(`${name}: --sel lat=52.3,time=<a date>,method=nearest --sel lon=7 --project u: the values drop their dims`, () => {
      const table = join(sources.dir, `${label}-values.lance`);
      const flags = ["--sel", "lat=52.3,time=2020-03-04T10,method=nearest", "--sel", "lon=7", "--project", "u"];
      quiet(cli(["import", join(sources.dir, name), table, ...flags]));
      const how: Selection = { project: ["u"], value: { lon: 7 }, nearest: { lat: 52.3, time: "2020-03-04T10" } };
      expect(compare(table, join(sources.dir, name), how)).toBe("same {}");
    });

    it(`${name}: --isel time=-30:-5 --sel lon=10.5:20 --chunk time=7: rows of the region, the region's coordinates`, () => {
      const table = join(sources.dir, `${label}-chunked.lance`);
      const stdout = quiet(
        cli([
          "import",
          join(sources.dir, name),
          table,
          "--isel",
          "time=-30:-5",
          "--sel",
          "lon=10.5:20",
          "--chunk",
          "time=7",
        ]),
      );
      expect(stdout).toMatch(/ as 4 rows /);
      const how: Selection = { isel: { time: [-30, -5] }, sel: { lon: [10.5, 20] } };
      expect(compare(table, join(sources.dir, name), how)).toBe("same {'time': 25, 'lat': 20, 'lon': 10}");
    });
  }

  it("a classic file at a URL: --project u --isel time=40:45 fetches a small share of its bytes, and is xarray's selection", async () => {
    const table = join(sources.dir, "remote.lance");
    sources.server.reset();
    quiet(
      await cliAsync(["import", `${sources.server.url}/daily3.nc`, table, "--project", "u", "--isel", "time=40:45"]),
    );
    const fetched = sources.server.requests.reduce((n, r) => n + r.bytes, 0);
    const size = statSync(join(sources.dir, "daily3.nc")).size;
    expect(fetched).toBeGreaterThan(0);
    // The header (a first read of 64 KiB) and 5 of 365 records of one of two record variables: well under a tenth.
    expect(fetched).toBeLessThan(size / 10);
    expect(compare(table, join(sources.dir, "daily3.nc"), { project: ["u"], isel: { time: [40, 45] } })).toBe(
      "same {'time': 5, 'lat': 20, 'lon': 30}",
    );
  });

  for (const [flags, named] of [
    [["--isel", "depth=0:2"], "--isel depth: no such dim"],
    [["--sel", "lat=80:90"], "--sel lat=80:90 selects nothing"],
    [["--isel", "time=5:5"], "--isel time=5:5 selects nothing"],
    [["--isel", "time=400"], "--isel time=400 is outside the dim"],
    [["--project", "t,nope"], "--project nope: no such variable"],
    [["--sel", "lon=7.5"], "--sel lon=7.5: no such value"],
    [
      ["--sel", "time=2020-03"],
      "--sel time=2020-03: give a slice (time=2020-03:2020-03, its whole period) or method=nearest",
    ],
  ] as const) {
    it(`${flags.join(" ")}: one line naming it, no table left behind`, () => {
      const table = join(sources.dir, `refused-${flags.join("").replace(/\W/g, "-")}.lance`);
      const run = cli(["import", join(sources.dir, "daily3.nc"), table, ...flags]);
      expect(run.code).not.toBe(0);
      expect(run.stderr.trim().split("\n")).toHaveLength(1);
      expect(run.stderr).toContain(`${join(sources.dir, "daily3.nc")}: ${named}`);
      expect(existsSync(table)).toBe(false);
    });
  }
});
