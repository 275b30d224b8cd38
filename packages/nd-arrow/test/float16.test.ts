// Every path that turns JS numbers into Float16 rounds through
// @lance-nd/casting's numberToFloat16 (this package's README, first
// section), which casting's tests check against numpy; the reliability suite
// checks these paths against numpy on a real table (reliability/float16.test.ts).
import { Float16, type Vector } from "apache-arrow";
import { describe, expect, it } from "vitest";
import { numberToFloat16 } from "@lance-nd/casting";
import { NdArray, attr, decode, encode, NdRecordBatch, toVector } from "../src/index.js";

// Overflow, subnormals, underflow to ±0, ties to even (also one a Float32 detour gets wrong), NaN, -0, then seeded doubles.
const EDGES = [
  0,
  -0,
  1,
  65504,
  65519.99,
  65520,
  -65520,
  70000,
  1e300,
  Infinity,
  -Infinity,
  NaN,
  2 ** -14,
  -0.000061035156,
  1023 * 2 ** -24,
  1023.5 * 2 ** -24,
  2 ** -24,
  -(2 ** -24),
  2 ** -25,
  -(2 ** -25),
  2 ** -26,
  1.5 * 2 ** -24,
  1 + 2 ** -11,
  1 + 3 * 2 ** -11,
  1 + 2 ** -11 + 2 ** -40,
  2049,
  2051,
  65496,
  0.1,
];
let seed = 13;
const values = [
  ...EDGES,
  ...Array.from({ length: 300 }, () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return (seed / 2 ** 31) * 2 ** ((seed % 44) - 27) * (seed % 3 === 0 ? -1 : 1);
  }),
];

/** The raw half bits of a Float16 vector. */
function bits(vector: Vector): Uint16Array {
  return Uint16Array.from(
    vector.data.flatMap((d) => [...(d.values as Uint16Array).subarray(d.offset, d.offset + d.length)]),
  );
}

/** The values whose bits differ from numberToFloat16's (any NaN matches any NaN). */
function mismatches(got: Uint16Array): string[] {
  return values.flatMap((value, i) => {
    const want = numberToFloat16(value);
    return got[i] === want || (Number.isNaN(value) && (got[i]! & 0x7c00) === 0x7c00 && (got[i]! & 0x3ff) !== 0)
      ? []
      : [`${value}: 0x${got[i]?.toString(16)} instead of 0x${want.toString(16)}`];
  });
}

describe("numbers to Float16 round as IEEE does, through casting's numberToFloat16", () => {
  it("70000 is Infinity and -0.000061035156 the smallest normal, not 2.13 and -Infinity", () => {
    const array = NdArray.from([70000, -0.000061035156], { type: new Float16() });
    expect([...array.toArray()]).toEqual([Infinity, -(2 ** -14)]);
    expect(attr.float16([70000]).toJS()).toEqual([Infinity]);
    expect(attr.float16(70000).toJS()).toBe(Infinity);
  });

  it("NdArray.from of a JS array and of a Float64Array", () => {
    expect(mismatches(bits(NdArray.from(values, { type: new Float16() }).values))).toEqual([]);
    expect(mismatches(bits(NdArray.from(Float64Array.from(values), { type: new Float16() }).values))).toEqual([]);
  });

  it("attr.float16 (list and scalars), attr.of and toVector", () => {
    expect(mismatches(bits(attr.float16(values).value))).toEqual([]);
    expect(mismatches(bits(attr.of(new Float16(), values).value))).toEqual([]);
    expect(mismatches(bits(toVector(values, new Float16())))).toEqual([]);
    const scalars = Uint16Array.from(values.map((v) => bits(attr.float16(v).value)[0]!));
    expect(mismatches(scalars)).toEqual([]);
  });

  it("survive encode and decode bit for bit", () => {
    const [row] = decode(
      encode([new NdRecordBatch({ h: NdArray.from(values, { type: new Float16() }) }, { h16: attr.float16(values) })]),
    );
    expect(mismatches(bits(row!.get("h")!.values))).toEqual([]);
    expect(mismatches(bits(row!.globalAttrs.get("h16")!.value))).toEqual([]);
  });
});
