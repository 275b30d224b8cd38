import {
  Binary,
  DateDay,
  DateMillisecond,
  Decimal,
  Duration,
  Field,
  Float64,
  Int32,
  Int64,
  LargeBinary,
  LargeUtf8,
  List,
  Struct,
  TimeMicrosecond,
  TimeMillisecond,
  TimeNanosecond,
  TimeSecond,
  TimeUnit,
  Timestamp,
  Utf8,
} from "apache-arrow";
import type { DataType } from "apache-arrow";
import { describe, expect, it } from "vitest";
import { canCast, castLevel, isCastingError, promoteTypes, sameType } from "../src/index.js";
import type { Casting } from "../src/index.js";

const ts = (unit: TimeUnit, tz?: string) => new Timestamp(unit, tz ?? null);
const dur = (unit: TimeUnit) => new Duration(unit);
const list = (t: DataType) => new List(new Field("item", t));

/** The casting modes that allow `from` -> `to`. */
function modes(from: DataType, to: DataType): Casting[] {
  return (["no", "safe", "same_kind"] as const).filter((c) => canCast(from, to, c));
}

function noCommonType(a: DataType, b: DataType): boolean {
  try {
    promoteTypes(a, b);
    return false;
  } catch (err) {
    return isCastingError(err, "NoCommonType");
  }
}

describe("canCast over non-numeric types", () => {
  it("identical types cast under every mode, including no", () => {
    for (const t of [
      new Utf8(),
      ts(TimeUnit.SECOND, "UTC"),
      list(new Int32()),
      new Struct([new Field("a", new Int32())]),
      new Decimal(2, 10, 128),
    ]) {
      expect(modes(t, t)).toEqual(["no", "safe", "same_kind"]);
    }
  });

  it("Utf8 <-> LargeUtf8 is safe, not no; promotes to LargeUtf8", () => {
    expect(modes(new Utf8(), new LargeUtf8())).toEqual(["safe", "same_kind"]);
    expect(modes(new LargeUtf8(), new Utf8())).toEqual(["safe", "same_kind"]);
    expect(sameType(promoteTypes(new Utf8(), new LargeUtf8()), new LargeUtf8())).toBe(true);
  });

  it("Binary <-> LargeBinary is safe; Binary and Utf8 never cast", () => {
    expect(modes(new Binary(), new LargeBinary())).toEqual(["safe", "same_kind"]);
    expect(modes(new Binary(), new Utf8())).toEqual([]);
    expect(modes(new Utf8(), new Binary())).toEqual([]);
    expect(noCommonType(new Utf8(), new Binary())).toBe(true);
  });

  it("Timestamp: a coarser -> finer unit is safe, finer -> coarser only same_kind", () => {
    expect(modes(ts(TimeUnit.SECOND), ts(TimeUnit.NANOSECOND))).toEqual(["safe", "same_kind"]);
    expect(modes(ts(TimeUnit.NANOSECOND), ts(TimeUnit.SECOND))).toEqual(["same_kind"]);
    expect(sameType(promoteTypes(ts(TimeUnit.SECOND), ts(TimeUnit.MILLISECOND)), ts(TimeUnit.MILLISECOND))).toBe(true);
  });

  it("Duration follows the same unit rule as numpy's timedelta64", () => {
    expect(modes(dur(TimeUnit.MILLISECOND), dur(TimeUnit.MICROSECOND))).toEqual(["safe", "same_kind"]);
    expect(modes(dur(TimeUnit.MICROSECOND), dur(TimeUnit.MILLISECOND))).toEqual(["same_kind"]);
    expect(sameType(promoteTypes(dur(TimeUnit.SECOND), dur(TimeUnit.NANOSECOND)), dur(TimeUnit.NANOSECOND))).toBe(true);
  });

  it("Time32 <-> Time64 follows the unit rule; promotion picks the width of the finer unit", () => {
    expect(modes(new TimeSecond(), new TimeNanosecond())).toEqual(["safe", "same_kind"]);
    expect(modes(new TimeMicrosecond(), new TimeMillisecond())).toEqual(["same_kind"]);
    expect(sameType(promoteTypes(new TimeSecond(), new TimeMicrosecond()), new TimeMicrosecond())).toBe(true);
    expect(sameType(promoteTypes(new TimeSecond(), new TimeMillisecond()), new TimeMillisecond())).toBe(true);
  });

  it("a time zone change (or adding/removing one) is same_kind, not safe; no common type across zones", () => {
    expect(modes(ts(TimeUnit.SECOND, "UTC"), ts(TimeUnit.SECOND, "Europe/Paris"))).toEqual(["same_kind"]);
    expect(modes(ts(TimeUnit.SECOND), ts(TimeUnit.MILLISECOND, "UTC"))).toEqual(["same_kind"]);
    expect(modes(ts(TimeUnit.SECOND, "UTC"), ts(TimeUnit.MILLISECOND))).toEqual(["same_kind"]);
    expect(modes(ts(TimeUnit.SECOND, "UTC"), ts(TimeUnit.MILLISECOND, "UTC"))).toEqual(["safe", "same_kind"]);
    expect(noCommonType(ts(TimeUnit.SECOND, "UTC"), ts(TimeUnit.SECOND, "Europe/Paris"))).toBe(true);
  });

  it("Date32 (days) -> Date64 (milliseconds) is safe, back is same_kind", () => {
    expect(modes(new DateDay(), new DateMillisecond())).toEqual(["safe", "same_kind"]);
    expect(modes(new DateMillisecond(), new DateDay())).toEqual(["same_kind"]);
    expect(sameType(promoteTypes(new DateDay(), new DateMillisecond()), new DateMillisecond())).toBe(true);
  });

  it("a Date casts to a naive Timestamp by units (Date32 as datetime64[D], Date64 as datetime64[ms])", () => {
    expect(modes(new DateDay(), ts(TimeUnit.SECOND))).toEqual(["safe", "same_kind"]);
    expect(modes(new DateMillisecond(), ts(TimeUnit.MILLISECOND))).toEqual(["safe", "same_kind"]);
    expect(modes(new DateMillisecond(), ts(TimeUnit.SECOND))).toEqual(["same_kind"]);
    expect(sameType(promoteTypes(new DateDay(), ts(TimeUnit.SECOND)), ts(TimeUnit.SECOND))).toBe(true);
    expect(sameType(promoteTypes(new DateMillisecond(), ts(TimeUnit.SECOND)), ts(TimeUnit.MILLISECOND))).toBe(true);
  });

  it("a Timestamp casts to a Date only same_kind (it floors to the day)", () => {
    expect(modes(ts(TimeUnit.MILLISECOND), new DateMillisecond())).toEqual(["same_kind"]);
    expect(modes(ts(TimeUnit.SECOND), new DateDay())).toEqual(["same_kind"]);
  });

  it("a Date to a Timestamp with a time zone is same_kind; no common type", () => {
    expect(modes(new DateDay(), ts(TimeUnit.SECOND, "UTC"))).toEqual(["same_kind"]);
    expect(noCommonType(new DateDay(), ts(TimeUnit.SECOND, "UTC"))).toBe(true);
  });

  it("datetime, duration and time of day never cast to each other", () => {
    const [stamp, duration, time, date] = [ts(TimeUnit.SECOND), dur(TimeUnit.SECOND), new TimeSecond(), new DateDay()];
    for (const [a, b] of [
      [stamp, duration],
      [stamp, time],
      [duration, time],
      [date, duration],
      [date, time],
    ] as const) {
      expect(modes(a, b)).toEqual([]);
      expect(modes(b, a)).toEqual([]);
      expect(noCommonType(a, b)).toBe(true);
    }
  });

  it("numbers and non-numbers never cast to each other", () => {
    for (const [a, b] of [
      [new Int64(), ts(TimeUnit.SECOND)],
      [new Int32(), new Utf8()],
      [new Float64(), new Decimal(2, 10, 128)],
    ] as const) {
      expect(modes(a, b)).toEqual([]);
      expect(modes(b, a)).toEqual([]);
      expect(noCommonType(a, b)).toBe(true);
    }
  });

  it("Lists, Structs and Decimals cast only to an identical type", () => {
    expect(modes(list(new Int32()), list(new Int64()))).toEqual([]);
    expect(modes(new Decimal(2, 10, 128), new Decimal(2, 12, 128))).toEqual([]);
    expect(noCommonType(list(new Int32()), list(new Int64()))).toBe(true);
  });

  it("castLevel names the weakest mode that allows a cast", () => {
    expect(castLevel(new Int32(), new Int64())).toBe("safe");
    expect(castLevel(new Int64(), new Int32())).toBe("same_kind");
    expect(castLevel(new Float64(), new Int32())).toBeUndefined();
  });

  it("an unknown casting mode is an InvalidCast error", () => {
    expect(() => canCast(new Int32(), new Int64(), "unsafe" as Casting)).toThrow(
      expect.objectContaining({ code: "InvalidCast" }),
    );
  });
});
