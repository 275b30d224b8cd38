import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { connect } from "@lancedb/lancedb";
import * as arrow from "apache-arrow";
import type { Field } from "apache-arrow";
import { afterAll, describe, expect, it } from "vitest";
import {
  fromSdkBatch,
  sdkArrow,
  toSdkField,
  toSdkSchema,
  toSdkTable,
  toSdkType,
} from "../../src/lance/arrow-bridge.js";
import { ndField, ndType, sampleBatch } from "./nd-rows.js";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lance-nd-bridge-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("arrow bridge", () => {
  it("lancedb's apache-arrow is another instance than this package's", () => {
    expect(sdkArrow().Field).not.toBe(arrow.Field);
    expect(sdkArrow().Field).toBe(sdkArrow().Field);
  });

  it("a nested nd_arrow.array field converts with its children, nullability and metadata at every level", () => {
    const field = ndField("sst", ndType(new arrow.Float32(), ["units"], { "lance-encoding:compression": "zstd" }), {
      mine: "x",
    });
    const converted = toSdkField(field);
    expect(converted).toBeInstanceOf(sdkArrow().Field);
    expect(converted.type).toBeInstanceOf(sdkArrow().Struct);
    expect(String(converted.type)).toBe(String(field.type));
    expect([...converted.metadata]).toEqual([...field.metadata]);
    const values = converted.type.children[0] as Field;
    expect(values.nullable).toBe(false);
    expect(values.type).toBeInstanceOf(sdkArrow().List);
    expect([...(values.type.children[0] as Field).metadata]).toEqual([["lance-encoding:compression", "zstd"]]);
  });

  it.each([
    new arrow.Int8(),
    new arrow.Uint64(),
    new arrow.Float16(),
    new arrow.Float64(),
    new arrow.Bool(),
    new arrow.Utf8(),
    new arrow.LargeUtf8(),
    new arrow.Binary(),
    new arrow.TimestampNanosecond("UTC"),
    new arrow.DateDay(),
    new arrow.TimeMicrosecond(),
    new arrow.Duration(arrow.TimeUnit.SECOND),
    new arrow.FixedSizeList(3, new arrow.Field("item", new arrow.Float32(), true)),
    new arrow.Dictionary(new arrow.Utf8(), new arrow.Int32()),
  ])("type %s converts to an equal type of lancedb's instance", (type) => {
    const converted = toSdkType(type);
    expect(String(converted)).toBe(String(type));
    expect(converted.typeId).toBe(type.typeId);
    expect(converted).toBeInstanceOf(sdkArrow().DataType);
  });

  it("schema metadata survives the conversion", () => {
    const schema = toSdkSchema(sampleBatch(1).schema);
    expect(schema.metadata.get("lance_nd:format")).toBe("1");
    expect(schema).toBeInstanceOf(sdkArrow().Schema);
  });

  it("addColumns accepts a converted field (and rejects the ESM one)", async () => {
    const db = await connect(dir);
    const table = await db.createTable("bridge", toSdkTable(sampleBatch(2)));
    const esm = ndField("lat", ndType(new arrow.Float64(), []));
    await expect(table.addColumns(esm as never)).rejects.toThrow(/Invalid input type/);
    await table.addColumns(toSdkField(esm));
    const schema = await table.schema();
    expect(schema.fields.map((f) => f.name)).toEqual(["sst", "__global_attrs__", "lat"]);
    expect(schema.fields[2]?.metadata.get("ARROW:extension:name")).toBe("nd_arrow.array");
  });

  it("returned batches convert to this package's instance without copying values", async () => {
    const db = await connect(dir);
    const table = await db.createTable("roundtrip", toSdkTable(sampleBatch(3)));
    const sdkBatch = (await table.query().toArrow()).batches[0]!;
    expect(() => arrow.makeVector(sdkBatch.data)).toThrow();
    const batch = fromSdkBatch(sdkBatch);
    expect(batch).toBeInstanceOf(arrow.RecordBatch);
    const sst = batch.getChild("sst")!;
    const values = sst.data[0]!.children[0]!.children[0]!;
    expect(values.values).toBe(sdkBatch.data.children[0]!.children[0]!.children[0]!.values);
    expect(Array.from(arrow.makeVector(values).toArray() as Float32Array).slice(0, 7)).toEqual([0, 1, 2, 3, 4, 5, 10]);
    expect(batch.schema.fields[0]?.metadata.get("mine")).toBe("x");
    expect(arrow.tableToIPC(new arrow.Table([batch])).byteLength).toBeGreaterThan(0);
  });
});
