import * as path from "node:path";
import { NdArray, NdRecordBatch, encode } from "@lance-nd/nd-arrow";
import { Float64, tableFromArrays } from "apache-arrow";
import { describe, expect, it } from "vitest";
import { listVersions } from "../../src/lance/table-versions.js";
import { open } from "../../src/table.js";
import { widen } from "../../src/widen/widen.js";
import { write } from "../../src/write/write.js";
import { NdWriter, batchBytes } from "../../src/write/writer.js";
import { addParallelism } from "../../src/write/add-parallelism.js";
import { parseWriteOptions } from "../../src/write/write-options.js";
import { makeTable, tempDir } from "../helpers/make-table.js";
import { bigRow, failure, readIds, readRows, sstRow, sstRows } from "../helpers/write-rows.js";

const dir = tempDir("writer");
let tables = 0;
const fresh = (): string => path.join(dir, `w${tables++}.lance`);

describe("NdWriter", () => {
  it("writes rows in several calls; finish commits small writes in one version and returns the table", async () => {
    const writer = await NdWriter.create(fresh(), { stats: true });
    for (const row of sstRows(3)) await writer.write(row);
    const table = await writer.finish();
    expect(await table.version()).toBe(1);
    expect(await readIds(table)).toEqual(["r0", "r1", "r2"]);
    expect(table.layout.stats).toBe(true);
  });

  it("writeBatch takes rows encoded with nd-arrow's encode", async () => {
    const writer = await NdWriter.create(fresh());
    await writer.writeBatch(encode(sstRows(2)));
    await writer.write(sstRow(2));
    expect(await readIds(await writer.finish())).toEqual(["r0", "r1", "r2"]);
  });

  it("a row that fails a check is rejected with SchemaMismatch and the writer stays usable", async () => {
    const writer = await NdWriter.create(fresh());
    await writer.write(sstRow(0));
    const rejected = await failure(writer.write(sstRow(1, { type: new Float64() })));
    expect(rejected).toMatchObject({ code: "SchemaMismatch", column: "sst" });
    expect(rejected.message).toMatch(/row 1\b/);
    await writer.write(sstRow(2));
    expect(await readIds(await writer.finish())).toEqual(["r0", "r2"]);
  });

  it("writes one add per targetFragmentBytes and never splits a row", async () => {
    // Uncompressed, so the bytes on disk are the bytes in memory (zstd, the default, would learn a smaller ratio).
    const writer = await NdWriter.create(fresh(), {
      targetFragmentBytes: 10_000,
      columnDefaults: { compression: "none" },
    });
    for (let i = 0; i < 8; i++) await writer.write(bigRow(i, 1000)); // 4000 bytes a row
    const table = await writer.finish();
    expect(writer.versions.length).toBeGreaterThanOrEqual(3);
    expect(await table.countRows()).toBe(8);
    expect(await listVersions(table.lance)).toHaveLength(writer.versions.length);
  });

  it("learns the disk/memory ratio: compressible rows make adds of more rows", async () => {
    const target = 64 * 1024;
    const zeros = (i: number) =>
      new NdRecordBatch({ z: NdArray.from(new Float32Array(4096), { dims: { x: 4096 } }) }, { id: `z${i}` });
    const writer = await NdWriter.create(fresh(), {
      targetFragmentBytes: target,
      writeParallelism: 1,
      columnDefaults: { compression: "zstd" },
    });
    for (let i = 0; i < 64; i++) await writer.write(zeros(i)); // 16 KiB a row in memory, about half on disk
    await writer.finish();
    // Without learning the ratio: 64 rows / 4 rows per add = 16 adds; with it, 4 rows then about 8 per add.
    expect(writer.versions.length).toBeLessThanOrEqual(10);
  });

  it("adds that run at the same time each record their own version (the rows' _row_created_at_version)", async () => {
    const table = await write(fresh(), sstRows(2));
    const writer = await NdWriter.append(table, { targetFragmentBytes: 4 * 1024, writeParallelism: 4 });
    for (let i = 0; i < 8; i++) await writer.write(bigRow(i, 1024));
    await writer.finish();
    expect(new Set(writer.versions).size).toBe(writer.versions.length);
    let rows = 0;
    for (const v of writer.versions) rows += await table.countRows(`_row_created_at_version = ${v}`);
    expect(rows).toBe(8);
  });

  it("counts the bytes of a row from its value buffers", () => {
    expect(batchBytes(bigRow(0, 1000))).toBe(4000);
  });

  it("abort removes the rows the writer committed and drops a table it created", async () => {
    const uri = fresh();
    const writer = await NdWriter.create(uri, { targetFragmentBytes: 1 });
    await writer.write(sstRow(0));
    await writer.write(sstRow(1));
    expect(writer.versions.length).toBeGreaterThan(0);
    await writer.abort();
    expect(await failure(open(uri))).toMatchObject({ code: "TableNotFound" });
    expect(await failure(writer.write(sstRow(2)))).toMatchObject({ code: "InvalidInput" });
  });

  it("abort of an append writer leaves the table with its rows", async () => {
    const table = await write(fresh(), sstRows(2));
    const writer = await NdWriter.append(table, { targetFragmentBytes: 1 });
    await writer.write(sstRow(5));
    await writer.write(sstRow(6));
    await writer.abort();
    expect(await readIds(table)).toEqual(["r0", "r1"]);
  });

  it("an append writer adds a new variable before its first add; readers see the empty column before finish", async () => {
    const uri = fresh();
    const table = await write(uri, sstRows(1));
    const writer = await NdWriter.append(table, { targetFragmentBytes: 1 });
    await writer.write(
      new NdRecordBatch({ chl: NdArray.from(new Float32Array([1, 2]), { dims: { lat: 2 } }) }, { id: "c" }),
    );
    const reader = await open(uri);
    await expect.poll(() => reader.countRows()).toBe(2);
    await reader.refresh();
    expect([...reader.layout.arrays.keys()]).toEqual(["sst", "chl"]);
    await writer.finish();
    expect((await readRows(reader)).map((r) => r.names())).toEqual([["sst"], ["chl"]]);
  });

  it("a failed Lance add makes every later call throw WriterFailed; finish then removes the writer's rows", async () => {
    const uri = fresh();
    const table = await write(uri, sstRows(1));
    const writer = await NdWriter.append(table, { targetFragmentBytes: 1, writeParallelism: 1 });
    await writer.write(sstRow(1));
    // Another writer widens sst: the next add (Float32 rows, casting "no") fails in Lance's table.
    await widen(await open(uri), "sst", new Float64());
    const first = await failure(writer.write(sstRow(2)));
    expect(first.code).toBe("WriterFailed");
    expect(await failure(writer.write(sstRow(3)))).toMatchObject({ code: "WriterFailed" });
    let cause: unknown;
    try {
      await writer.finish();
    } catch (err) {
      cause = (err as Error).cause;
    }
    expect(cause).toMatchObject({ code: "SchemaMismatch" });
    expect(await readIds(table)).toEqual(["r0"]);
    expect(await failure(writer.finish())).toMatchObject({ code: "WriterFailed" });
  });

  it("write waits while the buffer is full: at most 8 adds of rows are held", async () => {
    const writer = await NdWriter.create(fresh(), { targetFragmentBytes: 4000, writeParallelism: 1 });
    const held: number[] = [];
    for (let i = 0; i < 20; i++) {
      await writer.write(bigRow(i, 1000));
      held.push(writer.bufferedBytes);
    }
    await writer.finish();
    expect(Math.max(...held)).toBeLessThanOrEqual(8 * 4000);
  });

  it("memoryBudgetBytes bounds the rows held (buffered plus in flight); each add holds at most the budget over the parallelism", async () => {
    // A large target: without the budget, one add would hold every row. Rows of 4000 bytes, 2 adds: one row an add.
    const budget = 2 * 4000;
    const writer = await NdWriter.create(fresh(), {
      targetFragmentBytes: 1 << 20,
      writeParallelism: 2,
      memoryBudgetBytes: budget,
      columnDefaults: { compression: "none" },
    });
    const held: number[] = [];
    for (let i = 0; i < 12; i++) {
      await writer.write(bigRow(i, 1000));
      held.push(writer.bufferedBytes);
    }
    const table = await writer.finish();
    expect(Math.max(...held)).toBeLessThanOrEqual(budget + batchBytes(bigRow(0, 1000)));
    expect(writer.versions).toHaveLength(12);
    expect(await table.countRows()).toBe(12);
  });

  it("a memoryBudgetBytes that is not a positive integer fails with InvalidInput naming it", async () => {
    for (const memoryBudgetBytes of [0, -1, 1.5, "16"]) {
      const err = await failure(NdWriter.create(fresh(), { memoryBudgetBytes } as never));
      expect(err).toMatchObject({ code: "InvalidInput" });
      expect(err.message).toMatch(/memoryBudgetBytes/);
    }
  });

  it("writeBatch of a record batch that is not nd-arrow encoded fails with InvalidInput; the writer stays usable", async () => {
    const writer = await NdWriter.create(fresh());
    const plain = tableFromArrays({ n: new Int32Array([1, 2]) }).batches[0]!;
    expect(await failure(writer.writeBatch(plain))).toMatchObject({ code: "InvalidInput" });
    await writer.write(sstRow(0));
    expect(await readIds(await writer.finish())).toEqual(["r0"]);
  });

  it("an append of no rows commits nothing", async () => {
    const table = await write(fresh(), sstRows(1));
    const writer = await NdWriter.append(table);
    await writer.finish();
    expect(await table.version()).toBe(1);
  });

  it("abort on a table without stable row ids (not made by write) cannot remove its rows and says so with WriterFailed", async () => {
    const table = await makeTable(fresh(), sstRows(1));
    const writer = await NdWriter.append(table, { targetFragmentBytes: 1, writeParallelism: 1 });
    await writer.write(sstRow(1));
    await writer.write(sstRow(2));
    const err = await failure(writer.abort());
    expect(err.code).toBe("WriterFailed");
    expect(err.message).toMatch(/stable row ids/);
  });

  it("NdWriter.create on an existing table fails with TableExists", async () => {
    const uri = fresh();
    await write(uri, sstRows(1));
    expect(await failure(NdWriter.create(uri))).toMatchObject({ code: "TableExists" });
  });

  it("parallel adds: 4 by default on local disk and on object stores with conditionalPut; 1 on other object stores and memory://; an explicit writeParallelism wins", () => {
    const parallelism = (uri: string, options = {}) => addParallelism(uri, parseWriteOptions(options, uri));
    expect(parallelism("/data/t.lance")).toBe(4);
    expect(parallelism("file:///data/t.lance")).toBe(4);
    expect(parallelism("s3://bucket/t.lance")).toBe(1);
    expect(parallelism("s3://bucket/t.lance", { conditionalPut: true })).toBe(4);
    expect(parallelism("gs://bucket/t.lance", { writeParallelism: 2 })).toBe(2);
    expect(parallelism("memory://db/t", { writeParallelism: 4 })).toBe(1);
    expect(parallelism("/data/t.lance", { writeParallelism: 1 })).toBe(1);
  });
});
