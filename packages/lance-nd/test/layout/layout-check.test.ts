/**
 * `check --deep` compares every current layout with its dataset, value by
 * value, region by region (README "Layouts", "check"): a clean table passes,
 * a value of a layout changed behind lance-nd's back (raw lancedb delete and
 * add of one layout row, the completion record left in place) is damage
 * naming the dataset, layout, variable and region, and a stale layout is
 * listed and not compared.
 */
import { connect } from "@lancedb/lancedb";
import { describe, expect, it } from "vitest";
import { check } from "../../src/check/check.js";
import { compareLayouts } from "../../src/check/deep-layouts.js";
import { layouts } from "../../src/layout/layout-list.js";
import { rechunk } from "../../src/layout/rechunk.js";
import { open } from "../../src/table.js";
import { chunk } from "@lance-nd/nd-arrow";
import { col } from "../../src/read/expr.js";
import { replaceRows } from "../../src/write/replace-rows.js";
import { tempDir } from "../helpers/make-table.js";
import { sstBatch, writeChunked } from "../dataset/fixture.js";

const dir = tempDir("layout-check");
let n = 0;

/** sst(time 12, lat 10, lon 8) in map rows plus a time-series layout "series" of 2 x 2 columns; the table's name. */
async function withSeries(): Promise<string> {
  const name = `t${n++}`;
  const table = await writeChunked(`${dir}/${name}.lance`, sstBatch(), { time: 1 });
  await rechunk(table, { id: "sst.nc", chunk: { time: "all", lat: 2, lon: 2 }, name: "series" });
  return name;
}

/**
 * Adds `delta` to value `k` of the layout row of `id` at `chunk_offset`
 * `offset` with raw lancedb: the row is deleted and added again changed, its
 * global attributes (the completion record) as they were.
 */
async function damage(name: string, id: string, offset: number[], k: number, delta: number): Promise<void> {
  const raw = await (await connect(dir)).openTable(name);
  try {
    const all = await raw.query().withRowId().toArrow();
    for (const batch of all.batches) {
      const attrs = batch.getChild("__global_attrs__")!;
      for (let row = 0; row < batch.numRows; row++) {
        const global = attrs.get(row)?.toJSON() as { id?: string; chunk_offset?: { toArray(): Uint32Array } } | null;
        if (global?.id !== id || [...global.chunk_offset!.toArray()].join() !== offset.join()) continue;
        const values = batch.getChild("sst")!.getChild("values")!.data[0]!;
        (values.children[0]!.values as Float32Array)[values.valueOffsets[row]! + k]! += delta;
        const names = batch.schema.fields.map((f) => f.name).filter((f) => f !== "_rowid");
        const one = new (all.constructor as new (b: typeof batch) => typeof all)(batch.slice(row, row + 1));
        await raw.delete(`_rowid = ${String(batch.getChild("_rowid")!.get(row))}`);
        await raw.add(one.select(names));
        return;
      }
    }
    throw new Error(`no row of ${id} at ${offset.join(",")}`);
  } finally {
    raw.close();
  }
}

describe("check --deep on layouts", () => {
  it("a table with a current layout passes; a value changed in one layout row is damage naming it", async () => {
    const name = await withSeries();
    const uri = `${dir}/${name}.lance`;
    const clean = await check(uri, { deep: true });
    expect(clean.ok).toBe(true);
    expect(clean.layoutMismatches).toEqual([]);
    expect((await check(uri)).layoutMismatches).toBeNull();

    // Value 5 of the row at lat 4..6, lon 2..4: time 1, lat 4, lon 3 (inside the row's min and max).
    await damage(name, "sst.nc@series", [0, 4, 2], 5, 0.5);
    const table = await open(uri);
    expect((await layouts(table, "sst.nc")).map((l) => [l.name, l.stale])).toEqual([
      ["source", null],
      ["series", null],
    ]);
    expect((await check(uri)).ok).toBe(true);
    const report = await check(uri, { deep: true });
    expect(report.ok).toBe(false);
    expect(report.statsMismatches).toEqual([]);
    expect(report.layoutMismatches).toEqual([
      {
        id: "sst.nc",
        layout: "series",
        variable: "sst",
        region: expect.objectContaining({ lat: expect.any(Array), lon: expect.any(Array) }),
        problem: expect.stringMatching(
          /^1 value differs; the first at \[1, \d+, \d+\] of the region is 1043\.5 in the layout, 1043 in the source$/,
        ),
      },
    ]);
    const { region } = report.layoutMismatches![0]!;
    expect(region.time).toEqual([0, 12]);
    expect(region.lat![0]).toBeLessThanOrEqual(4);
    expect(region.lat![1]).toBeGreaterThan(4);
  });

  it("compares region by region, whatever the budget, and finds the same damage", async () => {
    const name = await withSeries();
    await damage(name, "sst.nc@series", [0, 8, 6], 47, -1);
    const view = await open(`${dir}/${name}.lance`);
    const small = await compareLayouts(view, 1);
    const large = await compareLayouts(view);
    expect(small.mismatches).toHaveLength(1);
    expect(small.mismatches[0]).toMatchObject({
      variable: "sst",
      region: { time: [0, 12], lat: [8, 10], lon: [6, 8] },
      problem: "1 value differs; the first at [11, 1, 1] of the region is 11096 in the layout, 11097 in the source",
    });
    expect(large.mismatches).toHaveLength(1);
    expect(large.mismatches[0]!.problem).toMatch(/ is 11096 in the layout, 11097 in the source$/);
  });

  it("a stale layout is listed in the notes and not compared", async () => {
    const name = await withSeries();
    const uri = `${dir}/${name}.lance`;
    await damage(name, "sst.nc@series", [0, 0, 0], 3, 1);
    // The same values again under new row ids: the source changed, the layout is stale.
    await replaceRows(await open(uri), chunk(sstBatch(), { time: 1 }), col("__global_attrs__.id").eq("sst.nc"));
    const report = await check(uri, { deep: true });
    expect(report.layoutMismatches).toEqual([]);
    expect(report.notes).toContain(
      'layout "series" of "sst.nc" is stale (the source changed since its rechunk): not compared',
    );
    expect(report.ok).toBe(true);
  });
});
