/**
 * Sources that used to fail a whole import or export for one part of them
 * (CLI README, "import"): each now gives one line naming the cause, and
 * what can be kept is kept.
 * - a netCDF variable named `__global_attrs__` (a name the format reserves)
 *   is left out with one warning line; the file's other variables import
 *   and export as xarray reads them;
 * - a variable attribute `_DeflateLevel = 99` written by netCDF4-python (no
 *   deflate level netCDF-C records) no longer fails the export with HDF5's
 *   "filter returned failure": the variable is written without a filter;
 * - Zarr v3 attributes nested 20,000 deep are refused naming the attribute
 *   or the metadata file and the depth, not with a stack overflow.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runPython, runTool } from "@lance-nd/test-helpers";
import { beforeAll, describe, expect, it } from "vitest";
import { fixtureSkipReason } from "../fixtures.js";
import { cli, ensureBuilt, tempDir } from "../commands/harness.js";
import { importExport } from "./as-it-went-in.js";
import { pythonSkipReason } from "./oracle.js";

const skip = fixtureSkipReason() ?? pythonSkipReason();

/** "same" when xarray reads the same `sst` (values and attributes) from both files, else both reprs. */
const SAME_SST = `
import sys, xarray as xr
with xr.open_dataset(sys.argv[1]) as a, xr.open_dataset(sys.argv[2]) as b:
    x, y = a["sst"], b["sst"]
    x.attrs.pop("_DeflateLevel", None)
    print("same" if x.identical(y) else repr(x) + "\\n" + repr(y))
`;

describe.skipIf(skip !== undefined)(`sources with one hostile part${skip ? ` (${skip})` : ""}`, () => {
  let dir: string;
  beforeAll(() => {
    ensureBuilt();
    dir = tempDir();
  });

  it('a netCDF variable named "__global_attrs__": left out with one warning line; sst imports and exports', () => {
    const cdl = join(dir, "reserved-variable.cdl");
    writeFileSync(
      cdl,
      `netcdf reserved-variable {
dimensions: x = 3 ;
variables:
  float __global_attrs__(x) ;
  float sst(x) ;
    sst:units = "K" ;
data:
  __global_attrs__ = 1, 2, 3 ;
  sst = 4.5, 5.5, 6.5 ;
}
`,
    );
    const source = join(dir, "reserved-variable.nc");
    runTool("ncgen", ["-4", "-o", source, cdl]);
    const { out, warnings } = importExport(source, dir, "reserved-variable");
    expect(warnings).toEqual([
      `lance-nd: warning: ${source}: variable "__global_attrs__" left out: names that start with "__" belong to the lance-nd format; the other variables are imported`,
    ]);
    expect(runPython(["-c", SAME_SST, source, out]).trim()).toBe("same");
  });

  it("a variable attribute _DeflateLevel = 99 from netCDF4-python: the export writes the variable without a filter", () => {
    const source = join(dir, "deflate-99.nc");
    runPython([
      "-c",
      `import sys, netCDF4, numpy as np
with netCDF4.Dataset(sys.argv[1], "w") as d:
    d.createDimension("x", 3)
    v = d.createVariable("sst", "f4", ("x",))
    v[:] = [4.5, 5.5, 6.5]
    v.setncattr("_DeflateLevel", np.int32(99))`,
      source,
    ]);
    const { out } = importExport(source, dir, "deflate-99");
    expect(runPython(["-c", SAME_SST, source, out]).trim()).toBe("same");
  });

  it("Zarr v3 attributes nested 20,000 deep: one line naming the attribute or the file and its depth", () => {
    const depth = 20_000;
    const array = {
      zarr_format: 3,
      node_type: "array",
      shape: [3],
      data_type: "float32",
      chunk_grid: { name: "regular", configuration: { chunk_shape: [3] } },
      chunk_key_encoding: { name: "default", configuration: { separator: "/" } },
      fill_value: 0,
      codecs: [{ name: "bytes", configuration: { endian: "little" } }],
      dimension_names: ["x"],
      attributes: {},
    };
    for (const [name, leaf, expected] of [
      ["deep.zarr", "1", 'attribute "deep" is an object nested too deep to show'],
      ["deep-nan.zarr", "NaN", `"zarr.json" is not valid JSON (its values nest ${depth + 2} levels deep`],
    ] as const) {
      const store = join(dir, name);
      mkdirSync(join(store, "v", "c"), { recursive: true });
      const deep = `${'{"n":'.repeat(depth)}${leaf}${"}".repeat(depth)}`;
      writeFileSync(join(store, "zarr.json"), `{"zarr_format":3,"node_type":"group","attributes":{"deep":${deep}}}`);
      writeFileSync(join(store, "v", "zarr.json"), JSON.stringify(array));
      writeFileSync(join(store, "v", "c", "0"), new Uint8Array(Float32Array.of(1, 2, 3).buffer));
      const run = cli(["import", store, join(dir, `${name}.lance`)]);
      expect(run.code, run.stderr).toBe(1);
      expect(run.stderr.trim().split("\n")).toHaveLength(1);
      expect(run.stderr).toContain(expected);
      expect(run.stderr).not.toMatch(/call stack|unexpected error/);
    }
  });
});
