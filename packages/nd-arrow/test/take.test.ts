import {
  Binary,
  Bool,
  DateDay,
  DateMillisecond,
  DurationNanosecond,
  Float16,
  Float32,
  Float64,
  Int16,
  Int32,
  Int64,
  Int8,
  LargeUtf8,
  TimeMicrosecond,
  TimeSecond,
  TimestampMicrosecond,
  TimestampSecond,
  Uint16,
  Uint32,
  Uint64,
  Uint8,
  Utf8,
  makeData,
  makeVector,
  vectorFromArray,
  List,
  Field,
} from "apache-arrow";
import type { DataType, Vector } from "apache-arrow";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isNdArrowError } from "../src/errors.js";
import { rowMajorStrides, scatterStrided, stridedIndices, takeStrided } from "../src/strided.js";
import { take } from "../src/take.js";

const fixedTypes: DataType[] = [
  new Int8(),
  new Int16(),
  new Int32(),
  new Int64(),
  new Uint8(),
  new Uint16(),
  new Uint32(),
  new Uint64(),
  new Float16(),
  new Float32(),
  new Float64(),
  new TimestampSecond("UTC"),
  new TimestampMicrosecond(),
  new DateDay(),
  new DateMillisecond(),
  new TimeSecond(),
  new TimeMicrosecond(),
  new DurationNanosecond(),
];

function bitmap(valid: readonly boolean[]): Uint8Array {
  const bits = new Uint8Array((valid.length + 7) >> 3);
  valid.forEach((v, i) => {
    if (v) bits[i >> 3]! |= 1 << (i & 7);
  });
  return bits;
}

/** A vector of `type` with raw random bytes as values and the given validity. */
function fixedVector(type: DataType, bytes: Uint8Array, valid: readonly boolean[]): Vector {
  const Ctor = type.ArrayType as { new (b: ArrayBuffer): ArrayLike<unknown>; BYTES_PER_ELEMENT: number };
  const width = Ctor.BYTES_PER_ELEMENT;
  const raw = new Uint8Array(valid.length * width);
  raw.set(bytes.subarray(0, raw.length));
  const nulls = valid.some((v) => !v);
  return makeVector(
    makeData({
      type,
      length: valid.length,
      nullCount: valid.filter((v) => !v).length,
      nullBitmap: nulls ? bitmap(valid) : undefined,
      data: new Ctor(raw.buffer),
    } as never),
  );
}

/** Each slot's bytes, as hex (Arrow's getters reject some 64-bit values, raw bytes do not). */
function rawSlots(vector: Vector): string[] {
  const values = vector.data[0]!.values as Uint8Array;
  const bytes = new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
  const width = bytes.length / vector.length;
  return Array.from({ length: vector.length }, (_, i) =>
    Buffer.from(bytes.subarray(i * width, (i + 1) * width)).toString("hex"),
  );
}

function varVector(type: DataType, values: readonly (string | null)[]): Vector {
  if (type.typeId === new Binary().typeId) {
    return vectorFromArray(
      values.map((s) => (s === null ? null : new TextEncoder().encode(s))),
      type,
    );
  }
  return vectorFromArray(values, type);
}

/** What `take` must return, read value by value through Arrow's own getters. */
function expected(vector: Vector, indices: ArrayLike<number>): unknown[] {
  return Array.from(indices, (j) => vector.get(j));
}

const cell = fc.record({ valid: fc.boolean(), text: fc.string({ maxLength: 40 }) });
const indicesFor = (n: number) =>
  fc.oneof(
    fc.array(fc.nat(n - 1), { maxLength: 60 }),
    // ascending runs, as chunking produces
    fc.tuple(fc.nat(n - 1), fc.nat(n)).map(([a, len]) => Array.from({ length: Math.min(len, n - a) }, (_, k) => a + k)),
  );

describe("take", () => {
  it("fixed-width types: gathers values and nulls at any positions, including repeats and runs", () => {
    for (const type of fixedTypes) {
      const prop = fc.property(
        fc
          .array(fc.boolean(), { minLength: 1, maxLength: 50 })
          .chain((valid) =>
            fc.tuple(
              fc.constant(valid),
              fc.uint8Array({ minLength: 8 * 50, maxLength: 8 * 50 }),
              indicesFor(valid.length),
            ),
          ),
        ([valid, bytes, idx]) => {
          const v = fixedVector(type, bytes, valid);
          const out = take(v, Uint32Array.from(idx));
          expect(String(out.type)).toBe(String(type));
          expect(out.data).toHaveLength(1);
          expect(out.nullCount).toBe(idx.filter((j) => !valid[j]).length);
          expect(idx.map((_, i) => out.isValid(i))).toEqual(idx.map((j) => valid[j]));
          expect(rawSlots(out)).toEqual(idx.map((j) => rawSlots(v)[j]));
        },
      );
      fc.assert(prop, { seed: 42, numRuns: 25 });
    }
  });

  it("Bool: gathers bit-packed values and nulls", () => {
    const prop = fc.property(
      fc
        .array(fc.option(fc.boolean()), { minLength: 1, maxLength: 80 })
        .chain((vals) => fc.tuple(fc.constant(vals), indicesFor(vals.length))),
      ([vals, idx]) => {
        const v = vectorFromArray(vals, new Bool());
        expect(Array.from(take(v, Uint32Array.from(idx)))).toEqual(expected(v, idx));
      },
    );
    fc.assert(prop, { seed: 42, numRuns: 200 });
  });

  it("Utf8, LargeUtf8, Binary: gathers through offsets, keeping nulls", () => {
    for (const type of [new Utf8(), new LargeUtf8(), new Binary()]) {
      const prop = fc.property(
        fc
          .array(cell, { minLength: 1, maxLength: 40 })
          .chain((cells) => fc.tuple(fc.constant(cells), indicesFor(cells.length))),
        ([cells, idx]) => {
          const v = varVector(
            type,
            cells.map((c) => (c.valid ? c.text : null)),
          );
          const out = take(v, Uint32Array.from(idx));
          expect(String(out.type)).toBe(String(type));
          expect(Array.from(out)).toEqual(expected(v, idx));
        },
      );
      fc.assert(prop, { seed: 42, numRuns: 50 });
    }
  });

  it("sliced and multi-chunk vectors: positions count from the vector's start", () => {
    const ints = vectorFromArray([0, 1, null, 3, 4, 5, null, 7, 8, 9], new Int32());
    const sliced = ints.slice(3, 9); // [3, 4, 5, null, 7, 8]
    expect(Array.from(take(sliced, Uint32Array.of(0, 3, 5, 1)))).toEqual([3, null, 8, 4]);
    const bools = vectorFromArray([true, false, null, true, true, false, true, false, false, true], new Bool());
    expect(Array.from(take(bools.slice(5), Uint32Array.of(4, 0, 1)))).toEqual([true, false, true]);
    const strings = vectorFromArray(["a", "bb", null, "dddd", "e"], new Utf8());
    const chunked = strings.slice(0, 2).concat(strings.slice(2));
    expect(chunked.data).toHaveLength(2);
    expect(Array.from(take(chunked, Int32Array.of(4, 2, 1, 3)))).toEqual(["e", null, "bb", "dddd"]);
  });

  it("Float64: NaN payloads and -0 pass through bit for bit", () => {
    const raw = new Float64Array([Number.NaN, -0, 1.5]);
    new Uint32Array(raw.buffer)[0] = 0x12345; // a non-canonical NaN payload
    const out = take(makeVector(raw), Uint32Array.of(0, 1, 2, 0));
    const bits = new Uint32Array((out.data[0]!.values as Float64Array).buffer);
    expect(bits[0]).toBe(0x12345);
    expect(bits[6]).toBe(0x12345);
    expect(Object.is(out.get(1), -0)).toBe(true);
  });

  it("a long ascending run is copied as one block", () => {
    const v = makeVector(Float32Array.from({ length: 1000 }, (_, i) => i));
    const idx = Uint32Array.from({ length: 500 }, (_, i) => 250 + i);
    expect(Array.from(take(v, idx))).toEqual(Array.from(idx));
  });

  it("empty indices give an empty vector of the same type", () => {
    const out = take(vectorFromArray(["x"], new Utf8()), new Uint32Array(0));
    expect(out.length).toBe(0);
    expect(String(out.type)).toBe("Utf8");
  });

  it("a position outside the vector is InvalidArgument", () => {
    const v = makeVector(new Int32Array([1, 2, 3]));
    expect(() => take(v, Uint32Array.of(3))).toThrow(expect.objectContaining({ code: "InvalidArgument" }));
    let err: unknown;
    try {
      take(v, Int32Array.of(0, -1));
    } catch (e) {
      err = e;
    }
    expect(isNdArrowError(err, "InvalidArgument")).toBe(true);
    expect(String(err)).toMatch(/index -1 at position 1/);
  });

  it("a type outside FORMAT.md section 3 is UnsupportedType", () => {
    const lists = makeVector(
      makeData({
        type: new List(new Field("item", new Int32())),
        length: 0,
        valueOffsets: new Int32Array(1),
        child: makeData({ type: new Int32(), length: 0 }),
      }),
    );
    expect(() => take(lists, new Uint32Array(0))).toThrow(expect.objectContaining({ code: "UnsupportedType" }));
  });
});

describe("multi-chunk input (concatData)", () => {
  const identity = (n: number) => Uint32Array.from({ length: n }, (_, i) => i);

  it("chunks of every kind join with their nulls, from sliced inputs", () => {
    const f = vectorFromArray([1, null, 3, 4], new Float64());
    expect(Array.from(take(f.slice(1).concat(f.slice(0, 2)), identity(5)))).toEqual([null, 3, 4, 1, null]);
    const b = vectorFromArray([true, null, false, true, true, false, false, true, true], new Bool());
    expect(Array.from(take(b.slice(3).concat(b.slice(1, 4)), identity(9)))).toEqual([
      true,
      true,
      false,
      false,
      true,
      true,
      null,
      false,
      true,
    ]);
    const s = vectorFromArray(["a", null, "ccc"], new LargeUtf8());
    expect(Array.from(take(s.slice(1).concat(s), identity(5)))).toEqual([null, "ccc", "a", null, "ccc"]);
  });

  it("chunks of different types are InvalidArgument", () => {
    const a = makeVector(new Int32Array([1])) as Vector;
    const b = makeVector(new Float32Array([1])) as Vector;
    expect(() => take(a.concat(b), identity(2))).toThrow(expect.objectContaining({ code: "InvalidArgument" }));
  });
});

describe("stridedIndices", () => {
  it("walks sizes row-major from start, a stride of 0 repeats", () => {
    expect(Array.from(stridedIndices([2, 3], [1, 0]))).toEqual([0, 0, 0, 1, 1, 1]);
    expect(Array.from(stridedIndices([2, 2], [4, 1], 5))).toEqual([5, 6, 9, 10]);
    expect(Array.from(stridedIndices([], []))).toEqual([0]);
    expect(stridedIndices([3, 0], [1, 1])).toHaveLength(0);
  });
});

/** Sizes, strides and a start whose walk stays inside `length` values. */
const walkArb = (length: number) =>
  fc
    .array(fc.tuple(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 0, max: 40 })), { maxLength: 3 })
    .filter((dims) => reachOf(dims) < length)
    .chain((dims) => fc.tuple(fc.constant(dims), fc.integer({ min: 0, max: length - 1 - reachOf(dims) })));

function reachOf(dims: readonly (readonly [number, number])[]): number {
  return dims.reduce((sum, [size, stride]) => sum + (size - 1) * stride, 0);
}

describe("takeStrided", () => {
  const length = 400;
  const floats = makeVector(Float64Array.from({ length }, (_, i) => i / 2));
  const withNulls = vectorFromArray(
    Array.from({ length }, (_, i) => (i % 7 === 0 ? null : i)),
    new Int32(),
  );
  const strings = vectorFromArray(
    Array.from({ length }, (_, i) => `s${i}`),
    new Utf8(),
  );

  it("property: equals take of the strided indices (block copies, fills, element gathers; nulls; strings)", () => {
    const prop = fc.property(walkArb(length), ([dims, start]) => {
      const sizes = dims.map(([size]) => size);
      const strides = dims.map(([, stride]) => stride);
      for (const v of [floats, withNulls, strings] as Vector[]) {
        expect(Array.from(takeStrided(v, sizes, strides, start))).toEqual(
          Array.from(take(v, stridedIndices(sizes, strides, start))),
        );
      }
    });
    fc.assert(prop, { seed: 42, numRuns: 80 });
  });

  it("contiguous and repeating walks take the block paths", () => {
    expect(Array.from(takeStrided(floats, [2, 10], [100, 1], 3))).toEqual([
      ...Array.from({ length: 10 }, (_, i) => (3 + i) / 2),
      ...Array.from({ length: 10 }, (_, i) => (103 + i) / 2),
    ]);
    expect(Array.from(takeStrided(floats, [2, 9], [1, 0]))).toEqual([...Array(9).fill(0), ...Array(9).fill(0.5)]);
  });

  it("a walk past the end is InvalidArgument", () => {
    expect(() => takeStrided(floats, [2, 10], [395, 1])).toThrow(expect.objectContaining({ code: "InvalidArgument" }));
  });
});

describe("scatterStrided", () => {
  it("places parts at their starts in the destination grid (fixed width and with nulls)", () => {
    // a 2 x 10 grid from two 1 x 10 parts, and a 4 x 4 grid from four 2 x 2 parts
    const rows = [0, 1].map((r) => ({
      values: makeVector(Float32Array.from({ length: 10 }, (_, i) => r * 10 + i)),
      sizes: [1, 10],
      start: r * 10,
    }));
    expect(Array.from(scatterStrided(rows, rowMajorStrides([2, 10]), 20))).toEqual(
      Array.from({ length: 20 }, (_, i) => i),
    );
    const quads = [0, 1, 2, 3].map((q) => ({
      values: vectorFromArray([q, null, q, q], new Int32()),
      sizes: [2, 2],
      start: (q >> 1) * 8 + (q & 1) * 2,
    }));
    expect(Array.from(scatterStrided(quads, rowMajorStrides([4, 4]), 16))).toEqual([
      0,
      null,
      1,
      null,
      0,
      0,
      1,
      1,
      2,
      null,
      3,
      null,
      2,
      2,
      3,
      3,
    ]);
  });
});
