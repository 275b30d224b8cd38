import * as fs from "node:fs";
import * as path from "node:path";
import * as arrow from "apache-arrow";
import { beforeAll, describe, expect, it } from "vitest";
import { NdArray, NdRecordBatch, encodeSchema } from "@lance-nd/nd-arrow";
import { tableSchema } from "@lance-nd/format";
import { col, stat } from "../../src/read/expr.js";
import { indexGlobalAttr } from "../../src/read/key-index.js";
import { scan } from "../../src/read/scan.js";
import { open, type NdTable } from "../../src/table.js";
import { createTable } from "../../src/lance/table-open.js";
import { appendTo, ids, makeTable, sampleRow, tempDir } from "../helpers/make-table.js";
import { failure } from "../helpers/write-rows.js";

const dir = tempDir("scan");

const chl = (i: number) => NdArray.from(Float32Array.from([i]), { dims: { depth: 1 } });

// 3 commits (fragments): r0..r3 with sst; r4..r6 with sst and chl; r7..r8 with chl only.
let table: NdTable;
beforeAll(async () => {
  table = await makeTable(
    path.join(dir, "t.lance"),
    [0, 1, 2, 3].map((i) => sampleRow(i)),
    {
      stats: true,
      columnDefaults: { compression: { codec: "zstd", level: 3 }, structuralEncoding: "miniblock" },
    },
  );
  await appendTo(
    table,
    [4, 5, 6].map((i) => sampleRow(i, { extra: { chl: chl(i) } })),
  );
  await appendTo(
    table,
    [7, 8].map((i) => sampleRow(i, { withSst: false, extra: { chl: chl(i) } })),
  );
});

describe("scan: rows", () => {
  it("a full scan yields one NdRecordBatch per table row, in table order, with all its arrays and global attributes", async () => {
    const rows = await scan(table).toArray();
    expect(ids(rows)).toEqual(["r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8"]);
    const r5 = rows[5]!;
    expect(r5.names().sort()).toEqual(["chl", "sst"]);
    expect([...r5.get("sst")!.values.toArray()]).toEqual([50, 51, 52, 53, 54, 55]);
    expect(r5.get("sst")!.dims).toEqual([
      { name: "time", size: 2 },
      { name: "x", size: 3 },
    ]);
    expect(r5.globalAttr("n")).toBe(5);
  });

  it("a null array is absent from its row (not a null scalar)", async () => {
    const rows = await scan(table).toArray();
    expect(rows[0]!.names()).toEqual(["sst"]);
    expect(rows[8]!.names()).toEqual(["chl"]);
  });

  it("stats columns never appear and field metadata has no lance-encoding: keys", async () => {
    expect(table.tableSchema.fields.some((f) => f.name === "__stats__:sst")).toBe(true);
    const rows = await scan(table).toArray();
    for (const row of rows) {
      expect(row.names().some((n) => n.startsWith("__"))).toBe(false);
      for (const [, array] of row.arrays()) {
        expect([...array.metadata.keys()].filter((k) => k.startsWith("lance-encoding:"))).toEqual([]);
      }
    }
    const leaf = (
      table.tableSchema.fields.find((f) => f.name === "sst")!.type.children[0]!.type.children[0] as arrow.Field
    ).metadata;
    expect(leaf.get("lance-encoding:compression")).toBe("zstd");
    expect(
      table.tableSchema.fields.find((f) => f.name === "sst")!.metadata.get("lance-encoding:structural-encoding"),
    ).toBe("miniblock");
  });

  it("an iterable with for await, the same rows as toArray", async () => {
    const seen: unknown[] = [];
    for await (const row of scan(table).project(["chl"])) seen.push(row.globalAttr("id"));
    expect(seen).toEqual(ids(await scan(table).project(["chl"]).toArray()));
  });
});

describe("scan: project", () => {
  it("keeps only the named variables; each row keeps all its global attributes", async () => {
    const rows = await scan(table).project(["chl"]).toArray();
    expect(rows).toHaveLength(9);
    expect(rows.map((r) => r.names())).toEqual([[], [], [], [], ["chl"], ["chl"], ["chl"], ["chl"], ["chl"]]);
    expect(rows[2]!.globalAttr("n")).toBe(2);
  });

  it("an empty projection gives one row per table row with only the global attributes", async () => {
    const rows = await scan(table).project([]).toArray();
    expect(ids(rows)).toHaveLength(9);
    expect(rows.every((r) => r.names().length === 0)).toBe(true);
  });

  it("an empty projection of a table without global attributes still gives one (empty) row per table row", async () => {
    const plain = await makeTable(path.join(dir, "plain.lance"), [
      new NdRecordBatch({ a: chl(1) }),
      new NdRecordBatch({ a: chl(2) }),
    ]);
    const rows = await scan(plain).project([]).toArray();
    expect(rows.map((r) => [r.names().length, r.globalAttrs.size])).toEqual([
      [0, 0],
      [0, 0],
    ]);
  });

  it("an unknown variable is InvalidInput naming it; a stats or global attrs column is not a variable", async () => {
    expect(await failure(() => scan(table).project(["sst", "nope"]).toArray())).toMatchObject({
      code: "InvalidInput",
      column: "nope",
    });
    expect(await failure(() => scan(table).project(["__stats__:sst"]).toArray())).toMatchObject({
      code: "InvalidInput",
    });
    expect(await failure(() => scan(table).project(["__global_attrs__"]).toArray())).toMatchObject({
      code: "InvalidInput",
    });
    expect(await failure(async () => scan(table).project("sst" as unknown as string[]))).toMatchObject({
      code: "InvalidInput",
    });
  });
});

describe("scan: filters", () => {
  it("filter over global attributes, unquoted __stats__:sst.max and variable attributes", async () => {
    expect(ids(await scan(table).filter("__global_attrs__.id = 'r3'").toArray())).toEqual(["r3"]);
    expect(ids(await scan(table).filter("__stats__:sst.max > 50").toArray())).toEqual(["r5", "r6"]);
    expect(ids(await scan(table).filter("`__stats__:sst`.max > 50").toArray())).toEqual(["r5", "r6"]);
    expect(ids(await scan(table).filter("sst.attrs.units = 'K' AND __global_attrs__.n >= 5").toArray())).toEqual([
      "r5",
      "r6",
    ]);
    expect(ids(await scan(table).filter("chl IS NULL").project([]).toArray())).toEqual(["r0", "r1", "r2", "r3"]);
  });

  it("filter, filterExpr and lanceFilter add conditions that must all hold", async () => {
    const rows = await scan(table)
      .filter("__global_attrs__.n >= 2")
      .filterExpr(stat("sst").max.lt(60))
      .lanceFilter("`__global_attrs__`.id <> 'r4'")
      .toArray();
    expect(ids(rows)).toEqual(["r2", "r3", "r5"]);
  });

  it("lanceFilter goes to Lance as is: unquoted __stats__:sst.max is Lance's InvalidInput", async () => {
    expect(ids(await scan(table).lanceFilter("__global_attrs__.n < 2").toArray())).toEqual(["r0", "r1"]);
    expect(await failure(() => scan(table).lanceFilter("__stats__:sst.max > 50").toArray())).toMatchObject({
      code: "InvalidInput",
    });
  });

  it("an unknown column or nested field in a filter is InvalidInput naming it", async () => {
    expect(await failure(() => scan(table).filter("nope = 1").toArray())).toMatchObject({
      code: "InvalidInput",
      column: "nope",
    });
    expect(await failure(() => scan(table).filter("__global_attrs__.nope = 1").toArray())).toMatchObject({
      code: "InvalidInput",
      column: "__global_attrs__.nope",
    });
    expect(await failure(() => scan(table).filter("__stats__:zz.max > 1").toArray())).toMatchObject({
      code: "InvalidInput",
      column: "__stats__:zz",
    });
    expect(await failure(() => scan(table).filterExpr(col("__global_attrs__.idd").eq("a")).toArray())).toMatchObject({
      code: "InvalidInput",
    });
  });

  it("invalid SQL is InvalidInput when the scan is iterated, and nothing changes", async () => {
    const before = await table.version();
    for (const sql of ["__global_attrs__.id = ", "__global_attrs__.id = 'unterminated", "((__global_attrs__.n > 1"]) {
      expect(await failure(() => scan(table).filter(sql).toArray())).toMatchObject({ code: "InvalidInput" });
    }
    expect(await failure(async () => scan(table).filter("  "))).toMatchObject({ code: "InvalidInput" });
    expect(await table.version()).toBe(before);
    expect(await table.countRows()).toBe(9);
  });

  it("names are matched ignoring case when unambiguous, as Lance does, and quoted with the table's spelling", async () => {
    expect(ids(await scan(table).filter("__GLOBAL_ATTRS__.ID = 'r1'").toArray())).toEqual(["r1"]);
  });
});

describe("scan: filtered reads (a bounded first read, then takes by _rowid) keep table order and the limit", () => {
  it("every batch size and limit gives the matching rows once each, in table order, with and without a key index", async () => {
    const all = ["r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8"];
    const indexed = await makeTable(
      path.join(dir, "indexed.lance"),
      [0, 1, 2, 3].map((i) => sampleRow(i)),
    );
    await appendTo(
      indexed,
      [4, 5, 6, 7, 8].map((i) => sampleRow(i)),
    );
    await indexGlobalAttr(indexed, "n");
    const check = async (t: NdTable, rows: string[]) => {
      for (const from of [0, 3, 8, 9])
        for (let batchSize = 1; batchSize <= 10; batchSize += 3)
          for (const limit of [undefined, 1, 2, 5, 9]) {
            let read = scan(t).filterExpr(col("__global_attrs__.n").ge(from)).batchSize(batchSize);
            if (limit !== undefined) read = read.limit(limit);
            const expected = rows.slice(from, limit === undefined ? undefined : from + limit);
            expect(ids(await read.toArray()), `n >= ${from}, batchSize ${batchSize}, limit ${limit}`).toEqual(expected);
          }
    };
    await check(table, all);
    await check(indexed, all);
    // Rows appended after the index are outside it: read by lookup and takes, still all of them.
    await appendTo(indexed, [sampleRow(9)]);
    await check(indexed, [...all, "r9"]);
  });

  it("rows from several fragments come back in table order", async () => {
    const rows = await scan(table).project(["sst"]).filter("__global_attrs__.n <> 4").toArray();
    expect(ids(rows)).toEqual(["r0", "r1", "r2", "r3", "r5", "r6", "r7", "r8"]);
    expect([...rows[5]!.get("sst")!.values.toArray()]).toEqual([60, 61, 62, 63, 64, 65]);
  });

  it("limit applies to filtered and unfiltered scans; limit(0) reads nothing", async () => {
    expect(ids(await scan(table).limit(3).toArray())).toEqual(["r0", "r1", "r2"]);
    expect(ids(await scan(table).filter("__global_attrs__.n > 1").limit(2).toArray())).toEqual(["r2", "r3"]);
    expect(await scan(table).limit(0).toArray()).toEqual([]);
    expect(await failure(() => scan(table).filter("nope = 1").limit(0).toArray())).toMatchObject({
      code: "InvalidInput",
    });
    expect(await failure(async () => scan(table).limit(-1))).toMatchObject({ code: "InvalidInput" });
  });

  it("batch limits of one row and one byte, and no read-ahead, give the same rows", async () => {
    const expected = ids(await scan(table).toArray());
    expect(ids(await scan(table).batchSize(1).toArray())).toEqual(expected);
    expect(ids(await scan(table).batchSizeBytes(1).batchReadahead(0).toArray())).toEqual(expected);
    expect(
      ids(
        await scan(table)
          .filter("__global_attrs__.n >= 0")
          .batchSize(2)
          .batchReadahead(5)
          .decodeParallelism(4)
          .toArray(),
      ),
    ).toEqual(expected);
    for (const bad of [
      () => scan(table).batchSize(0),
      () => scan(table).batchSizeBytes(1.5),
      () => scan(table).batchReadahead(-1),
      () => scan(table).decodeParallelism(0),
    ]) {
      expect(await failure(async () => bad())).toMatchObject({ code: "InvalidInput" });
    }
  });

  it("unfiltered reads of a table of more fragments than takes (by offset) skip deleted rows, in order, with the limit", async () => {
    const holes = await makeTable(
      path.join(dir, "holes.lance"),
      [0, 1, 2].map((i) => sampleRow(i)),
    );
    for (const more of [[3, 4], [5], [6, 7]])
      await appendTo(
        holes,
        more.map((i) => sampleRow(i)),
      );
    await holes.delete("__global_attrs__.n = 1");
    await holes.delete("__global_attrs__.n IN (5, 7)");
    const left = ["r0", "r2", "r3", "r4", "r6"];
    for (const read of [scan(holes), scan(holes).project(["sst"]), scan(holes).batchSize(2).batchReadahead(0)]) {
      const rows = await read.toArray();
      expect(ids(rows)).toEqual(left);
      expect([...rows[3]!.get("sst")!.values.toArray()]).toEqual([40, 41, 42, 43, 44, 45]);
    }
    expect(ids(await scan(holes).project(["sst"]).limit(4).batchSize(3).toArray())).toEqual(left.slice(0, 4));
    const earlier = await holes.checkout((await holes.version()) - 1);
    expect(ids(await scan(earlier).project(["sst"]).toArray())).toEqual(["r0", "r2", "r3", "r4", "r5", "r6", "r7"]);
  });

  it("after deletes and compaction (new row ids) the order and rows stay right", async () => {
    const copy = await makeTable(
      path.join(dir, "compacted.lance"),
      [0, 1, 2].map((i) => sampleRow(i)),
    );
    await appendTo(
      copy,
      [3, 4].map((i) => sampleRow(i)),
    );
    await appendTo(
      copy,
      [5, 6].map((i) => sampleRow(i)),
    );
    await copy.delete("__global_attrs__.n = 1");
    await copy.compact();
    await appendTo(
      copy,
      [7].map((i) => sampleRow(i)),
    );
    const all = ids(await scan(copy).toArray());
    expect(all.slice().sort()).toEqual(["r0", "r2", "r3", "r4", "r5", "r6", "r7"]);
    expect(ids(await scan(copy).project(["sst"]).filter("__global_attrs__.n >= 0").batchSize(2).toArray())).toEqual(
      all,
    );
  });
});

describe("scan: versions and storage", () => {
  it("a checked-out view reads its version; the handle still reads the latest", async () => {
    const t = await makeTable(
      path.join(dir, "versions.lance"),
      [0, 1].map((i) => sampleRow(i)),
    );
    const v1 = await t.version();
    await appendTo(t, [sampleRow(2)]);
    const view = await t.checkout(v1);
    expect(ids(await scan(view).toArray())).toEqual(["r0", "r1"]);
    expect(ids(await scan(view).project(["sst"]).filter("__global_attrs__.n >= 1").toArray())).toEqual(["r1"]);
    expect(ids(await scan(t).toArray())).toEqual(["r0", "r1", "r2"]);
  });

  it("a second handle's commits (new variables too) are seen by the next scan", async () => {
    const uri = path.join(dir, "two-handles.lance");
    const a = await makeTable(uri, [sampleRow(0)]);
    expect(ids(await scan(a).toArray())).toEqual(["r0"]);
    const b = await open(uri);
    await appendTo(b, [sampleRow(1, { extra: { chl: chl(1) } })]);
    const rows = await scan(a).project(["chl"]).toArray();
    expect(rows.map((r) => r.names())).toEqual([[], ["chl"]]);
  });

  it("works on memory:// tables", async () => {
    const t = await makeTable(
      "memory://scan-test/m.lance",
      [0, 1, 2].map((i) => sampleRow(i)),
    );
    expect(ids(await scan(t).project(["sst"]).filter("__global_attrs__.n = 2").toArray())).toEqual(["r2"]);
  });
});

describe("open errors", () => {
  it("TableNotFound for a missing table and for a folder that is not a table", async () => {
    expect(await failure(() => open(path.join(dir, "missing.lance")))).toMatchObject({ code: "TableNotFound" });
    fs.mkdirSync(path.join(dir, "empty.lance"));
    expect(await failure(() => open(path.join(dir, "empty.lance")))).toMatchObject({ code: "TableNotFound" });
  });

  it("InvalidTable for a Lance table without the format key or with another format version", async () => {
    const schema = tableSchema(encodeSchema([sampleRow(0)]));
    const bare = new arrow.Schema(schema.fields, new Map());
    await createTable(path.join(dir, "bare.lance"), bare);
    expect(await failure(() => open(path.join(dir, "bare.lance")))).toMatchObject({ code: "InvalidTable" });
    const v2 = new arrow.Schema(schema.fields, new Map([...schema.metadata, ["lance_nd:format", "2"]]));
    await createTable(path.join(dir, "v2.lance"), v2);
    expect(await failure(() => open(path.join(dir, "v2.lance")))).toMatchObject({ code: "InvalidTable" });
  });

  it("InvalidTable for a path that is a file, not a table folder", async () => {
    fs.writeFileSync(path.join(dir, "file.lance"), "not a table");
    expect(await failure(() => open(path.join(dir, "file.lance")))).toMatchObject({ code: "InvalidTable" });
  });

  it("InvalidInput for a uri whose table name Lance cannot hold", async () => {
    expect(await failure(() => open(path.join(dir, "a:b.lance")))).toMatchObject({ code: "InvalidInput" });
  });
});
