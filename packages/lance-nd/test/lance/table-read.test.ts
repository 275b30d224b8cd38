import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as arrow from "apache-arrow";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTable, type LanceTable } from "../../src/lance/table-open.js";
import { countRows, scanRows, takeRows } from "../../src/lance/table-read.js";
import { appendRows } from "../../src/lance/table-write.js";
import { batchOf, collect, sampleBatch } from "./nd-rows.js";
import { failure } from "../helpers/write-rows.js";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lance-nd-read-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** sampleBatch rows plus a stats column `__stats__:sst` with max = 100 * row and a column named "a b:c". */
function rowsWithStats(n: number, first: number): arrow.RecordBatch {
  const base = sampleBatch(n, { first });
  const statsType = new arrow.Struct([
    new arrow.Field("min", new arrow.Float32(), true),
    new arrow.Field("max", new arrow.Float32(), true),
  ]);
  const max = Float32Array.from({ length: n }, (_, i) => (first + i) * 100);
  const stats = arrow.makeData({
    type: statsType,
    length: n,
    children: [
      arrow.makeData({ type: new arrow.Float32(), length: n, data: new Float32Array(n) }),
      arrow.makeData({ type: new arrow.Float32(), length: n, data: max }),
    ],
  });
  const odd = arrow.makeData({
    type: new arrow.Int32(),
    length: n,
    data: Int32Array.from({ length: n }, (_, i) => first + i),
  });
  return batchOf(
    [
      ...base.schema.fields,
      new arrow.Field("__stats__:sst", statsType, true),
      new arrow.Field("a b:c", new arrow.Int32(), true),
    ],
    [...base.data.children, stats, odd],
  );
}

let table: LanceTable;
beforeAll(async () => {
  const first = rowsWithStats(10, 0);
  table = await createTable(path.join(dir, "read.lance"), first.schema, first);
  await appendRows(table, rowsWithStats(10, 10));
});

const ids = (batches: arrow.RecordBatch[]) =>
  batches.flatMap((b) => b.getChild("__global_attrs__")!.getChild("id")!.toArray() as string[]);

describe("scanRows (SDK-NOTES.md, section 5)", () => {
  it("maxBatchLength caps each batch; batches also end at fragment ends", async () => {
    const sizes = (await collect(scanRows(table, { maxBatchLength: 3 }))).map((b) => b.numRows);
    expect(sizes).toEqual([3, 3, 3, 1, 3, 3, 3, 1]);
  });

  it("yields batches of this package's apache-arrow instance", async () => {
    const [batch] = await collect(scanRows(table, { limit: 1 }));
    expect(batch).toBeInstanceOf(arrow.RecordBatch);
    expect(arrow.makeVector(batch!.data.children[0]!).length).toBe(1);
  });

  it("columns take plain names, even with ':' and spaces, and nested paths", async () => {
    const [batch] = await collect(
      scanRows(table, { columns: ["__stats__:sst", "a b:c", "__global_attrs__.id"], limit: 2 }),
    );
    expect(batch!.schema.fields.map((f) => f.name)).toEqual(["__stats__:sst", "a b:c", "__global_attrs__.id"]);
    expect(batch!.getChild("__global_attrs__.id")!.toArray()).toEqual(["r0", "r1"]);
  });

  it("filters quote names with special characters in backticks, per segment", async () => {
    expect(await countRows(table, "`__stats__:sst`.max > 300")).toBe(16);
    expect(await countRows(table, "`__stats__:sst`.`max` > 300")).toBe(16);
    expect(await countRows(table, "`a b:c` = 3")).toBe(1);
    expect(await countRows(table, "__global_attrs__.id = 'r3'")).toBe(1);
    expect(await countRows(table, "`__global_attrs__`.`id` = 'r3'")).toBe(1);
    expect(await countRows(table, "sst.attrs.units = 'K'")).toBe(20);
    expect(await failure(countRows(table, "__stats__:sst.max > 300"))).toMatchObject({ code: "InvalidInput" });
  });

  it("an empty column list reads no rows at all (not one empty row per table row)", async () => {
    expect((await collect(scanRows(table, { columns: [] }))).reduce((n, b) => n + b.numRows, 0)).toBe(0);
  });

  it("an unknown column or bad SQL is InvalidInput when the stream starts", async () => {
    expect(await failure(collect(scanRows(table, { filter: "nope = 1" })))).toMatchObject({
      code: "InvalidInput",
      column: "nope",
    });
    expect(await failure(collect(scanRows(table, { columns: ["nope"] })))).toMatchObject({
      code: "InvalidInput",
      column: "nope",
    });
    expect(await failure(collect(scanRows(table, { filter: "a ==== 1" })))).toMatchObject({ code: "InvalidInput" });
  });

  it("_row_created_at_version is selectable but reads 1 for every row (no stable row ids)", async () => {
    const [batch] = await collect(
      scanRows(table, { columns: ["_row_created_at_version"], filter: "__global_attrs__.id = 'r15'" }),
    );
    expect(batch!.getChild("_row_created_at_version")!.toArray()).toEqual(BigUint64Array.from([1n]));
    expect(await countRows(table, "_row_created_at_version = 2")).toBe(0);
  });

  it("version reads an earlier version", async () => {
    expect((await collect(scanRows(table, { version: 1 }))).reduce((n, b) => n + b.numRows, 0)).toBe(10);
    expect(await countRows(table)).toBe(20);
  });
});

describe("two-step point read (SDK-NOTES.md, section 5)", () => {
  it("a filter on __global_attrs__ with withRowId, then takeRows, gives the rows of a one-step filter", async () => {
    const filter = "__global_attrs__.id IN ('r12', 'r3')";
    const found = await collect(scanRows(table, { columns: ["__global_attrs__"], filter, withRowId: true }));
    const rowIds = found.flatMap((b) => Array.from(b.getChild("_rowid")!.toArray() as BigUint64Array));
    expect(rowIds).toEqual([3n, (1n << 32n) + 2n]);
    const taken = await takeRows(table, [...rowIds].reverse(), ["sst", "__global_attrs__"]);
    expect(ids(taken)).toEqual(["r3", "r12"]);
    expect(ids(await collect(scanRows(table, { columns: ["sst", "__global_attrs__"], filter })))).toEqual([
      "r3",
      "r12",
    ]);
    expect(new arrow.Table(taken).getChild("sst")!.getChild("values")!.get(1)!.toArray()).toEqual(
      Float32Array.from([120, 121, 122, 123, 124, 125]),
    );
  });

  it("unknown row ids are skipped", async () => {
    expect((await takeRows(table, [999n])).reduce((n, b) => n + b.numRows, 0)).toBe(0);
  });
});
