import { describe, expect, it } from "vitest";
import { makeData, makeVector, Timestamp, TimeUnit } from "apache-arrow";
import { NdArray } from "@lance-nd/nd-arrow";
import { timeFormat, timeTexts } from "../../src/output/time-text.js";

/** A 1-D timestamp array of `ticks` (0 stands for null when `nulls`). */
function timestamps(ticks: bigint[], unit: TimeUnit, timezone: string | null, nulls = false): NdArray {
  const bitmap = nulls ? Uint8Array.of(ticks.reduce((bits, t, i) => (t === 0n ? bits : bits | (1 << i)), 0)) : null;
  const type = new Timestamp(unit, timezone);
  const vector = makeVector(
    makeData({ type, data: BigInt64Array.from(ticks), nullBitmap: bitmap, nullCount: nulls ? -1 : 0 }),
  );
  return NdArray.from(vector, { dims: { time: ticks.length } });
}

const texts = (array: NdArray): (string | null)[] => timeTexts(array.values, timeFormat(array)!);

describe("times as the command line prints them", () => {
  it("timestamps: ISO 8601 in UTC to the nanosecond, a fraction only when there is one; nulls stay null", () => {
    const ns = timestamps([984_614_400_000_000_000n, 984_614_400_000_000_001n, 0n], TimeUnit.NANOSECOND, "UTC", true);
    expect(texts(ns)).toEqual(["2001-03-15T00:00:00Z", "2001-03-15T00:00:00.000000001Z", null]);
    expect(texts(timestamps([-1n], TimeUnit.SECOND, "UTC"))).toEqual(["1969-12-31T23:59:59Z"]);
  });

  it("a timestamp without a time zone prints without Z", () => {
    expect(texts(timestamps([984_614_400_000n], TimeUnit.MILLISECOND, null))).toEqual(["2001-03-15T00:00:00"]);
  });

  it("CF times of each calendar; NaN and a raw fill value print as numbers; other units are no times", () => {
    const time = (calendar: string, values: number[]) =>
      NdArray.from(Float64Array.from(values), {
        dims: { time: values.length },
        attrs: { units: "days since 2000-01-01", calendar },
      });
    expect(texts(time("360_day", [59, Number.NaN, 9.969209968386869e36]))).toEqual([
      "2000-02-30 00:00:00",
      "NaN",
      "9.969209968386869e+36",
    ]);
    expect(texts(time("gregorian", [74.5]))).toEqual(["2000-03-15T12:00:00Z"]);
    const kelvin = NdArray.from(Float32Array.of(1), { dims: { x: 1 }, attrs: { units: "K" } });
    expect(timeFormat(kelvin)).toBeUndefined();
    expect(timeFormat(time("lunar", [0]))).toBeUndefined();
  });
});
