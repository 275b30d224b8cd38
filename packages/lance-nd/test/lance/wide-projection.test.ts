// A wide table's plan read from whole rows (src/lance/wide-projection.ts)
// gives the batches Lance's own projection gives: nested paths, quoted
// names, stats columns, and nulls where a row lacks a variable.
import * as path from "node:path";
import { NdArray, NdRecordBatch } from "@lance-nd/nd-arrow";
import { selectName } from "@lance-nd/format";
import { statsColumnName } from "@lance-nd/stats";
import { Float32, Int16 } from "apache-arrow";
import { describe, expect, it } from "vitest";
import { scanRows } from "../../src/lance/table-read.js";
import { pathSegments, pickColumns, readsWholeRows } from "../../src/lance/wide-projection.js";
import { appendTo, makeTable, tempDir } from "../helpers/make-table.js";

const dir = tempDir("wide-projection");

/** Each column of the batches as plain values, by column name. */
function columnsOf(batches: readonly { schema: { fields: { name: string }[] }; getChildAt(i: number): unknown }[]) {
  const out = new Map<string, unknown[]>();
  for (const batch of batches)
    batch.schema.fields.forEach((field, i) => {
      const column = batch.getChildAt(i) as { toArray(): ArrayLike<unknown>; get(r: number): unknown; length: number };
      const values = Array.from({ length: column.length }, (_, r) => {
        const value = column.get(r) as { toJSON?: () => unknown } | null;
        return value === null
          ? null
          : JSON.parse(JSON.stringify(value?.toJSON?.() ?? value, (_, v) => (typeof v === "bigint" ? String(v) : v)));
      });
      out.set(field.name, [...(out.get(field.name) ?? []), ...values]);
    });
  return out;
}

describe("whole-row plan reads", () => {
  it("path segments: plain, nested, quoted with dots and doubled backticks", () => {
    expect(pathSegments("sst")).toEqual(["sst"]);
    expect(pathSegments("sst.dim_sizes")).toEqual(["sst", "dim_sizes"]);
    expect(pathSegments("__stats__:sst")).toEqual(["__stats__:sst"]);
    expect(pathSegments(`${selectName("a.b`c")}.dim_names`)).toEqual(["a.b`c", "dim_names"]);
  });

  it("pickColumns of a read of every column equals Lance's projection, rows lacking a variable null", async () => {
    const uri = path.join(dir, "groups.lance");
    const first = new NdRecordBatch(
      {
        "a b": NdArray.from([1, 2, 3], { dims: { x: 3 }, type: new Float32(), attrs: { units: "K" } }),
        plain: NdArray.from([4, 5], { dims: { y: 2 }, type: new Int16() }),
      },
      { id: "d" },
    );
    const table = await makeTable(uri, [first], { stats: true });
    await appendTo(table, [
      new NdRecordBatch({ other: NdArray.from([7, 8, 9, 10], { dims: { z: 4 }, type: new Float32() }) }, { id: "d" }),
    ]);
    await table.refresh();
    const names = ["a b", "plain", "other"];
    const columns = [
      ...names.flatMap((name) => [`${selectName(name)}.dim_names`, `${selectName(name)}.dim_sizes`]),
      ...names.map((name) => statsColumnName(name)),
      "__global_attrs__",
    ];
    const projected = [];
    for await (const rb of scanRows(table.lance, { columns, withRowId: true })) projected.push(rb);
    const picked = [];
    for await (const rb of scanRows(table.lance, { withRowId: true })) picked.push(pickColumns(rb, columns));
    const want = columnsOf(projected);
    const got = columnsOf(picked);
    expect([...got.keys()]).toEqual([...columns, "_rowid"]);
    for (const name of columns) expect(got.get(name), name).toEqual(want.get(name));
    // The second row lacks a b: its dims are null, as in Lance's projection.
    expect(got.get(`${selectName("a b")}.dim_sizes`)).toEqual([[3], null]);
    // A narrow table is planned by projection.
    expect(await readsWholeRows(table.lance, table.tableSchema, columns)).toBe(false);
  });
});
