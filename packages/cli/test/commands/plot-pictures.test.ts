/**
 * `plot` on real files, as a user runs it: a 1-D variable of GSHHG's
 * binned coastlines (gmt-gshhg-low) is drawn as a line, a time picked by
 * its full date is named once in the title, and a long time dim by
 * longitude makes a picture of a readable size with ticked axes.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { PNG } from "pngjs";
import { runPython, pythonSkipReason, skipReason } from "@lance-nd/test-helpers";
import { beforeAll, describe, expect, it } from "vitest";
import { cli, ensureBuilt, tempDir } from "./harness.js";

const GSHHG = "/usr/share/gmt-gshhg/binned_GSHHS_c.nc";
const skip =
  skipReason(existsSync(GSHHG) ? undefined : `${GSHHG} is missing (apt-get install gmt-gshhg-low)`) ??
  pythonSkipReason("xarray oracle", ["xarray", "netCDF4"], "apt-get install python3-xarray");

// Daily tas at noon, 1,095 steps by 180 longitudes, written by xarray.
const TAS = `import sys, numpy as np, xarray as xr
xr.Dataset({"tas": (("time", "lon"), np.arange(1095 * 180, dtype="float32").reshape(1095, 180), {"units": "K"})},
           coords={"time": ("time", np.arange(1095) + 0.5, {"units": "days since 2000-01-01"}),
                   "lon": ("lon", np.arange(180) * 2.0)}).to_netcdf(sys.argv[1])`;

interface Summary {
  title: string;
  rows: string | null;
  cols: string;
}

describe.skipIf(skip !== undefined)(`plot pictures${skip ? ` (${skip})` : ""}`, () => {
  let dir: string;
  beforeAll(() => {
    ensureBuilt();
    dir = tempDir();
    expect(cli(["import", GSHHG, "gshhg.lance"], dir).code).toBe(0);
    runPython(["-c", TAS, join(dir, "tas.nc")]);
    expect(cli(["import", "tas.nc", "tas.lance"], dir).code).toBe(0);
  });

  it("a 1-D variable is a line along its dim", () => {
    const run = cli(["plot", "gshhg.lance", "Id_of_parent_polygons", "-o", "ids.png", "--json"], dir);
    expect(run.stderr).toBe("");
    const summary = JSON.parse(run.stdout) as Summary;
    expect(summary).toMatchObject({ rows: null, cols: "Dimension_of_polygon_array" });
    const png = PNG.sync.read(readFileSync(join(dir, "ids.png")));
    expect([png.width, png.height].every((n) => n > 200 && n < 800)).toBe(true);
    const text = cli(["plot", "gshhg.lance", "Id_of_parent_polygons", "-o", "ids.png"], dir).stdout;
    expect(text).toMatch(/^wrote ids\.png: Id_of_parent_polygons \(a line along Dimension_of_polygon_array, values/);
  });

  it("a time picked by its full date is named once; 1,095 steps by 180 longitudes stay a readable size", () => {
    const one = cli(["plot", "tas.lance", "tas", "--sel", "time=2002-07-15T12:00:00Z", "-o", "jul.png", "--json"], dir);
    expect(one.stderr).toBe("");
    expect(JSON.parse(one.stdout)).toMatchObject({ rows: null, cols: "lon" });
    expect((JSON.parse(one.stdout) as Summary).title).toBe("tas  time=2002-07-15T12:00:00Z");
    const all = cli(["plot", "tas.lance", "tas", "-o", "all.png", "--json"], dir);
    expect(JSON.parse(all.stdout)).toMatchObject({ rows: "time", cols: "lon" });
    const png = PNG.sync.read(readFileSync(join(dir, "all.png")));
    expect(png.height).toBeLessThan(900);
    expect(png.width).toBeLessThan(700);
  });
});
