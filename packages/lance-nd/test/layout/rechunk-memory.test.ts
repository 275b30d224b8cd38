import { afterEach, describe, expect, it, vi } from "vitest";
import type { Dim } from "@lance-nd/nd-arrow";
import { dataset } from "../../src/dataset/dataset.js";
import { col } from "../../src/read/expr.js";
import { blockBytes, slabs } from "../../src/layout/chunk-shape.js";
import { rechunk } from "../../src/layout/rechunk.js";
import type { NdTable } from "../../src/table.js";
import { tempDir } from "../helpers/make-table.js";
import { recordReads, sstBatch, writeChunked } from "../dataset/fixture.js";

const dir = tempDir("rechunk-memory");
let n = 0;
const uri = () => `${dir}/t${n++}.lance`;
const SST = col("__global_attrs__.id").eq("sst.nc");

afterEach(() => vi.restoreAllMocks());

/** The takes of the views `table.checkout` hands out from here on, as `recordReads` counts them. */
function recordCheckouts(table: NdTable): { columns: string[]; rows: number }[] {
  const takes: { columns: string[]; rows: number }[] = [];
  const checkout = table.checkout.bind(table);
  vi.spyOn(table, "checkout").mockImplementation(async (version) => {
    const view = await checkout(version);
    const reads = recordReads(view);
    takes.push = (...items) => Array.prototype.push.apply(takes, items);
    reads.takes = takes;
    return view;
  });
  return takes;
}

describe("rechunk memory", () => {
  it("slabs are whole chunks within the budget, weighed by each variable's own dims, and tile the grid", () => {
    const grid: Dim[] = [
      { name: "time", size: 120 },
      { name: "lat", size: 361 },
      { name: "lon", size: 720 },
    ];
    const bytesOf = blockBytes(grid, [
      { dims: ["time", "lat", "lon"], bytes: 4 },
      { dims: ["time"], bytes: 8 },
      { dims: ["lat"], bytes: 8 },
      { dims: ["lon"], bytes: 8 },
    ]);
    const steps = [120, 20, 20];
    const budget = 64 * 1024 * 1024;
    const all = [...slabs(grid, steps, bytesOf, budget)];
    // tas(120, 361, 720) Float32 is 119 MiB: slabs of 9 whole lat bands (coordinates weigh their own cells).
    expect(all.map((slab) => slab[1])).toEqual([
      [0, 180],
      [180, 360],
      [360, 361],
    ]);
    expect(all.every((slab) => slab[0]![1] === 120 && slab[2]![1] === 720)).toBe(true);
    for (const slab of all) expect(bytesOf(slab.map(([a, b]) => b - a))).toBeLessThanOrEqual(budget);
    // A smaller budget: one lat chunk, whole lon chunks along lon; every cell in one slab.
    const small = [...slabs(grid, steps, bytesOf, 1024 * 1024)];
    const cells = small.reduce((sum, slab) => sum + slab.reduce((m, [a, b]) => m * (b - a), 1), 0);
    expect(cells).toBe(120 * 361 * 720);
    for (const slab of small) {
      expect(bytesOf(slab.map(([a, b]) => b - a))).toBeLessThanOrEqual(1024 * 1024);
      expect(slab[1]![1] - slab[1]![0]).toBeLessThanOrEqual(20);
      expect(slab[2]![0] % 20).toBe(0);
    }
  });

  it("takes the source a few rows at a time, within an eighth of the budget, and writes the same values", async () => {
    const table = await writeChunked(uri(), sstBatch(), { time: 1 });
    const takes = recordCheckouts(table);
    // A map row holds 80 Float32 values (320 bytes): an eighth of 5,120 bytes is two of them.
    await rechunk(table, { id: "sst.nc", chunk: { time: "all", lat: 2, lon: 2 }, name: "series", slabBytes: 5120 });
    const source = takes.filter((take) => take.columns.includes("sst"));
    expect(source.length).toBeGreaterThan(12 / 2);
    expect(Math.max(...source.map((take) => take.rows))).toBeLessThanOrEqual(2);
    vi.restoreAllMocks();
    const series = await (await dataset(table, { where: SST, layout: "series" })).read();
    const maps = await (await dataset(table, { where: SST, layout: "source" })).read();
    for (const name of maps.names()) expect(series.get(name)!.toArray()).toEqual(maps.get(name)!.toArray());
  });
});
