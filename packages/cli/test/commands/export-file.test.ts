/**
 * The write pipeline of `lance-nd export` (CLI README, "Export"), run
 * through the built CLI: a region of a file stored in larger HDF5 chunks
 * exports (checked with xarray), a failed export leaves the old file byte
 * for byte with no temporary file beside it, a folder the system refuses is
 * one line (never a hang), and a written file that does not open is not
 * kept.
 */
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { callPython, pythonSkipReason } from "@lance-nd/test-helpers";
import { beforeAll, describe, expect, it } from "vitest";
import { writeNetcdfBeside } from "../../src/commands/export-file.js";
import { isCliError } from "../../src/errors.js";
import { cli, ensureBuilt, tempDir } from "./harness.js";

const skipOracle =
  pythonSkipReason("xarray oracle", ["xarray", "netCDF4"], "apt-get install python3-xarray python3-netcdf4") !==
  undefined;

/** True when the netCDF files at `a` and `b` hold the same dataset, as xarray compares them. */
function xarrayIdentical(a: string, b: string, selection: string): boolean {
  const script = [
    "import sys, xarray as xr",
    "a = xr.open_dataset(sys.argv[1], decode_cf=False)",
    `a = a${selection}`,
    "b = xr.open_dataset(sys.argv[2], decode_cf=False)",
    "print(a.identical(b) or (a.equals(b), a, b))",
  ].join("\n");
  const run = callPython(["-c", script, a, b]);
  expect(run.stderr).toBe("");
  return run.stdout.trim() === "True";
}

/** A hand-written Zarr v2 store of one array `b` over `x` with `attrs`. */
function zarrStore(path: string, attrs: Record<string, unknown>): void {
  mkdirSync(join(path, "b"), { recursive: true });
  writeFileSync(join(path, ".zgroup"), JSON.stringify({ zarr_format: 2 }));
  const zarray = { zarr_format: 2, shape: [4], chunks: [4], dtype: "<f8", compressor: null, filters: null };
  writeFileSync(join(path, "b", ".zarray"), JSON.stringify({ ...zarray, fill_value: null, order: "C" }));
  writeFileSync(join(path, "b", ".zattrs"), JSON.stringify({ _ARRAY_DIMENSIONS: ["x"], ...attrs }));
  writeFileSync(join(path, "b", "0"), new Uint8Array(new Float64Array([1, 2, 3, 4]).buffer));
}

describe("export writes beside the target and renames at the end", () => {
  let dir: string;
  beforeAll(() => {
    ensureBuilt();
    dir = tempDir();
    expect(cli(["demo"], dir).code).toBe(0);
    // A netCDF-4 source stored in one chunk per variable, imported: its rows keep those _ChunkSizes.
    expect(
      cli(["export", "lance-nd-demo/ocean.lance", "whole.nc", "--chunks", "time=12,lat=90,lon=180"], dir).code,
    ).toBe(0);
    expect(cli(["import", "whole.nc", "whole.lance"], dir).code).toBe(0);
  });

  it.skipIf(skipOracle)(
    "the README's --isel time=0:3 --sel lat=-30:30 of an imported file stored in larger chunks: xarray sees that window",
    () => {
      for (const format of ["netcdf", "classic"]) {
        const out = `window-${format}.nc`;
        const run = cli(
          ["export", "whole.lance", out, "--isel", "time=0:3", "--sel", "lat=-30:30", "--format", format],
          dir,
        );
        expect(run.stderr, format).toBe("");
        expect(run.code).toBe(0);
        const selection = ".isel(time=slice(0, 3)).sel(lat=slice(-30, 30))";
        expect(xarrayIdentical(join(dir, "whole.nc"), join(dir, out), selection), format).toBe(true);
      }
    },
  );

  it("an export that fails while writing leaves the old file as it was and no temporary file", () => {
    // bzip2 takes block sizes 1..9: HDF5 fails on this variable after the file was created.
    zarrStore(join(dir, "bad-filter.zarr"), { _Filter: "307,50" });
    expect(cli(["import", "bad-filter.zarr", "bad-filter.lance"], dir).code).toBe(0);
    for (const format of ["netcdf", "classic"]) {
      const out = `kept-${format}.nc`;
      expect(cli(["export", "lance-nd-demo/ocean.lance", out, "--isel", "time=0", "--format", format], dir).code).toBe(
        0,
      );
      const before = readFileSync(join(dir, out));
      const run = cli(["export", "bad-filter.lance", out], dir);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(
        new RegExp(`lance-nd: cannot export bad-filter.lance to ${out} \\(${out}: variable "b": cannot write`),
      );
      expect(readFileSync(join(dir, out)).equals(before), format).toBe(true);
    }
    expect(readdirSync(dir).filter((name) => name.includes(".writing-"))).toEqual([]);
  });

  it("a path under /proc (mkdir says ENOENT below a folder that exists): one line naming it, netCDF and Zarr", () => {
    for (const [out, format] of [
      ["/proc/lance-nd.nc", "netcdf"],
      ["/proc/lance-nd/deeper/x.nc", "classic"],
      ["/proc/lance-nd.zarr", "zarr"],
      ["/proc/lance-nd/deeper/x.zarr", "zarr"],
    ] as const) {
      const run = cli(["export", "lance-nd-demo/ocean.lance", out, "--isel", "time=0", "--format", format], dir);
      expect(run.code, out).toBe(1);
      expect(run.stderr.trim().split("\n"), out).toHaveLength(1);
      expect(run.stderr, out).toMatch(/\(ENOENT\)\)$/m);
    }
  });

  it("a written file that does not open as netCDF is not kept: WriteFailed naming the target, the old file as it was", async () => {
    const out = join(dir, "checked.nc");
    writeFileSync(out, "the old file");
    const err = await writeNetcdfBeside(out, async (temporary) =>
      writeFileSync(temporary, "CDF\u0001 and then garbage"),
    ).catch((e: unknown) => e);
    expect(isCliError(err, "WriteFailed"), String(err)).toBe(true);
    expect((err as Error).message).toMatch(
      new RegExp(`^${out}: the file written does not open, so it was not kept \\(`),
    );
    expect((err as Error).message).not.toContain(".writing-");
    expect(readFileSync(out, "utf8")).toBe("the old file");
    expect(readdirSync(dir).filter((name) => name.includes(".writing-"))).toEqual([]);
  });
});

describe.skipIf(skipOracle)("export --project keeps the coordinates of the variables it writes", () => {
  let dir: string;
  let source: string;
  beforeAll(() => {
    ensureBuilt();
    dir = tempDir();
    source = join(dir, "source.nc");
    const make = [
      "import sys, numpy as np, xarray as xr",
      "ds = xr.Dataset(",
      '    {"tas": (("time", "lat", "lon"), np.arange(24, dtype="f4").reshape(2, 3, 4)),',
      '     "pr": (("time", "lat"), np.ones((2, 3), "f8")), "h": ("z", np.zeros(5, "i4"))},',
      '    coords={"time": [10, 20], "lat": [-1.0, 0.0, 1.0], "lon": np.arange(4.0), "z": np.arange(5)})',
      "ds.to_netcdf(sys.argv[1])",
    ].join("\n");
    const run = callPython(["-c", make, source]);
    expect(run.stderr).toBe("");
    expect(cli(["import", source, "t.lance"], dir).code).toBe(0);
  });

  it('netCDF: the file is ds[["tas"]] and ds[["pr"]] of the source, as xarray selects them', () => {
    for (const name of ["tas", "pr"]) {
      const run = cli(["export", "t.lance", `${name}.nc`, "--project", name], dir);
      expect(run.stderr).toBe("");
      expect(xarrayIdentical(source, join(dir, `${name}.nc`), `[["${name}"]]`), name).toBe(true);
    }
  });

  it("rows of several datasets: --project is refused in one line naming their ids, as without it", () => {
    expect(cli(["import", source, "two.lance", "--id", "a"], dir).code).toBe(0);
    expect(cli(["import", source, "two.lance", "--id", "b", "--mode", "append"], dir).code).toBe(0);
    const run = cli(["export", "two.lance", "two.nc", "--project", "tas"], dir);
    expect(run.code).toBe(1);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.stderr).toContain("2 rows match the table and they are not chunks of one dataset (ids a, b)");
  });

  it("Zarr: the store holds the variable and its dimension coordinates", () => {
    const run = cli(["export", "t.lance", "pr.zarr", "--format", "zarr", "--project", "pr", "--json"], dir);
    expect(run.stderr).toBe("");
    expect((JSON.parse(run.stdout) as { variables: string[] }).variables.sort()).toEqual(["lat", "pr", "time"]);
  });
});
