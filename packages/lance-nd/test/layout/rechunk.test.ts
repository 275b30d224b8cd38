import { afterEach, describe, expect, it, vi } from "vitest";
import { dataset } from "../../src/dataset/dataset.js";
import type { IselSpec } from "../../src/dataset/selection.js";
import { isLanceNdError } from "../../src/errors.js";
import { col } from "../../src/read/expr.js";
import { scan } from "../../src/read/scan.js";
import { dropLayout, rechunk } from "../../src/layout/rechunk.js";
import { layouts } from "../../src/layout/layout-list.js";
import { tempDir } from "../helpers/make-table.js";
import { recordReads, sstBatch, writeChunked } from "../dataset/fixture.js";

const dir = tempDir("rechunk");
let n = 0;
const uri = () => `${dir}/t${n++}.lance`;
const SST = col("__global_attrs__.id").eq("sst.nc");

afterEach(() => vi.restoreAllMocks());

/** sst(time 12, lat 10, lon 8) in map rows (one step a row) plus a time-series layout of 2 x 2 columns. */
async function twoLayouts() {
  const table = await writeChunked(uri(), sstBatch(), { time: 1 });
  const result = await rechunk(table, { id: "sst.nc", chunk: { time: "all", lat: 2, lon: 2 }, name: "series" });
  return { table, result };
}

describe("rechunk", () => {
  it("writes the layout under <id>@<name> with layout_of, one row per chunk of the new shape", async () => {
    const { table, result } = await twoLayouts();
    expect(result).toMatchObject({ id: "sst.nc@series", name: "series", chunk: "time=all,lat=2,lon=2", rows: 20 });
    const rows = await scan(table).filterExpr(col("__global_attrs__.id").eq("sst.nc@series")).toArray();
    expect(rows).toHaveLength(20);
    expect(rows.every((row) => row.globalAttr("layout_of") === "sst.nc")).toBe(true);
    expect(rows.map((row) => row.get("sst")!.shape)).toContainEqual([12, 2, 2]);
  });

  it("a read equals the one-layout read whichever layout it takes", async () => {
    const { table } = await twoLayouts();
    const one = await dataset(await writeChunked(uri(), sstBatch(), { time: 1 }), { where: SST });
    const two = await dataset(table, { where: SST });
    expect(two.layouts).toEqual(["source", "series"]);
    const picks: IselSpec[] = [{ time: 3 }, { lat: 4, lon: 5 }, { time: [2, 9], lat: [1, 6], lon: [0, 3] }, {}];
    for (const pick of picks) {
      const [a, b] = [await one.isel(pick).read(), await two.isel(pick).read()];
      expect(b.names()).toEqual(a.names());
      for (const name of a.names()) expect(b.get(name)!.toArray()).toEqual(a.get(name)!.toArray());
      expect(b.globalAttr("id")).toBe("sst.nc");
      expect(b.globalAttr("layout_of")).toBeUndefined();
    }
  });

  it("a map takes the source rows, a point's time series the series rows: the fewest bytes, in one take", async () => {
    const { table } = await twoLayouts();
    const view = await table.checkout(await table.version());
    const ds = await dataset(view, { where: SST });
    const forced = await dataset(view, { where: SST, layout: "source" });
    const reads = recordReads(view);
    const taken = async (read: Promise<unknown>) => {
      reads.takes.length = 0;
      await read;
      return reads.takes.filter((t) => t.columns.includes("sst")).map((t) => t.rows);
    };
    expect(await ds.isel({ time: 3 }).readLayout(["sst"])).toBe("source");
    expect(await taken(ds.isel({ time: 3 }).read(["sst"]))).toEqual([1]); // one map row: 80 values
    expect(await ds.isel({ lat: 4, lon: 5 }).readLayout(["sst"])).toBe("series");
    expect(await taken(ds.isel({ lat: 4, lon: 5 }).read(["sst"]))).toEqual([1]); // one series row: 48 values
    expect(await taken(forced.isel({ lat: 4, lon: 5 }).read(["sst"]))).toEqual([12]); // 12 map rows: 960 values
    // A warm one-row read of the planned view: one SDK call, the take; no scan.
    reads.scans = 0;
    expect(await taken(ds.isel({ lat: 4, lon: 5 }).read(["sst"]))).toEqual([1]);
    expect(reads.takes).toHaveLength(1);
    expect(reads.scans).toBe(0);
    // A box over every step: the 3 x 3 series rows around it in one take of
    // the variable alone (a read gives the plan's global attributes).
    expect(await taken(ds.isel({ lat: [3, 7], lon: [1, 5] }).read(["sst"]))).toEqual([9]);
    expect(reads.takes).toHaveLength(1);
    expect(reads.scans).toBe(0);
    expect(reads.globalAttrTakes).toBe(0);
  });

  it("layout forces one; an unknown or stale layout is refused naming the current ones", async () => {
    const { table } = await twoLayouts();
    const forced = await dataset(table, { where: SST, layout: "source" });
    expect(await forced.isel({ lat: 4, lon: 5 }).readLayout(["sst"])).toBe("source");
    const err = await dataset(table, { where: SST, layout: "nope" }).catch((e: unknown) => e);
    expect(isLanceNdError(err, "InvalidInput")).toBe(true);
    expect((err as Error).message).toContain("the current layouts are source, series");
  });

  it("an append, a delete and a restore of the source leave the layout stale, never read, until refresh", async () => {
    const { table, result } = await twoLayouts();
    await table.delete(`${"__global_attrs__"}.id = 'sst.nc' AND array_element(__global_attrs__.chunk_offset, 1) = 11`);
    const afterDelete = await dataset(table, { where: SST });
    expect(afterDelete.layouts).toEqual(["source"]);
    const refreshed = await rechunk(table, {
      id: "sst.nc",
      chunk: { time: "all", lat: 2, lon: 2 },
      name: "series",
      refresh: true,
    });
    expect(refreshed.rows).toBe(20);
    expect((await dataset(table, { where: SST })).layouts).toEqual(["source", "series"]);
    await table.restore(result.version);
    const restored = await dataset(table, { where: SST });
    expect(restored.layouts).toEqual(["source", "series"]);
    expect((await restored.isel({ lat: 4, lon: 5 }).read(["sst"])).get("sst")!.toArray()).toHaveLength(12);
  });

  it("a layout missing rows (a rechunk killed before its last add) is never read, and layouts says why", async () => {
    const { table } = await twoLayouts();
    await table.delete(`__global_attrs__.id = 'sst.nc@series' AND array_element(__global_attrs__.chunk_offset, 2) = 8`);
    expect((await dataset(table, { where: SST })).layouts).toEqual(["source"]);
    const listed = await layouts(table, "sst.nc");
    expect(listed.map((l) => [l.name, l.rows, l.stale])).toEqual([
      ["source", 12, null],
      ["series", 16, "16 of its 20 rows are there (a rechunk did not complete)"],
    ]);
    expect(listed[0]!.valueBytes).toBe(12 * 10 * 8 * 4 + 12 * 8 + 12 * (10 + 8) * 8);
  });

  it("dropLayout removes every row of it", async () => {
    const { table } = await twoLayouts();
    expect(await dropLayout(table, "sst.nc", "series")).toBe(20);
    expect((await dataset(table, { where: SST })).layouts).toEqual(["source"]);
  });
});
