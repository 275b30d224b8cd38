import * as path from "node:path";
import { connect } from "@lancedb/lancedb";
import { Float64 } from "apache-arrow";
import { describe, expect, it } from "vitest";
import { NdArray, NdRecordBatch, attr } from "@lance-nd/nd-arrow";
import { col, type Expr } from "../../src/read/expr.js";
import { indexGlobalAttr, keyIndexes } from "../../src/read/key-index.js";
import { scan } from "../../src/read/scan.js";
import type { NdTable } from "../../src/table.js";
import { widen } from "../../src/widen/widen.js";
import { append } from "../../src/write/write.js";
import { ids, makeTable, sampleRow, tempDir } from "../helpers/make-table.js";
import { failure } from "../helpers/write-rows.js";
import { recordSpans } from "../helpers/span-recorder.js";

const dir = tempDir("key-index");
const spans = recordSpans();
let count = 0;

async function fresh(rows = 12): Promise<{ table: NdTable; name: string }> {
  const name = `t${count++}`;
  const table = await makeTable(
    path.join(dir, `${name}.lance`),
    Array.from({ length: rows }, (_, i) => sampleRow(i)),
    { stats: true },
  );
  return { table, name };
}

/** The ids of the rows a filter reads, in table order. */
async function matching(table: NdTable, expr: Expr): Promise<unknown[]> {
  return ids(await scan(table).filterExpr(expr).toArray());
}

/** Lance's physical plan of a `_rowid` lookup by `filter` (as lance-nd's point reads send it). */
async function lookupPlan(name: string, filter: string): Promise<string> {
  const raw = await (await connect(dir)).openTable(name);
  try {
    return await raw.query().where(filter).select(["_rowid"]).withRowId().explainPlan();
  } finally {
    raw.close();
  }
}

describe("indexGlobalAttr", () => {
  it("indexes a key in one commit; point reads by it use the index and read exactly the rows they read before", async () => {
    const { table, name } = await fresh();
    const queries = [
      col("__global_attrs__.id").eq("r7"),
      col("__global_attrs__.id").isIn(["r1", "r11", "missing"]),
      col("__global_attrs__.n").gt(8),
    ];
    const before = await Promise.all(queries.map((q) => matching(table, q)));
    const version = await table.version();
    expect(await indexGlobalAttr(table, "id")).toBe(version + 1);
    expect(await indexGlobalAttr(table, "n")).toBe(version + 2);
    expect(await keyIndexes(table)).toEqual([
      { key: "id", unindexedRows: 0 },
      { key: "n", unindexedRows: 0 },
    ]);
    expect(await Promise.all(queries.map((q) => matching(table, q)))).toEqual(before);
    expect(before[0]).toEqual(["r7"]);
    expect(await lookupPlan(name, "__global_attrs__.id = 'r7'")).toMatch(/ScalarIndexQuery/);
    expect(spans.some((s) => s.name === "lance_nd.index" && s.attributes["lance_nd.key"] === "id")).toBe(true);
  });

  it("finds rows appended, deleted and widened after the index exactly; compact brings the new rows into it", async () => {
    const { table } = await fresh(6);
    await indexGlobalAttr(table, "id");
    // New rows, one with a global attribute the table did not have (the struct gains a field).
    const extra = new NdRecordBatch(
      { sst: NdArray.from(new Float32Array(6), { dims: { time: 2, x: 3 } }) },
      { id: "r3", n: 30, source: "late" },
    );
    await append(table, [sampleRow(6), sampleRow(7), extra]);
    expect(await keyIndexes(table)).toEqual([{ key: "id", unindexedRows: 3 }]);
    expect(await matching(table, col("__global_attrs__.id").eq("r3"))).toEqual(["r3", "r3"]);
    expect(await matching(table, col("__global_attrs__.id").eq("r7"))).toEqual(["r7"]);
    await table.delete(col("__global_attrs__.n").eq(30));
    expect(await matching(table, col("__global_attrs__.id").eq("r3"))).toEqual(["r3"]);
    await widen(table, "sst", new Float64());
    expect(await keyIndexes(table)).toEqual([{ key: "id", unindexedRows: 2 }]);
    await table.compact();
    expect(await keyIndexes(table)).toEqual([{ key: "id", unindexedRows: 0 }]);
    for (const id of ["r0", "r3", "r6", "r7"])
      expect(await matching(table, col("__global_attrs__.id").eq(id)), id).toEqual([id]);
    const [row] = await scan(table).filterExpr(col("__global_attrs__.id").eq("r7")).toArray();
    expect(Array.from(row!.get("sst")!.toArray() as Float64Array)).toEqual([70, 71, 72, 73, 74, 75]);
  });

  it("a widen by rewrite builds the key indexes again", async () => {
    const { table, name } = await fresh(4);
    await indexGlobalAttr(table, "id");
    const ints = new NdRecordBatch({ k: NdArray.from(new Int32Array([5]), { dims: { one: 1 } }) }, { id: "r9", n: 9 });
    await append(table, [ints]);
    await widen(table, "k", new Float64()); // Int32 -> Float64: across kinds, so a rewrite
    expect(await keyIndexes(table)).toEqual([{ key: "id", unindexedRows: 0 }]);
    expect(await matching(table, col("__global_attrs__.id").eq("r9"))).toEqual(["r9"]);
    expect(await lookupPlan(name, "__global_attrs__.id = 'r9'")).toMatch(/ScalarIndexQuery/);
  });

  it("refuses an unknown key, a list attribute, a read-only view and a table without global attributes, changing nothing", async () => {
    const { table } = await fresh(3);
    const version = await table.version();
    expect(await failure(indexGlobalAttr(table, "nope"))).toMatchObject({
      code: "InvalidInput",
      column: "__global_attrs__.nope",
      message: expect.stringContaining('no global attribute "nope" (it has id, n)'),
    });
    expect(await failure(indexGlobalAttr(table, "" as string))).toMatchObject({ code: "InvalidInput" });
    const view = await table.checkout(version);
    expect(await failure(indexGlobalAttr(view, "id"))).toMatchObject({
      code: "InvalidInput",
      message: expect.stringContaining("read-only view"),
    });
    expect(await table.version()).toBe(version);
    expect(await keyIndexes(table)).toEqual([]);

    const listed = await makeTable(path.join(dir, `t${count++}.lance`), [
      new NdRecordBatch({}, { id: "a", range: attr.float32([1, 2]) }),
    ]);
    expect(await failure(indexGlobalAttr(listed, "range"))).toMatchObject({
      code: "InvalidInput",
      message: expect.stringContaining("only scalar attributes can be indexed"),
    });
    const bare = await makeTable(path.join(dir, `t${count++}.lance`), [
      new NdRecordBatch({ sst: NdArray.from(new Float32Array(2), { dims: { x: 2 } }) }),
    ]);
    expect(await failure(indexGlobalAttr(bare, "id"))).toMatchObject({
      code: "InvalidInput",
      message: expect.stringContaining("(it has none)"),
    });
  });
});
