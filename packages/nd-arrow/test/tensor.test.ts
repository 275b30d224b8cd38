import {
  Field,
  FixedSizeList,
  Float32,
  Int32,
  List,
  RecordBatch,
  Schema,
  Struct,
  Table,
  makeData,
  tableFromIPC,
  tableToIPC,
} from "apache-arrow";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isNdArrowError } from "../src/errors.js";
import { NdArray } from "../src/ndarray.js";
import {
  FIXED_SHAPE_TENSOR,
  VARIABLE_SHAPE_TENSOR,
  fromFixedShapeTensor,
  fromVariableShapeTensor,
  toFixedShapeTensor,
  toVariableShapeTensor,
} from "../src/tensor.js";
import { arrayArb, gridArb, kindArb, plainArray } from "./grid-arbitraries.js";
import { codeOf } from "./thrown.js";

function meta(name: string, json: unknown): Map<string, string> {
  return new Map([
    ["ARROW:extension:name", name],
    ["ARROW:extension:metadata", JSON.stringify(json)],
  ]);
}

/** A fixed shape tensor column of Float32 as another Arrow writer would make it. */
function fixedColumn(values: number[], listSize: number, json: unknown, validity?: boolean[]) {
  const type = new FixedSizeList(listSize, new Field("item", new Float32(), true));
  const field = new Field("t", type, true, meta(FIXED_SHAPE_TENSOR, json));
  const length = values.length / listSize;
  const nullBitmap = validity && Uint8Array.of(validity.reduce((b, v, i) => b | (v ? 1 << i : 0), 0));
  const child = makeData({ type: new Float32(), length: values.length, data: Float32Array.from(values) });
  const data = makeData({
    type,
    length,
    nullCount: validity ? validity.filter((v) => !v).length : 0,
    nullBitmap,
    child,
  });
  return { field, data };
}

/** A variable shape tensor column of Int32 rows with the given physical shapes. */
function variableColumn(rows: { shape: number[]; values: number[] }[], json: unknown) {
  const ndim = rows[0]!.shape.length;
  const dataType = new List(new Field("item", new Int32(), true));
  const shapeType = new FixedSizeList(ndim, new Field("item", new Int32(), false));
  const storage = new Struct([new Field("data", dataType), new Field("shape", shapeType)]);
  const offsets = new Int32Array(rows.length + 1);
  for (const [i, r] of rows.entries()) offsets[i + 1] = offsets[i]! + r.values.length;
  const items = Int32Array.from(rows.flatMap((r) => r.values));
  const sizes = Int32Array.from(rows.flatMap((r) => r.shape));
  const data = makeData({
    type: storage,
    length: rows.length,
    children: [
      makeData({
        type: dataType,
        length: rows.length,
        valueOffsets: offsets,
        child: makeData({ type: new Int32(), data: items }),
      }),
      makeData({ type: shapeType, length: rows.length, child: makeData({ type: new Int32(), data: sizes }) }),
    ],
  });
  return { field: new Field("v", storage, true, meta(VARIABLE_SHAPE_TENSOR, json)), data };
}

describe("fixed shape tensor", () => {
  it("rows become nd arrays named by dim_names, values as views of the column", () => {
    const { field, data } = fixedColumn([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], 6, {
      shape: [2, 3],
      dim_names: ["H", "W"],
    });
    const [a, b] = fromFixedShapeTensor(data, field);
    expect(a!.dims).toEqual([
      { name: "H", size: 2 },
      { name: "W", size: 3 },
    ]);
    expect(Array.from(b!.values)).toEqual([7, 8, 9, 10, 11, 12]);
    expect(b!.values.data[0]!.values.buffer).toBe(data.children[0]!.values.buffer);
  });

  it("without dim_names the dims are dim_0, dim_1, ...", () => {
    const { field, data } = fixedColumn([1, 2, 3, 4], 4, { shape: [2, 2] });
    expect(fromFixedShapeTensor(data, field)[0]!.dimNames).toEqual(["dim_0", "dim_1"]);
  });

  it("a permutation gives the logical dim order, values transposed row-major", () => {
    // physical [H: 2, W: 3], permutation [1, 0]: logical [W: 3, H: 2]
    const { field, data } = fixedColumn([1, 2, 3, 4, 5, 6], 6, {
      shape: [2, 3],
      dim_names: ["H", "W"],
      permutation: [1, 0],
    });
    const [a] = fromFixedShapeTensor(data, field);
    expect(a!.dims).toEqual([
      { name: "W", size: 3 },
      { name: "H", size: 2 },
    ]);
    expect(Array.from(a!.values)).toEqual([1, 4, 2, 5, 3, 6]);
  });

  it("a null row is a rank-0 null scalar, and goes back to a null row", () => {
    const { field, data } = fixedColumn([1, 2, 3, 4], 2, { shape: [2] }, [true, false]);
    const arrays = fromFixedShapeTensor(data, field);
    expect(arrays[1]!.rank).toBe(0);
    expect(arrays[1]!.values.get(0)).toBeNull();
    const back = toFixedShapeTensor(arrays);
    expect(back.vector.nullCount).toBe(1);
    expect(fromFixedShapeTensor(back.vector, back.field).map(plainArray)).toEqual(arrays.map(plainArray));
  });

  it("toFixedShapeTensor writes FixedSizeList<T>[prod(shape)] with shape and dim_names metadata", () => {
    const a = NdArray.from(new Float32Array(6), { dims: { y: 2, x: 3 } });
    const { field, vector } = toFixedShapeTensor([a, a], "grid");
    expect(field.name).toBe("grid");
    expect(String(field.type)).toBe("FixedSizeList[6]<Float32>");
    expect(field.metadata.get("ARROW:extension:name")).toBe(FIXED_SHAPE_TENSOR);
    expect(JSON.parse(field.metadata.get("ARROW:extension:metadata")!)).toEqual({
      shape: [2, 3],
      dim_names: ["y", "x"],
    });
    expect(vector.length).toBe(2);
  });

  it("survives an Arrow IPC round trip (extension metadata on the field)", () => {
    const a = NdArray.from([1, null, 3, 4], { dims: { y: 2, x: 2 }, type: new Float32() });
    const { field, vector } = toFixedShapeTensor([a]);
    const table = new Table([
      new RecordBatch(
        new Schema([field]),
        makeData({ type: new Struct([field]), length: 1, children: [vector.data[0]!] }),
      ),
    ]);
    const back = tableFromIPC(tableToIPC(table));
    const [row] = fromFixedShapeTensor(back.getChild("tensor")!, back.schema.fields[0]!);
    expect(plainArray(row!)).toEqual(plainArray(a));
  });

  it("property: toFixedShapeTensor then fromFixedShapeTensor gives the arrays back (types, nulls)", () => {
    const arb = gridArb(3).chain((grid) =>
      kindArb.chain((kind) => fc.array(arrayArb(grid, kind), { minLength: 1, maxLength: 4 })),
    );
    const prop = fc.property(arb, (arrays) => {
      const rows = arrays.map((a) => a.withAttrs({}));
      const { field, vector } = toFixedShapeTensor(rows);
      expect(fromFixedShapeTensor(vector, field).map(plainArray)).toEqual(rows.map(plainArray));
    });
    fc.assert(prop, { seed: 42, numRuns: 60 });
  });

  it("another extension name, bad metadata or a list size that is not prod(shape) is InvalidLayout", () => {
    const { field, data } = fixedColumn([1, 2, 3, 4], 4, { shape: [2, 2] });
    const renamed = new Field("t", field.type, true, meta("other", { shape: [2, 2] }));
    expect(codeOf(() => fromFixedShapeTensor(data, renamed))).toBe("InvalidLayout");
    const wrong = fixedColumn([1, 2, 3, 4], 4, { shape: [3, 2] });
    expect(codeOf(() => fromFixedShapeTensor(wrong.data, wrong.field))).toBe("InvalidLayout");
    const names = fixedColumn([1, 2, 3, 4], 4, { shape: [2, 2], dim_names: ["a"] });
    expect(codeOf(() => fromFixedShapeTensor(names.data, names.field))).toBe("InvalidLayout");
    const perm = fixedColumn([1, 2, 3, 4], 4, { shape: [2, 2], permutation: [0, 0] });
    expect(codeOf(() => fromFixedShapeTensor(perm.data, perm.field))).toBe("InvalidLayout");
  });

  it("arrays with other dims are InvalidDims; none or mixed types are InvalidArgument", () => {
    const a = NdArray.from(new Float32Array(2), { dims: { x: 2 } });
    const b = NdArray.from(new Float32Array(3), { dims: { x: 3 } });
    const c = NdArray.from(new Int32Array(2), { dims: { x: 2 } });
    expect(codeOf(() => toFixedShapeTensor([a, b]))).toBe("InvalidDims");
    expect(codeOf(() => toFixedShapeTensor([]))).toBe("InvalidArgument");
    expect(codeOf(() => toFixedShapeTensor([a, c]))).toBe("InvalidArgument");
  });
});

describe("variable shape tensor", () => {
  it("rows keep their own shapes; dims named by dim_names", () => {
    const { field, data } = variableColumn(
      [
        { shape: [1, 2], values: [1, 2] },
        { shape: [2, 1], values: [3, 4] },
      ],
      { dim_names: ["h", "w"] },
    );
    const arrays = fromVariableShapeTensor(data, field);
    expect(arrays.map((a) => a.shape)).toEqual([
      [1, 2],
      [2, 1],
    ]);
    expect(arrays[1]!.dimNames).toEqual(["h", "w"]);
    expect(Array.from(arrays[1]!.values)).toEqual([3, 4]);
  });

  it("permutation [2, 0, 1] of physical [x, y, z] gives logical dims [z, x, y]", () => {
    const values = Array.from({ length: 24 }, (_, i) => i);
    const { field, data } = variableColumn([{ shape: [2, 3, 4], values }], {
      dim_names: ["x", "y", "z"],
      permutation: [2, 0, 1],
    });
    const [a] = fromVariableShapeTensor(data, field);
    expect(a!.dims).toEqual([
      { name: "z", size: 4 },
      { name: "x", size: 2 },
      { name: "y", size: 3 },
    ]);
    const out = Array.from(a!.values);
    // logical (k, i, j) holds physical (i, j, k) = i * 12 + j * 4 + k
    expect(out[1 * 6 + 1 * 3 + 2]).toBe(1 * 12 + 2 * 4 + 1);
  });

  it("toVariableShapeTensor writes dim_names and uniform_shape (null where sizes vary)", () => {
    const a = NdArray.from(new Int32Array(6), { dims: { h: 2, w: 3 } });
    const b = NdArray.from(new Int32Array(4), { dims: { h: 2, w: 2 } });
    const { field } = toVariableShapeTensor([a, b]);
    expect(JSON.parse(field.metadata.get("ARROW:extension:metadata")!)).toEqual({
      dim_names: ["h", "w"],
      uniform_shape: [2, null],
    });
    expect(String(field.type)).toBe("Struct<{data:List<Int32>, shape:FixedSizeList[2]<Int32>}>");
  });

  it("property: toVariableShapeTensor then fromVariableShapeTensor gives the arrays back (shapes differ, nulls)", () => {
    const names = ["a", "b"];
    const arb = fc.constantFrom(new Int32(), new Float32()).chain((type) =>
      fc
        .array(
          fc.option(
            fc.tuple(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 1, max: 3 })).chain(([h, w]) =>
              fc
                .array(fc.option(fc.integer({ min: -100, max: 100 })), { minLength: h * w, maxLength: h * w })
                .map((values) =>
                  NdArray.from(values, {
                    dims: [
                      [names[0]!, h],
                      [names[1]!, w],
                    ],
                    type,
                  }),
                ),
            ),
            { freq: 5 },
          ),
          { minLength: 1, maxLength: 5 },
        )
        .map((rows) => rows.map((r) => r ?? NdArray.scalar(null, { type }))),
    );
    const prop = fc.property(arb, (rows) => {
      fc.pre(rows.some((r) => r.rank > 0));
      const { field, vector } = toVariableShapeTensor(rows);
      expect(fromVariableShapeTensor(vector, field).map(plainArray)).toEqual(rows.map(plainArray));
    });
    fc.assert(prop, { seed: 42, numRuns: 80 });
  });

  it("a row whose data does not fill its shape is InvalidLayout naming the row", () => {
    const { field, data } = variableColumn(
      [
        { shape: [1], values: [1] },
        { shape: [3], values: [1, 2] },
      ],
      {},
    );
    let err: unknown;
    try {
      fromVariableShapeTensor(data, field);
    } catch (e) {
      err = e;
    }
    expect(isNdArrowError(err, "InvalidLayout")).toBe(true);
    expect((err as { row: number }).row).toBe(1);
  });

  it("arrays with other dim names are InvalidDims", () => {
    const a = NdArray.from(new Int32Array(2), { dims: { x: 2 } });
    const b = NdArray.from(new Int32Array(2), { dims: { y: 2 } });
    expect(codeOf(() => toVariableShapeTensor([a, b]))).toBe("InvalidDims");
  });
});
