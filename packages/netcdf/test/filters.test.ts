import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { isNetcdfError, openNetcdf, readNetcdf, writeNetcdf } from "../src/index.js";
import { filterFixturesSkipReason, makeFilterFixtures, compressedChunks } from "./filter-fixtures.js";
import type { FilterFixtures } from "./filter-fixtures.js";

const skip = filterFixturesSkipReason();

describe.skipIf(skip !== undefined)(`HDF5 filter plugins (h5wasm-plugins)${skip ? ` (${skip})` : ""}`, () => {
  let made: FilterFixtures;
  beforeAll(() => {
    made = makeFilterFixtures();
  });

  it("zstd: every value of a zstd-compressed netCDF-4 variable, whole and by hyperslab", async () => {
    const file = await openNetcdf(join(made.dir, "zstd.nc"));
    try {
      expect(file.variable("temp").compression).toEqual({ codec: "zstd", level: 5, shuffle: false });
      expect(Array.from((await file.read("temp")).values)).toEqual(made.values.temp);
      const window = await file.read("temp", { time: [2, 3], lat: [3, 6], lon: [0, 8] });
      expect(Array.from(window.values)).toEqual(made.values.temp.slice(2 * 48 + 24, 3 * 48));
    } finally {
      await file.close();
    }
  });

  it("bzip2: every value; the filter is recorded and written back", async () => {
    const batch = await readNetcdf(join(made.dir, "bzip2.nc"));
    const count = batch.get("count")!;
    expect(Array.from(count.values)).toEqual(made.values.count);
    expect(count.attr("_Filter")).toBe("307,9");
    const out = join(made.dir, "bzip2-again.nc");
    await writeNetcdf(out, batch);
    const oracle = compressedChunks(out, "count");
    expect(oracle.filters).toEqual([[307, [9]]]);
    expect(oracle.chunks).toHaveLength(4);
  });

  it("a filter no plugin provides is UnsupportedFilter naming the variable and the filter id", async () => {
    const file = await openNetcdf(join(made.dir, "unknown-filter.nc"));
    try {
      const err = await file.read("x").then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(isNetcdfError(err, "UnsupportedFilter")).toBe(true);
      expect(err).toMatchObject({ variable: "x" });
      expect((err as Error).message).toMatch(
        /unknown-filter\.nc: cannot read variable "x": it needs HDF5 filter 32099,/,
      );
    } finally {
      await file.close();
    }
  });

  it("writeNetcdf keeps a zstd source zstd: h5py sees filter 32015 at its level, libzstd decompresses each chunk", async () => {
    const source = await readNetcdf(join(made.dir, "zstd.nc"));
    const out = join(made.dir, "zstd-again.nc");
    await writeNetcdf(out, source);
    const oracle = compressedChunks(out, "temp");
    expect(oracle.filters).toEqual([[32015, [5]]]);
    expect(oracle.chunks.flat()).toEqual(made.values.temp);
    const header = spawnSync("ncdump", ["-hs", out], { encoding: "utf8" }).stdout;
    if (process.env.CI === "true" || header !== "") expect(header).toContain('temp:_Filter = "32015,5" ;');
    const back = await readNetcdf(out);
    expect(Array.from(back.get("temp")!.values)).toEqual(made.values.temp);
  });

  it("writeNetcdf with { codec: zstd } compresses every chunked variable; a level outside 1..22 is InvalidArgument", async () => {
    const source = await readNetcdf(join(made.dir, "bzip2.nc"));
    const out = join(made.dir, "bzip2-as-zstd.nc");
    await writeNetcdf(out, source, { compression: { codec: "zstd", level: 19 } });
    expect(compressedChunks(out, "count")).toEqual({
      filters: [[32015, [19]]],
      chunks: [0, 5, 2 * 10, 2 * 10 + 5].map((at) =>
        [0, 1].flatMap((row) => made.values.count.slice(at + row * 10, at + row * 10 + 5)),
      ),
    });
    const err = await writeNetcdf(out, source, { compression: { codec: "zstd", level: 23 } }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isNetcdfError(err, "InvalidArgument")).toBe(true);
    expect((err as Error).message).toMatch(/zstd level 23 is not an integer 1\.\.22/);
  });
});
