/**
 * planConcat and concatRows on in-memory sources (README, "Many files, one
 * dataset"): the order by the first coordinate value, the starts, the rows'
 * `chunk_offset` and `_SourceFile`, and each refusal naming the source. The
 * same against xarray's open_mfdataset on real files:
 * packages/cli/test/concat-oracle.test.ts.
 */
import { NdArray, NdRecordBatch, chunk } from "@lance-nd/nd-arrow";
import { describe, expect, it } from "vitest";
import { SOURCE_FILE_ATTR, concatRows, planConcat } from "../../src/index.js";
import type { ConcatSource } from "../../src/index.js";

/** A file of `tas(time, lat)` with the given times and latitudes, as a source and its whole batch. */
function source(path: string, times: number[], lat = [-45, 45], units = "days since 2000-01-01") {
  const batch = new NdRecordBatch({
    time: NdArray.from(Float64Array.from(times), { dims: { time: times.length }, attrs: { units } }),
    lat: NdArray.from(Float64Array.from(lat), { dims: { lat: lat.length } }),
    tas: NdArray.from(new Float32Array(times.length * lat.length), { dims: { time: times.length, lat: lat.length } }),
  });
  const src: ConcatSource & { batch: NdRecordBatch } = {
    path,
    batch,
    variables: batch.arrays().map(([name, array]) => ({ name, dims: array.dims })),
    read: async (name) => batch.get(name)!,
  };
  return src;
}

describe("planConcat and concatRows", () => {
  it("order the sources by their first time, place their rows after the sources before, and name the file of each row", async () => {
    const sources = [source("/d/b.nc", [10, 11, 12]), source("/d/a.nc", [0, 1]), source("/d/c.nc", [20])];
    const parts = await planConcat(sources, "time");
    expect(parts.map((p) => [p.name, p.start, p.size, p.first, p.last])).toEqual([
      ["a.nc", 0, 2, 0, 1],
      ["b.nc", 2, 3, 10, 12],
      ["c.nc", 5, 1, 20, 20],
    ]);
    const rows = [];
    for await (const row of concatRows(parts, "time", async function* (s) {
      yield* chunk(s.batch, { time: 2 });
    }))
      rows.push([row.globalAttr(SOURCE_FILE_ATTR), row.globalAttr("chunk_offset")]);
    expect(rows).toEqual([
      ["a.nc", [0, 0]],
      ["b.nc", [2, 0]],
      ["b.nc", [4, 0]],
      ["c.nc", [5, 0]],
    ]);
    // An append: after a dataset that ends at time 12 with 5 steps.
    const after = source("data/tas.lance", [0, 1, 10, 11, 12]);
    const appended = await planConcat([source("/d/c.nc", [20])], "time", after);
    expect(appended.map((p) => [p.name, p.start])).toEqual([["c.nc", 5]]);
  });

  it("refuse overlapping, decreasing or disagreeing sources, naming the source", async () => {
    const a = source("a.nc", [0, 1, 2]);
    const cases: [ConcatSource[], ConcatSource | undefined, RegExp][] = [
      [[a, source("b.nc", [2, 3])], undefined, /^concat: b\.nc overlaps a\.nc: its "time" starts at 2, at or before 2/],
      [[source("b.nc", [5, 4])], undefined, /^concat: b\.nc: "time" is not increasing \(5 then 4 at index 1\)/],
      [
        [a, source("b.nc", [5], [-40, 45])],
        undefined,
        /^concat: b\.nc: coordinate "lat" differs from a\.nc at index 0/,
      ],
      [[a, source("b.nc", [5], [0])], undefined, /^concat: b\.nc: dim "lat" has size 1, 2 in a\.nc/],
      [[a, source("b.nc", [5], undefined, "days since 2001-01-01")], undefined, /^concat: b\.nc: "time" has units/],
      [[source("b.nc", [1])], a, /^concat: b\.nc overlaps a\.nc/],
    ];
    for (const [sources, after, message] of cases) {
      await expect(planConcat(sources, "time", after)).rejects.toMatchObject({ code: "InvalidInput", message });
    }
    await expect(planConcat([a], "level")).rejects.toThrow(/a\.nc has no dim "level" to concatenate along/);
  });
});
