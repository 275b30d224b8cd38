/**
 * A table built from several netCDF files whose variables come in other
 * orders: the export of each file's dataset (`--where id`), of a part of it
 * (`--project`, `--isel`) and of the `--concat` dataset lists the variables
 * and coordinates in the order of the file it came from, as
 * `xr.open_dataset` lists them (CLI README, "Export").
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { pythonSkipReason, runPython, runTool } from "@lance-nd/test-helpers";
import { beforeAll, describe, expect, it } from "vitest";
import { cliQuiet } from "./checked-runs.js";
import { ensureBuilt, tempDir } from "./harness.js";

const skip = pythonSkipReason(
  "variable order oracle",
  ["xarray", "netCDF4"],
  "apt-get install python3-xarray python3-netcdf4 netcdf-bin",
);

// The same variables in two orders; b.nc's times come first along time, so the concat dataset starts with it.
const CDL: Record<string, string> = {
  "a.nc": `netcdf a {
dimensions: time = 2 ; x = 3 ;
variables:
  float sst(time, x) ;
  double time(time) ; time:units = "days since 2000-01-01" ;
  float x(x) ;
  int flag(time) ;
data: sst = 1, 2, 3, 4, 5, 6 ; time = 2, 3 ; x = 10, 20, 30 ; flag = 1, 0 ;
}`,
  "b.nc": `netcdf b {
dimensions: time = 2 ; x = 3 ;
variables:
  int flag(time) ;
  float x(x) ;
  double time(time) ; time:units = "days since 2000-01-01" ;
  float sst(time, x) ;
data: sst = 7, 8, 9, 10, 11, 12 ; time = 0, 1 ; x = 10, 20, 30 ; flag = 0, 1 ;
}`,
};

/** xarray's order of each file: every variable, the data variables, the coordinates. */
function orders(...files: string[]): string[][][] {
  const code = `import sys, json, xarray as xr
out = []
for f in sys.argv[1:]:
    ds = xr.open_dataset(f)
    out.append([list(ds.variables), list(ds.data_vars), list(ds.coords)])
print(json.dumps(out))`;
  return JSON.parse(runPython(["-c", code, ...files])) as string[][][];
}

describe.skipIf(skip)("export keeps each file's variable order", () => {
  let dir: string;
  const file = (name: string) => join(dir, name);
  beforeAll(() => {
    ensureBuilt();
    dir = tempDir();
    for (const [name, cdl] of Object.entries(CDL)) {
      writeFileSync(file(`${name}.cdl`), cdl);
      runTool("ncgen", ["-4", "-o", file(name), file(`${name}.cdl`)]);
    }
    cliQuiet(["import", file("a.nc"), file("b.nc"), file("both.lance")]);
    cliQuiet(["import", file("a.nc"), file("b.nc"), file("concat.lance"), "--concat", "time", "--id", "ab"]);
  });

  it("each file's dataset of a table of two files, whole and in part, in netCDF-4 and classic", () => {
    const both = file("both.lance");
    cliQuiet(["export", both, file("a-out.nc"), "--where", "__global_attrs__.id = 'a.nc'"]);
    cliQuiet(["export", both, file("b-out.nc"), "--where", "__global_attrs__.id = 'b.nc'"]);
    cliQuiet(["export", both, file("b-classic.nc"), "--where", "__global_attrs__.id = 'b.nc'", "--format", "classic"]);
    cliQuiet(["export", both, file("b-part.nc"), "--where", "__global_attrs__.id = 'b.nc'", "--isel", "time=0:1"]);
    cliQuiet(["export", both, file("b-sst.nc"), "--where", "__global_attrs__.id = 'b.nc'", "--project", "flag,sst"]);
    const [a, b, aOut, bOut, bClassic, bPart, bSst] = orders(
      file("a.nc"),
      file("b.nc"),
      file("a-out.nc"),
      file("b-out.nc"),
      file("b-classic.nc"),
      file("b-part.nc"),
      file("b-sst.nc"),
    );
    expect(b![0]).not.toEqual(a![0]);
    expect(aOut).toEqual(a);
    expect(bOut).toEqual(b);
    expect(bClassic).toEqual(b);
    expect(bPart).toEqual(b);
    expect(bSst).toEqual(b);
  });

  it("the concat dataset in the order of its first file along the concat dim", () => {
    cliQuiet(["export", file("concat.lance"), file("concat.nc")]);
    const [b, concat] = orders(file("b.nc"), file("concat.nc"));
    expect(concat).toEqual(b);
  });
});
