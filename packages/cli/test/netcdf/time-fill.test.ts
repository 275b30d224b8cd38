import { join } from "node:path";
import { runPython } from "@lance-nd/test-helpers";
import { beforeAll, describe, expect, it } from "vitest";
import { cli, ensureBuilt, tempDir } from "../commands/harness.js";
import { pythonSkipReason } from "./oracle.js";

const skip = pythonSkipReason();

// Two time coordinates with a missing time, written by netCDF4-python: a float64 NaN with no declared fill, and a
// float64 with its own _FillValue (-9999) at the missing time. (An integer time without a declared fill has no
// missing value: the default masking keeps netCDF's default fill as a value, as xarray does.)
const WRITE = `
import sys, netCDF4, numpy as np
d = netCDF4.Dataset(sys.argv[1], "w")
for name in ("t_nan", "t_declared"):
    d.createDimension(name, 3)
nan = d.createVariable("t_nan", "f8", ("t_nan",))
declared = d.createVariable("t_declared", "f8", ("t_declared",), fill_value=-9999.0)
for v in (nan, declared):
    v.units = "days since 2000-01-01"
    v.set_auto_mask(False)
nan[:] = [0, np.nan, 2]
declared[:] = [0, -9999.0, 2]
d.close()
`;

// What xarray decodes from the export, and the _FillValue each time declares in the file (netCDF4, no masking).
const READ = `
import sys, json, netCDF4, numpy as np, xarray as xr
ds = xr.open_dataset(sys.argv[1])
raw = netCDF4.Dataset(sys.argv[1])
out = {}
for name in ("t_nan", "t_declared"):
    values = ds[name].values
    fill = raw[name].__dict__.get("_FillValue")
    out[name] = {
        "dates": [None if np.isnat(v) else str(v)[:10] for v in values],
        "fill": None if fill is None else ("NaN" if np.isnan(fill) else float(fill)),
    }
print(json.dumps(out))
`;

describe.skipIf(skip !== undefined)("a missing time exported after --cf decode", () => {
  let dir: string;

  beforeAll(() => {
    ensureBuilt();
    dir = tempDir();
  });

  it("goes back as a fill value the file declares (NaN for floats), and xarray reads NaT", () => {
    const source = join(dir, "missing-times.nc");
    runPython(["-c", WRITE, source]);
    const table = join(dir, "missing-times.lance");
    const imported = cli(["import", source, table, "--cf", "decode"]);
    expect(imported.code, imported.stderr).toBe(0);
    const exported = join(dir, "exported.nc");
    const run = cli(["export", table, exported]);
    expect(run.code, run.stderr).toBe(0);
    const read = JSON.parse(runPython(["-c", READ, exported])) as Record<
      string,
      { dates: (string | null)[]; fill: number | "NaN" | null }
    >;
    const dates = ["2000-01-01", null, "2000-01-03"];
    expect(read).toEqual({
      t_nan: { dates, fill: "NaN" },
      t_declared: { dates, fill: -9999 },
    });
  });
});
