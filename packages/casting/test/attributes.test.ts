import { Field, Float32, Float64, Int32, Int64, List, makeVector, Utf8, vectorFromArray } from "apache-arrow";
import type { DataType } from "apache-arrow";
import { describe, expect, it } from "vitest";
import { canCastAttr, castAttrValue } from "../src/index.js";
import { valuesOf } from "./vectors.js";

const list = (t: DataType) => new List(new Field("item", t, true));

describe("attributes follow safe", () => {
  it("a scalar casts as safe allows", () => {
    expect(canCastAttr(new Float32(), new Float64())).toBe(true);
    expect(canCastAttr(new Float64(), new Float32())).toBe(false);
  });

  it("a scalar and a List never cast to each other", () => {
    expect(canCastAttr(new Float32(), list(new Float32()))).toBe(false);
    expect(canCastAttr(list(new Float32()), new Float32())).toBe(false);
  });

  it("List<A> -> List<B> iff A -> B is safe", () => {
    expect(canCastAttr(list(new Int32()), list(new Int64()))).toBe(true);
    expect(canCastAttr(list(new Int64()), list(new Int32()))).toBe(false);
    expect(canCastAttr(list(new Utf8()), list(new Int32()))).toBe(false);
  });

  it("castAttrValue casts a scalar attribute", () => {
    expect(valuesOf(castAttrValue(makeVector(new Float32Array([1.5])), new Float64()))).toEqual([1.5]);
  });

  it("castAttrValue casts the values of a List attribute, keeping offsets and nulls", () => {
    const v = vectorFromArray([[1, 2], null, [3]], list(new Int32()));
    const out = castAttrValue(v, list(new Int64()));
    expect(valuesOf(out).map((x) => (x === null ? null : Array.from(x as Iterable<unknown>)))).toEqual([
      [1n, 2n],
      null,
      [3n],
    ]);
  });

  it("castAttrValue refuses what canCastAttr refuses: InvalidCast", () => {
    expect(() => castAttrValue(makeVector(new Float64Array([1])), new Float32())).toThrow(
      expect.objectContaining({ code: "InvalidCast", casting: "safe" }),
    );
  });
});
