/**
 * `--cf decode` decodes what the timestamp type holds and keeps a time
 * variable it cannot decode as CF numbers, as `--cf mask` keeps it, with
 * one warning line naming it (CLI README, "CF conventions"), instead of
 * refusing the whole file: a proleptic_gregorian date past 2262, a float32
 * time 10^12 seconds out, `months since` with the 360_day calendar. Files
 * written by netCDF4-python; the export's `time` is the source's for
 * xarray (undecoded), and the file's other time decodes.
 */
import { join } from "node:path";
import { runPython } from "@lance-nd/test-helpers";
import { beforeAll, describe, expect, it } from "vitest";
import { cli, cliJson, ensureBuilt, tempDir } from "../commands/harness.js";
import { importExport } from "./as-it-went-in.js";
import { pythonSkipReason } from "./oracle.js";

const skip = pythonSkipReason();

const WRITE = `
import sys, netCDF4, numpy as np
path, dtype, units, calendar = sys.argv[1:5]
values = [float(v) for v in sys.argv[5:]]
with netCDF4.Dataset(path, "w") as d:
    d.createDimension("time", len(values)); d.createDimension("x", 2)
    t = d.createVariable("time", dtype, ("time",)); t.units, t.calendar = units, calendar
    t[:] = np.array(values, dtype=dtype)
    o = d.createVariable("other_time", "f8", ("time",)); o.units = "days since 2000-01-01"; o[:] = np.arange(len(values))
    v = d.createVariable("tas", "f4", ("time", "x")); v[:] = np.ones((len(values), 2))
`;

/** "same" when xarray reads the same undecoded \`time\` (values, units, calendar) from both files. */
const SAME_TIME = `
import sys, xarray as xr
with xr.open_dataset(sys.argv[1], decode_times=False) as a, xr.open_dataset(sys.argv[2], decode_times=False) as b:
    x, y = a["time"], b["time"]
    same = x.dtype == y.dtype and (x.values == y.values).all() and all(x.attrs[k] == y.attrs[k] for k in ("units", "calendar"))
    print("same" if same else repr(x) + "\\n" + repr(y))
`;

describe.skipIf(skip !== undefined)(`--cf decode: a time it cannot decode${skip ? ` (${skip})` : ""}`, () => {
  let dir: string;
  beforeAll(() => {
    ensureBuilt();
    dir = tempDir();
  });

  const cases = [
    [
      "a proleptic_gregorian date past 2262",
      "far",
      ["f8", "days since 1900-01-01", "proleptic_gregorian", "0", "182500"],
    ],
    ["a float32 time 10^12 seconds out", "f32", ["f4", "seconds since 2000-01-01", "standard", "0", "1e12"]],
    ["months since with 360_day", "months", ["i4", "months since 2000-01-01", "360_day", "0", "1", "2"]],
  ] as const;
  for (const [what, name, args] of cases) {
    it(`${what}: kept as CF numbers with one warning line naming it; other_time decodes; time exports as it was`, () => {
      const source = join(dir, `${name}.nc`);
      runPython(["-c", WRITE, source, ...args]);
      const { out, table, warnings } = importExport(source, dir, name, ["--cf", "decode"]);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(
        new RegExp(`^lance-nd: warning: ${source}: variable "time" kept as CF numbers \\(as --cf mask\\): `),
      );
      const [row] = cliJson<{ arrays: Record<string, { type: string }> }[]>(["scan", table, "--limit", "1"]);
      expect(row!.arrays.other_time!.type).toMatch(/^Timestamp/);
      expect(row!.arrays.time!.type).not.toMatch(/^Timestamp/);
      expect(runPython(["-c", SAME_TIME, source, out]).trim()).toBe("same");
    });
  }

  it("a file whose times all decode: no warning (the rule touches only what it cannot decode)", () => {
    const source = join(dir, "near.nc");
    runPython(["-c", WRITE, source, "f8", "days since 2000-01-01", "standard", "0", "1"]);
    const run = cli(["import", source, join(dir, "near.lance"), "--cf", "decode"]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toBe("");
  });
});
