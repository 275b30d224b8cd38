import {
  DateDay,
  DateMillisecond,
  Decimal,
  Dictionary,
  Duration,
  Field,
  FixedSizeBinary,
  FixedSizeList,
  Float16,
  Float32,
  Float64,
  Int16,
  Int32,
  Int64,
  IntervalDayTime,
  IntervalYearMonth,
  List,
  Map_,
  Struct,
  Time,
  TimeUnit,
  TimestampMillisecond,
  TimestampSecond,
  TimeMillisecond,
  Uint32,
  Union,
  UnionMode,
  Utf8,
} from "apache-arrow";
import { describe, expect, it } from "vitest";
import { sameType } from "../src/index.js";

describe("sameType", () => {
  it("integers compare width and sign", () => {
    expect(sameType(new Int32(), new Int32())).toBe(true);
    expect(sameType(new Int32(), new Uint32())).toBe(false);
    expect(sameType(new Int32(), new Int16())).toBe(false);
  });

  it("floats compare precision", () => {
    expect(sameType(new Float32(), new Float64())).toBe(false);
  });

  it("timestamps compare unit and time zone (undefined and null zones are the same)", () => {
    expect(sameType(new TimestampSecond("UTC"), new TimestampSecond("UTC"))).toBe(true);
    expect(sameType(new TimestampSecond("UTC"), new TimestampSecond())).toBe(false);
    expect(sameType(new TimestampSecond(), new TimestampMillisecond())).toBe(false);
    expect(sameType(new TimestampSecond(), new TimestampSecond(null))).toBe(true);
  });

  it("dates and times compare units", () => {
    expect(sameType(new DateDay(), new DateMillisecond())).toBe(false);
    expect(sameType(new TimeMillisecond(), new TimeMillisecond())).toBe(true);
  });

  it("lists compare value types, not the child name or nullability", () => {
    const a = new List(new Field("item", new Float32(), true));
    expect(sameType(a, new List(new Field("element", new Float32(), false)))).toBe(true);
    expect(sameType(a, new List(new Field("item", new Float64(), true)))).toBe(false);
  });

  it("structs compare field names and types, not nullability", () => {
    const a = new Struct([new Field("x", new Int32(), true), new Field("y", new Utf8())]);
    expect(sameType(a, new Struct([new Field("x", new Int32(), false), new Field("y", new Utf8())]))).toBe(true);
    expect(sameType(a, new Struct([new Field("x", new Int32()), new Field("z", new Utf8())]))).toBe(false);
    expect(sameType(a, new Struct([new Field("x", new Int32())]))).toBe(false);
  });

  it("dictionaries compare index and value types", () => {
    expect(sameType(new Dictionary(new Utf8(), new Int32()), new Dictionary(new Utf8(), new Int32()))).toBe(true);
    expect(sameType(new Dictionary(new Utf8(), new Int32()), new Dictionary(new Utf8(), new Int16()))).toBe(false);
  });

  it("floats, times and durations compare precision, unit and width", () => {
    expect(sameType(new Float32(), new Float16())).toBe(false);
    expect(sameType(new Time(TimeUnit.MICROSECOND, 64), new Time(TimeUnit.NANOSECOND, 64))).toBe(false);
    expect(sameType(new Duration(TimeUnit.SECOND), new Duration(TimeUnit.MILLISECOND))).toBe(false);
    expect(sameType(new Duration(TimeUnit.SECOND), new Duration(TimeUnit.SECOND))).toBe(true);
  });

  it("decimals compare precision, scale and bit width", () => {
    expect(sameType(new Decimal(2, 10, 128), new Decimal(2, 10, 128))).toBe(true);
    expect(sameType(new Decimal(2, 10, 128), new Decimal(3, 10, 128))).toBe(false);
    expect(sameType(new Decimal(2, 10, 128), new Decimal(2, 12, 128))).toBe(false);
    expect(sameType(new Decimal(2, 10, 128), new Decimal(2, 10, 256))).toBe(false);
  });

  it("fixed size lists compare the list size and the item type, not the item name", () => {
    const a = new FixedSizeList(3, new Field("item", new Float32(), true));
    expect(sameType(a, new FixedSizeList(3, new Field("element", new Float32(), false)))).toBe(true);
    expect(sameType(a, new FixedSizeList(4, new Field("item", new Float32(), true)))).toBe(false);
    expect(sameType(a, new FixedSizeList(3, new Field("item", new Float64(), true)))).toBe(false);
  });

  it("fixed size binaries compare the byte width; intervals the unit", () => {
    expect(sameType(new FixedSizeBinary(16), new FixedSizeBinary(16))).toBe(true);
    expect(sameType(new FixedSizeBinary(16), new FixedSizeBinary(8))).toBe(false);
    expect(sameType(new IntervalDayTime(), new IntervalYearMonth())).toBe(false);
  });

  it("maps compare key and value types and keysSorted", () => {
    const entries = (value: Float32 | Int64) =>
      new Field("entries", new Struct([new Field("key", new Utf8(), false), new Field("value", value, true)]), false);
    expect(sameType(new Map_(entries(new Float32())), new Map_(entries(new Float32())))).toBe(true);
    expect(sameType(new Map_(entries(new Float32())), new Map_(entries(new Int64())))).toBe(false);
    expect(sameType(new Map_(entries(new Float32()), true), new Map_(entries(new Float32()), false))).toBe(false);
  });

  it("unions compare mode, type ids, field names and types", () => {
    const fields = [new Field("i", new Int32()), new Field("s", new Utf8())];
    const union = (mode: UnionMode, ids: number[], f: Field[]) => new Union(mode, ids, f);
    expect(sameType(union(UnionMode.Sparse, [0, 1], fields), union(UnionMode.Sparse, [0, 1], fields))).toBe(true);
    expect(sameType(union(UnionMode.Sparse, [0, 1], fields), union(UnionMode.Dense, [0, 1], fields))).toBe(false);
    expect(sameType(union(UnionMode.Sparse, [0, 1], fields), union(UnionMode.Sparse, [1, 0], fields))).toBe(false);
    const renamed = [new Field("i", new Int32()), new Field("t", new Utf8())];
    expect(sameType(union(UnionMode.Sparse, [0, 1], fields), union(UnionMode.Sparse, [0, 1], renamed))).toBe(false);
  });

  it("dictionaries compare ordering", () => {
    expect(
      sameType(new Dictionary(new Utf8(), new Int32(), 0, true), new Dictionary(new Utf8(), new Int32(), 0, false)),
    ).toBe(false);
  });

  it("decides on typeId and parameters, so a type object from another apache-arrow copy compares equal", () => {
    const foreign = { typeId: new Int32().typeId, bitWidth: 32, isSigned: true } as unknown as Int32;
    expect(sameType(foreign, new Int32())).toBe(true);
  });
});
