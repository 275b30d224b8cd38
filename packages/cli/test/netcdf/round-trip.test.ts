import { existsSync } from "node:fs";
import { join } from "node:path";
import { ncdumpKind as kind, runTool } from "@lance-nd/test-helpers";
import { beforeAll, describe, expect, it } from "vitest";
import { cliSucceeds } from "../commands/checked-runs.js";
import { ensureBuilt, tempDir } from "../commands/harness.js";
import { pythonSkipReason, xarrayDump, xarrayFixtures } from "./oracle.js";
import type { XarrayDump } from "./oracle.js";

const skip = pythonSkipReason();

const XARRAY_DATA = "/usr/lib/python3/dist-packages/xarray/tests/data";
const SCIPY_DATA = "/usr/lib/python3/dist-packages/scipy/io/tests/data";
const GSHHG = "/usr/share/gmt-gshhg/binned_GSHHS_c.nc";

/** Real files no one here wrote; missing ones fail under CI (the oracle skip covers a machine without Python). */
function realFiles(): string[] {
  const files = [
    join(XARRAY_DATA, "example_1.nc"),
    join(XARRAY_DATA, "bears.nc"),
    join(SCIPY_DATA, "example_1.nc"),
    join(SCIPY_DATA, "example_2.nc"),
    GSHHG,
  ];
  const missing = files.filter((f) => !existsSync(f));
  if (missing.length > 0 && process.env.CI === "true")
    throw new Error(`test files missing: ${missing.join(", ")} (installed by .ci/run)`);
  return files.filter((f) => existsSync(f));
}

/** Each exported file is its source, as xarray sees them (one Python start for all pairs). */
function expectSameFiles(pairs: readonly (readonly [source: string, exported: string])[]): void {
  const dumps = xarrayDump(...pairs.flat());
  for (const [i, [source, exported]] of pairs.entries())
    expectSameFile(source, exported, dumps[2 * i]!, dumps[2 * i + 1]!);
}

function expectSameFile(source: string, exported: string, a: XarrayDump, b: XarrayDump): void {
  const netcdf4 = source.endsWith("packed.nc") || source.includes("gmt-gshhg");
  expect(b.dims, source).toEqual(a.dims);
  expect(b.dimOrder, `${source} dim order`).toEqual(a.dimOrder);
  expect(kind(exported), `${source} ncdump -k`).toBe(kind(source));
  expect(b.unlimited, source).toEqual(a.unlimited);
  expect(b.attrs, source).toEqual(a.attrs);
  expect(Object.keys(b.variables).sort(), source).toEqual(Object.keys(a.variables).sort());
  for (const [name, v] of Object.entries(a.variables)) {
    const w = b.variables[name]!;
    expect({ name, dims: w.dims, dtype: w.dtype, shape: w.shape }).toEqual({
      name,
      dims: v.dims,
      dtype: v.dtype,
      shape: v.shape,
    });
    expect(w.values, `${source} ${name} values`).toEqual(v.values);
    expect(w.attrs, `${source} ${name} attributes`).toEqual(v.attrs);
    if (netcdf4)
      expect({ name, chunks: w.chunksizes, level: w.complevel }).toEqual({
        name,
        chunks: v.chunksizes,
        level: v.complevel,
      });
  }
}

describe.skipIf(skip !== undefined)(`import then export, compared with xarray${skip ? ` (${skip})` : ""}`, () => {
  let dir: string;
  let fixtures: string;
  beforeAll(() => {
    ensureBuilt();
    dir = tempDir();
    fixtures = xarrayFixtures();
  });

  it("real files (xarray, scipy, GSHHG) come back in their format (classic stays classic), value by value, attribute by attribute, dims in the file's order, unlimited, chunks and compression", () => {
    const files = realFiles();
    expect(files.length).toBeGreaterThan(0);
    // xarray and scipy both ship an example_1.nc: one table each, as ids must differ.
    const tables = [files.filter((f) => !f.startsWith(SCIPY_DATA)), files.filter((f) => f.startsWith(SCIPY_DATA))];
    tables.forEach((group, t) => {
      if (group.length > 0) cliSucceeds(["import", ...group, join(dir, `real-${t}.lance`)]);
    });
    files.forEach((file, i) => {
      const table = join(dir, `real-${file.startsWith(SCIPY_DATA) ? 1 : 0}.lance`);
      cliSucceeds([
        "export",
        table,
        join(dir, `real-${i}.nc`),
        "--where",
        `__global_attrs__.id = '${file.split("/").at(-1)!}'`,
      ]);
    });
    expectSameFiles(files.map((file, i) => [file, join(dir, `real-${i}.nc`)] as const));
  });

  it("--cf raw, mask and decode: a packed int16 file with fills, CF times, a char variable and an unlimited dim comes back exactly", () => {
    const packed = join(fixtures, "packed.nc");
    const exported = ["raw", "mask", "decode"].map((mode) => {
      const table = join(dir, `packed-${mode}.lance`);
      cliSucceeds(["import", packed, table, "--cf", mode]);
      cliSucceeds(["export", table, join(dir, `packed-${mode}.nc`)]);
      return [packed, join(dir, `packed-${mode}.nc`)] as const;
    });
    expectSameFiles(exported);
  });

  it("--compression and --chunks override what the source had", () => {
    const table = join(dir, "packed-raw.lance");
    cliSucceeds(["export", table, join(dir, "rechunked.nc"), "--compression", "deflate:9", "--chunks", "time=3,lat=4"]);
    const sst = xarrayDump(join(dir, "rechunked.nc"))[0]!.variables.sst!;
    expect({ chunks: sst.chunksizes, level: sst.complevel }).toEqual({ chunks: [3, 4, 5], level: 9 });
  });

  it("--compression zstd:7 writes HDF5 filter 32015 (ncdump shows it), and the file imports back to the same values", () => {
    const out = join(dir, "zstd.nc");
    cliSucceeds(["export", join(dir, "packed-raw.lance"), out, "--compression", "zstd:7"]);
    const header = runTool("ncdump", ["-hs", out]);
    if (process.env.CI === "true" || header !== "") expect(header).toContain('sst:_Filter = "32015,7" ;');
    const table = join(dir, "zstd-again.lance");
    cliSucceeds(["import", out, table, "--cf", "raw"]);
    const values = (t: string): unknown =>
      (
        JSON.parse(cliSucceeds(["scan", t, "--json", "--project", "sst"])) as {
          arrays: { sst: { values: unknown[] } };
        }[]
      )[0]!.arrays.sst.values;
    expect(values(table)).toEqual(values(join(dir, "packed-raw.lance")));
    cliSucceeds(["export", table, join(dir, "zstd-again.nc")]);
    expect(runTool("ncdump", ["-hs", join(dir, "zstd-again.nc")])).toBe(
      header.replace("netcdf zstd {", "netcdf zstd-again {"),
    );
  });

  it("--format netcdf4 / classic choose the format; a classic source with --compression becomes netCDF-4", () => {
    const table = join(dir, "real-0.lance");
    const where = ["--where", "__global_attrs__.id = 'example_1.nc'"];
    cliSucceeds(["export", table, join(dir, "ex-nc4.nc"), ...where, "--format", "netcdf4"]);
    cliSucceeds(["export", table, join(dir, "ex-zip.nc"), ...where, "--compression", "deflate:2"]);
    cliSucceeds(["export", join(dir, "packed-raw.lance"), join(dir, "packed-classic.nc"), "--format", "classic"]);
    expect([kind(join(dir, "ex-nc4.nc")), kind(join(dir, "ex-zip.nc")), kind(join(dir, "packed-classic.nc"))]).toEqual([
      "netCDF-4",
      "netCDF-4",
      "classic",
    ]);
    const [source, classic] = xarrayDump(join(fixtures, "packed.nc"), join(dir, "packed-classic.nc"));
    expect(classic!.variables.sst!.values).toEqual(source!.variables.sst!.values);
    expect(classic!.variables.station!.values).toEqual(source!.variables.station!.values);
  });
});
