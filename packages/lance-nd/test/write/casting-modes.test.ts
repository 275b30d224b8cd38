import * as path from "node:path";
import { NdArray, NdRecordBatch, attr } from "@lance-nd/nd-arrow";
import { Float32, Float64, Int16, Int32, Int64, Int8, Uint16 } from "apache-arrow";
import { describe, expect, it } from "vitest";
import { scanRows } from "../../src/lance/table-read.js";
import type { NdTable } from "../../src/table.js";
import { append, write } from "../../src/write/write.js";
import { NdWriter } from "../../src/write/writer.js";
import { tempDir } from "../helpers/make-table.js";
import { failure, readRows, sstRow } from "../helpers/write-rows.js";

const dir = tempDir("casting");
let tables = 0;
const fresh = (): string => path.join(dir, `c${tables++}.lance`);

async function sstType(table: NdTable): Promise<string> {
  await table.refresh();
  return String(table.layout.arrays.get("sst")!.valueType);
}

async function statsOf(table: NdTable): Promise<unknown[]> {
  const out: unknown[] = [];
  for await (const rb of scanRows(table.lance, { columns: ["__stats__:sst"] })) {
    for (const row of rb.getChild("__stats__:sst")!) out.push(row?.toJSON());
  }
  return out;
}

async function valuesOf(table: NdTable): Promise<number[][]> {
  return (await readRows(table)).map((r) => Array.from(r.get("sst")!.toArray() as ArrayLike<number>, Number));
}

describe("casting of variable values", () => {
  it('"no" (default) rejects another type with SchemaMismatch naming the variable, both types and the mode; the table stays', async () => {
    const table = await write(fresh(), [sstRow(0)]);
    const err = await failure(append(table, [sstRow(1, { type: new Float64() })]));
    expect(err).toMatchObject({ code: "SchemaMismatch", column: "sst" });
    expect(err.message).toMatch(/Float64.*Float32.*"no"/);
    expect(await table.version()).toBe(1);
    expect(await table.countRows()).toBe(1);
  });

  it('"safe" casts Float32 into a Float64 table and UInt16 into Int32', async () => {
    const table = await write(fresh(), [sstRow(0, { type: new Float64() })]);
    await append(table, [sstRow(1)], { casting: "safe" });
    expect(await sstType(table)).toBe("Float64");
    expect((await valuesOf(table))[1]).toEqual([10, 11, 12, 13, 14, 15]);
    const ints = await write(fresh(), [sstRow(0, { type: new Int32() })]);
    await append(ints, [sstRow(1, { type: new Uint16() })], { casting: "safe" });
    expect((await valuesOf(ints))[1]).toEqual([10, 11, 12, 13, 14, 15]);
  });

  it('"safe": Float64 -> Float32 fails with SchemaMismatch', async () => {
    const table = await write(fresh(), [sstRow(0)]);
    expect(await failure(append(table, [sstRow(1, { type: new Float64() })], { casting: "safe" }))).toMatchObject({
      code: "SchemaMismatch",
      column: "sst",
    });
  });

  it('"same_kind": Float64 -> Float32 rounds the values, and the stats get the table type (the cast comes first)', async () => {
    const table = await write(fresh(), [sstRow(0)], { stats: true });
    await append(table, [sstRow(1, { type: new Float64(), values: [0.1, 1, 2, 3, 4, 5] })], { casting: "same_kind" });
    expect(await sstType(table)).toBe("Float32");
    expect((await statsOf(table))[1]).toEqual({ min: Math.fround(0.1), max: 5 });
  });

  it('"same_kind": Int64 -> Int8 with a value that does not fit fails, naming the value; no row is written', async () => {
    const table = await write(fresh(), [sstRow(0, { type: new Int8() })]);
    const err = await failure(
      append(table, [sstRow(1, { type: new Int64(), values: [1, 2, 300, 4, 5, 6].map(BigInt) as never })], {
        casting: "same_kind",
      }),
    );
    expect(err).toMatchObject({ code: "SchemaMismatch", column: "sst" });
    expect(err.message).toMatch(/300/);
    expect(await table.countRows()).toBe(1);
    await append(table, [sstRow(2, { type: new Int64(), values: [1, 2, 3, 4, 5, 6].map(BigInt) as never })], {
      casting: "same_kind",
    });
    expect(await table.countRows()).toBe(2);
  });

  it('"promote": values that fit cast as "safe" (Int16 into an Int32 table; the table keeps its type)', async () => {
    const table = await write(fresh(), [sstRow(0, { type: new Int32() })]);
    await append(table, [sstRow(1, { type: new Int16() })], { casting: "promote" });
    expect(await sstType(table)).toBe("Int32");
  });

  it('"promote": Float64 into a Float32 table widens the variable and its stats column, then writes', async () => {
    const table = await write(fresh(), [sstRow(0)], { stats: true });
    await append(table, [sstRow(1, { type: new Float64(), values: [0.1, 1, 2, 3, 4, 5] })], { casting: "promote" });
    expect(await sstType(table)).toBe("Float64");
    expect(String(table.layout.statsColumns.get("sst")!.type)).toBe("Struct<{min:Float64, max:Float64}>");
    expect((await valuesOf(table))[1]![0]).toBe(0.1);
    expect((await statsOf(table))[1]).toEqual({ min: 0.1, max: 5 });
  });

  it('"promote" across kinds (Int32 table, Float32 values) widens the table to Float64 (a rewrite), then writes', async () => {
    const table = await write(fresh(), [sstRow(0, { type: new Int32() })]);
    await append(table, [sstRow(1, { type: new Float32(), values: [0.5, 1, 2, 3, 4, 5] })], { casting: "promote" });
    expect(await sstType(table)).toBe("Float64");
    expect(await valuesOf(table)).toEqual([
      [0, 1, 2, 3, 4, 5],
      [0.5, 1, 2, 3, 4, 5],
    ]);
  });

  it('"promote" in a create casts the rows before instead: Int32 then Float32 rows make a Float64 variable', async () => {
    const table = await write(
      fresh(),
      [sstRow(0, { type: new Int32() }), sstRow(1, { type: new Float32(), values: [0.5, 1, 2, 3, 4, 5] })],
      {
        casting: "promote",
        stats: true,
      },
    );
    expect(await sstType(table)).toBe("Float64");
    expect(await table.version()).toBe(1);
    expect(await valuesOf(table)).toEqual([
      [0, 1, 2, 3, 4, 5],
      [0.5, 1, 2, 3, 4, 5],
    ]);
    expect(await statsOf(table)).toEqual([
      { min: 0, max: 5 },
      { min: 0.5, max: 5 },
    ]);
  });

  it('"promote" in an NdWriter commits the rows written before, then widens', async () => {
    const uri = fresh();
    const writer = await NdWriter.create(uri);
    await writer.write(sstRow(0));
    expect(await failure(writer.write(sstRow(1, { type: new Float64() })))).toMatchObject({ code: "SchemaMismatch" }); // "no"
    expect(writer.versions).toHaveLength(0);
    const promoting = await NdWriter.append(await writer.finish(), { casting: "promote" });
    await promoting.write(sstRow(2));
    await promoting.write(sstRow(3, { type: new Float64() }));
    expect(promoting.versions).toHaveLength(1); // row 2, committed before the widen
    const table = await promoting.finish();
    expect(await sstType(table)).toBe("Float64");
    expect((await readRows(table)).map((r) => r.globalAttr("id"))).toEqual(["r0", "r2", "r3"]);
  });
});

describe("casting of attributes", () => {
  const row = (attrs: Record<string, unknown>, global: Record<string, unknown> = { id: "x" }) =>
    new NdRecordBatch(
      { sst: NdArray.from(new Float32Array(2), { dims: { lat: 2 }, attrs: attrs as never }) },
      global as never,
    );

  it('attributes follow safe under every mode: Int32 into a Float64 attribute casts even with casting "no"', async () => {
    const table = await write(fresh(), [row({ scale: 1.5 }, { id: "a", n: 2.5 })]);
    await append(table, [row({ scale: attr.int32(3) }, { id: "b", n: attr.int32(7) })]);
    const rows = await readRows(table);
    expect(rows[1]!.get("sst")!.attrs.get("scale")!.type.toString()).toBe("Float64");
    expect(rows[1]!.get("sst")!.attr("scale")).toBe(3);
    expect(rows[1]!.globalAttr("n")).toBe(7);
  });

  it('a Float64 attribute into a Float32 attribute fails even under "promote"', async () => {
    const table = await write(fresh(), [row({ scale: attr.float32(1.5) })]);
    expect(await failure(append(table, [row({ scale: 2.5 })], { casting: "promote" }))).toMatchObject({
      code: "SchemaMismatch",
      column: "sst",
    });
  });

  it("a scalar attribute and a list attribute never cast", async () => {
    const table = await write(fresh(), [row({ valid_range: [270, 310] })]);
    const err = await failure(append(table, [row({ valid_range: 270 })], { casting: "same_kind" }));
    expect(err).toMatchObject({ code: "SchemaMismatch", column: "sst" });
    expect(err.message).toMatch(/scalar and a list never cast/);
  });

  it("a list attribute casts item by item (List<Int16> into List<Float64>)", async () => {
    const table = await write(fresh(), [row({ valid_range: [270, 310] })]);
    await append(table, [row({ valid_range: new Int16Array([1, 2]) })]);
    expect((await readRows(table))[1]!.get("sst")!.attr("valid_range")).toEqual([1, 2]);
  });
});
