import { describe, expect, expectTypeOf, it } from "vitest";
import { Float16, Float32, Int32, TimestampNanosecond, Type, Uint8, Utf8, vectorFromArray } from "apache-arrow";
import { NdArray, NdArrowError } from "../src/index.js";
import { codeOf } from "./thrown.js";

describe("NdArray's value type", () => {
  it("is the type it was built with, as Arrow's Vector<T>: an NdArray<Float32>'s values are a Float32Array", () => {
    const a = NdArray.from(new Float32Array([1, 2, 3]), { dims: { x: 3 }, type: new Float32() });
    expectTypeOf(a).toEqualTypeOf<NdArray<Float32>>();
    expectTypeOf(a.type).toEqualTypeOf<Float32>();
    expectTypeOf(a.values.toArray()).toEqualTypeOf<Float32Array>();
    expect(a.values.toArray()).toEqual(new Float32Array([1, 2, 3]));
    const counts = a.withValues(vectorFromArray([4, 5, 6], new Int32()));
    expectTypeOf(counts.values.toArray()).toEqualTypeOf<Int32Array>();
    expect(Array.from(counts.values.toArray())).toEqual([4, 5, 6]);
  });
});

describe("NdArray.from", () => {
  it("wraps a typed array without copying", () => {
    const data = new Float32Array(6);
    const a = NdArray.from(data, { dims: { y: 2, x: 3 } });
    expect(a.values.data[0]!.values).toBe(data);
    expect(a.shape).toEqual([2, 3]);
    expect(a.rank).toBe(2);
    expect(a.size).toBe(6);
    expect(a.type.toString()).toBe("Float32");
  });

  it("accepts dims as a record, pairs or Dim objects, in order", () => {
    const v = new Int8Array(6);
    const expected = [
      { name: "y", size: 2 },
      { name: "x", size: 3 },
    ];
    expect(NdArray.from(v, { dims: { y: 2, x: 3 } }).dims).toEqual(expected);
    expect(
      NdArray.from(v, {
        dims: [
          ["y", 2],
          ["x", 3],
        ],
      }).dims,
    ).toEqual(expected);
    expect(NdArray.from(v, { dims: expected }).dims).toEqual(expected);
  });

  it("without dims: one dim dim_0", () => {
    expect(NdArray.from([1, 2, 3]).dims).toEqual([{ name: "dim_0", size: 3 }]);
  });

  it("JS arrays map as FORMAT.md section 3.1, with nulls", () => {
    const a = NdArray.from([1.5, null, 3], { dims: { x: 3 } });
    expect(a.type.typeId).toBe(Type.Float);
    expect(a.values.nullCount).toBe(1);
    expect(a.toArray()).toEqual([1.5, null, 3]);
    expect(NdArray.from(["a", "b"], { dims: { x: 2 } }).toArray()).toEqual(["a", "b"]);
  });

  it("options.type converts JS values and typed arrays of other storage", () => {
    expect(NdArray.from([1, 2], { type: new Int32() }).toArray()).toEqual(new Int32Array([1, 2]));
    expect(NdArray.from(new Float64Array([1, 2]), { type: new Uint8() }).toArray()).toEqual(new Uint8Array([1, 2]));
    expect(NdArray.from([0.5], { type: new Float16() }).toArray()).toEqual(new Float32Array([0.5]));
    const ts = NdArray.from([new Date(1)], { type: new TimestampNanosecond("UTC") });
    expect(ts.values.data[0]!.values[0]).toBe(1_000_000n);
  });

  it("a vector of another type than options.type is InvalidArgument", () => {
    expect(codeOf(() => NdArray.from(vectorFromArray(["a"], new Utf8()), { type: new Int32() }))).toBe(
      "InvalidArgument",
    );
  });

  it("scalar() is rank 0 with one value", () => {
    const s = NdArray.scalar(273.15, { attrs: { units: "K" } });
    expect(s.rank).toBe(0);
    expect(s.shape).toEqual([]);
    expect(s.toArray()).toEqual(new Float64Array([273.15]));
    expect(s.attr("units")).toBe("K");
    expect(NdArray.scalar(null, { type: new Int32() }).values.nullCount).toBe(1);
  });

  it("size-0 dims make an empty array", () => {
    const a = NdArray.from(new Float64Array(0), { dims: { t: 0, x: 5 } });
    expect(a.size).toBe(0);
    expect(a.shape).toEqual([0, 5]);
  });
});

describe("NdArray validation", () => {
  const v = new Float32Array(6);
  it("values length not the product of sizes: InvalidShape", () => {
    expect(codeOf(() => NdArray.from(v, { dims: { x: 4 } }))).toBe("InvalidShape");
    expect(codeOf(() => NdArray.from(v, { dims: [] }))).toBe("InvalidShape");
  });
  it("duplicate dim names: InvalidDims", () => {
    expect(
      codeOf(() =>
        NdArray.from(v, {
          dims: [
            ["x", 2],
            ["x", 3],
          ],
        }),
      ),
    ).toBe("InvalidDims");
  });
  it("empty dim names: InvalidDims", () => {
    expect(codeOf(() => NdArray.from(v, { dims: { "": 6 } }))).toBe("InvalidDims");
  });
  it("sizes that are negative, fractional or above 2^32-1: InvalidDims", () => {
    for (const size of [-1, 1.5, 2 ** 32])
      expect(codeOf(() => NdArray.from(new Float32Array(0), { dims: { x: size, y: 0 } }))).toBe("InvalidDims");
  });
  it("an unsupported value type: UnsupportedType", () => {
    const list = vectorFromArray([[1]]);
    expect(codeOf(() => new NdArray(list, [{ name: "x", size: 1 }]))).toBe("UnsupportedType");
  });
  it("errors are NdArrowError instances", () => {
    expect(() => NdArray.from(v, { dims: { x: 4 } })).toThrow(NdArrowError);
  });
});

describe("NdArray accessors", () => {
  it("withAttrs, withValues and withMetadata keep the rest", () => {
    const a = NdArray.from(new Int32Array([1, 2]), { dims: { x: 2 }, attrs: { u: "m" }, metadata: { k: "v" } });
    expect(a.withAttrs({ u: "km" }).attr("u")).toBe("km");
    const b = a.withValues(vectorFromArray(new Float64Array([3, 4])));
    expect(b.attr("u")).toBe("m");
    expect(b.dims).toEqual(a.dims);
    expect(b.metadata.get("k")).toBe("v");
    expect(codeOf(() => a.withValues(vectorFromArray(new Float64Array(3))))).toBe("InvalidShape");
    expect(a.withMetadata({ z: "1" }).metadata.get("z")).toBe("1");
  });
  it("attr() of an unknown key is undefined", () => {
    expect(NdArray.scalar(1).attr("nope")).toBeUndefined();
  });
});
