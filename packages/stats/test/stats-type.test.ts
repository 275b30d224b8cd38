import {
  Binary,
  Bool,
  DateDay,
  DateMillisecond,
  Decimal,
  Dictionary,
  DurationMicrosecond,
  DurationMillisecond,
  DurationNanosecond,
  DurationSecond,
  Field,
  FixedSizeBinary,
  Float16,
  Float32,
  Float64,
  Int16,
  Int32,
  Int64,
  Int8,
  LargeBinary,
  LargeUtf8,
  List,
  Null,
  Struct,
  TimeMicrosecond,
  TimeMillisecond,
  TimeNanosecond,
  TimeSecond,
  TimestampMicrosecond,
  TimestampMillisecond,
  TimestampNanosecond,
  TimestampSecond,
  Type,
  Uint16,
  Uint32,
  Uint64,
  Uint8,
  Utf8,
} from "apache-arrow";
import type { DataType } from "apache-arrow";
import { describe, expect, it } from "vitest";
import { StatsError, hasStats, statsType } from "../src/index.js";

describe("hasStats (FORMAT.md 4.2)", () => {
  const withStats: DataType[] = [
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
    new Utf8(),
    new LargeUtf8(),
    new TimestampSecond(),
    new TimestampMillisecond("UTC"),
    new TimestampMicrosecond(),
    new TimestampNanosecond("Europe/Paris"),
    new DateDay(),
    new DateMillisecond(),
    new TimeSecond(),
    new TimeMillisecond(),
    new TimeMicrosecond(),
    new TimeNanosecond(),
    new DurationSecond(),
    new DurationMillisecond(),
    new DurationMicrosecond(),
    new DurationNanosecond(),
  ];
  it.each(withStats.map((t) => [String(t), t] as const))("%s gets stats", (_, type) => {
    expect(hasStats(type)).toBe(true);
  });

  const withoutStats: DataType[] = [
    new Bool(),
    new Binary(),
    new LargeBinary(),
    new FixedSizeBinary(4),
    new Null(),
    new Decimal(2, 10, 128),
    new List(new Field("item", new Float32())),
    new Struct([new Field("a", new Int32())]),
    new Dictionary(new Utf8(), new Int32()),
  ];
  it.each(withoutStats.map((t) => [String(t), t] as const))("%s gets no stats", (_, type) => {
    expect(hasStats(type)).toBe(false);
  });

  it("decides on typeId and parameters, so a type from another apache-arrow copy works", () => {
    const foreign = (fields: object) => fields as DataType;
    expect(hasStats(foreign({ typeId: Type.Int, bitWidth: 16, isSigned: false }))).toBe(true);
    expect(hasStats(foreign({ typeId: Type.Float, precision: 2 }))).toBe(true);
    expect(hasStats(foreign({ typeId: Type.Bool }))).toBe(false);
    expect(hasStats(foreign({ typeId: Type.Binary }))).toBe(false);
  });
});

describe("statsType", () => {
  it("is Struct{min: T, max: T} with nullable children for a type that gets stats", () => {
    const type = statsType(new TimestampMillisecond("UTC"));
    expect(type.children.map((f) => [f.name, String(f.type), f.nullable])).toEqual([
      ["min", String(new TimestampMillisecond("UTC")), true],
      ["max", String(new TimestampMillisecond("UTC")), true],
    ]);
  });

  it("throws UnsupportedType for a type that gets none", () => {
    expect(() => statsType(new Bool())).toThrow(StatsError);
    expect(() => statsType(new Bool())).toThrow(/Bool gets no stats/);
  });
});
