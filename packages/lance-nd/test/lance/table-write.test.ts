import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as arrow from "apache-arrow";
import type { Field } from "apache-arrow";
import { afterAll, describe, expect, it } from "vitest";
import { sdkArrow } from "../../src/lance/arrow-bridge.js";
import { createTable, openTable, type LanceTable } from "../../src/lance/table-open.js";
import { countRows, readTableSchema, scanRows } from "../../src/lance/table-read.js";
import { compactTable, currentVersion } from "../../src/lance/table-versions.js";
import {
  addNullFields,
  addSchemaMetadata,
  appendRows,
  castColumn,
  castColumns,
  setFieldMetadata,
} from "../../src/lance/table-write.js";
import {
  batchOf,
  collect,
  globalAttrsData,
  globalAttrsType,
  ndData,
  ndField,
  ndType,
  sampleBatch,
  utf8Data,
} from "./nd-rows.js";
import { failure } from "../helpers/write-rows.js";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lance-nd-write-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
let tables = 0;

async function freshTable(rows = sampleBatch(3)): Promise<LanceTable> {
  return createTable(path.join(dir, `t${tables++}.lance`), rows.schema, rows);
}

async function readAll(table: LanceTable, columns?: string[]): Promise<arrow.Table> {
  return new arrow.Table(await collect(scanRows(table, columns === undefined ? {} : { columns })));
}

/** The evolved row layout: sst with attrs {units, long_name}, globals {id, title}, a new lat column. */
function evolvedBatch(): arrow.RecordBatch {
  const sstType = ndType(new arrow.Float32(), ["units", "long_name"]);
  const latType = ndType(new arrow.Float64(), []);
  const gaType = globalAttrsType(["id", "title"]);
  return batchOf(
    [ndField("sst", sstType), new arrow.Field("__global_attrs__", gaType, true), ndField("lat", latType)],
    [
      ndData(sstType, [
        { values: new Float32Array([1, 2]), dims: [["lat", 2]], attrs: { units: "K", long_name: "sea surface" } },
      ]),
      globalAttrsData(gaType, [{ id: "new", title: "T" }]),
      ndData(latType, [{ values: new Float64Array([-1, 1]), dims: [["lat", 2]] }]),
    ],
  );
}

describe("addNullFields (SDK-NOTES.md, section 3)", () => {
  it("adds a column and new keys inside __global_attrs__ and sst.attrs in one commit; old rows read null", async () => {
    const table = await freshTable();
    const before = await currentVersion(table);
    const wanted = evolvedBatch().schema.fields;
    expect(await addNullFields(table, wanted)).toBe(before + 1);
    const schema = await readTableSchema(table);
    expect(schema.fields.map((f) => String(f.type))).toEqual(wanted.map((f) => String(f.type)));
    expect(schema.fields[0]!.metadata.get("mine")).toBe("x");
    expect(schema.fields[2]!.metadata.get("ARROW:extension:name")).toBe("nd_arrow.array");
    const rows = await readAll(table);
    expect(rows.getChild("__global_attrs__")!.getChild("title")!.toArray()).toEqual([null, null, null]);
    expect(rows.getChild("sst")!.getChild("attrs")!.getChild("long_name")!.toArray()).toEqual([null, null, null]);
    expect(rows.getChild("lat")!.nullCount).toBe(3);
  });

  it("adding what exists commits nothing", async () => {
    const table = await freshTable();
    const before = await currentVersion(table);
    expect(await addNullFields(table, sampleBatch(1).schema.fields)).toBe(before);
  });

  it("a field that exists with another type is SchemaMismatch naming the path", async () => {
    const table = await freshTable();
    const gaType = new arrow.Struct([new arrow.Field("id", new arrow.Int32(), true)]);
    expect(await failure(addNullFields(table, [new arrow.Field("__global_attrs__", gaType, true)]))).toMatchObject({
      code: "SchemaMismatch",
      column: "__global_attrs__.id",
    });
  });

  it("after evolution, appends with the full schema and compaction work", async () => {
    const table = await freshTable();
    await addNullFields(table, evolvedBatch().schema.fields);
    await appendRows(table, evolvedBatch());
    await appendRows(table, evolvedBatch());
    await compactTable(table);
    expect(await countRows(table)).toBe(5);
    const rows = await readAll(table, ["sst", "__global_attrs__"]);
    expect(rows.getChild("sst")!.getChild("attrs")!.getChild("long_name")!.toArray()).toEqual([
      null,
      null,
      null,
      "sea surface",
      "sea surface",
    ]);
  });
});

describe("appendRows (SDK-NOTES.md, section 4)", () => {
  it("each append is one version", async () => {
    const table = await freshTable();
    const v = await currentVersion(table);
    expect(await appendRows(table, [sampleBatch(2), sampleBatch(2)])).toBe(v + 1);
    expect(await countRows(table)).toBe(7);
  });

  it("columns may be missing (they read as null) and come in any order", async () => {
    const table = await freshTable();
    const full = sampleBatch(2, { first: 10 });
    const reordered = batchOf(
      [full.schema.fields[1]!, full.schema.fields[0]!],
      [full.data.children[1]!, full.data.children[0]!],
    );
    await appendRows(table, reordered);
    await appendRows(table, batchOf([full.schema.fields[1]!], [full.data.children[1]!]));
    expect(await countRows(table, "sst IS NULL")).toBe(2);
    expect(await countRows(table, "__global_attrs__.id = 'r10'")).toBe(2);
  });

  it("the SDK casts silently (Int32 into Utf8, Float64 into Int32); appendRows rejects another type as SchemaMismatch", async () => {
    const A = sdkArrow();
    const table = await createTable(
      path.join(dir, "casts.lance"),
      batchOf(
        [new arrow.Field("s", new arrow.Utf8()), new arrow.Field("i", new arrow.Int32())],
        [utf8Data(["a"]), arrow.makeData({ type: new arrow.Int32(), length: 1, data: new Int32Array([1]) })],
      ).schema,
    );
    await table.sdk.add(A.tableFromArrays({ s: new Int32Array([7]), i: new Float64Array([7.5]) }));
    expect((await table.sdk.query().toArray()).map((r: { s: string; i: number }) => [r.s, r.i])).toEqual([["7", 7]]);
    const wrong = batchOf(
      [new arrow.Field("s", new arrow.Int32())],
      [arrow.makeData({ type: new arrow.Int32(), length: 1, data: new Int32Array([1]) })],
    );
    expect(await failure(appendRows(table, wrong))).toMatchObject({ code: "SchemaMismatch", column: "s" });
    const extra = batchOf([new arrow.Field("zz", new arrow.Utf8())], [utf8Data(["a"])]);
    expect(await failure(appendRows(table, extra))).toMatchObject({ code: "SchemaMismatch", column: "zz" });
  });

  it("nulls under a null struct row are accepted; nulls in a non-nullable child of a valid row are SchemaMismatch", async () => {
    const table = await freshTable();
    const good = sampleBatch(2);
    const sst = good.data.children[0] as arrow.Data<arrow.Struct>;
    const dimNames = sst.children[1] as arrow.Data<arrow.List<arrow.Utf8>>;
    const nullDimNames = arrow.makeData({
      type: dimNames.type,
      length: 2,
      valueOffsets: dimNames.valueOffsets,
      child: dimNames.children[0] as arrow.Data<arrow.Utf8>,
      nullBitmap: new Uint8Array([0b01]),
      nullCount: 1,
    });
    const masked = arrow.makeData({
      type: sst.type,
      length: 2,
      children: [sst.children[0]!, nullDimNames, ...sst.children.slice(2)],
      nullBitmap: new Uint8Array([0b01]),
      nullCount: 1,
    });
    await appendRows(table, batchOf(good.schema.fields, [masked, good.data.children[1]!]));
    const unmasked = arrow.makeData({
      type: sst.type,
      length: 2,
      children: [sst.children[0]!, nullDimNames, ...sst.children.slice(2)],
    });
    expect(
      await failure(appendRows(table, batchOf(good.schema.fields, [unmasked, good.data.children[1]!]))),
    ).toMatchObject({
      code: "SchemaMismatch",
      column: "dim_names",
    });
  });
});

describe("castColumn, field and schema metadata (SDK-NOTES.md, section 6)", () => {
  it("casts a nested leaf (sst.values.item) and the stats min/max, keeping metadata; appends and compaction work after", async () => {
    const statsType = new arrow.Struct([
      new arrow.Field("min", new arrow.Float32(), true),
      new arrow.Field("max", new arrow.Float32(), true),
    ]);
    const base = sampleBatch(2, { leafMetadata: { "lance-encoding:compression": "zstd" } });
    const stats = arrow.makeData({
      type: statsType,
      length: 2,
      children: [0, 1].map(() =>
        arrow.makeData({ type: new arrow.Float32(), length: 2, data: new Float32Array([1, 2]) }),
      ),
    });
    const rows = batchOf(
      [...base.schema.fields, new arrow.Field("__stats__:sst", statsType, true)],
      [...base.data.children, stats],
    );
    const table = await freshTable(rows);
    await castColumn(table, "sst.values.item", new arrow.Float64());
    await castColumns(table, [
      { path: "__stats__:sst.min", type: new arrow.Float64() },
      { path: "__stats__:sst.max", type: new arrow.Float64() },
    ]);
    const schema = await readTableSchema(table);
    const sst = schema.fields[0]!;
    const item = (sst.type.children[0] as Field).type.children[0] as Field;
    expect(String(item.type)).toBe("Float64");
    expect(item.metadata.get("lance-encoding:compression")).toBe("zstd");
    expect(sst.metadata.get("ARROW:extension:name")).toBe("nd_arrow.array");
    expect(String(schema.fields[2]!.type)).toBe("Struct<{min:Float64, max:Float64}>");
    const values = (await readAll(table, ["sst"])).getChild("sst")!.getChild("values")!;
    expect(Array.from(values.get(1)!.toArray() as Float64Array)).toEqual([10, 11, 12, 13, 14, 15]);
    const f64Sst = ndType(new arrow.Float64(), ["units"], { "lance-encoding:compression": "zstd" });
    const newRows = batchOf(
      [ndField("sst", f64Sst)],
      [ndData(f64Sst, [{ values: new Float64Array([0.5]), dims: [["x", 1]], attrs: { units: "K" } }])],
    );
    await appendRows(table, newRows);
    await compactTable(table);
    expect(await countRows(table)).toBe(3);
  });

  it("Lance 12: a second nested cast inside one struct column fails, even after appends; top-level casts repeat", async () => {
    const table = await freshTable();
    await castColumn(table, "sst.values.item", new arrow.Float64());
    expect(await failure(castColumn(table, "sst.dim_sizes.item", new arrow.Uint64()))).toMatchObject({
      code: "InvalidInput",
    });
    const n = batchOf(
      [new arrow.Field("n", new arrow.Int16())],
      [arrow.makeData({ type: new arrow.Int16(), length: 1, data: new Int16Array([7]) })],
    );
    const flat = await freshTable(n);
    await castColumn(flat, "n", new arrow.Int32());
    await castColumn(flat, "n", new arrow.Int64());
    expect(String((await readTableSchema(flat)).fields[0]!.type)).toBe("Int64");
  });

  it("alterColumns drops a top-level column's metadata; castColumn puts it back", async () => {
    const field = new arrow.Field("n", new arrow.Int32(), true, new Map([["k", "v"]]));
    const rows = batchOf([field], [arrow.makeData({ type: new arrow.Int32(), length: 1, data: new Int32Array([1]) })]);
    const raw = await freshTable(rows);
    await raw.sdk.alterColumns([{ path: "n", dataType: new (sdkArrow().Int64)() }]);
    expect((await readTableSchema(raw)).fields[0]!.metadata.size).toBe(0);
    const table = await freshTable(rows);
    await castColumn(table, "n", new arrow.Int64());
    const n = (await readTableSchema(table)).fields[0]!;
    expect([String(n.type), n.metadata.get("k")]).toEqual(["Int64", "v"]);
  });

  it("a cast across kinds is SchemaMismatch; an unknown path is InvalidInput", async () => {
    const table = await freshTable();
    expect(await failure(castColumn(table, "sst.values.item", new arrow.Int32()))).toMatchObject({
      code: "SchemaMismatch",
      column: "sst.values.item",
    });
    expect(await failure(castColumn(table, "sst.nope", new arrow.Int32()))).toMatchObject({
      code: "InvalidInput",
      column: "sst.nope",
    });
  });

  it("setFieldMetadata merges, and null removes a key", async () => {
    const table = await freshTable();
    await setFieldMetadata(table, "sst", { mine: "y", other: "z" });
    await setFieldMetadata(table, "sst", { other: null });
    await setFieldMetadata(table, "sst.values.item", { "lance-encoding:compression": "lz4" });
    const sst = (await readTableSchema(table)).fields[0]!;
    expect(sst.metadata.get("mine")).toBe("y");
    expect(sst.metadata.has("other")).toBe(false);
    expect(((sst.type.children[0] as Field).type.children[0] as Field).metadata.get("lance-encoding:compression")).toBe(
      "lz4",
    );
  });

  it("addSchemaMetadata adds keys; the SDK silently keeps an existing key, so changing one is InvalidInput", async () => {
    const table = await freshTable();
    const v = await addSchemaMetadata(table, { "lance_nd:stats": "true", "lance_nd:format": "1" });
    expect(v).toBe(2);
    expect(Object.fromEntries((await readTableSchema(table)).metadata)).toEqual({
      "lance_nd:format": "1",
      "lance_nd:stats": "true",
    });
    await table.sdk.addColumns(new (sdkArrow().Schema)([], new Map([["lance_nd:format", "2"]])));
    expect((await readTableSchema(table)).metadata.get("lance_nd:format")).toBe("1");
    expect(await failure(addSchemaMetadata(table, { "lance_nd:format": "2" }))).toMatchObject({ code: "InvalidInput" });
  });
});

describe("concurrent writers (SDK-NOTES.md, section 8)", () => {
  it("two handles appending at once both commit, and each handle sees the other's commits", async () => {
    const table = await freshTable();
    const other = await openTable(table.uri);
    await Promise.all(
      [0, 1, 2, 3].map((i) => appendRows(i % 2 === 0 ? table : other, sampleBatch(1, { first: 100 + i }))),
    );
    expect(await countRows(table)).toBe(7);
    expect(await countRows(other)).toBe(7);
    expect(await currentVersion(table)).toBe(await currentVersion(other));
  });

  it("an append after another handle's cast checks the rows against the new schema", async () => {
    const table = await freshTable();
    const other = await openTable(table.uri);
    await countRows(other);
    await castColumn(table, "sst.values.item", new arrow.Float64());
    expect(await failure(appendRows(other, sampleBatch(1)))).toMatchObject({ code: "SchemaMismatch", column: "sst" });
    const f64 = ndType(new arrow.Float64(), ["units"]);
    await appendRows(
      other,
      batchOf(
        [ndField("sst", f64)],
        [ndData(f64, [{ values: new Float64Array([1]), dims: [["x", 1]], attrs: { units: "K" } }])],
      ),
    );
    expect(await countRows(table)).toBe(4);
  });

  it("a schema change after another handle's append commits on the latest version", async () => {
    const table = await freshTable();
    const other = await openTable(table.uri);
    await appendRows(other, sampleBatch(1));
    await addNullFields(table, evolvedBatch().schema.fields);
    await appendRows(other, evolvedBatch());
    await castColumn(table, "sst.values.item", new arrow.Float64());
    expect(await countRows(table)).toBe(5);
    const values = (await readAll(table, ["sst"])).getChild("sst")!.getChild("values")!;
    expect(Array.from(values.get(4)!.toArray() as Float64Array)).toEqual([1, 2]);
  });
});
