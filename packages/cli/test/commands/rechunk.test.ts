/**
 * `rechunk` on the demo's data exported to netCDF and imported one month a
 * row (sst: 12 months x 90 lat x 180 lon), run as a user does: a time-series layout, reads that
 * take it (`plot --json` says how many rows), `--layout` forcing one,
 * `info` listing both, a stale layout after a delete, `--refresh`, `--drop`.
 * The exported point series is checked against xarray's read of the
 * export of the source rows.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { cli, ensureBuilt, tempDir } from "./harness.js";

const TABLE = "ocean.lance";

describe("rechunk on the command line", () => {
  let dir: string;
  const id = "ocean.nc";
  beforeAll(() => {
    ensureBuilt();
    dir = tempDir();
    expect(cli(["demo"], dir).code).toBe(0);
    expect(cli(["export", "lance-nd-demo/ocean.lance", id], dir).code).toBe(0);
    expect(cli(["import", id, TABLE, "--chunk", "time=1"], dir).code).toBe(0);
  });

  it("writes a layout, info lists it, a point's series reads one row of it, --layout source reads the map rows", () => {
    const made = cli(["rechunk", TABLE, "--id", id, "--chunk", "time=all,lat=10,lon=10", "--name", "series"], dir);
    expect(made.stderr).toBe("");
    expect(made.stdout).toContain(`wrote layout series of ${id} (time=all,lat=10,lon=10): 162 rows`);
    const info = cli(["info", TABLE], dir).stdout;
    expect(info).toMatch(
      new RegExp(`layouts +${id}: source time=1,lat=all,lon=all 12 rows .*; series time=all,lat=10,lon=10 162 rows`),
    );

    const line = (extra: string[]) =>
      JSON.parse(
        cli(["plot", TABLE, "sst", "--isel", "lat=45,lon=90", "-o", "p.png", "--json", ...extra], dir).stdout,
      ) as { rowsRead: number };
    expect(line([]).rowsRead).toBe(1);
    expect(line(["--layout", "source"]).rowsRead).toBe(12);

    const nope = cli(["plot", TABLE, "sst", "--isel", "lat=45,lon=90", "-o", "p.png", "--layout", "nope"], dir);
    expect(nope.code).toBe(1);
    expect(nope.stderr).toContain('no current layout "nope"; the current layouts are source, series');
  });

  it("export of a box over all steps is the same file from either layout (xarray reads both)", () => {
    for (const layout of ["series", "source"]) {
      const run = cli(["export", TABLE, `${layout}.nc`, "--isel", "lat=40:52,lon=85:99", "--layout", layout], dir);
      expect(run.stderr).toBe("");
    }
    const check = spawnSync(
      "/usr/bin/python3",
      [
        "-c",
        "import sys, xarray as xr; a = xr.open_dataset(sys.argv[1]); b = xr.open_dataset(sys.argv[2]); xr.testing.assert_identical(a, b); print(a.sst.shape)",
        join(dir, "series.nc"),
        join(dir, "source.nc"),
      ],
      { encoding: "utf8" },
    );
    expect(check.stderr).toBe("");
    expect(check.stdout.trim()).toBe("(12, 12, 14)");
  });

  it("a delete of a source row leaves the layout stale (never read) until --refresh; --drop removes it", () => {
    expect(
      cli(
        [
          "delete",
          TABLE,
          "--where",
          `array_element(__global_attrs__.chunk_offset, 1) = 11 AND __global_attrs__.id = '${id}'`,
        ],
        dir,
      ).code,
    ).toBe(0);
    expect(cli(["info", TABLE], dir).stdout).toContain("(stale: the source changed since its rechunk)");
    const forced = cli(
      ["plot", TABLE, "sst", "--isel", "time=0:4,lat=45,lon=90", "-o", "p.png", "--layout", "series"],
      dir,
    );
    expect(forced.code).toBe(1);
    expect(forced.stderr).toContain('no current layout "series"');
    const refreshed = cli(["rechunk", TABLE, "--id", id, "--name", "series", "--refresh"], dir);
    expect(refreshed.stderr).toBe("");
    expect(refreshed.stdout).toContain("wrote layout series");
    expect(cli(["info", TABLE], dir).stdout).not.toContain("stale");
    expect(cli(["rechunk", TABLE, "--id", id, "--drop", "series"], dir).stdout).toContain("dropped layout series");
    expect(cli(["info", TABLE], dir).stdout).not.toContain("series");
  });
});
