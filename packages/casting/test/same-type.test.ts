import {
  DateDay, DateMillisecond, Dictionary, Field, Float32, Float64, Int16, Int32, List, Struct, TimestampMillisecond,
  TimestampSecond, TimeMillisecond, Uint32, Utf8,
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

  it("decides on typeId and parameters, so a type object from another apache-arrow copy compares equal", () => {
    const foreign = { typeId: new Int32().typeId, bitWidth: 32, isSigned: true } as unknown as Int32;
    expect(sameType(foreign, new Int32())).toBe(true);
  });
});
