import {
  Bool,
  DateDay,
  DateMillisecond,
  Float16,
  Float32,
  Float64,
  Int8,
  Int16,
  Int32,
  Int64,
  LargeUtf8,
  makeVector,
  TimeMillisecond,
  TimeNanosecond,
  TimestampMillisecond,
  TimestampNanosecond,
  TimestampSecond,
  Uint8,
  Uint64,
  Utf8,
  vectorFromArray,
} from "apache-arrow";
import type { DataType, Vector } from "apache-arrow";
import { describe, expect, it } from "vitest";
import { castVector, isCastingError } from "../src/index.js";
import type { Casting, CastingError } from "../src/index.js";
import { valuesOf, vectorOf } from "./vectors.js";

function castError(vector: Vector, to: DataType, casting: Casting): CastingError {
  try {
    castVector(vector, to, casting);
  } catch (err) {
    if (isCastingError(err)) return err;
    throw err;
  }
  throw new Error("expected a CastingError");
}

const DAY_MS = 86_400_000n;

describe("castVector: numbers", () => {
  it("identical type: returns the same vector, no copy", () => {
    const v = makeVector(new Int32Array([1, 2]));
    expect(castVector(v, new Int32(), "no")).toBe(v);
  });

  it("Int32 -> Float64, safe: values unchanged", () => {
    const out = castVector(makeVector(new Int32Array([1, -2, 2 ** 31 - 1])), new Float64(), "safe");
    expect(out.type.typeId).toBe(new Float64().typeId);
    expect(Array.from(out.data[0]!.values as Float64Array)).toEqual([1, -2, 2 ** 31 - 1]);
  });

  it("Float64 -> Int32, same_kind: InvalidCast naming both types and the mode", () => {
    const err = castError(makeVector(new Float64Array([1.5])), new Int32(), "same_kind");
    expect(err.code).toBe("InvalidCast");
    expect([err.from, err.to, err.casting]).toEqual(["Float64", "Int32", "same_kind"]);
    expect(err.message).toMatch(/Float64.*Int32.*same_kind/);
  });

  it("Int64 -> Int32, safe: InvalidCast (narrowing needs same_kind)", () => {
    expect(castError(makeVector(new BigInt64Array([1n])), new Int32(), "safe").code).toBe("InvalidCast");
  });

  it("Int64 -> Int8, same_kind: overflow fails naming index and value (over all chunks)", () => {
    const chunks = makeVector(new BigInt64Array([1n, -128n])).concat(
      makeVector(new BigInt64Array([127n, 300n, 1000n])),
    );
    const err = castError(chunks, new Int8(), "same_kind");
    expect(err.code).toBe("ValueOutOfRange");
    expect([err.index, err.value]).toEqual([3, 300n]);
    expect(err.message).toMatch(/300.*index 3/);
  });

  it("Int64 -> Int8, same_kind: values that fit are cast, chunking kept", () => {
    const chunks = makeVector(new BigInt64Array([1n, -128n])).concat(makeVector(new BigInt64Array([127n])));
    const out = castVector(chunks, new Int8(), "same_kind");
    expect(out.data).toHaveLength(2);
    expect(valuesOf(out)).toEqual([1, -128, 127]);
  });

  it("Int32 -> UInt8 and Int64 -> UInt64, same_kind: InvalidCast (unsigned is an earlier kind than signed)", () => {
    expect(castError(makeVector(new Int32Array([0])), new Uint8(), "same_kind").code).toBe("InvalidCast");
    expect(castError(makeVector(new BigInt64Array([0n])), new Uint64(), "same_kind").code).toBe("InvalidCast");
  });

  it("UInt32 -> Int8, same_kind: a value above 127 fails", () => {
    expect(castError(makeVector(new Uint32Array([127, 200])), new Int8(), "same_kind")).toMatchObject({
      code: "ValueOutOfRange",
      index: 1,
      value: 200,
    });
  });

  it("UInt64 -> Int64, same_kind: a value >= 2^63 fails, the rest keeps its bits", () => {
    expect(castError(makeVector(new BigUint64Array([1n, 2n ** 63n])), new Int64(), "same_kind")).toMatchObject({
      index: 1,
      value: 2n ** 63n,
    });
    expect(valuesOf(castVector(makeVector(new BigUint64Array([2n ** 63n - 1n])), new Int64(), "same_kind"))).toEqual([
      2n ** 63n - 1n,
    ]);
  });

  it("Int16 -> Int64 and UInt16 -> UInt64, safe: widened exactly", () => {
    expect(valuesOf(castVector(makeVector(new Int16Array([-3, 7])), new Int64(), "safe"))).toEqual([-3n, 7n]);
    expect(valuesOf(castVector(makeVector(new Uint16Array([65535])), new Uint64(), "safe"))).toEqual([65535n]);
  });

  it("nulls stay null and values under nulls never fail", () => {
    const v = vectorOf(new Int32(), new Int32Array([1, 100_000, 3]), [true, false, true]);
    const out = castVector(v, new Int8(), "same_kind");
    expect(valuesOf(out)).toEqual([1, null, 3]);
    expect(out.nullCount).toBe(1);
  });

  it("a slice at an odd offset keeps its own values and nulls", () => {
    const valid = Array.from({ length: 20 }, (_, i) => i % 3 !== 0);
    const v = vectorOf(
      new Int16(),
      Int16Array.from({ length: 20 }, (_, i) => i),
      valid,
    ).slice(5, 17);
    expect(valuesOf(castVector(v, new Float32(), "safe"))).toEqual(valuesOf(v));
  });

  it("Float64 -> Float32, same_kind: overflow gives ±Infinity as IEEE (and numpy)", () => {
    expect(
      valuesOf(castVector(makeVector(new Float64Array([1e300, -1e300, 0.1])), new Float32(), "same_kind")),
    ).toEqual([Infinity, -Infinity, Math.fround(0.1)]);
  });

  it("Float64 -> Float32 and Float16: -0.0 and NaN are kept", () => {
    for (const to of [new Float32(), new Float16()]) {
      const out = valuesOf(castVector(makeVector(new Float64Array([-0, NaN])), to, "same_kind"));
      expect(Object.is(out[0], -0)).toBe(true);
      expect(out[1]).toBeNaN();
    }
  });

  it("Float64 -> Float16, same_kind: rounds half to even, overflows to Infinity", () => {
    const out = castVector(makeVector(new Float64Array([1 + 2 ** -11, 65520, 2 ** -24])), new Float16(), "same_kind");
    expect(Array.from(out.data[0]!.values as Uint16Array)).toEqual([0x3c00, 0x7c00, 0x0001]);
  });

  it("Float16 -> Float64, safe: exact", () => {
    const out = castVector(vectorOf(new Float16(), new Uint16Array([0x3c01, 0x0001, 0xfc00])), new Float64(), "safe");
    expect(valuesOf(out)).toEqual([1 + 2 ** -10, 2 ** -24, -Infinity]);
  });

  it("Int64 -> Float32, same_kind: rounds once, not twice through a double", () => {
    // 2^62 + 2^38 + 1 is just above a Float32 midpoint; via a double it would land on it and round down.
    const out = castVector(
      makeVector(new BigInt64Array([2n ** 62n + 2n ** 38n + 1n, -(2n ** 62n + 2n ** 38n + 1n)])),
      new Float32(),
      "same_kind",
    );
    expect(valuesOf(out)).toEqual([2 ** 62 + 2 ** 39, -(2 ** 62 + 2 ** 39)]);
  });

  it("UInt64 and Int64 -> Float64, safe as in numpy (rounds beyond 2^53)", () => {
    expect(valuesOf(castVector(makeVector(new BigUint64Array([2n ** 64n - 1n, 3n])), new Float64(), "safe"))).toEqual([
      2 ** 64,
      3,
    ]);
    expect(valuesOf(castVector(makeVector(new BigInt64Array([-(2n ** 63n)])), new Float64(), "safe"))).toEqual([
      -(2 ** 63),
    ]);
  });

  it("Bool -> Int32, Float16 and Int64, safe: 0 and 1", () => {
    const v = vectorFromArray([true, false, null, true], new Bool());
    expect(valuesOf(castVector(v, new Int32(), "safe"))).toEqual([1, 0, null, 1]);
    expect(valuesOf(castVector(v, new Int64(), "safe"))).toEqual([1n, 0n, null, 1n]);
    expect(Array.from(castVector(v, new Float16(), "safe").data[0]!.values as Uint16Array)).toEqual([
      0x3c00, 0, 0, 0x3c00,
    ]);
  });

  it("Int32 -> Bool: never, even same_kind", () => {
    expect(castError(makeVector(new Int32Array([1])), new Bool(), "same_kind").code).toBe("InvalidCast");
  });
});

describe("castVector: vectors from builders (buffers padded beyond the length)", () => {
  it.each([
    ["Int32 -> Float64", vectorFromArray([1, null, 3], new Int32()), new Float64(), [1, null, 3]],
    ["Int32 -> Int8", vectorFromArray([1, null, -3], new Int32()), new Int8(), [1, null, -3]],
    ["Int64 -> Int16", vectorFromArray([1n, null, -3n], new Int64()), new Int16(), [1, null, -3]],
    ["UInt64 -> Int64", vectorFromArray([1n, null, 3n], new Uint64()), new Int64(), [1n, null, 3n]],
    ["Float16 -> Float32", vectorFromArray([0.5, null, -2], new Float16()), new Float32(), [0.5, null, -2]],
    [
      "Timestamp[ms, UTC] -> Timestamp[ms]",
      vectorFromArray([1000, null], new TimestampMillisecond("UTC")),
      new TimestampMillisecond(),
      [1000, null],
    ],
    [
      "Timestamp[ms] -> Timestamp[s]",
      vectorFromArray([1500, null], new TimestampMillisecond()),
      new TimestampSecond(),
      [1000, null],
    ],
  ] as const)("%s", (_name, vector, to, expected) => {
    expect(valuesOf(castVector(vector as Vector, to, "same_kind"))).toEqual(expected);
  });
});

describe("castVector: temporal units", () => {
  it("Timestamp[s] -> Timestamp[ns], safe: multiplies", () => {
    const v = vectorOf(new TimestampSecond(), new BigInt64Array([1n, -2n, 9_000_000_000n]));
    const out = castVector(v, new TimestampNanosecond(), "safe");
    expect(Array.from(out.data[0]!.values as BigInt64Array)).toEqual([
      1_000_000_000n,
      -2_000_000_000n,
      9_000_000_000_000_000_000n,
    ]);
  });

  it("Timestamp[s] -> Timestamp[ns], safe: a value beyond 64 bits fails", () => {
    const v = vectorOf(new TimestampSecond(), new BigInt64Array([1n, 10_000_000_000n]));
    expect(castError(v, new TimestampNanosecond(), "safe")).toMatchObject({
      code: "ValueOutOfRange",
      index: 1,
      value: 10_000_000_000n,
    });
  });

  it("Timestamp[ms] -> Timestamp[s], same_kind: floors like numpy (-1500 ms -> -2 s)", () => {
    const v = vectorOf(new TimestampMillisecond(), new BigInt64Array([1500n, -1500n, -2000n]));
    const out = castVector(v, new TimestampSecond(), "same_kind");
    expect(Array.from(out.data[0]!.values as BigInt64Array)).toEqual([1n, -2n, -2n]);
  });

  it("Timestamp -> Date32 / Date64, same_kind: floors to the day", () => {
    const ns = vectorOf(new TimestampNanosecond(), new BigInt64Array([86_400_000_000_001n, -1n]));
    expect(Array.from(castVector(ns, new DateDay(), "same_kind").data[0]!.values as Int32Array)).toEqual([1, -1]);
    expect(Array.from(castVector(ns, new DateMillisecond(), "same_kind").data[0]!.values as BigInt64Array)).toEqual([
      DAY_MS,
      -DAY_MS,
    ]);
  });

  it("Date32 -> Date64 and Timestamp[ms], safe; Date64 -> Date32, same_kind floors", () => {
    const days = vectorOf(new DateDay(), new Int32Array([1, -1]));
    expect(Array.from(castVector(days, new DateMillisecond(), "safe").data[0]!.values as BigInt64Array)).toEqual([
      DAY_MS,
      -DAY_MS,
    ]);
    expect(Array.from(castVector(days, new TimestampMillisecond(), "safe").data[0]!.values as BigInt64Array)).toEqual([
      DAY_MS,
      -DAY_MS,
    ]);
    const ms = vectorOf(new DateMillisecond(), new BigInt64Array([DAY_MS + 5n, -5n]));
    expect(Array.from(castVector(ms, new DateDay(), "same_kind").data[0]!.values as Int32Array)).toEqual([1, -1]);
  });

  it("Date64 -> Date32, same_kind: a day count beyond Int32 fails", () => {
    const ms = vectorOf(new DateMillisecond(), new BigInt64Array([0n, DAY_MS * 2n ** 31n]));
    expect(castError(ms, new DateDay(), "same_kind")).toMatchObject({ code: "ValueOutOfRange", index: 1 });
  });

  it("Time64[ns] -> Time32[ms], same_kind: divides into 32 bits", () => {
    const v = vectorOf(new TimeNanosecond(), new BigInt64Array([86_399_999_999_999n]));
    expect(Array.from(castVector(v, new TimeMillisecond(), "same_kind").data[0]!.values as Int32Array)).toEqual([
      86_399_999,
    ]);
  });

  it("a time zone change keeps the instants (same_kind), and is not safe", () => {
    const v = vectorOf(new TimestampSecond("UTC"), new BigInt64Array([42n]));
    expect(
      Array.from(castVector(v, new TimestampSecond("Europe/Paris"), "same_kind").data[0]!.values as BigInt64Array),
    ).toEqual([42n]);
    expect(castError(v, new TimestampSecond("Europe/Paris"), "safe").code).toBe("InvalidCast");
  });

  it("nulls stay null and values under nulls never fail", () => {
    const v = vectorOf(new TimestampSecond(), new BigInt64Array([1n, 2n ** 62n]), [true, false]);
    expect(valuesOf(castVector(v, new TimestampNanosecond(), "safe"))).toEqual([1000, null]); // get() gives milliseconds
  });
});

describe("castVector: strings", () => {
  it("Utf8 -> LargeUtf8 -> Utf8, safe: same strings and nulls, also from a slice", () => {
    const v = vectorFromArray(["a", null, "bcd", "", "ef", "g"], new Utf8()).slice(1, 5);
    const large = castVector(v, new LargeUtf8(), "safe");
    expect(valuesOf(large)).toEqual([null, "bcd", "", "ef"]);
    expect(valuesOf(castVector(large, new Utf8(), "safe"))).toEqual([null, "bcd", "", "ef"]);
  });

  it("Utf8 -> Int32: InvalidCast under every mode", () => {
    expect(castError(vectorFromArray(["1"], new Utf8()), new Int32(), "same_kind").code).toBe("InvalidCast");
  });
});
