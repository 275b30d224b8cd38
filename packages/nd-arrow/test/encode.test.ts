import { describe, expect, it } from "vitest";
import {
  Field,
  Float32,
  Float64,
  Schema,
  Table,
  Type,
  Utf8,
  tableFromIPC,
  tableToIPC,
  type List,
  type Struct,
} from "apache-arrow";
import {
  EXTENSION_NAME_KEY,
  GLOBAL_ATTRS_COLUMN,
  NdArray,
  NdRecordBatch,
  arrayColumnField,
  attr,
  decode,
  encode,
  encodeSchema,
  globalAttrsField,
} from "../src/index.js";
import { errorOf } from "./thrown.js";

const f64 = (dims: Record<string, number>, attrs = {}) =>
  NdArray.from(new Float64Array(Object.values(dims).reduce((a, b) => a * b, 1)), { dims, attrs });

const describeField = (f: Field) => ({
  name: f.name,
  type: String(f.type),
  nullable: f.nullable,
  metadata: [...f.metadata],
});
const childNames = (f: Field) => (f.type as Struct).children.map((c) => c.name);
const attrNames = (f: Field) =>
  ((f.type as Struct).children.find((c) => c.name === "attrs")?.type as Struct | undefined)?.children.map(
    (c) => c.name,
  );

describe("encode: union schema", () => {
  const rows = [
    new NdRecordBatch({ a: f64({ x: 2 }, { u: "m" }) }),
    new NdRecordBatch({ b: f64({ y: 3, x: 5 }), a: f64({ x: 5 }, { v: 1, u: "km" }) }, { id: "r1" }),
  ];

  it("one row per batch, one nullable nd_arrow.array column per name in first-appearance order", () => {
    const rb = encode(rows);
    expect(rb.numRows).toBe(2);
    expect(rb.schema.fields.map((f) => f.name)).toEqual(["a", "b", GLOBAL_ATTRS_COLUMN]);
    const a = rb.schema.fields[0]!;
    expect(a.nullable).toBe(true);
    expect(a.metadata.get(EXTENSION_NAME_KEY)).toBe("nd_arrow.array");
    expect(childNames(a)).toEqual(["values", "dim_names", "dim_sizes", "attrs"]);
  });

  it("attrs fields are the union of the keys in first-appearance order; no attrs child without attributes", () => {
    const schema = encodeSchema(rows);
    expect(attrNames(schema.fields[0]!)).toEqual(["u", "v"]);
    expect(childNames(schema.fields[1]!)).toEqual(["values", "dim_names", "dim_sizes"]);
  });

  it("__global_attrs__ is not nullable and present only when some row has a global attribute", () => {
    const g = encodeSchema(rows).fields[2]!;
    expect(g.nullable).toBe(false);
    expect(g.metadata.get(EXTENSION_NAME_KEY)).toBe("nd_arrow.global_attributes");
    expect(encodeSchema([rows[0]!]).fields.map((f) => f.name)).toEqual(["a"]);
  });

  it("null rows: struct null, children valid and empty, attrs all null", () => {
    const rb = encode(rows);
    const b = rb.data.children[1]!;
    expect(b.getValid(0)).toBe(false);
    expect(b.getValid(1)).toBe(true);
    for (const child of b.children) {
      expect(child.nullCount).toBe(0);
      expect(child.valueOffsets[0]).toBe(0);
      expect(child.valueOffsets[1]).toBe(0);
    }
    const attrs = rb.data.children[0]!.children[3]!;
    expect(attrs.nullCount).toBe(0);
    expect(attrs.children[1]!.getValid(0)).toBe(false); // "v" absent in row 0
    expect(rb.data.children[2]!.nullCount).toBe(0);
    expect(rb.data.children[2]!.children[0]!.getValid(0)).toBe(false);
  });

  it("two value types for one name: SchemaMismatch naming column, row and both types", () => {
    const e = errorOf(() =>
      encode([new NdRecordBatch({ a: f64({ x: 1 }) }), new NdRecordBatch({ a: NdArray.from(new Int32Array(1)) })]),
    );
    expect(e).toMatchObject({ code: "SchemaMismatch", column: "a", row: 1 });
    expect(e.message).toContain("Int32");
    expect(e.message).toContain("Float64");
  });

  it("two types for one attribute key: AttributeConflict naming column and row", () => {
    const e = errorOf(() =>
      encode([
        new NdRecordBatch({ a: f64({ x: 1 }, { r: [1, 2] }) }),
        new NdRecordBatch({ a: f64({ x: 1 }, { r: 1 }) }),
      ]),
    );
    expect(e).toMatchObject({ code: "AttributeConflict", column: "a", row: 1 });
    const g = errorOf(() => encode([new NdRecordBatch({}, { id: "a" }), new NdRecordBatch({}, { id: 1 })]));
    expect(g).toMatchObject({ code: "AttributeConflict", column: GLOBAL_ATTRS_COLUMN, row: 1 });
  });

  it("the user's field metadata is kept", () => {
    const a = NdArray.from([1], { metadata: { "lance-encoding:compression": "zstd" } });
    const field = encodeSchema([new NdRecordBatch({ a })]).fields[0]!;
    expect(field.metadata.get("lance-encoding:compression")).toBe("zstd");
    expect(
      decode(encode([new NdRecordBatch({ a })]))[0]!
        .get("a")!
        .metadata.get("lance-encoding:compression"),
    ).toBe("zstd");
  });

  it("no batches: an empty record batch", () => {
    const rb = encode([]);
    expect(rb.numRows).toBe(0);
    expect(rb.schema.fields).toEqual([]);
  });

  it("survives Arrow IPC", () => {
    const table = tableFromIPC(tableToIPC(new Table(encode(rows))));
    const [rb] = table.batches;
    const back = decode(rb!, { nulls: "absent" });
    expect(back[1]!.get("a")!.attr("u")).toBe("km");
    expect(back[1]!.globalAttr("id")).toBe("r1");
    expect(back[0]!.names()).toEqual(["a"]);
  });
});

describe("encode: options.schema", () => {
  const schema = new Schema([
    arrayColumnField(
      "sst",
      new Float32(),
      [new Field("units", new Utf8(), true), new Field("scale", new Float64(), true)],
      new Map([["k", "v"]]),
    ),
    arrayColumnField("lat", new Float64()),
    globalAttrsField([new Field("id", new Utf8(), true), new Field("n", new Float64(), true)], true),
  ]);
  const sst = NdArray.from(new Float32Array(2), { dims: { lat: 2 }, attrs: { units: "K" } });

  it("output has exactly the schema; missing columns, attrs and global keys are null", () => {
    const rb = encode([new NdRecordBatch({ sst }, { id: "a" }), new NdRecordBatch({})], { schema });
    expect(rb.schema.fields.map(describeField)).toEqual(schema.fields.map(describeField));
    expect(rb.schema.fields.every((f, i) => f.type === schema.fields[i]!.type)).toBe(true);
    expect(rb.schema.fields.map((f) => f.nullable)).toEqual([true, true, true]);
    const [r0, r1] = decode(rb, { nulls: "absent" });
    expect(r0!.names()).toEqual(["sst"]);
    expect([...r0!.get("sst")!.attrs.keys()]).toEqual(["units"]);
    expect([...r0!.globalAttrs.keys()]).toEqual(["id"]);
    expect(r1!.names()).toEqual([]);
    expect(r1!.globalAttrs.size).toBe(0);
    expect(rb.data.children[2]!.getValid(1)).toBe(true); // a valid, all-null struct
  });

  it("another value type than the schema: SchemaMismatch with both types", () => {
    const lat = NdArray.from(new Float32Array(2), { dims: { lat: 2 } });
    const e = errorOf(() => encode([new NdRecordBatch({ lat }, {})], { schema }));
    expect(e).toMatchObject({ code: "SchemaMismatch", column: "lat", row: 0 });
    expect(e.message).toMatch(/Float32.*Float64/);
  });

  it("a name, attribute key or attribute type the schema lacks: SchemaMismatch", () => {
    expect(errorOf(() => encode([new NdRecordBatch({ lon: f64({ lon: 1 }) })], { schema }))).toMatchObject({
      code: "SchemaMismatch",
      column: "lon",
    });
    expect(
      errorOf(() => encode([new NdRecordBatch({}), new NdRecordBatch({ lat: f64({ lat: 2 }, { z: 1 }) })], { schema })),
    ).toMatchObject({
      code: "SchemaMismatch",
      column: "lat",
      row: 1,
    });
    const bad = sst.withAttrs({ units: attr.int32(1) });
    expect(errorOf(() => encode([new NdRecordBatch({ sst: bad })], { schema }))).toMatchObject({
      code: "SchemaMismatch",
      column: "sst",
    });
    expect(errorOf(() => encode([new NdRecordBatch({}, { other: 1 })], { schema }))).toMatchObject({
      code: "SchemaMismatch",
      column: GLOBAL_ATTRS_COLUMN,
    });
    expect(
      errorOf(() => encode([new NdRecordBatch({}, { id: 1 })], { schema: new Schema([schema.fields[0]!]) })),
    ).toMatchObject({
      code: "SchemaMismatch",
      column: GLOBAL_ATTRS_COLUMN,
    });
  });

  it("a field that is not an nd-arrow column: InvalidArgument", () => {
    const withStats = new Schema([...schema.fields, new Field("__stats__:sst", new Float32(), true)]);
    expect(errorOf(() => encode([], { schema: withStats }))).toMatchObject({
      code: "InvalidArgument",
      column: "__stats__:sst",
    });
  });

  it("list attribute types are compared by item type", () => {
    const s = new Schema([
      arrayColumnField("a", new Float64(), [new Field("r", attr.float32([1]).type as List, true)]),
    ]);
    const rb = encode([new NdRecordBatch({ a: f64({ x: 1 }, { r: attr.float32([1, 2]) }) })], { schema: s });
    expect(decode(rb)[0]!.get("a")!.attr("r")).toEqual([1, 2]);
    expect(rb.schema.fields[0]!.type.typeId).toBe(Type.Struct);
  });
});
