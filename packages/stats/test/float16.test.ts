import { Float16, makeData, makeVector } from "apache-arrow";
import { describe, expect, it } from "vitest";
import { float16ToNumber } from "../src/float16.js";

describe("float16ToNumber", () => {
  it("decodes normal, subnormal, signed zero, infinite and NaN bits", () => {
    expect(float16ToNumber(0x3c00)).toBe(1);
    expect(float16ToNumber(0xc000)).toBe(-2);
    expect(float16ToNumber(0x7bff)).toBe(65504);
    expect(float16ToNumber(0x0001)).toBe(2 ** -24);
    expect(float16ToNumber(0x03ff)).toBe(1023 * 2 ** -24);
    expect(Object.is(float16ToNumber(0x0000), 0)).toBe(true);
    expect(Object.is(float16ToNumber(0x8000), -0)).toBe(true);
    expect(float16ToNumber(0x7c00)).toBe(Infinity);
    expect(float16ToNumber(0xfc00)).toBe(-Infinity);
    expect(float16ToNumber(0x7e00)).toBeNaN();
    expect(float16ToNumber(0xfc01)).toBeNaN();
  });

  it("agrees with apache-arrow's Float16 get() on all 65536 bit patterns", () => {
    const bits = new Uint16Array(65536).map((_, i) => i);
    const vector = makeVector(makeData({ type: new Float16(), length: bits.length, data: bits }));
    const differ = [...bits].filter((b) => !Object.is(float16ToNumber(b), vector.get(b)));
    expect(differ).toEqual([]);
  });
});
