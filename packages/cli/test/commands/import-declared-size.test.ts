/**
 * `import` of a file that declares far more than it holds (CLI README,
 * "Declared sizes"): a netCDF-4 variable of 10^6 x 10^6 doubles never
 * written (ncgen, a 6 KiB file) and a Zarr v2 array of 10^12 cells in
 * chunks of 1 (zarr-python, metadata only) are refused at once, before
 * anything is written, naming the size, the variable and `--max-size`;
 * the run ends (no bounded wait is needed: the refusal comes before any
 * row), and no table folder is left.
 */
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { netcdfToolsSkipReason, pythonSkipReason, runPython, runTool } from "@lance-nd/test-helpers";
import { beforeAll, describe, expect, it } from "vitest";
import { cli, ensureBuilt, tempDir } from "./harness.js";

const skip = netcdfToolsSkipReason() ?? pythonSkipReason("zarr-python", ["zarr"], "apt-get install python3-zarr");

describe.skipIf(skip !== undefined)("import of a file that declares more than it holds", () => {
  let dir: string;

  beforeAll(() => {
    ensureBuilt();
    dir = tempDir();
  });

  it("a netCDF-4 variable of 10^6 x 10^6 never written: refused before writing, with its size and --max-size", () => {
    const cdl = join(dir, "huge.cdl");
    writeFileSync(
      cdl,
      `netcdf huge {
dimensions:
  y = 1000000 ;
  x = 1000000 ;
variables:
  double v(y, x) ;
    v:_Storage = "chunked" ;
    v:_ChunkSizes = 1000, 1000 ;
}
`,
    );
    const file = join(dir, "huge.nc");
    runTool("ncgen", ["-4", "-o", file, cdl]);
    const table = join(dir, "huge.lance");
    const run = cli(["import", file, table]);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.stderr).toContain(`${file} declares 7.28 TiB of values`);
    expect(run.stderr).toContain('"v" has y=1000000, x=1000000');
    expect(run.stderr).toContain("over the 256 GiB an import takes");
    expect(run.stderr).toContain("--max-size <GiB> raises the limit");
    expect(existsSync(table)).toBe(false);
  });

  it("a Zarr v2 array of 10^12 cells in chunks of 1: refused the same way; --max-size must be more than 0", () => {
    const store = join(dir, "huge.zarr");
    runPython([
      "-c",
      `import sys, zarr
z = zarr.open(sys.argv[1], mode="w", shape=(10**12,), chunks=(1,), dtype="u1")
z.attrs["_ARRAY_DIMENSIONS"] = ["x"]`,
      store,
    ]);
    const table = join(dir, "huge-zarr.lance");
    const run = cli(["import", store, table]);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toContain("declares 931 GiB of values");
    expect(existsSync(table)).toBe(false);
    const bad = cli(["import", store, table, "--max-size", "0"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("expected a number of GiB");
  });
});
