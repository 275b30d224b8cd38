import * as path from "node:path";
import { NdArray, NdRecordBatch } from "@lance-nd/nd-arrow";
import { Float32, Float64, Int16, Int32, Int64 } from "apache-arrow";
import { describe, expect, it } from "vitest";
import { columnDefaults } from "../../src/write/column-defaults.js";
import { scanRows } from "../../src/lance/table-read.js";
import type { NdTable } from "../../src/table.js";
import { widen } from "../../src/widen/widen.js";
import { append, write } from "../../src/write/write.js";
import { NdWriter } from "../../src/write/writer.js";
import { tempDir } from "../helpers/make-table.js";
import { recordSpans } from "../helpers/span-recorder.js";
import { failure, readRows, sstRow } from "../helpers/write-rows.js";

const spans = recordSpans();
const dir = tempDir("widen");
let tables = 0;
const fresh = (): string => path.join(dir, `w${tables++}.lance`);

/** Row `i` with `sst` Int32 [2, 3] (absent for null), `n` Float64 [1] and global attr `title`. */
function row(i: number, sst: (number | null)[] | null): NdRecordBatch {
  const arrays: Record<string, NdArray> = { n: NdArray.from(Float64Array.of(i + 0.5), { dims: { one: 1 } }) };
  if (sst !== null)
    arrays.sst = NdArray.from(sst, { dims: { lat: 2, lon: 3 }, type: new Int32(), attrs: { units: "K" } });
  return new NdRecordBatch(arrays, { id: `r${i}`, title: `t${i}` });
}

/** Rows sorted by their `id` global attribute (a rewrite need not keep the row order). */
function byId(rows: NdRecordBatch[]): NdRecordBatch[] {
  return [...rows].sort((a, b) => String(a.globalAttr("id")).localeCompare(String(b.globalAttr("id"))));
}

/** The `__stats__:sst` column of each row, in `id` order. */
async function stats(table: NdTable): Promise<unknown[]> {
  const out: [string, unknown][] = [];
  for await (const rb of scanRows(table.lance, { columns: ["__stats__:sst", "__global_attrs__"] })) {
    for (let i = 0; i < rb.numRows; i++)
      out.push([
        String(rb.getChild("__global_attrs__")!.get(i)!.toJSON().id),
        rb.getChild("__stats__:sst")!.get(i)?.toJSON() ?? null,
      ]);
  }
  return out.sort(([a], [b]) => a.localeCompare(b)).map(([, s]) => s);
}

describe("widen", () => {
  it("Float32 -> Float64 changes the variable and its stats column; values, attributes, field metadata and encoding stay", async () => {
    const uri = fresh();
    const row = sstRow(0, { values: [0.5, 1, 2, 3, 4, 5] });
    const sst = row.get("sst")!.withMetadata({ mine: "x" });
    const table = await write(uri, [row.withArrays({ sst })], { stats: true, columnDefaults: { compression: "zstd" } });
    spans.length = 0;
    const version = await widen(table, "sst", new Float64());
    expect(version).toBeGreaterThan(1);
    expect(String(table.layout.arrays.get("sst")!.valueType)).toBe("Float64");
    expect(String(table.layout.statsColumns.get("sst")!.type)).toBe("Struct<{min:Float64, max:Float64}>");
    const field = table.tableSchema.fields.find((f) => f.name === "sst")!;
    expect(field.metadata.get("mine")).toBe("x");
    expect(field.type.children[0]!.type.children[0]!.metadata.get("lance-encoding:compression")).toBe("zstd");
    const [back] = await readRows(table);
    expect(Array.from(back!.get("sst")!.toArray())).toEqual([0.5, 1, 2, 3, 4, 5]);
    expect(back!.get("sst")!.attr("units")).toBe("K");
    const stats = [];
    for await (const rb of scanRows(table.lance, { columns: ["__stats__:sst"] }))
      stats.push(rb.getChild("__stats__:sst")!.get(0)!.toJSON());
    expect(stats).toEqual([{ min: 0.5, max: 5 }]);
    expect(spans.filter((s) => s.name === "lance_nd.widen").map((s) => s.attributes["lance_nd.table.uri"])).toEqual([
      uri,
    ]);
  });

  it("a type that does not hold each old value (Float64 -> Float32) fails with SchemaMismatch; the table stays", async () => {
    const table = await write(fresh(), [sstRow(0, { type: new Float64() })]);
    expect(await failure(widen(table, "sst", new Float32()))).toMatchObject({ code: "SchemaMismatch", column: "sst" });
    expect(await table.version()).toBe(1);
    expect(Array.from((await readRows(table))[0]!.get("sst")!.toArray())).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it("across kinds (Int32 -> Float64) rewrites the table in one overwrite (and the commit that closes its replay record): values, nulls, stats, other variables, attributes and row count stay; the old version stays readable", async () => {
    const uri = fresh();
    const rows = [row(0, [1, null, -3, 2147483647, 5, 6]), row(1, null), row(2, [-2147483648, 0, 7, 8, 9, 10])];
    const table = await write(uri, rows, { stats: true, columnDefaults: { compression: "zstd" } });
    spans.length = 0;
    const version = await widen(table, "sst", new Float64());
    expect(version).toBe(3);
    expect(spans.find((s) => s.name === "lance_nd.widen")!.attributes["lance_nd.widen.path"]).toBe("rewrite");
    expect(String(table.layout.arrays.get("sst")!.valueType)).toBe("Float64");
    expect(String(table.layout.statsColumns.get("sst")!.type)).toBe("Struct<{min:Float64, max:Float64}>");
    expect(
      table.tableSchema.fields
        .find((f) => f.name === "sst")!
        .type.children[0]!.type.children[0]!.metadata.get("lance-encoding:compression"),
    ).toBe("zstd");
    expect(await columnDefaults(table)).toEqual({ compression: "zstd" });
    expect(await table.countRows()).toBe(3);
    const back = byId(await readRows(table));
    expect(back.map((r) => r.get("sst") && Array.from(r.get("sst")!.toArray()))).toEqual([
      [1, null, -3, 2147483647, 5, 6],
      undefined,
      [-2147483648, 0, 7, 8, 9, 10],
    ]);
    expect(back.map((r) => r.get("sst")?.attr("units"))).toEqual(["K", undefined, "K"]);
    expect(back.map((r) => Array.from(r.get("n")!.toArray()))).toEqual([[0.5], [1.5], [2.5]]);
    expect(back.map((r) => r.globalAttr("title"))).toEqual(["t0", "t1", "t2"]);
    expect(await stats(table)).toEqual([{ min: -3, max: 2147483647 }, null, { min: -2147483648, max: 10 }]);
    const old = await table.checkout(1);
    expect(String(old.layout.arrays.get("sst")!.valueType)).toBe("Int32");
    expect(
      Array.from(
        byId(await readRows(old))[0]!
          .get("sst")!
          .toArray(),
      ),
    ).toEqual([1, null, -3, 2147483647, 5, 6]);
  });

  it("a variable widens twice: Int16 -> Int32 in place, then Int32 -> Int64 by a rewrite", async () => {
    const table = await write(fresh(), [sstRow(0, { type: new Int16() }), sstRow(1, { type: new Int16() })], {
      stats: true,
    });
    spans.length = 0;
    await widen(table, "sst", new Int32());
    await widen(table, "sst", new Int64());
    expect(spans.filter((s) => s.name === "lance_nd.widen").map((s) => s.attributes["lance_nd.widen.path"])).toEqual([
      "in_place",
      "rewrite",
    ]);
    expect(String(table.layout.arrays.get("sst")!.valueType)).toBe("Int64");
    const back = byId(await readRows(table));
    expect(back.map((r) => Array.from(r.get("sst")!.toArray()))).toEqual([
      [0n, 1n, 2n, 3n, 4n, 5n],
      [10n, 11n, 12n, 13n, 14n, 15n],
    ]);
    expect(await stats(table)).toEqual([
      { min: 0n, max: 5n },
      { min: 10n, max: 15n },
    ]);
  });

  it("under promote, an append of Float32 rows to an Int32 variable widens the table to Float64 and keeps every old and new value", async () => {
    const uri = fresh();
    const table = await write(uri, [sstRow(0, { type: new Int32() }), sstRow(1, { type: new Int32() })], {
      stats: true,
    });
    await append(table, [sstRow(2, { values: [0.5, 1, 2, 3, 4, 5] })], { casting: "promote" });
    expect(String(table.layout.arrays.get("sst")!.valueType)).toBe("Float64");
    const back = await readRows(table);
    expect(back.map((r) => String(r.globalAttr("id")))).toEqual(["r0", "r1", "r2"]);
    expect(back.map((r) => Array.from(r.get("sst")!.toArray()))).toEqual([
      [0, 1, 2, 3, 4, 5],
      [10, 11, 12, 13, 14, 15],
      [0.5, 1, 2, 3, 4, 5],
    ]);
    expect(await stats(table)).toEqual([
      { min: 0, max: 5 },
      { min: 10, max: 15 },
      { min: 0.5, max: 5 },
    ]);
  });

  it("a promoting NdWriter whose widen rewrote the table cannot remove its earlier rows on abort: WriterFailed says so", async () => {
    const table = await write(fresh(), [sstRow(0, { type: new Int32() })]);
    const writer = await NdWriter.append(table, { casting: "promote" });
    await writer.write(sstRow(1, { type: new Int32() }));
    await writer.write(sstRow(2, { values: [0.5, 1, 2, 3, 4, 5] }));
    expect(writer.versions).toHaveLength(1);
    expect(await failure(writer.abort())).toMatchObject({
      code: "WriterFailed",
      message: expect.stringMatching(/rewrote the table/),
    });
    expect((await readRows(table)).map((r) => r.globalAttr("id"))).toEqual(["r0", "r1"]);
  });

  it("widening to the current type does nothing", async () => {
    const table = await write(fresh(), [sstRow(0)]);
    expect(await widen(table, "sst", new Float32())).toBe(1);
  });

  it("an unknown variable fails with InvalidInput", async () => {
    const table = await write(fresh(), [sstRow(0)]);
    expect(await failure(widen(table, "nope", new Float64()))).toMatchObject({ code: "InvalidInput", column: "nope" });
  });
});
