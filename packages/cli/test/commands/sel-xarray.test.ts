/**
 * `--sel` selects what xarray's `sel` selects on the same file (CLI README
 * "Regions: --isel and --sel"): files written by xarray, imported, exported
 * with a selection and compared with xarray's selection of the source,
 * values and dims. Nearest ties to the larger value (a 2.5-degree grid, daily
 * data stamped at noon), partial dates select their period and keep the dim,
 * a slice runs in the coordinate's order (a start past the stop selects
 * nothing), an int64 coordinate past 2^53 compares exactly, a repeated
 * value selects every match, and 30 February of 360_day is selected by date.
 */
import { join } from "node:path";
import { pythonSkipReason, runPython } from "@lance-nd/test-helpers";
import { beforeAll, describe, expect, it } from "vitest";
import { cli, ensureBuilt, tempDir } from "./harness.js";

// The source files, written by xarray: tas on a 2.5-degree grid with daily noon times, a 360_day
// variant, an int64 coordinate past 2^53 and a coordinate that repeats a value.
const SOURCES = `import sys, numpy as np, xarray as xr
d = sys.argv[1]
time = {"units": "days since 2000-01-01", "calendar": "standard"}
tas = xr.Dataset(
    {"tas": (("time", "lat", "lon"), np.arange(800 * 72 * 16, dtype="float32").reshape(800, 72, 16))},
    coords={"time": ("time", np.arange(800) + 0.5, time),
            "lat": ("lat", -88.75 + 2.5 * np.arange(72)), "lon": ("lon", 1.25 + 2.5 * np.arange(16))})
tas.to_netcdf(d + "/tas.nc")
tas["time"].attrs["calendar"] = "360_day"
tas.to_netcdf(d + "/tas360.nc")
big = 2**53
xr.Dataset({"v": ("x", np.array([0.0, 1.0, 2.0]))}, coords={"x": ("x", np.array([big, big + 1, big + 2], dtype="int64"))}).to_netcdf(d + "/big.nc")
xr.Dataset({"v": ("y", np.arange(5.0))}, coords={"y": ("y", np.array([0.0, 1.0, 1.0, 1.0, 2.0]))}).to_netcdf(d + "/repeats.nc")
`;

// Compares an export with xarray's selection of the source: the same dims and values of every variable.
const COMPARE = `import sys, numpy as np, xarray as xr
source, out, selection = sys.argv[1:4]
calendar360 = "360" in source
want = eval("xr.open_dataset(source, use_cftime=calendar360)" + selection)
got = xr.open_dataset(out, use_cftime=calendar360)
for name in want.data_vars:
    assert want[name].dims == got[name].dims, (name, want[name].dims, got[name].dims)
    np.testing.assert_array_equal(want[name].values, got[name].values, err_msg=name)
for name in want.coords:
    if name in want.dims:
        assert list(want[name].values) == list(got[name].values), (name, want[name].values, got[name].values)
print("same", dict(got.sizes))`;

const skip = pythonSkipReason("xarray oracle", ["xarray", "netCDF4", "cftime"], "apt-get install python3-xarray");

/** `--sel` arguments and the same selection in xarray. */
const CASES: [string, string, string][] = [
  ["tas", "time=0,lat=10,lon=20,method=nearest", '.isel(time=0).sel(lat=10, lon=20, method="nearest")'],
  ["tas", "time=2001-03-01,method=nearest", '.sel(time="2001-03-01", method="nearest")'],
  ["tas", "lat=10,method=nearest,tolerance=1.25", '.sel(lat=10, method="nearest", tolerance=1.25)'],
  ["tas", "time=2001-03-01", '.sel(time="2001-03-01")'],
  ["tas", "time=2001-03-01T12:00", '.sel(time="2001-03-01T12:00")'],
  ["tas", "time=2001-03", '.sel(time="2001-03")'],
  ["tas", "time=2001-03-01:2001-03-31", '.sel(time=slice("2001-03-01", "2001-03-31"))'],
  ["tas", "lat=-30:30", ".sel(lat=slice(-30, 30))"],
  ["tas", "lon=30:10", ".sel(lon=slice(30, 10))"],
  ["tas360", "time=2001-02-30", '.sel(time="2001-02-30")'],
  ["tas360", "time=2001-02", '.sel(time="2001-02")'],
  ["big", "x=9007199254740993", ".sel(x=9007199254740993)"],
  ["repeats", "y=1", ".sel(y=1)"],
];

describe.skipIf(skip !== undefined)(`--sel as xarray's sel on the same file${skip ? ` (${skip})` : ""}`, () => {
  let dir: string;
  beforeAll(() => {
    ensureBuilt();
    dir = tempDir();
    runPython(["-c", SOURCES, dir]);
    for (const name of ["tas", "tas360", "big", "repeats"])
      expect(cli(["import", `${name}.nc`, `${name}.lance`], dir).code).toBe(0);
  });

  for (const [k, [source, sel, selection]] of CASES.entries()) {
    it(`${source} --sel ${sel} is xarray's ${selection}`, () => {
      const isel = sel.startsWith("time=0,") ? ["--isel", "time=0"] : [];
      const spec = sel.replace(/^time=0,/, "");
      const out = `out${k}.nc`;
      const run = cli(["export", `${source}.lance`, out, ...isel, "--sel", spec], dir);
      expect(run.stderr, run.stderr).toBe("");
      expect(runPython(["-c", COMPARE, join(dir, `${source}.nc`), join(dir, out), selection])).toMatch(/^same/);
    });
  }

  it("a value too far for the tolerance and a date the calendar lacks are one line naming them, exit 1", () => {
    const far = cli(["scan", "tas.lance", "--sel", "lat=10,method=nearest,tolerance=1"], dir);
    expect([far.code, far.stderr.trim().split("\n").length]).toEqual([1, 1]);
    expect(far.stderr).toContain('no "lat" value within tolerance 1 of 10; the nearest is 11.25');
    const lacking = cli(["scan", "tas360.lance", "--sel", "time=2001-02-31"], dir);
    expect([lacking.code, lacking.stderr.trim().split("\n").length]).toEqual([1, 1]);
    expect(lacking.stderr).toContain('sel: "time": 2001-02-31 is not a date of the 360_day calendar');
  });
});
