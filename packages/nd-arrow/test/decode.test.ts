import { describe, expect, it } from "vitest";
import {
  Field,
  Float64,
  Int32,
  RecordBatch,
  Schema,
  Struct,
  Uint32,
  Utf8,
  makeData,
  vectorFromArray,
  type Data,
  type List,
} from "apache-arrow";
import {
  GLOBAL_ATTRS_COLUMN,
  NdArray,
  NdRecordBatch,
  arrayColumnField,
  arrayColumnLayout,
  arrayColumnType,
  attr,
  decode,
  encode,
} from "../src/index.js";
import { errorOf } from "./thrown.js";

/** A raw Float64 array column; each row is [values, dim names, dim sizes]. */
function rawColumn(rows: [number[], string[], number[]][]): Data<Struct> {
  const type = arrayColumnType(new Float64());
  const list = (i: number) => type.children[i]!.type as List;
  const offsets = (lengths: number[]) =>
    Int32Array.from([0, ...lengths.map((_, i) => lengths.slice(0, i + 1).reduce((a, b) => a + b, 0))]);
  const values = rows.flatMap((r) => r[0]);
  const names = rows.flatMap((r) => r[1]);
  const sizes = rows.flatMap((r) => r[2]);
  return makeData({
    type,
    length: rows.length,
    nullCount: 0,
    children: [
      makeData({
        type: list(0),
        length: rows.length,
        nullCount: 0,
        valueOffsets: offsets(rows.map((r) => r[0].length)),
        child: vectorFromArray(values, new Float64()).data[0]!,
      }),
      makeData({
        type: list(1),
        length: rows.length,
        nullCount: 0,
        valueOffsets: offsets(rows.map((r) => r[1].length)),
        child: vectorFromArray(names, new Utf8()).data[0]!,
      }),
      makeData({
        type: list(2),
        length: rows.length,
        nullCount: 0,
        valueOffsets: offsets(rows.map((r) => r[2].length)),
        child: makeData({ type: new Uint32(), data: Uint32Array.from(sizes) }),
      }),
    ],
  });
}

function batchOf(columns: Record<string, Data>, withExtension = true): RecordBatch {
  const fields = Object.entries(columns).map(([name, data]) =>
    withExtension && name !== "plain" ? arrayColumnField(name, new Float64()) : new Field(name, data.type, true),
  );
  const children = Object.values(columns);
  return new RecordBatch(
    new Schema(fields),
    makeData({ type: new Struct(fields), length: children[0]!.length, nullCount: 0, children }),
  );
}

const ok: [number[], string[], number[]] = [[1, 2], ["x"], [2]];

describe("decode: validation (FORMAT.md section 4), each error names column and row", () => {
  it("values length not the product of sizes: InvalidShape", () => {
    expect(errorOf(() => decode(batchOf({ a: rawColumn([ok, [[1, 2, 3], ["x"], [2]]]) })))).toMatchObject({
      code: "InvalidShape",
      column: "a",
      row: 1,
    });
  });
  it("dim_names and dim_sizes of different lengths: InvalidDims", () => {
    expect(errorOf(() => decode(batchOf({ a: rawColumn([[[1], ["x", "y"], [1]]]) })))).toMatchObject({
      code: "InvalidDims",
      column: "a",
      row: 0,
    });
  });
  it("duplicate or empty dim names: InvalidDims", () => {
    expect(errorOf(() => decode(batchOf({ a: rawColumn([ok, ok, [[1], ["x", "x"], [1, 1]]]) })))).toMatchObject({
      code: "InvalidDims",
      row: 2,
    });
    expect(errorOf(() => decode(batchOf({ a: rawColumn([[[1], [""], [1]]]) })))).toMatchObject({
      code: "InvalidDims",
      column: "a",
      row: 0,
    });
  });
  it("arrays of one row disagreeing on a dim size: GridMismatch", () => {
    const e = errorOf(() => decode(batchOf({ a: rawColumn([ok, ok]), b: rawColumn([ok, [[1, 2, 3], ["x"], [3]]]) })));
    expect(e).toMatchObject({ code: "GridMismatch", column: "b", row: 1 });
  });
  it("an array column named __x: ReservedName", () => {
    expect(errorOf(() => decode(batchOf({ __x: rawColumn([ok]) })))).toMatchObject({
      code: "ReservedName",
      column: "__x",
    });
  });
  it("a column that is not an nd-arrow column: InvalidLayout naming it", () => {
    const plain = vectorFromArray([1], new Int32()).data[0]!;
    expect(errorOf(() => decode(batchOf({ a: rawColumn([ok]), plain })))).toMatchObject({
      code: "InvalidLayout",
      column: "plain",
    });
  });
  it("an nd_arrow.array column whose children break the layout: InvalidLayout", () => {
    const type = new Struct([new Field("values", new Float64(), false)]);
    const field = new Field("a", type, true, new Map([["ARROW:extension:name", "nd_arrow.array"]]));
    const child = vectorFromArray([1], new Float64()).data[0]!;
    const rb = new RecordBatch(
      new Schema([field]),
      makeData({
        type: new Struct([field]),
        length: 1,
        nullCount: 0,
        children: [makeData({ type, length: 1, nullCount: 0, children: [child] })],
      }),
    );
    expect(errorOf(() => decode(rb))).toMatchObject({ code: "InvalidLayout", column: "a" });
  });
  it("an unsupported value type: UnsupportedType", () => {
    const inner = new Struct([new Field("v", new Int32(), true)]);
    const field = arrayColumnField("a", new Float64());
    const bad = new Field("a", arrayColumnType(inner), true, field.metadata);
    const rb = new RecordBatch(
      new Schema([bad]),
      makeData({
        type: new Struct([bad]),
        length: 0,
        nullCount: 0,
        children: [makeData({ type: bad.type as Struct, length: 0, nullCount: 0 })],
      }),
    );
    expect(errorOf(() => decode(rb))).toMatchObject({ code: "UnsupportedType", column: "a" });
  });
});

describe("decode: columns", () => {
  it("a struct with the nd_arrow.array layout but no extension metadata is an array column", () => {
    const [b] = decode(batchOf({ a: rawColumn([ok]) }, false));
    expect(b!.get("a")!.shape).toEqual([2]);
  });

  it("a null row decodes as a rank-0 null scalar of T by default, and is left out with nulls: absent", () => {
    const rb = encode([
      new NdRecordBatch({ a: NdArray.from(new Int32Array([1]), { dims: { x: 1 }, attrs: { u: "m" } }) }),
      new NdRecordBatch({}),
    ]);
    const [, scalar] = decode(rb);
    const s = scalar!.get("a")!;
    expect(s.rank).toBe(0);
    expect(s.type.toString()).toBe("Int32");
    expect(s.values.nullCount).toBe(1);
    expect(s.attrs.size).toBe(0);
    expect(decode(rb, { nulls: "absent" })[1]!.has("a")).toBe(false);
  });

  it("a null __global_attrs__ row means no global attributes", () => {
    const attrs = new Struct([new Field("id", new Utf8(), true)]);
    const g = makeData({
      type: attrs,
      length: 2,
      nullCount: 1,
      nullBitmap: Uint8Array.of(0b01),
      children: [vectorFromArray(["a", "b"], new Utf8()).data[0]!],
    });
    const fields = [new Field(GLOBAL_ATTRS_COLUMN, attrs, true)];
    const rb = new RecordBatch(
      new Schema(fields),
      makeData({ type: new Struct(fields), length: 2, nullCount: 0, children: [g] }),
    );
    const [r0, r1] = decode(rb);
    expect(r0!.globalAttr("id")).toBe("a");
    expect(r1!.globalAttrs.size).toBe(0);
  });

  it("a nullable attrs (added after a table's creation) encodes with its schema, and a null attrs row means no attributes", () => {
    const keys = [new Field("u", new Utf8(), true)];
    const field = new Field(
      "a",
      arrayColumnType(new Int32(), keys, true),
      true,
      arrayColumnField("a", new Int32(), keys).metadata,
    );
    expect(arrayColumnLayout(field).attrsNullable).toBe(true);
    expect(arrayColumnLayout(arrayColumnField("a", new Int32(), keys)).attrsNullable).toBe(false);
    const rows = [0, 1].map(
      (i) => new NdRecordBatch({ a: NdArray.from(new Int32Array([i]), { dims: { x: 1 }, attrs: { u: "m" } }) }),
    );
    const rb = encode(rows, { schema: new Schema([field]) });
    expect((rb.schema.fields[0]!.type as Struct).children[3]!.nullable).toBe(true);
    // Row 1 as Lance reads a fragment written before the column had attrs: a null attrs struct.
    const col = rb.data.children[0]!;
    const attrs = col.children[3]!;
    const nullAttrs = makeData({
      type: attrs.type as Struct,
      length: 2,
      nullCount: 1,
      nullBitmap: Uint8Array.of(0b01),
      children: attrs.children,
    });
    const column = makeData({
      type: col.type as Struct,
      length: 2,
      nullCount: 0,
      children: [...col.children.slice(0, 3), nullAttrs],
    });
    const [r0, r1] = decode(
      new RecordBatch(
        rb.schema,
        makeData({ type: new Struct(rb.schema.fields), length: 2, nullCount: 0, children: [column] }),
      ),
    );
    expect(r0!.get("a")!.attr("u")).toBe("m");
    expect(r1!.get("a")!.attrs.size).toBe(0);
    expect(Array.from(r1!.get("a")!.toArray())).toEqual([1]);
  });

  it("an invalid nulls option is InvalidArgument", () => {
    expect(errorOf(() => decode(encode([]), { nulls: "zero" as never })).code).toBe("InvalidArgument");
  });
});

describe("decode: zero copy", () => {
  it("fixed-width values of a row are a view of the column's child buffer", () => {
    const rows = [0, 1, 2].map(
      (i) => new NdRecordBatch({ a: NdArray.from(new Float32Array([i, i + 1, i + 2]), { dims: { x: 3 } }) }),
    );
    const rb = encode(rows);
    const child = rb.data.children[0]!.children[0]!.children[0]!;
    const decoded = decode(rb);
    decoded.forEach((b, i) => {
      const values = b.get("a")!.values;
      expect(values.data[0]!.values.buffer).toBe(child.values.buffer);
      expect(values.data[0]!.values.byteOffset).toBe(child.values.byteOffset + 3 * i * 4);
      expect(Array.from(values.toArray())).toEqual([i, i + 1, i + 2]);
    });
  });

  it("strings share the column's byte buffer", () => {
    const rows = [
      ["ab", "c"],
      ["déf", "g"],
    ].map((s) => new NdRecordBatch({ s: NdArray.from(s, { dims: { x: 2 } }) }));
    const rb = encode(rows);
    const child = rb.data.children[0]!.children[0]!.children[0]!;
    const [, second] = decode(rb);
    expect(second!.get("s")!.values.data[0]!.values.buffer).toBe(child.values.buffer);
    expect(second!.get("s")!.toArray()).toEqual(["déf", "g"]);
  });

  it("rows repeating an attribute or a dim name share it; any other bytes decode to their own value", () => {
    const values: [string, number, number, bigint][] = [
      ["K", 0, 1, 5n],
      ["K", 0, 1, 5n],
      ["C", -0, Number.NaN, 5n],
      ["C", -0, Number.NaN, 6n],
      ["CC", 0, 1, 6n],
    ];
    const rows = values.map(
      ([units, zero, f, big], i) =>
        new NdRecordBatch(
          {
            a: NdArray.from(new Float32Array([i]), {
              dims: { [i < 4 ? "x" : "y"]: 1 },
              attrs: { units, zero: attr.float64(zero), f: attr.float32(f), big: attr.int64(big) },
            }),
          },
          { units, big: attr.int64(big) },
        ),
    );
    const back = decode(encode(rows));
    back.forEach((b, i) => {
      const [units, zero, f, big] = values[i]!;
      const a = b.get("a")!;
      expect(a.attr("units")).toBe(units);
      expect(Object.is(a.attr("zero"), zero)).toBe(true);
      expect(Object.is(a.attr("f"), f)).toBe(true);
      expect(a.attr("big")).toBe(big);
      expect(b.globalAttr("units")).toBe(units);
      expect(b.globalAttr("big")).toBe(big);
      expect(a.dims).toEqual([{ name: i < 4 ? "x" : "y", size: 1 }]);
    });
    expect(back[1]!.get("a")!.attrs.get("units")).toBe(back[0]!.get("a")!.attrs.get("units"));
    expect(back[1]!.globalAttrs.get("big")).toBe(back[0]!.globalAttrs.get("big"));
    expect(back[2]!.get("a")!.attrs.get("zero")).not.toBe(back[1]!.get("a")!.attrs.get("zero"));
  });

  it("rows with the same dims as the row before share its frozen dims; any change of name, size or rank gets its own", () => {
    const shapes: [string, number][][] = [
      [
        ["t", 2],
        ["x", 3],
      ],
      [
        ["t", 2],
        ["x", 3],
      ],
      [
        ["t", 2],
        ["x", 4],
      ],
      [
        ["t", 2],
        ["y", 4],
      ],
      [["t", 8]],
      [["t", 8]],
      [
        ["t", 2],
        ["x", 3],
      ],
      [],
      [],
    ];
    const rows = shapes.map(
      (dims, i) =>
        new NdRecordBatch({
          a: NdArray.from(new Float64Array(dims.reduce((n, [, size]) => n * size, 1)).fill(i), { dims }),
        }),
    );
    const back = decode(encode(rows)).map((b) => b.get("a")!);
    back.forEach((a, i) => {
      expect(a.dims, `row ${i}`).toEqual(shapes[i]!.map(([name, size]) => ({ name, size })));
      expect(Object.isFrozen(a.dims) && a.dims.every((d) => Object.isFrozen(d)), `row ${i}`).toBe(true);
      expect(
        a.toArray().every((v) => v === i),
        `row ${i}`,
      ).toBe(true);
    });
    const shared = back.map((a, i) => i > 0 && a.dims === back[i - 1]!.dims);
    expect(shared).toEqual([false, true, false, false, false, true, false, false, true]);
    // Dims a caller passes are copied, whatever the caller does with its array afterwards.
    const mine = [{ name: "x", size: 2 }];
    const array = new NdArray(back[1]!.values.slice(0, 2), mine);
    mine[0]!.size = 5;
    expect(array.dims).toEqual([{ name: "x", size: 2 }]);
  });

  it("a sliced record batch decodes its own rows", () => {
    const rows = [1, 2, 3].map(
      (n) => new NdRecordBatch({ a: NdArray.from(new Float64Array(n), { dims: { x: n }, attrs: { n } }) }, { n }),
    );
    const sliced = encode(rows).slice(1, 3);
    const back = decode(sliced);
    expect(back.map((b) => b.get("a")!.shape[0])).toEqual([2, 3]);
    expect(back.map((b) => b.get("a")!.attr("n"))).toEqual([2, 3]);
    expect(back.map((b) => b.globalAttr("n"))).toEqual([2, 3]);
  });
});
