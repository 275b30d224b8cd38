/**
 * `--isel` / `--sel` on scan, plot and export, run as a user does on the
 * demo table (12 months x 90 lat x 180 lon in 9 chunk rows: time 4, lat 30; time in days since 2000-01-01).
 * The exported window is checked against xarray's isel/sel of the whole
 * export.
 */
import { join } from "node:path";
import { callPython, pythonSkipReason } from "@lance-nd/test-helpers";
import { beforeAll, describe, expect, it } from "vitest";
import { cli, ensureBuilt, tempDir } from "./harness.js";

const skipOracle =
  pythonSkipReason("xarray oracle", ["xarray", "netCDF4"], "apt-get install python3-xarray python3-netcdf4") !==
  undefined;

describe("region selections on the command line", () => {
  let dir: string;
  beforeAll(() => {
    ensureBuilt();
    dir = tempDir();
    expect(cli(["demo"], dir).code).toBe(0);
  });

  /** The `--json` summary of `export lance-nd-demo/ocean.lance <args>` in the demo's folder, after checking that it exited 0. */
  function exported(...args: string[]): unknown {
    const run = cli(["export", "lance-nd-demo/ocean.lance", ...args, "--json"], dir);
    expect(run.code).toBe(0);
    return JSON.parse(run.stdout);
  }

  it("scan --isel: one block per chunk touched, cut, the single index dropped, chunk_offset = place in the selection", () => {
    const run = cli(
      ["scan", "lance-nd-demo/ocean.lance", "--project", "sst", "--isel", "time=5,lon=10:20", "--json"],
      dir,
    );
    expect(run.code).toBe(0);
    const rows = JSON.parse(run.stdout) as {
      globalAttrs: Record<string, unknown>;
      arrays: Record<string, { dims: { name: string; size: number }[] }>;
    }[];
    expect(rows.map((r) => r.globalAttrs.chunk_offset)).toEqual([
      [0, 0],
      [30, 0],
      [60, 0],
    ]);
    const dims = [
      { name: "lat", size: 30 },
      { name: "lon", size: 10 },
    ];
    expect(rows.map((r) => r.arrays.sst?.dims)).toEqual([dims, dims, dims]);
  });

  it("plot --sel with an ISO date on a CF-time coordinate reads only the chunks of that time step", () => {
    const run = cli(
      ["plot", "lance-nd-demo/ocean.lance", "sst", "--sel", "time=2000-02-15", "-o", "feb.png", "--json"],
      dir,
    );
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({
      rows: "lat",
      cols: "lon",
      rowsRead: 3,
      title: "sst  time=2000-02-15 (2000-02-15T00:00:00Z)",
    });
  });

  it("export of the chunks a stats filter selects (not starting at cell 0) writes their box", () => {
    expect(exported("late.nc", "--where", "__stats__:time.min >= 100")).toMatchObject({
      rows: 6,
      grid: grid(8, 90, 180),
    });
  });

  it("a selection out of range, an unknown dim or a non-monotonic range is one line, exit 1", () => {
    for (const args of [
      ["--isel", "time=12"],
      ["--isel", "depth=0"],
      ["--sel", "lat=95"],
    ]) {
      const run = cli(["scan", "lance-nd-demo/ocean.lance", ...args], dir);
      expect(run.code, args.join(" ")).toBe(1);
      expect(run.stderr.trim().split("\n")).toHaveLength(1);
    }
    expect(cli(["scan", "lance-nd-demo/ocean.lance", "--isel", "time=12"], dir).stderr).toMatch(
      /index 12 along "time" is out of range for size 12/,
    );
  });

  it.skipIf(skipOracle)(
    "export --isel/--sel writes the window as netCDF-4, equal to xarray's selection of the whole export",
    () => {
      expect(cli(["export", "lance-nd-demo/ocean.lance", "full.nc"], dir).code).toBe(0);
      expect(exported("window.nc", "--isel", "time=1:6", "--sel", "lat=-30:30")).toMatchObject({
        rows: 2,
        grid: grid(5, 30, 180),
      });
      const check = [
        "import sys, numpy as np, xarray as xr, netCDF4",
        "assert netCDF4.Dataset(sys.argv[2]).data_model == 'NETCDF4'",
        "full = xr.open_dataset(sys.argv[1], decode_times=False).isel(time=slice(1, 6)).sel(lat=slice(-30, 30))",
        "win = xr.open_dataset(sys.argv[2], decode_times=False)",
        "assert sorted(full.variables) == sorted(win.variables), (list(full.variables), list(win.variables))",
        "for name in full.variables: np.testing.assert_array_equal(full[name].values, win[name].values, err_msg=name)",
        "print('ok', dict(win.sizes))",
      ].join("\n");
      const py = callPython(["-c", check, join(dir, "full.nc"), join(dir, "window.nc")]);
      expect(py.stderr).toBe("");
      expect(py.stdout).toMatch(/^ok \{'time': 5, 'lat': 30, 'lon': 180\}/);
    },
  );

  it.skipIf(skipOracle)(
    "export --isel with negative indices and clamped ends, --sel method=nearest (netCDF and Zarr): xarray's isel/sel of the whole export",
    () => {
      if (cli(["export", "lance-nd-demo/ocean.lance", "full.nc"], dir).code !== 0)
        throw new Error("full export failed");
      const selection = ["--isel", "time=-5:-1,lon=170:999", "--sel", "lat=12.3,method=nearest"];
      for (const target of [["python.nc"], ["python.zarr", "--format", "zarr", "--zarr-version", "2"]]) {
        const run = cli(["export", "lance-nd-demo/ocean.lance", ...target, ...selection], dir);
        expect(run.stderr, target[0]).toBe("");
      }
      const check = [
        "import sys, numpy as np, xarray as xr",
        "full = xr.open_dataset(sys.argv[1], decode_times=False)",
        "want = full.isel(time=slice(-5, -1), lon=slice(170, 999)).sel(lat=12.3, method='nearest')",
        "for win in (xr.open_dataset(sys.argv[2], decode_times=False), xr.open_zarr(sys.argv[3], decode_times=False)):",
        "    assert sorted(want.variables) == sorted(win.variables), (list(want.variables), list(win.variables))",
        "    for name in want.variables: np.testing.assert_array_equal(want[name].values, win[name].values, err_msg=name)",
        "    print(sorted(win.sizes.items()))",
      ].join("\n");
      const py = callPython(["-c", check, join(dir, "full.nc"), join(dir, "python.nc"), join(dir, "python.zarr")]);
      expect(py.stderr).toBe("");
      expect(py.stdout).toBe("[('lon', 10), ('time', 4)]\n".repeat(2));
    },
  );
});

/** An export summary's grid: the demo's dims with these sizes. */
function grid(time: number, lat: number, lon: number): { name: string; size: number }[] {
  return [
    { name: "time", size: time },
    { name: "lat", size: lat },
    { name: "lon", size: lon },
  ];
}
