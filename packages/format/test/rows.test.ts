import { Field, Float32, RecordBatch, Schema, Struct, Utf8, makeData } from "apache-arrow";
import { describe, expect, it } from "vitest";
import { NdArray, NdRecordBatch, arrayColumnField, encodeSchema } from "@lance-nd/nd-arrow";
import { decodeRows, describeSchema, encodeRows, tableSchema } from "../src/index.js";
import { oceanChunk } from "./datasets.js";
import { formatErrorOf } from "./fixtures.js";

const ocean = oceanChunk("a", 0);
const schema = tableSchema(encodeSchema([ocean]), { stats: true, columnDefaults: { compression: "zstd" } });

describe("encodeRows", () => {
  it("returns a RecordBatch with exactly the table schema's fields and metadata, one row per batch", () => {
    const rb = encodeRows([ocean, oceanChunk("b", 172800)], schema);
    expect(rb.numRows).toBe(2);
    expect(describeSchema(rb.schema)).toBe(describeSchema(schema));
    expect(rb.schema.metadata).toEqual(schema.metadata);
  });

  it("stats: false leaves each stats row null", () => {
    const rb = encodeRows([ocean], schema, { stats: false });
    const i = rb.schema.fields.findIndex((f) => f.name === "__stats__:sst");
    expect(rb.data.children[i]!.getValid(0)).toBe(false);
  });

  it("rows that were not cast to the table type are a SchemaMismatch naming the column", () => {
    const sst = NdArray.from(new Float64Array(24), { dims: { time: 2, lat: 3, lon: 4 } });
    const err = formatErrorOf(() => encodeRows([new NdRecordBatch({ sst })], schema), "SchemaMismatch");
    expect(err.column).toBe("sst");
  });

  it("an array the table does not have is a SchemaMismatch", () => {
    const chl = NdArray.from(new Float32Array(1), { dims: { x: 1 } });
    expect(formatErrorOf(() => encodeRows([new NdRecordBatch({ chl })], schema), "SchemaMismatch").column).toBe("chl");
  });

  it("no batches give an empty RecordBatch of the table schema", () => {
    expect(encodeRows([], schema).numRows).toBe(0);
  });

  it("a row with no arrays and no global attributes into a schema without columns is InvalidInput (Lance would keep no row)", () => {
    const empty = tableSchema(encodeSchema([]));
    expect(formatErrorOf(() => encodeRows([new NdRecordBatch({})], empty), "InvalidInput").message).toMatch(
      /row 0 has no arrays and no global attributes/,
    );
    expect(encodeRows([], empty).numRows).toBe(0);
    expect(encodeRows([new NdRecordBatch({})], schema).numRows).toBe(1);
  });
});

describe("decodeRows", () => {
  it("decodes a projection of the table columns", () => {
    const rb = encodeRows([ocean], schema);
    const picked = rb.schema.fields.flatMap((f, i) => (["sst", "__stats__:sst"].includes(f.name) ? [{ f, i }] : []));
    const projected = new RecordBatch(
      new Schema(picked.map((p) => p.f)),
      makeData({
        type: new Struct(picked.map((p) => p.f)),
        length: 1,
        nullCount: 0,
        children: picked.map((p) => rb.data.children[p.i]!),
      }),
    );
    const [row] = decodeRows(projected);
    expect(row!.names()).toEqual(["sst"]);
    expect(row!.get("sst")!.shape).toEqual([2, 3, 4]);
    expect(row!.get("sst")!.attr("units")).toBe("K");
  });

  it("rows that break the nd-arrow layout are InvalidTable", () => {
    const field = arrayColumnField("v", new Float32());
    const bad = new Field("v", new Struct([new Field("values", new Utf8(), false)]), true, field.metadata);
    const rb = new RecordBatch(
      new Schema([bad]),
      makeData({
        type: new Struct([bad]),
        length: 0,
        nullCount: 0,
        children: [
          makeData({
            type: bad.type as Struct,
            length: 0,
            nullCount: 0,
            children: [makeData({ type: new Utf8(), length: 0 })],
          }),
        ],
      }),
    );
    formatErrorOf(() => decodeRows(rb), "InvalidTable");
  });
});
