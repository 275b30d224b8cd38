/**
 * `import --concat time` refuses files that xarray's
 * `open_mfdataset(..., data_vars="minimal", coords="minimal",
 * compat="equals")` refuses (a land mask or 2-D lat/lon that differ, other
 * variable sets) and two files of one base name, each in one line naming
 * the variable and the files, with no table written; files that agree
 * import, time units and calendars spelled apart but equal to CF too.
 * int64 times are compared and named exactly; a masked time is named as
 * missing, not as an overlap.
 * Files written by netCDF4-python; xarray says which it refuses.
 */
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { runPython } from "@lance-nd/test-helpers";
import { beforeAll, describe, expect, it } from "vitest";
import { pythonSkipReason } from "../netcdf/oracle.js";
import { cli, ensureBuilt, tempDir } from "./harness.js";

const skip = pythonSkipReason();

// A yearly file: time (2 steps from `start` days), 2-D lat/lon, a land mask and tas; `variant` changes one thing.
const WRITE = `
import sys, netCDF4, numpy as np
path, start, variant = sys.argv[1], int(sys.argv[2]), sys.argv[3]
d = netCDF4.Dataset(path, "w")
d.createDimension("time", None); d.createDimension("y", 2); d.createDimension("x", 3)
t = d.createVariable("time", "f8", ("time",)); t[:] = [start, start + 1]
t.units, t.calendar = ("days since 2000-1-1 00:00:00", "gregorian") if variant == "spelled" else ("days since 2000-01-01", "standard")
lat = d.createVariable("lat", "f4", ("y", "x")); lat[:] = np.arange(6).reshape(2, 3) + (0.5 if variant == "lat" else 0)
lon = d.createVariable("lon", "f4", ("y", "x")); lon[:] = np.arange(6).reshape(2, 3) * 10
mask = d.createVariable("landmask", "i1", ("y", "x")); mask[:] = [[1, 0, 0], [0, 0, 1 if variant != "mask" else 0]]
tas = d.createVariable("tas", "f4", ("time", "y", "x")); tas.coordinates = "lat lon"; tas[:] = np.arange(12).reshape(2, 2, 3) + start
if variant == "extra":
    e = d.createVariable("orography", "f4", ("y", "x")); e[:] = 1
d.close()
`;

// Whether xarray combines the files as --concat needs, or the first line of its error.
const XARRAY = `
import sys, xarray as xr
try:
    xr.open_mfdataset(sys.argv[1:], combine="by_coords", data_vars="minimal", coords="minimal", compat="equals").load()
    print("ok")
except Exception as e:
    print("refused")
`;

describe.skipIf(skip !== undefined)("import --concat: files that disagree", () => {
  let dir: string;

  beforeAll(() => {
    ensureBuilt();
    dir = tempDir();
  });

  /** A file of the year starting at day `start`, written by netCDF4-python. */
  function yearFile(name: string, start: number, variant = "none"): string {
    const path = join(dir, name);
    mkdirSync(join(path, ".."), { recursive: true });
    runPython(["-c", WRITE, path, String(start), variant]);
    return path;
  }

  /** Imports `paths` with --concat time into a new table; the run and the table's path. */
  function importConcat(name: string, paths: string[]) {
    const table = join(dir, `${name}.lance`);
    return { run: cli(["import", ...paths, table, "--concat", "time", "--id", name]), table };
  }

  const cases: Array<[string, string, RegExp]> = [
    [
      "a land mask that differs",
      "mask",
      /"landmask" differs between .*2000\.nc and .*2001\.nc \(at flat index 5: 1 then 0\)/,
    ],
    [
      "2-D latitudes that differ",
      "lat",
      /"lat" differs between .*2000\.nc and .*2001\.nc \(at flat index 0: 0 then 0\.5\)/,
    ],
    ["a variable only one file has", "extra", /2001\.nc has "orography" that .*2000\.nc lacks/],
  ];
  for (const [what, variant, message] of cases) {
    it(`${what}: refused in one line naming the variable and both files, as xarray refuses; no table`, () => {
      const files = [yearFile(`${variant}/2000.nc`, 0), yearFile(`${variant}/2001.nc`, 366, variant)];
      expect(runPython(["-c", XARRAY, ...files]).trim()).toBe("refused");
      const { run, table } = importConcat(variant, files);
      expect(run.code, run.stderr).toBe(1);
      expect(run.stderr.trim().split("\n")).toHaveLength(1);
      expect(run.stderr).toMatch(message);
      expect(existsSync(table)).toBe(false);
    });
  }

  it("two files of one base name (in two folders): refused, naming both", () => {
    const files = [yearFile("one/tas.nc", 0), yearFile("two/tas.nc", 366)];
    const { run, table } = importConcat("same-name", files);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toMatch(/one\/tas\.nc and .*two\/tas\.nc have the same name "tas\.nc"/);
    expect(existsSync(table)).toBe(false);
  });

  it("time units and calendars CF calls equal (days since 2000-1-1 00:00:00 gregorian, days since 2000-01-01 standard) import", () => {
    const files = [yearFile("spelled/2000.nc", 0), yearFile("spelled/2001.nc", 366, "spelled")];
    expect(runPython(["-c", XARRAY, ...files]).trim()).toBe("ok");
    const { run } = importConcat("spelled", files);
    expect(run.code, run.stderr).toBe(0);
  });

  /** A file whose int64 `time` (seconds since 2000-01-01) holds `times`, the first masked with `masked`. */
  function int64File(name: string, times: bigint[], masked = false): string {
    const path = join(dir, name);
    runPython([
      "-c",
      `import sys, netCDF4, numpy as np
path, masked, times = sys.argv[1], sys.argv[2] == "1", [int(t) for t in sys.argv[3:]]
with netCDF4.Dataset(path, "w") as d:
    d.createDimension("time", None); d.createDimension("x", 2)
    t = d.createVariable("time", "i8", ("time",), fill_value=np.int64(-1) if masked else None)
    t.units = "seconds since 2000-01-01"
    t[:] = np.array(times, dtype="i8")
    if masked: t[0] = np.ma.masked
    v = d.createVariable("tas", "f4", ("time", "x")); v[:] = np.ones((len(times), 2))`,
      path,
      masked ? "1" : "0",
      ...times.map(String),
    ]);
    return path;
  }

  it("int64 times past 2^53: an overlap names them exactly; files one second apart are no overlap", () => {
    const big = 2n ** 53n + 1n;
    const overlapping = [int64File("big-a.nc", [big, big + 2n]), int64File("big-b.nc", [big + 1n, big + 4n])];
    const { run, table } = importConcat("big-overlap", overlapping);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toContain(
      `big-b.nc overlaps ${overlapping[0]}: its "time" starts at 9007199254740994, at or before 9007199254740995 where`,
    );
    expect(existsSync(table)).toBe(false);
    // As doubles, 2^53 + 3 (where the first ends) and 2^53 + 4 (where the second starts) are one value: an overlap.
    const adjacent = [int64File("big-c.nc", [big, big + 2n]), int64File("big-d.nc", [big + 3n, big + 4n])];
    const ok = importConcat("big-adjacent", adjacent).run;
    expect(ok.code, ok.stderr).toBe(0);
  });

  it("a masked first time: refused naming the file and the index, not as an overlap", () => {
    const files = [int64File("m-1.nc", [0n, 1n, 2n]), int64File("m-2.nc", [0n, 3n, 4n], true)];
    const { run, table } = importConcat("masked", files);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toContain(`${files[1]}: "time" has no value at index 0 (masked or NaN)`);
    expect(run.stderr).not.toMatch(/overlaps .*m-1\.nc/);
    expect(existsSync(table)).toBe(false);
  });

  it("files that agree (equal mask and 2-D coordinates) import, as xarray combines them", () => {
    const files = [yearFile("good/2000.nc", 0), yearFile("good/2001.nc", 366)];
    expect(runPython(["-c", XARRAY, ...files]).trim()).toBe("ok");
    const { run } = importConcat("good", files);
    expect(run.code, run.stderr).toBe(0);
  });
});
