/**
 * `selectNetcdf`: part of an open file (classic and netCDF-4). Its reads
 * and rows hold what the whole file's reads of the same window hold (those
 * are xarray's slices: open.test.ts); the projection keeps coordinates; an
 * index drops the dim and keeps its coordinate as a scalar coordinate;
 * what the file cannot give is a typed error naming it.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CHUNK_OFFSET, NdArray, NdRecordBatch } from "@lance-nd/nd-arrow";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failure } from "@lance-nd/test-helpers";
import { isNetcdfError, openNetcdf, selectNetcdf, writeNetcdf } from "../src/index.js";

const dir = mkdtempSync(join(tmpdir(), "lance-nd-netcdf-select-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function sample(): NdRecordBatch {
  return new NdRecordBatch({
    t: NdArray.from(
      Float32Array.from({ length: 6 * 3 * 4 }, (_, i) => i),
      { dims: { time: 6, lat: 3, lon: 4 }, attrs: { units: "K" } },
    ),
    land: NdArray.from(
      Int16Array.from({ length: 12 }, (_, i) => i % 2),
      { dims: { lat: 3, lon: 4 } },
    ),
    time: NdArray.from(Float64Array.of(0, 1, 2, 3, 4, 5), {
      dims: { time: 6 },
      attrs: { units: "days since 2000-01-01" },
    }),
    lat: NdArray.from(Float32Array.of(-10, 0, 10), { dims: { lat: 3 } }),
    lon: NdArray.from(Float32Array.of(0, 90, 180, 270), { dims: { lon: 4 } }),
  });
}

const values = (array: NdArray) => Array.from(array.toArray() as ArrayLike<number>);

describe("selectNetcdf", () => {
  const paths: Record<string, string> = {};
  beforeAll(async () => {
    for (const format of ["classic", "netcdf4"] as const) {
      paths[format] = join(dir, `${format}.nc`);
      await writeNetcdf(paths[format], sample(), { format, unlimited: ["time"] });
    }
  });

  for (const format of ["classic", "netcdf4"] as const) {
    it(`${format}: a region's reads and rows are the whole file's reads of that window`, async () => {
      const file = await openNetcdf(paths[format]!);
      const part = selectNetcdf(await openNetcdf(paths[format]!), { time: [1, 5], lon: [1, 3] });
      try {
        expect(part.dims.map((d) => [d.name, d.size])).toEqual([
          ["time", 4],
          ["lat", 3],
          ["lon", 2],
        ]);
        expect(part.variable("land").dims).toEqual([
          { name: "lat", size: 3 },
          { name: "lon", size: 2 },
        ]);
        expect(values(await part.read("t"))).toEqual(values(await file.read("t", { time: [1, 5], lon: [1, 3] })));
        expect(values(await part.read("t", { time: 2, lat: [1, 3] }))).toEqual(
          values(await file.read("t", { time: 3, lat: [1, 3], lon: [1, 3] })),
        );
        const rows = [];
        for await (const row of part.chunks({ time: 3 })) rows.push(row);
        expect(rows.map((r) => r.get("t")!.dims.map((d) => d.size))).toEqual([
          [3, 3, 2],
          [1, 3, 2],
        ]);
        expect(rows.map((r) => Array.from(r.globalAttrs.get(CHUNK_OFFSET)!.toJS() as number[]))).toEqual([
          [0, 0, 0],
          [3, 0, 0],
        ]);
        expect(values(rows[1]!.get("time")!)).toEqual([4]);
      } finally {
        await part.close();
        await file.close();
      }
    });

    it(`${format}: an index drops the dim, its coordinate a scalar coordinate; a projection keeps coordinates`, async () => {
      const part = selectNetcdf(await openNetcdf(paths[format]!), { time: -1 }, ["t"]);
      try {
        expect(part.variables.map((v) => v.name)).toEqual(["t", "time", "lat", "lon"]);
        expect(part.dims.map((d) => d.name)).toEqual(["lat", "lon"]);
        const t = await part.read("t");
        expect(t.dims.map((d) => d.name)).toEqual(["lat", "lon"]);
        expect(t.attrs.get("coordinates")?.toJS()).toBe("time");
        expect(values(await part.read("time"))).toEqual([5]);
      } finally {
        await part.close();
      }
    });
  }

  it("a dim, a variable or a range the file cannot give: typed errors naming it", async () => {
    const file = await openNetcdf(paths.classic!);
    try {
      const depth = await failure(() => selectNetcdf(file, { depth: [0, 1] }));
      expect(isNetcdfError(depth, "DimNotFound") && depth.message).toContain('"depth"');
      const empty = await failure(() => selectNetcdf(file, { time: [3, 3] }));
      expect(isNetcdfError(empty, "InvalidArgument") && empty.message).toContain('along "time" takes no cell');
      const missing = await failure(() => selectNetcdf(file, {}, ["nope"]));
      expect(isNetcdfError(missing, "VariableNotFound") && missing.message).toContain('"nope"');
      const left = await failure(() => selectNetcdf(file, {}, ["land"]).variable("t"));
      expect(isNetcdfError(left, "VariableNotFound") && left.message).toContain('variable "t" is not in the selection');
    } finally {
      await file.close();
    }
  });
});
