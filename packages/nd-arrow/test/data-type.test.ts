import { describe, expect, it } from "vitest";
import {
  Field,
  Float16,
  Float32,
  Int32,
  List,
  Struct,
  Time,
  TimeUnit,
  Timestamp,
  Uint32,
  Utf8,
  DateDay,
  DateMillisecond,
  Duration,
} from "apache-arrow";
import { sameType } from "../src/index.js";
import { isFloat16, typedArrayType } from "../src/data-type.js";

describe("sameType", () => {
  it("compares parameters, not just the type id", () => {
    expect(sameType(new Int32(), new Int32())).toBe(true);
    expect(sameType(new Int32(), new Uint32())).toBe(false);
    expect(sameType(new Float32(), new Float16())).toBe(false);
    expect(sameType(new Timestamp(TimeUnit.SECOND, "UTC"), new Timestamp(TimeUnit.SECOND, "UTC"))).toBe(true);
    expect(sameType(new Timestamp(TimeUnit.SECOND, "UTC"), new Timestamp(TimeUnit.SECOND))).toBe(false);
    expect(sameType(new Timestamp(TimeUnit.SECOND), new Timestamp(TimeUnit.MILLISECOND))).toBe(false);
    expect(sameType(new DateDay(), new DateMillisecond())).toBe(false);
    expect(sameType(new Time(TimeUnit.MICROSECOND, 64), new Time(TimeUnit.NANOSECOND, 64))).toBe(false);
    expect(sameType(new Duration(TimeUnit.SECOND), new Duration(TimeUnit.MILLISECOND))).toBe(false);
  });

  it("lists compare item types (not item names or nullability); structs compare field names and types", () => {
    expect(sameType(new List(new Field("item", new Utf8(), true)), new List(new Field("element", new Utf8(), false)))).toBe(true);
    expect(sameType(new List(new Field("item", new Utf8())), new List(new Field("item", new Int32())))).toBe(false);
    expect(sameType(new Struct([new Field("a", new Int32())]), new Struct([new Field("b", new Int32())]))).toBe(false);
  });

  it("works on types of another apache-arrow copy (typeId only, no instanceof)", () => {
    const foreign = { typeId: new Int32().typeId, bitWidth: 32, isSigned: true } as unknown as Int32;
    expect(sameType(foreign, new Int32())).toBe(true);
  });
});

describe("type guards", () => {
  it("isFloat16 is true only for half floats", () => {
    expect(isFloat16(new Float16())).toBe(true);
    expect(isFloat16(new Float32())).toBe(false);
    expect(isFloat16(new Uint32())).toBe(false);
  });

  it("typedArrayType maps every typed array to its element type", () => {
    const cases: [ArrayBufferView, string][] = [
      [new Int8Array(), "Int8"],
      [new Int16Array(), "Int16"],
      [new Int32Array(), "Int32"],
      [new BigInt64Array(), "Int64"],
      [new Uint8Array(), "Uint8"],
      [new Uint8ClampedArray(), "Uint8"],
      [new Uint16Array(), "Uint16"],
      [new Uint32Array(), "Uint32"],
      [new BigUint64Array(), "Uint64"],
      [new Float32Array(), "Float32"],
      [new Float64Array(), "Float64"],
    ];
    for (const [array, type] of cases) expect(String(typedArrayType(array as never))).toBe(type);
  });
});
