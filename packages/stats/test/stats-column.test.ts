import {
  Binary,
  Bool,
  Precision,
  DateDay,
  DateMillisecond,
  DurationNanosecond,
  Float16,
  Float32,
  Float64,
  Int32,
  Int64,
  Int8,
  LargeUtf8,
  type Struct,
  TimeMillisecond,
  TimeNanosecond,
  TimestampMicrosecond,
  TimestampNanosecond,
  Type,
  Uint64,
  Utf8,
  vectorFromArray,
} from "apache-arrow";
import { DataType } from "apache-arrow";
import type { Vector } from "apache-arrow";
import { describe, expect, it } from "vitest";
import { buildStatsColumn, computeStats, isStatsError, statsField } from "../src/index.js";
import { fixedVector } from "./vectors.js";

function errorOf(run: () => unknown): unknown {
  try {
    run();
  } catch (err) {
    return err;
  }
  throw new Error("expected an error");
}

describe("statsField (FORMAT.md 4.1)", () => {
  it("is a nullable __stats__:<variable> Struct{min: T, max: T} with nullable children", () => {
    const field = statsField("sst", new Float32());
    expect(field.name).toBe("__stats__:sst");
    expect(field.nullable).toBe(true);
    expect(field.type.typeId).toBe(Type.Struct);
    expect((field.type as Struct).children.map((c) => [c.name, String(c.type), c.nullable])).toEqual([
      ["min", "Float32", true],
      ["max", "Float32", true],
    ]);
  });

  it("keeps the variable's exact type (unit, time zone)", () => {
    const type = new TimestampMicrosecond("UTC");
    expect((statsField("t", type).type as Struct).children.map((c) => String(c.type))).toEqual([
      String(type),
      String(type),
    ]);
  });

  it("a type without stats fails with UnsupportedType naming the variable", () => {
    const err = errorOf(() => statsField("mask", new Bool()));
    expect(isStatsError(err, "UnsupportedType")).toBe(true);
    expect((err as Error).message).toContain('variable "mask"');
  });
});

describe("buildStatsColumn (FORMAT.md 4.3 to 4.5)", () => {
  it("one row per entry: a null entry is a null row, whose min and max are null", () => {
    const column = buildStatsColumn(new Int32(), [fixedVector(new Int32(), new Int32Array([4, -1, 9])), null]);
    expect(column.length).toBe(2);
    expect(column.nullCount).toBe(1);
    expect(column.get(0)?.toJSON()).toEqual({ min: -1, max: 9 });
    expect(column.isValid(1)).toBe(false);
    expect(column.getChild("min")!.get(1)).toBeNull();
    expect(column.getChild("max")!.get(1)).toBeNull();
  });

  it("a row where no value counts is valid, with null min and max", () => {
    const rows = [
      fixedVector(new Float64(), new Float64Array([NaN, NaN])),
      fixedVector(new Float64(), new Float64Array([1, 2]), [false, false]),
      fixedVector(new Float64(), new Float64Array(0)),
    ];
    const column = buildStatsColumn(new Float64(), rows);
    expect(column.nullCount).toBe(0);
    for (let row = 0; row < rows.length; row++) {
      expect(column.isValid(row)).toBe(true);
      expect(column.get(row)?.toJSON()).toEqual({ min: null, max: null });
    }
  });

  it("has the type of statsField", () => {
    const column = buildStatsColumn(new Int8(), []);
    expect(String(column.type)).toBe(String(statsField("x", new Int8()).type));
    expect(column.length).toBe(0);
  });

  // For every storage: the stats column holds computeStats' values, and
  // Arrow reads them back as it reads the source values (exact round trip).
  const cases: Array<[DataType, Vector]> = [
    [new Int8(), fixedVector(new Int8(), new Int8Array([3, -7, 5]))],
    [new Uint64(), fixedVector(new Uint64(), new BigUint64Array([2n ** 64n - 1n, 0n]))],
    [new Int64(), fixedVector(new Int64(), new BigInt64Array([-(2n ** 63n), 1n]), [false, true])],
    [new Float16(), fixedVector(new Float16(), new Uint16Array([0x3c00, 0x7e00, 0xc000]))],
    [new Float32(), fixedVector(new Float32(), new Float32Array([0.1, -Infinity, NaN]))],
    [new DateDay(), fixedVector(new DateDay(), new Int32Array([19000, 3]))],
    [new DateMillisecond(), fixedVector(new DateMillisecond(), new BigInt64Array([86_400_000n, 0n]))],
    [
      new TimestampNanosecond("UTC"),
      fixedVector(new TimestampNanosecond("UTC"), new BigInt64Array([1_700_000_000_123_456_789n, 7n])),
    ],
    [new TimeMillisecond(), fixedVector(new TimeMillisecond(), new Int32Array([999, 1000]))],
    [new TimeNanosecond(), fixedVector(new TimeNanosecond(), new BigInt64Array([5n, 4n]))],
    [new DurationNanosecond(), fixedVector(new DurationNanosecond(), new BigInt64Array([-5n, 5n]))],
    [new Utf8(), vectorFromArray(["\uFFFF", "😀", null, "a"], new Utf8()) as Vector],
    [new LargeUtf8(), vectorFromArray(["b", "é", "a"], new LargeUtf8()) as Vector],
  ];
  it.each(cases.map(([t, v]) => [String(t), t, v] as const))(
    "%s: min and max round-trip exactly",
    (_, type, vector) => {
      const column = buildStatsColumn(type, [null, vector, vector.slice(0, 0)]);
      const [min, max] = [column.getChild("min")!, column.getChild("max")!];
      const expected = computeStats(vector)!;
      for (const [child, stat] of [
        [min, expected.min],
        [max, expected.max],
      ] as const) {
        expect(String(child.type)).toBe(String(type));
        // Strings and Float16 through get(), every other type as stored.
        const decoded =
          DataType.isUtf8(type) ||
          DataType.isLargeUtf8(type) ||
          (DataType.isFloat(type) && (type as Float16).precision === Precision.HALF);
        expect(decoded ? child.get(1) : child.data[0]!.values[1]).toBe(stat);
        // Arrow's own get() of the stat equals its get() of the source element.
        const index = [...Array(vector.length).keys()].find(
          (i) => vector.isValid(i) && Object.is(child.get(1), vector.get(i)),
        );
        expect(index).toBeDefined();
        expect(child.isValid(0)).toBe(false);
        expect(child.isValid(2)).toBe(false);
      }
      expect([column.isValid(0), column.isValid(1), column.isValid(2)]).toEqual([false, true, true]);
    },
  );

  it("strings are copied as bytes (the column does not share the row's buffer)", () => {
    const row = vectorFromArray(["kiwi", "fig"], new Utf8()) as Vector;
    const column = buildStatsColumn(new Utf8(), [row, row]);
    expect(column.toArray().map((r: { toJSON(): unknown } | null) => r?.toJSON())).toEqual([
      { min: "fig", max: "kiwi" },
      { min: "fig", max: "kiwi" },
    ]);
    expect(column.getChild("min")!.data[0]!.values.buffer).not.toBe(row.data[0]!.values.buffer);
  });

  it("works on sliced and multi-chunk rows", () => {
    const row = fixedVector(new Int32(), new Int32Array([100, 1, 2, 3, -100]));
    const column = buildStatsColumn(new Int32(), [row.slice(1, 4), row.slice(0, 2).concat(row.slice(4))]);
    expect(column.toArray().map((r: { toJSON(): unknown } | null) => r?.toJSON())).toEqual([
      { min: 1, max: 3 },
      { min: -100, max: 100 },
    ]);
  });

  it("a type without stats fails with UnsupportedType", () => {
    expect(
      isStatsError(
        errorOf(() => buildStatsColumn(new Bool(), [])),
        "UnsupportedType",
      ),
    ).toBe(true);
    expect(
      isStatsError(
        errorOf(() => buildStatsColumn(new Binary(), [])),
        "UnsupportedType",
      ),
    ).toBe(true);
  });

  it("a row vector of another type fails with TypeMismatch naming the row", () => {
    const rows = [
      fixedVector(new Int32(), new Int32Array([1])),
      null,
      fixedVector(new Float32(), new Float32Array([1])),
    ];
    const err = errorOf(() => buildStatsColumn(new Int32(), rows));
    expect(isStatsError(err, "TypeMismatch")).toBe(true);
    expect((err as { row?: number }).row).toBe(2);
    const unit = errorOf(() =>
      buildStatsColumn(new TimestampNanosecond(), [fixedVector(new TimestampMicrosecond(), new BigInt64Array([1n]))]),
    );
    expect(isStatsError(unit, "TypeMismatch")).toBe(true);
  });
});
