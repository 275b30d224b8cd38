import {
  Binary,
  Bool,
  DateDay,
  DateMillisecond,
  DurationMicrosecond,
  DurationMillisecond,
  DurationNanosecond,
  DurationSecond,
  Float16,
  Float32,
  Float64,
  Int16,
  Int32,
  Int64,
  Int8,
  LargeUtf8,
  TimeMicrosecond,
  TimeMillisecond,
  TimeNanosecond,
  TimeSecond,
  TimestampMicrosecond,
  TimestampMillisecond,
  TimestampNanosecond,
  TimestampSecond,
  Uint16,
  Uint32,
  Uint64,
  Uint8,
  Utf8,
  vectorFromArray,
} from "apache-arrow";
import { DataType } from "apache-arrow";
import type { Vector } from "apache-arrow";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { computeStats } from "../src/index.js";
import type { StatValue } from "../src/index.js";
import { chunked, compareUtf8, fixedVector, naiveStats } from "./vectors.js";

const I64_MIN = -(2n ** 63n);
const I64_MAX = 2n ** 63n - 1n;
const U64_MAX = 2n ** 64n - 1n;

/** min and max compared with Object.is, so -0 and 0 differ. */
function expectStats(actual: ReturnType<typeof computeStats>, min: StatValue | null, max: StatValue | null): void {
  expect(actual).not.toBeNull();
  expect(
    [Object.is(actual!.min, min), Object.is(actual!.max, max)],
    `got ${String(actual!.min)}, ${String(actual!.max)}`,
  ).toEqual([true, true]);
}

describe("computeStats: one test per value type (FORMAT.md 4.2)", () => {
  // Each case has a null slot holding a value that would be an extreme if it counted.
  const cases: Array<[DataType, ArrayLike<unknown>, boolean[], StatValue, StatValue]> = [
    [new Int8(), new Int8Array([5, -128, 127, -3]), [true, false, true, true], -3, 127],
    [new Int16(), new Int16Array([-32768, 32767, 7]), [true, true, true], -32768, 32767],
    [new Int32(), new Int32Array([-2147483648, 2147483647, 0, -5]), [false, true, true, true], -5, 2147483647],
    [new Int64(), new BigInt64Array([I64_MIN, I64_MAX, 0n, -1n]), [true, false, true, true], I64_MIN, 0n],
    [new Uint8(), new Uint8Array([0, 255, 3]), [false, true, true], 3, 255],
    [new Uint16(), new Uint16Array([0, 65535, 9]), [true, true, true], 0, 65535],
    [new Uint32(), new Uint32Array([4294967295, 1, 2]), [true, true, false], 1, 4294967295],
    [new Uint64(), new BigUint64Array([U64_MAX, 5n, 2n ** 63n]), [true, true, true], 5n, U64_MAX],
    // Float16 bits: 1, -2, NaN, 65504, -65504 (null)
    [
      new Float16(),
      new Uint16Array([0x3c00, 0xc000, 0x7e00, 0x7bff, 0xfbff]),
      [true, true, true, true, false],
      -2,
      65504,
    ],
    [new Float32(), new Float32Array([1.5, NaN, -3.25, 1e30]), [true, true, true, false], -3.25, 1.5],
    [new Float64(), new Float64Array([Infinity, NaN, 0.1, -1e300]), [true, true, true, true], -1e300, Infinity],
    [new TimestampSecond(), new BigInt64Array([10n, -10n, 99n]), [true, true, false], -10n, 10n],
    [
      new TimestampMillisecond("UTC"),
      new BigInt64Array([1_700_000_000_000n, 0n]),
      [true, true],
      0n,
      1_700_000_000_000n,
    ],
    [new TimestampMicrosecond(), new BigInt64Array([3n, 2n, 1n]), [true, true, true], 1n, 3n],
    // Beyond 2^53: the stats keep every nanosecond.
    [
      new TimestampNanosecond("UTC"),
      new BigInt64Array([1_700_000_000_123_456_789n, 1_700_000_000_123_456_788n]),
      [true, true],
      1_700_000_000_123_456_788n,
      1_700_000_000_123_456_789n,
    ],
    [new DateDay(), new Int32Array([19000, -1, 3]), [true, true, true], -1, 19000],
    [new DateMillisecond(), new BigInt64Array([86_400_000n, -86_400_000n, 0n]), [true, false, true], 0n, 86_400_000n],
    [new TimeSecond(), new Int32Array([3600, 59, 86399]), [true, true, true], 59, 86399],
    [new TimeMillisecond(), new Int32Array([1000, 999]), [true, true], 999, 1000],
    [new TimeMicrosecond(), new BigInt64Array([1n, 86_399_999_999n]), [true, true], 1n, 86_399_999_999n],
    [new TimeNanosecond(), new BigInt64Array([5n, 4n, 86_399_999_999_999n]), [true, true, false], 4n, 5n],
    [new DurationSecond(), new BigInt64Array([-5n, 5n]), [true, true], -5n, 5n],
    [new DurationMillisecond(), new BigInt64Array([7n, I64_MIN]), [true, true], I64_MIN, 7n],
    [new DurationMicrosecond(), new BigInt64Array([I64_MAX, 0n]), [true, true], 0n, I64_MAX],
    [new DurationNanosecond(), new BigInt64Array([2n, 1n, 3n]), [true, true, true], 1n, 3n],
  ];
  it.each(cases.map(([type, ...rest]) => [String(type), type, ...rest] as const))(
    "%s: min and max of the valid values, in storage units",
    (_, type, values, valid, min, max) => {
      expectStats(computeStats(fixedVector(type, values, valid)), min, max);
    },
  );

  it.each([new Utf8(), new LargeUtf8()].map((t) => [String(t), t] as const))("%s: min and max strings", (_, type) => {
    const vector = vectorFromArray(["pear", null, "apple", "", "zucchini", "apple pie"], type) as Vector;
    expectStats(computeStats(vector), "", "zucchini");
  });
});

describe("computeStats: FORMAT.md section 4 rules", () => {
  it("a type without stats gives null (Bool, Binary)", () => {
    expect(computeStats(vectorFromArray([true, false], new Bool()) as Vector)).toBeNull();
    expect(computeStats(vectorFromArray([new Uint8Array([1])], new Binary()) as Vector)).toBeNull();
  });

  it("null and NaN values do not count; ±Infinity does", () => {
    const values = new Float64Array([NaN, -100, 2, NaN, 1, 100]);
    expectStats(computeStats(fixedVector(new Float64(), values, [true, false, true, true, true, false])), 1, 2);
    expectStats(computeStats(fixedVector(new Float32(), new Float32Array([NaN, -Infinity, 3]))), -Infinity, 3);
    expectStats(computeStats(fixedVector(new Float32(), new Float32Array([Infinity, NaN]))), Infinity, Infinity);
  });

  it("of -0 and 0 the first one in the vector wins, as numpy's nanmin", () => {
    expectStats(computeStats(fixedVector(new Float64(), new Float64Array([-0, 0]))), -0, -0);
    expectStats(computeStats(fixedVector(new Float64(), new Float64Array([0, -0]))), 0, 0);
    expectStats(computeStats(fixedVector(new Float16(), new Uint16Array([0x8000, 0x0000]))), -0, -0);
  });

  it("no value counts (empty, all null, all NaN): min and max are null", () => {
    const none = { min: null, max: null };
    expect(computeStats(fixedVector(new Int32(), new Int32Array(0)))).toEqual(none);
    expect(computeStats(fixedVector(new Int64(), new BigInt64Array([1n, 2n]), [false, false]))).toEqual(none);
    expect(computeStats(fixedVector(new Float32(), new Float32Array([NaN, NaN])))).toEqual(none);
    expect(computeStats(fixedVector(new Float16(), new Uint16Array([0x7e00, 0xfe01])))).toEqual(none);
    expect(computeStats(vectorFromArray([null, null], new Utf8()) as Vector)).toEqual(none);
  });

  it("strings order by UTF-8 bytes, not JS (UTF-16) order", () => {
    // UTF-8: U+E000 (EE 80 80) < U+FFFF (EF BF BF) < U+1F600 (F0 9F 98 80);
    // UTF-16 puts the surrogate pair of U+1F600 (D83D ...) first.
    const strings = ["\uFFFF", "😀", "\uE000", "\u{10FFFF}", "\uFFFF\u0000"];
    for (const type of [new Utf8(), new LargeUtf8()]) {
      expectStats(computeStats(vectorFromArray(strings, type) as Vector), "\uE000", "\u{10FFFF}");
      expectStats(computeStats(vectorFromArray(["\uFFFF", "😀"], type) as Vector), "\uFFFF", "😀");
    }
    expect(["\uFFFF", "😀"].sort()).toEqual(["😀", "\uFFFF"]); // what JS order would have said
  });

  it("a prefix orders before the longer string", () => {
    expectStats(computeStats(vectorFromArray(["abc", "ab", "abd"], new Utf8()) as Vector), "ab", "abd");
  });

  it("works on sliced vectors: values, offsets and validity bits from the slice only", () => {
    const floats = fixedVector(new Float32(), new Float32Array([-9, 9, NaN, 4, -2, 3, 8]), [
      true,
      true,
      true,
      true,
      false,
      true,
      true,
    ]);
    expectStats(computeStats(floats.slice(2, 6)), 3, 4);
    const strings = vectorFromArray(["a", "z", "m", null, "c", "y"], new Utf8()) as Vector;
    expectStats(computeStats(strings.slice(2, 5)), "c", "m");
  });

  it("works on multi-chunk vectors", () => {
    const ints = chunked(
      fixedVector(new Int16(), new Int16Array([5, -7, 3, 9, -1, 2]), [true, true, false, true, true, true]),
      3,
    );
    expect(ints.data.length).toBe(3);
    expectStats(computeStats(ints), -7, 9);
    const strings = chunked(vectorFromArray(["m", "b", "x", "d"], new LargeUtf8()) as Vector, 2);
    expectStats(computeStats(strings), "b", "x");
  });

  it.each([
    ["Int32", new Int32(), (v: number[]) => Int32Array.from(v)],
    ["Float32", new Float32(), (v: number[]) => Float32Array.from(v)],
    ["Float64", new Float64(), (v: number[]) => Float64Array.from(v)],
  ] as const)("%s vectors of several 4096-value blocks, sliced, with nulls and NaN", (_, type, typed) => {
    const length = 10_000;
    const float = DataType.isFloat(type);
    const values = typed(
      Array.from({ length }, (_, i) => (i % 7 === 0 && float ? NaN : ((i * 7919) % 20_001) - 10_000)),
    );
    const valid = Array.from({ length }, (_, i) => i % 3 !== 0);
    const start = 5;
    const expected = naiveStats(
      [...values].map((v, i) => (valid[i] ? v : null)).slice(start),
      (a, b) => a < b,
      (v) => !Number.isNaN(v),
    );
    expectStats(computeStats(fixedVector(type, values, valid).slice(start)), expected.min, expected.max);
    const all = naiveStats(
      [...values],
      (a, b) => a < b,
      (v) => !Number.isNaN(v),
    );
    expectStats(computeStats(chunked(fixedVector(type, values), 3)), all.min, all.max);
  });
});

describe("computeStats equals a naive reference on random data", () => {
  // Random chunking (1 to 4 Data) and a random slice start.
  const layout = fc.record({ pieces: fc.integer({ min: 1, max: 4 }), start: fc.nat(5) });
  const RUNS = { seed: 42, numRuns: 200 };

  /** Vector of `values` (null -> invalid slot holding `filler`), laid out, vs the naive reference. */
  function check<T>(
    values: ReadonlyArray<T | null>,
    { pieces, start }: { pieces: number; start: number },
    build: (values: ReadonlyArray<T | null>) => Vector,
    less: (a: T, b: T) => boolean,
    counts?: (v: T) => boolean,
  ): void {
    const from = Math.min(start, values.length);
    const vector = chunked(build(values), pieces).slice(from);
    const expected = naiveStats(values.slice(from), less, counts);
    expectStats(computeStats(vector), expected.min as StatValue | null, expected.max as StatValue | null);
  }

  function fixed<T>(type: DataType, ArrayType: { from(values: T[]): ArrayLike<unknown> }, filler: T) {
    return (values: ReadonlyArray<T | null>): Vector =>
      fixedVector(
        type,
        ArrayType.from(values.map((v) => v ?? filler)),
        values.map((v) => v !== null),
      );
  }

  const numberLess = (a: number, b: number): boolean => a < b;
  const notNaN = (v: number): boolean => !Number.isNaN(v);

  it("Float64 with NaN, nulls, -0 and ±Infinity", () => {
    fc.assert(
      fc.property(fc.array(fc.option(fc.double(), { nil: null, freq: 4 })), layout, (values, l) =>
        check(values, l, fixed(new Float64(), Float64Array, -Infinity), numberLess, notNaN),
      ),
      RUNS,
    );
  });

  it("Float32 with NaN, nulls, -0 and ±Infinity", () => {
    fc.assert(
      fc.property(fc.array(fc.option(fc.float(), { nil: null, freq: 4 })), layout, (values, l) =>
        check(values, l, fixed(new Float32(), Float32Array, Infinity), numberLess, notNaN),
      ),
      RUNS,
    );
  });

  it("Float16 on random bits (NaN, -0, ±Infinity, subnormals)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.option(fc.integer({ min: 0, max: 0xffff }), { nil: null, freq: 4 })),
        layout,
        (bits, { pieces, start }) => {
          const vector = fixed(new Float16(), Uint16Array, 0xfc00)(bits);
          const decoded = bits.map((b, i) => (b === null ? null : (vector.get(i) as number)));
          const from = Math.min(start, bits.length);
          const expected = naiveStats(decoded.slice(from), numberLess, notNaN);
          expectStats(computeStats(chunked(vector, pieces).slice(from)), expected.min, expected.max);
        },
      ),
      RUNS,
    );
  });

  const ints: Array<[DataType, { from(values: number[]): ArrayLike<unknown> }, number, number]> = [
    [new Int8(), Int8Array, -128, 127],
    [new Uint8(), Uint8Array, 0, 255],
    [new Int16(), Int16Array, -32768, 32767],
    [new Uint16(), Uint16Array, 0, 65535],
    [new Int32(), Int32Array, -(2 ** 31), 2 ** 31 - 1],
    [new Uint32(), Uint32Array, 0, 2 ** 32 - 1],
  ];
  it.each(ints.map(([t, ...rest]) => [String(t), t, ...rest] as const))("%s", (_, type, ArrayType, min, max) => {
    fc.assert(
      fc.property(fc.array(fc.option(fc.integer({ min, max }), { nil: null, freq: 4 })), layout, (values, l) =>
        check(values, l, fixed(type, ArrayType, min), numberLess),
      ),
      RUNS,
    );
  });

  const bigints: Array<[DataType, { from(values: bigint[]): ArrayLike<unknown> }, bigint, bigint]> = [
    [new Int64(), BigInt64Array, I64_MIN, I64_MAX],
    [new Uint64(), BigUint64Array, 0n, U64_MAX],
    [new TimestampNanosecond(), BigInt64Array, I64_MIN, I64_MAX],
  ];
  it.each(bigints.map(([t, ...rest]) => [String(t), t, ...rest] as const))("%s", (_, type, ArrayType, min, max) => {
    fc.assert(
      fc.property(fc.array(fc.option(fc.bigInt({ min, max }), { nil: null, freq: 4 })), layout, (values, l) =>
        check(values, l, fixed(type, ArrayType, min), (a, b) => a < b),
      ),
      RUNS,
    );
  });

  // Code points around the UTF-8 / UTF-16 order difference, plus any code point.
  const unit = fc.oneof(
    fc.constantFrom("a", "b", "\u0000", "é", "\uE000", "\uFFFF", "😀", "\u{10FFFF}"),
    fc.string({ unit: "binary", minLength: 1, maxLength: 1 }),
  );
  it.each([new Utf8(), new LargeUtf8()].map((t) => [String(t), t] as const))(
    "%s of random unicode strings",
    (_, type) => {
      fc.assert(
        fc.property(
          fc.array(fc.option(fc.string({ unit, maxLength: 5 }), { nil: null, freq: 4 })),
          layout,
          (values, l) =>
            check(
              values,
              l,
              (v) => vectorFromArray([...v], type) as Vector,
              (a, b) => compareUtf8(a, b) < 0,
            ),
        ),
        RUNS,
      );
    },
  );
});
