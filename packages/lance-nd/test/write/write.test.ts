import * as path from "node:path";
import { NdArray, NdRecordBatch, encode } from "@lance-nd/nd-arrow";
import { Float32 } from "apache-arrow";
import { describe, expect, it } from "vitest";
import { listVersions } from "../../src/lance/table-versions.js";
import { open, type NdTable } from "../../src/table.js";
import { append, write } from "../../src/write/write.js";
import { NdWriter } from "../../src/write/writer.js";
import { tempDir } from "../helpers/make-table.js";
import { recordSpans } from "../helpers/span-recorder.js";
import { asyncRows, bigRow, failure, readIds, readRows, sstRow, sstRows } from "../helpers/write-rows.js";

const spans = recordSpans();
const dir = tempDir("write");
let tables = 0;
const fresh = (): string => path.join(dir, `t${tables++}.lance`);

describe("write: create, append, overwrite", () => {
  it("create writes all rows in one version, and the rows read back with their values and attributes", async () => {
    const table = await write(fresh(), sstRows(3));
    expect(await table.version()).toBe(1);
    const rows = await readRows(table);
    expect(rows.map((r) => r.globalAttr("id"))).toEqual(["r0", "r1", "r2"]);
    expect(Array.from(rows[1]!.get("sst")!.toArray())).toEqual([10, 11, 12, 13, 14, 15]);
    expect(rows[1]!.get("sst")!.attr("units")).toBe("K");
    expect(rows[1]!.get("sst")!.dims).toEqual([
      { name: "lat", size: 2 },
      { name: "lon", size: 3 },
    ]);
  });

  it("takes an AsyncIterable of rows", async () => {
    const table = await write(fresh(), asyncRows(sstRows(2)));
    expect(await readIds(table)).toEqual(["r0", "r1"]);
  });

  it("create of an existing table fails with TableExists and leaves it as it was", async () => {
    const uri = fresh();
    const table = await write(uri, sstRows(2));
    expect(await failure(write(uri, sstRows(1, 5)))).toMatchObject({ code: "TableExists" });
    expect(await table.version()).toBe(1);
    expect(await readIds(table)).toEqual(["r0", "r1"]);
  });

  it('mode "append" adds rows to the latest version in one version', async () => {
    const uri = fresh();
    await write(uri, sstRows(2));
    const table = await write(uri, sstRows(2, 2), { mode: "append" });
    expect(await table.version()).toBe(2);
    expect(await readIds(table)).toEqual(["r0", "r1", "r2", "r3"]);
  });

  it("append to a missing table fails with TableNotFound", async () => {
    expect(await failure(write(fresh(), sstRows(1), { mode: "append" }))).toMatchObject({ code: "TableNotFound" });
  });

  it('mode "overwrite" replaces the rows and the schema in one version', async () => {
    const uri = fresh();
    await write(uri, sstRows(3));
    const other = new NdRecordBatch({ t: NdArray.from(new Int32Array([1, 2]), { dims: { x: 2 } }) });
    const table = await write(uri, [other], { mode: "overwrite" });
    expect(await table.version()).toBe(2);
    expect([...table.layout.arrays.keys()]).toEqual(["t"]);
    expect((await readRows(table)).map((r) => Array.from(r.get("t")!.toArray()))).toEqual([[1, 2]]);
  });

  it('mode "overwrite" creates a missing table', async () => {
    const table = await write(fresh(), sstRows(1), { mode: "overwrite" });
    expect(await readIds(table)).toEqual(["r0"]);
  });

  it("no rows: create makes a table without columns that later appends fill", async () => {
    const uri = fresh();
    const table = await write(uri, []);
    expect(table.tableSchema.fields).toEqual([]);
    expect(table.tableSchema.metadata.get("lance_nd:format")).toBe("1");
    await append(table, sstRows(2));
    expect(await readIds(await open(uri))).toEqual(["r0", "r1"]);
  });

  it("rows with no arrays and no global attributes: InvalidInput into a table without columns (nothing created), stored as empty rows otherwise", async () => {
    const uri = fresh();
    const err = await failure(write(uri, [new NdRecordBatch({}), new NdRecordBatch({})]));
    expect(err).toMatchObject({ code: "InvalidInput" });
    expect(err.message).toMatch(/row 0 has no arrays and no global attributes/);
    expect(await failure(open(uri))).toMatchObject({ code: "TableNotFound" });
    const columnless = await write(uri, []);
    expect(await failure(append(columnless, [new NdRecordBatch({})]))).toMatchObject({ code: "InvalidInput" });
    const table = await write(fresh(), [new NdRecordBatch({}), ...sstRows(1)]);
    await append(table, [new NdRecordBatch({})]);
    const rows = await readRows(table);
    expect(rows.map((r) => [r.names(), r.globalAttrs.size])).toEqual([
      [[], 0],
      [["sst"], 1],
      [[], 0],
    ]);
  });

  it("works on memory:// tables", async () => {
    const uri = "memory://write-test/m.lance";
    const table = await write(uri, sstRows(2));
    await append(table, sstRows(1, 2));
    expect(await readIds(table)).toEqual(["r0", "r1", "r2"]);
  });
});

describe("append: schema evolution", () => {
  it("adds a new variable, a new attribute key and a new global attribute as null columns; old rows read them as absent", async () => {
    const table = await write(fresh(), sstRows(2), { stats: true });
    const sst = NdArray.from(new Float32Array(6), {
      dims: { lat: 2, lon: 3 },
      attrs: { units: "K", long_name: "sea surface" },
    });
    const chl = NdArray.from(new Float64Array([0.5, 1.5]), { dims: { lat: 2 } });
    await append(table, [new NdRecordBatch({ sst, chl }, { id: "new", source: "buoy" })]);
    const rows = await readRows(table);
    expect(rows[0]!.names()).toEqual(["sst"]);
    expect(rows[0]!.get("sst")!.attrs.has("long_name")).toBe(false);
    expect(rows[0]!.globalAttrs.has("source")).toBe(false);
    expect(rows[2]!.names().sort()).toEqual(["chl", "sst"]);
    expect(rows[2]!.get("sst")!.attr("long_name")).toBe("sea surface");
    expect(rows[2]!.globalAttr("source")).toBe("buoy");
    expect(table.tableSchema.fields.map((f) => f.name)).toContain("__stats__:chl");
  });

  it("a variable written without attributes gains them in an append: every row reads (old ones without), also after compact", async () => {
    const uri = fresh();
    const row = (id: string, attrs?: Record<string, string | number>): NdRecordBatch =>
      new NdRecordBatch(
        { sst: NdArray.from(new Float32Array(6), { dims: { lat: 2, lon: 3 }, ...(attrs && { attrs }) }) },
        { id },
      );
    const table = await write(uri, [row("r0"), row("r1")], { stats: true });
    await append(table, [row("new", { units: "K" })]);
    await append(table, [row("more", { units: "C", scale: 2 })]);
    const attrsOf = async (t: NdTable): Promise<Record<string, unknown>[]> =>
      (await readRows(t)).map((r) =>
        Object.fromEntries([...r.get("sst")!.attrs.keys()].map((k) => [k, r.get("sst")!.attr(k)])),
      );
    const expected = [{}, {}, { units: "K" }, { units: "C", scale: 2 }];
    expect(await attrsOf(table)).toEqual(expected);
    await table.compact();
    expect(await attrsOf(await open(uri))).toEqual(expected);
  });

  it("fills the stats columns of a table with stats, from the written values", async () => {
    const table = await write(fresh(), [sstRow(0, { values: [3, -1, 7, 2, 0, 5] })], { stats: true });
    const [rb] = await (async () => {
      const out = [];
      for await (const b of (await import("../../src/lance/table-read.js")).scanRows(table.lance, {
        columns: ["__stats__:sst"],
      }))
        out.push(b);
      return out;
    })();
    expect(rb!.getChild("__stats__:sst")!.get(0)!.toJSON()).toEqual({ min: -1, max: 7 });
  });

  it("keeps the encoding options of new columns (columnDefaults and columns)", async () => {
    const table = await write(fresh(), sstRows(1), {
      columnDefaults: { compression: "zstd" },
      columns: { sst: { bss: "on" } },
    });
    const leaf = table.tableSchema.fields[0]!.type.children[0]!.type.children[0]!;
    expect(leaf.metadata.get("lance-encoding:compression")).toBe("zstd");
    expect(leaf.metadata.get("lance-encoding:bss")).toBe("on");
  });
});

describe("write: invalid input", () => {
  it("bad options fail with one InvalidInput naming each option", async () => {
    const err = await failure(write(fresh(), sstRows(1), { mode: "replace", writeParallelism: 0 } as never));
    expect(err.code).toBe("InvalidInput");
    expect(err.message).toMatch(/mode = "replace".*writeParallelism = 0/);
  });

  it("unknown options and bad column options fail with InvalidInput", async () => {
    expect(await failure(write(fresh(), sstRows(1), { compresion: "zstd" } as never))).toMatchObject({
      code: "InvalidInput",
    });
    expect(
      await failure(write(fresh(), sstRows(1), { columnDefaults: { compression: "gzip" } } as never)),
    ).toMatchObject({ code: "InvalidInput" });
  });

  it("stats on an append fails with InvalidInput", async () => {
    const table = await write(fresh(), sstRows(1));
    expect(await failure(append(table, sstRows(1), { stats: true } as never))).toMatchObject({ code: "InvalidInput" });
  });

  it("a name Lance cannot hold (with a dot) fails with InvalidInput and creates no table", async () => {
    const uri = fresh();
    const bad = new NdRecordBatch({ "a.b": NdArray.from(new Float32Array(1)) });
    expect(await failure(write(uri, [bad]))).toMatchObject({ code: "InvalidInput" });
    expect(await failure(open(uri))).toMatchObject({ code: "TableNotFound" });
  });

  it("a variable name with a backtick fails with InvalidInput naming it, at create and append, and creates no table", async () => {
    const uri = fresh();
    const bad = new NdRecordBatch({ "back`tick": NdArray.from(new Float32Array(1)) });
    expect(await failure(write(uri, [bad]))).toMatchObject({ code: "InvalidInput", column: "back`tick" });
    expect(await failure(open(uri))).toMatchObject({ code: "TableNotFound" });
    const table = await write(uri, sstRows(1));
    expect(await failure(append(table, [bad]))).toMatchObject({ code: "InvalidInput", column: "back`tick" });
    expect(await readIds(table)).toEqual(["r0"]);
  });

  it("attribute and global attribute keys with a backtick are stored and scans read them back", async () => {
    const row = (id: string): NdRecordBatch =>
      new NdRecordBatch(
        { sst: NdArray.from(new Float32Array(1), { dims: {}, attrs: { "u`v": id } }) },
        { id, "g`k": `g-${id}` },
      );
    const table = await write(fresh(), [row("a")]);
    await append(table, [row("b")]);
    const rows = await readRows(table);
    expect(rows.map((r) => [r.get("sst")!.attr("u`v"), r.globalAttr("g`k")])).toEqual([
      ["a", "g-a"],
      ["b", "g-b"],
    ]);
  });

  it("a reserved name in encoded rows (writeBatch) fails with InvalidInput", async () => {
    const writer = await NdWriter.create(fresh());
    const rb = encode([sstRow(0)]);
    const renamed = rb.schema.fields.map((f) => (f.name === "sst" ? f.clone({ name: "__stats__:x" }) : f));
    const { RecordBatch, Schema } = await import("apache-arrow");
    const bad = new RecordBatch(new Schema(renamed, rb.schema.metadata), rb.data);
    expect(await failure(writer.writeBatch(bad))).toMatchObject({ code: "InvalidInput" });
    await writer.abort();
  });
});

describe("write: commits", () => {
  it("rows larger than targetFragmentBytes go in several adds, one version each", async () => {
    const uri = fresh();
    // Uncompressed, so the bytes on disk are the bytes in memory (zstd, the default, would learn a smaller ratio).
    const table = await write(
      uri,
      Array.from({ length: 6 }, (_, i) => bigRow(i, 1024)),
      { targetFragmentBytes: 8 * 1024, columnDefaults: { compression: "none" } },
    );
    const versions = await listVersions(table.lance);
    expect(versions.length).toBeGreaterThanOrEqual(3);
    expect(await table.countRows()).toBe(6);
  });

  it("_row_created_at_version tells the version of each append (stable row ids)", async () => {
    const table = await write(fresh(), sstRows(2));
    await append(table, sstRows(3, 2));
    await append(table, sstRows(1, 5));
    expect(await table.countRows("_row_created_at_version = 1")).toBe(2);
    expect(await table.countRows("_row_created_at_version = 2")).toBe(3);
    expect(await table.countRows("_row_created_at_version = 3")).toBe(1);
  });

  it("a call that fails after some adds removes the rows it committed; the table keeps its rows", async () => {
    const table = await write(fresh(), sstRows(2));
    const rows = [
      ...Array.from({ length: 4 }, (_, i) => bigRow(10 + i, 1024)),
      sstRow(99, { type: new Float32() }),
      bigRow(20, 1024),
    ];
    // The row before last changes `big`'s type: rejected after the first adds committed.
    rows[4] = new NdRecordBatch({ big: NdArray.from(new Float64Array(4), { dims: { x: 4 } }) }, { id: "bad" });
    const err = await failure(append(table, rows, { targetFragmentBytes: 4 * 1024 }));
    expect(err).toMatchObject({ code: "SchemaMismatch", column: "big" });
    expect(await table.version()).toBeGreaterThan(1);
    expect(await readIds(table)).toEqual(["r0", "r1"]);
  });

  it("a failed create leaves no table behind", async () => {
    const uri = fresh();
    const rows = [
      bigRow(0, 1024),
      bigRow(1, 1024),
      new NdRecordBatch({ big: NdArray.from(new Int8Array(2), { dims: { x: 2 } }) }),
    ];
    expect(await failure(write(uri, rows, { targetFragmentBytes: 1024 }))).toMatchObject({ code: "SchemaMismatch" });
    expect(await failure(open(uri))).toMatchObject({ code: "TableNotFound" });
  });

  it("a failed overwrite gets the old rows back", async () => {
    const uri = fresh();
    await write(uri, sstRows(2));
    const rows = [
      bigRow(0, 1024),
      bigRow(1, 1024),
      new NdRecordBatch({ big: NdArray.from(new Int8Array(2), { dims: { x: 2 } }) }),
    ];
    expect(await failure(write(uri, rows, { mode: "overwrite", targetFragmentBytes: 1024 }))).toMatchObject({
      code: "SchemaMismatch",
    });
    expect(await readIds(await open(uri))).toEqual(["r0", "r1"]);
  });
});

describe("spans", () => {
  it("lance_nd.write spans a write, with a lance_nd.commit child per add, each with the table uri", async () => {
    const uri = fresh();
    spans.length = 0;
    await write(
      uri,
      Array.from({ length: 3 }, (_, i) => bigRow(i, 1024)),
      { targetFragmentBytes: 4 * 1024 },
    );
    const writes = spans.filter((s) => s.name === "lance_nd.write");
    const commits = spans.filter((s) => s.name === "lance_nd.commit");
    expect(writes).toHaveLength(1);
    expect(writes[0]!.attributes["lance_nd.table.uri"]).toBe(uri);
    expect(writes[0]!.ended).toBe(true);
    expect(commits.length).toBeGreaterThanOrEqual(2);
    for (const commit of commits) {
      expect(commit.parent).toBe(writes[0]);
      expect(commit.attributes["lance_nd.table.uri"]).toBe(uri);
    }
  });

  it("a failed write ends its span as an error", async () => {
    const uri = fresh();
    await write(uri, sstRows(1));
    spans.length = 0;
    const float64 = sstRow(1, { type: new (await import("apache-arrow")).Float64() });
    expect(await failure(write(uri, [float64], { mode: "append" }))).toMatchObject({
      code: "SchemaMismatch",
      column: "sst",
    });
    expect(spans.some((s) => s.name === "lance_nd.write" && s.failed)).toBe(true);
  });
});
